import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPglite,
  openPostgres,
  wrapPglite,
  type DatabaseHandle,
  type DatabaseKind,
} from './client.ts';
import { migrate, MIGRATIONS_DIR } from './migrate.ts';
import { readdir } from 'node:fs/promises';
import { createPostgresDatabase, testDatabaseKinds } from '../test/databases.ts';

/** An empty, unmigrated database of the given kind. */
async function emptyDatabase(kind: DatabaseKind): Promise<DatabaseHandle> {
  return kind === 'pglite'
    ? wrapPglite(await createPglite())
    : openPostgres(await createPostgresDatabase());
}

async function tables(handle: DatabaseHandle): Promise<string[]> {
  const { rows } = await sql<{ tablename: string }>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`.execute(
    handle.db,
  );
  return rows.map((row) => row.tablename);
}

describe.each(testDatabaseKinds())('migrations on %s', (kind) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function setUp(files: Record<string, string>) {
    const handle =
      kind === 'postgres'
        ? openPostgres(await createPostgresDatabase())
        : await emptyDatabase(kind);
    const directory = await mkdtemp(path.join(tmpdir(), 'digi-migrations-'));
    for (const [name, text] of Object.entries(files))
      await writeFile(path.join(directory, name), text);
    cleanup.push(
      () => rm(directory, { recursive: true, force: true }),
      () => handle.close(),
    );
    return { handle, directory };
  }

  it("applies the project's migrations once; a second run applies nothing", async () => {
    const handle = await emptyDatabase(kind);
    cleanup.push(() => handle.close());
    const expected = (await readdir(MIGRATIONS_DIR)).filter((file) => file.endsWith('.sql')).sort();
    if (kind === 'postgres') {
      // The test database was copied from a migrated template: every migration is recorded already.
      expect(await migrate(handle)).toEqual([]);
    } else {
      expect(await migrate(handle)).toEqual(expected);
      expect(await migrate(handle)).toEqual([]);
    }
    expect(await tables(handle)).toEqual(expect.arrayContaining(['items', 'schema_migrations']));
  });

  it('applies migrations in name order, each with its bookkeeping row', async () => {
    const { handle, directory } = await setUp({
      '20260101000002_second.sql': 'ALTER TABLE widgets ADD COLUMN colour text;',
      '20260101000001_first.sql':
        "CREATE TABLE widgets (id int PRIMARY KEY);\nCOMMENT ON TABLE widgets IS 'a; b';",
    });
    await sql`DROP TABLE IF EXISTS schema_migrations`.execute(handle.db);
    expect(await migrate(handle, directory)).toEqual([
      '20260101000001_first.sql',
      '20260101000002_second.sql',
    ]);
    expect(await migrate(handle, directory)).toEqual([]);
    const { rows } = await sql<{
      name: string;
    }>`SELECT name FROM schema_migrations ORDER BY name`.execute(handle.db);
    expect(rows.map((row) => row.name)).toEqual([
      '20260101000001_first.sql',
      '20260101000002_second.sql',
    ]);
  });

  it('rolls a failing migration back whole and records nothing for it', async () => {
    const { handle, directory } = await setUp({
      '20260101000001_good.sql': 'CREATE TABLE gadgets (id int PRIMARY KEY);',
      '20260101000002_bad.sql':
        'CREATE TABLE half_done (id int);\nSELECT * FROM table_that_does_not_exist;',
    });
    await sql`DROP TABLE IF EXISTS schema_migrations`.execute(handle.db);
    await expect(migrate(handle, directory)).rejects.toThrow(
      /Migration 20260101000002_bad.sql failed/,
    );
    const names = await tables(handle);
    expect(names).toContain('gadgets');
    expect(names).not.toContain('half_done');
    const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(
      handle.db,
    );
    expect(rows.map((row) => row.name)).toEqual(['20260101000001_good.sql']);
    // The session is usable afterwards: a fixed migration goes through.
    await writeFile(
      path.join(directory, '20260101000002_bad.sql'),
      'CREATE TABLE half_done (id int);',
    );
    expect(await migrate(handle, directory)).toEqual(['20260101000002_bad.sql']);
  });

  it('refuses a migration file that is not timestamp-named', async () => {
    const { handle, directory } = await setUp({ 'add-things.sql': 'SELECT 1;' });
    await expect(migrate(handle, directory)).rejects.toThrow(
      /YYYYMMDDHHMMSS_title.sql: add-things.sql/,
    );
  });
});
