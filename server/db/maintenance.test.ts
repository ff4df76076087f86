import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { addChatMessages as addMessages } from '../test/factories.ts';
import type { DatabaseHandle } from './client.ts';
import { maintainTables, SAMPLE_TARGET } from './maintenance.ts';

/** What PostgreSQL's statistics say of `table`: when it was last analyzed and vacuumed by hand. */
async function statsOf(database: DatabaseHandle, table: string) {
  const { rows } = await sql<{ analyzed: boolean; vacuumed: boolean; reltuples: number }>`
    SELECT s.last_analyze IS NOT NULL AS analyzed, s.last_vacuum IS NOT NULL AS vacuumed,
      c.reltuples
    FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.schemaname = 'public' AND s.relname = ${table}
  `.execute(database.db);
  return rows[0]!;
}

describe('maintaining tables on PGlite, which has no autovacuum', () => {
  let database: DatabaseHandle;
  beforeEach(async () => {
    database = await openTestDatabase('pglite');
  });
  afterEach(async () => {
    await database.close();
  });

  it('analyzes a table that has rows and was never analyzed, then leaves it be', async () => {
    await addMessages(database, 500);
    expect(await statsOf(database, 'chat_messages')).toMatchObject({ analyzed: false });
    const done = await maintainTables(database);
    expect(done).toContainEqual({ table: 'public.chat_messages', action: 'analyze' });
    expect(await statsOf(database, 'chat_messages')).toMatchObject({
      analyzed: true,
      reltuples: 500,
    });
    // Nothing changed since: nothing is due.
    expect(await maintainTables(database)).toEqual([]);
  });

  it("analyzes again once more than 50 rows and 10 % changed, as autovacuum's defaults", async () => {
    await addMessages(database, 1_000);
    await maintainTables(database);
    await addMessages(database, 140);
    expect(await maintainTables(database)).toEqual([]);
    await addMessages(database, 20);
    expect(await maintainTables(database)).toContainEqual({
      table: 'public.chat_messages',
      action: 'analyze',
    });
  });

  it('samples chat tables at the small target, and the catalogue at the full one', async () => {
    await addMessages(database, 2_000);
    // 300 distinct words, each in 1 % of the items: the full target keeps them all as the most
    // common words (it keeps up to 10 × target), the small one could keep 100.
    await sql`
      INSERT INTO items (kind, title, source, source_id)
      SELECT 'book', 'word' || (g % 300) || ' shared title', 'maintenance', 'm' || g
      FROM generate_series(1, 3000) g
    `.execute(database.db);
    await maintainTables(database);
    const { rows } = await sql<{ table: string; values: number | null }>`
      SELECT tablename AS table,
        coalesce(array_length(most_common_elems::text::text[], 1),
                 array_length(histogram_bounds::text::text[], 1)) AS values
      FROM pg_stats
      WHERE schemaname = 'public'
        AND (tablename, attname) IN (('chat_messages', 'id'), ('items', 'search'))
    `.execute(database.db);
    const values = Object.fromEntries(rows.map((row) => [row.table, row.values]));
    // A histogram has target + 1 bounds.
    expect(values.chat_messages).toBe(SAMPLE_TARGET + 1);
    expect(values.items).toBeGreaterThan(10 * SAMPLE_TARGET);
    // The session's target is back to the default for the requests that follow.
    const { rows: setting } = await sql<{ target: string }>`
      SELECT current_setting('default_statistics_target') AS target
    `.execute(database.db);
    expect(setting[0]!.target).toBe('100');
  });

  it('vacuums a table whose dead rows pass 50 and 20 %', async () => {
    await addMessages(database, 1_000);
    await maintainTables(database);
    await sql`DELETE FROM chat_messages WHERE id IN (
      SELECT id FROM chat_messages ORDER BY id LIMIT 300)`.execute(database.db);
    expect(await maintainTables(database)).toContainEqual({
      table: 'public.chat_messages',
      action: 'vacuum-analyze',
    });
    expect(await statsOf(database, 'chat_messages')).toMatchObject({
      vacuumed: true,
      reltuples: 700,
    });
  });
});

describe.each(testDatabaseKinds().filter((kind) => kind === 'postgres'))(
  'maintaining tables on %s',
  (kind) => {
    it('does nothing: its autovacuum does it', async () => {
      const database = await openTestDatabase(kind);
      try {
        await addMessages(database, 500);
        expect(await maintainTables(database)).toEqual([]);
      } finally {
        await database.close();
      }
    });
  },
);
