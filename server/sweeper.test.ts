import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from './db/client.ts';
import { startSweeper } from './sweeper.ts';
import { openTestDatabase, testDatabaseKinds } from './test/databases.ts';

/** Whether `table` was ever analyzed by hand (`maintainTables`; autovacuum's runs not counted). */
async function analyzedByHand(database: DatabaseHandle, table: string): Promise<boolean> {
  const { rows } = await sql<{ analyzed: boolean }>`
    SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables
    WHERE schemaname = 'public' AND relname = ${table}
  `.execute(database.db);
  return rows[0]!.analyzed;
}

/** 500 messages in a new room: past autovacuum's thresholds for a never-analyzed table. */
async function addMessages(database: DatabaseHandle) {
  await sql`INSERT INTO users (id, name, email) VALUES ('sweeper', 'S', 's@example.test')
    ON CONFLICT DO NOTHING`.execute(database.db);
  const { rows } = await sql<{ id: string }>`
    INSERT INTO chat_rooms (name, creator_id, creator_name)
    VALUES (${`room ${crypto.randomUUID()}`}, 'sweeper', 'S') RETURNING id
  `.execute(database.db);
  await sql`
    INSERT INTO chat_messages (room_id, sender_name, content)
    SELECT ${rows[0]!.id}, 'S', 'hello ' || g FROM generate_series(1, 500) g
  `.execute(database.db);
}

describe.each(testDatabaseKinds())('the sweeper on %s', (kind) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it(
    kind === 'pglite'
      ? 'analyzes a grown table on its own timer, as autovacuum would'
      : 'leaves the tables to autovacuum',
    async () => {
      const database = await openTestDatabase(kind);
      const app = Fastify();
      close = async () => {
        await app.close();
        await database.close();
      };
      startSweeper(app, { database, now: () => new Date(), maintenanceIntervalMs: 50 });
      await app.ready();
      await addMessages(database);
      if (kind === 'pglite') {
        await vi.waitFor(
          async () => expect(await analyzedByHand(database, 'chat_messages')).toBe(true),
          {
            timeout: 5_000,
            interval: 50,
          },
        );
      } else {
        // Ten of its intervals: the timer does not run here at all.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await analyzedByHand(database, 'chat_messages')).toBe(false);
      }
    },
  );
});
