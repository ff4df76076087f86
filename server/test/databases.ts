import { randomBytes } from 'node:crypto';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import {
  createPglite,
  openPostgres,
  wrapPglite,
  type DatabaseHandle,
  type DatabaseKind,
} from '../db/client.ts';
import { migrate, MIGRATIONS_DIR } from '../db/migrate.ts';
import { prepareVectorSearch } from '../db/vector.ts';
import { withDatabase } from './global-setup.ts';

/**
 * The database engines this run tests against: PGlite always, PostgreSQL when the test runner
 * started one (TEST_DATABASE_URL). `npm test` fails in CI when PostgreSQL is missing, so CI always
 * runs both.
 */
export function testDatabaseKinds(): DatabaseKind[] {
  return inject('postgresTemplate') ? ['pglite', 'postgres'] : ['pglite'];
}

/** The admin connection string of the test PostgreSQL server, when there is one. */
export function testPostgresUrl(): string | undefined {
  return process.env.TEST_DATABASE_URL;
}

/** Creates a fresh PostgreSQL database from the migrated template and returns its URL. */
export async function createPostgresDatabase(): Promise<string> {
  const url = testPostgresUrl();
  const template = inject('postgresTemplate');
  if (!url || !template)
    throw new Error('No test PostgreSQL server: run the tests through `npm test`.');
  const name = `digi_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return withDatabase(url, name);
}

/**
 * A fresh, migrated, empty database of the given kind, private to the caller. Its
 * `searchByMeaning` is read as the server's start-up reads it (one statement: the copy holds the
 * extension and index already wherever the migrated original got them).
 */
export async function openTestDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  const handle =
    kind === 'postgres'
      ? openPostgres(await createPostgresDatabase())
      : wrapPglite(
          await createPglite({ loadDataDir: new Blob([await readFile(inject('pgliteDump'))]) }),
        );
  await prepareVectorSearch(handle);
  return handle;
}

/**
 * A PGlite database migrated up to `migration` but not through it, for a test of the data change
 * it makes: put rows in `handle`, then `applyIt()` runs that one migration. (Only PGlite: the
 * PostgreSQL test databases are copies of a fully migrated one.)
 */
export async function pgliteMigratedBefore(migration: string): Promise<{
  handle: DatabaseHandle;
  applyIt(): Promise<string[]>;
  close(): Promise<void>;
}> {
  const handle = wrapPglite(await createPglite());
  const folder = await mkdtemp(path.join(tmpdir(), 'digi-migration-'));
  const earlier = (await readdir(MIGRATIONS_DIR)).filter(
    (file) => file.endsWith('.sql') && file < migration,
  );
  for (const file of earlier)
    await copyFile(path.join(MIGRATIONS_DIR, file), path.join(folder, file));
  await migrate(handle, folder);
  return {
    handle,
    async applyIt() {
      await copyFile(path.join(MIGRATIONS_DIR, migration), path.join(folder, migration));
      return migrate(handle, folder);
    },
    async close() {
      await handle.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}
