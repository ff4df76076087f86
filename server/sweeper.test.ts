import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from './db/client.ts';
import { startSweeper } from './sweeper.ts';
import { openTestDatabase, testDatabaseKinds } from './test/databases.ts';
import { addChatMessages } from './test/factories.ts';

/** Whether `table` was ever analyzed by hand (`maintainTables`; autovacuum's runs not counted). */
async function analyzedByHand(database: DatabaseHandle, table: string): Promise<boolean> {
  const { rows } = await sql<{ analyzed: boolean }>`
    SELECT last_analyze IS NOT NULL AS analyzed FROM pg_stat_user_tables
    WHERE schemaname = 'public' AND relname = ${table}
  `.execute(database.db);
  return rows[0]!.analyzed;
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
      await addChatMessages(database, 500);
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
