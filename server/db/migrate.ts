import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareJobQueue } from '../jobs/queue.ts';
import type { DatabaseHandle } from './client.ts';
import { prepareVectorSearch } from './vector.ts';

/** The folder of plain `.sql` migrations, named `YYYYMMDDHHMMSS_title.sql`. */
export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

const MIGRATION_NAME = /^\d{14}_[a-z0-9-]+\.sql$/;

// Any fixed number: it only has to be the same in every process sharing one PostgreSQL.
const MIGRATION_LOCK_ID = 7_202_611;

/**
 * Applies every migration not yet applied, in name order, each in its own transaction together
 * with its bookkeeping row. On PostgreSQL an advisory lock makes concurrent starts of several
 * processes wait for each other instead of racing. Then brings the job queue's own tables to
 * its version (`prepareJobQueue`) and makes search by meaning ready where pgvector is installed
 * (`prepareVectorSearch`, which notes on `handle.searchByMeaning` whether it is on). Returns the
 * names it applied.
 */
export async function migrate(
  handle: DatabaseHandle,
  directory = MIGRATIONS_DIR,
): Promise<string[]> {
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  const misnamed = files.filter((file) => !MIGRATION_NAME.test(file));
  if (misnamed.length > 0) {
    throw new Error(
      `Migration files must be named YYYYMMDDHHMMSS_title.sql: ${misnamed.join(', ')}`,
    );
  }

  const applied = await handle.withSession(async (session) => {
    const postgres = handle.kind === 'postgres';
    if (postgres) await session.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await session.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        name text PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
      const rows = await session.query<{ name: string }>('SELECT name FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.name));
      const done: string[] = [];
      for (const file of files) {
        if (applied.has(file)) continue;
        const script = await readFile(path.join(directory, file), 'utf8');
        const record = `INSERT INTO schema_migrations (name) VALUES ('${file}')`;
        try {
          await session.exec(`BEGIN;\n${script}\n;${record};\nCOMMIT;`);
        } catch (error) {
          await session.exec('ROLLBACK').catch(() => {});
          throw new Error(`Migration ${file} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        done.push(file);
      }
      return done;
    } finally {
      if (postgres) await session.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  });
  await prepareJobQueue(handle);
  await prepareVectorSearch(handle);
  return applied;
}
