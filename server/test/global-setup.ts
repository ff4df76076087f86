import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createPglite, openPostgres, wrapPglite } from '../db/client.ts';
import { migrate } from '../db/migrate.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A tarball of a migrated PGlite data directory; each test database starts from it. */
    pgliteDump: string;
    /** Name of a migrated PostgreSQL template database, when TEST_DATABASE_URL is set. */
    postgresTemplate: string | null;
  }
}

/**
 * Migrates one database of each kind once for the whole run, so every test file starts from a
 * copy in well under a second instead of running initdb and the migrations again.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const folder = await mkdtemp(path.join(tmpdir(), 'digi-test-'));
  // Everything the tests and the processes they start write to the temporary folder goes under
  // this run's own folder (Node's tmpdir() reads TMPDIR, and the test workers start after this),
  // which the teardown removes whole: no test can leave a folder behind.
  const previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  // A private PostgreSQL cluster made inside it runs as the postgres user, who must pass through.
  await chmod(folder, 0o711);
  const dumpFile = path.join(folder, 'pglite-migrated.tar.gz');
  const pglite = await createPglite();
  const handle = wrapPglite(pglite);
  await migrate(handle);
  const dump = await pglite.dumpDataDir('gzip');
  await writeFile(dumpFile, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteDump', dumpFile);

  let template: string | null = null;
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    template = `digi_template_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${template}`);
    await admin.query(`CREATE DATABASE ${template}`);
    await admin.end();
    const templateHandle = openPostgres(withDatabase(url, template));
    await migrate(templateHandle);
    await templateHandle.close();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    await rm(folder, { recursive: true, force: true });
    if (url && template) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'digi_test_%' OR datname = $1`,
        [template],
      );
      for (const { datname } of rows)
        await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      await admin.end();
    }
  };
}

/** The same server URL pointing at another database. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
