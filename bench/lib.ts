import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  createPglite,
  openPostgres,
  wrapPglite,
  type DatabaseHandle,
} from '../server/db/client.ts';
import { migrate } from '../server/db/migrate.ts';
import { findPostgresBin, startPostgresCluster } from '../scripts/lib/postgres-cluster.ts';

/** The shared data beside the repository (see its README). */
export const SHARED_DATA = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data');

/**
 * A migrated database of each engine this machine has, with a way to drop it. Fresh unless
 * `keep` names a folder (PGlite's data is kept there and reused) and `postgresUrl` an existing
 * PostgreSQL database (used as it is): for measuring again without loading the rows again.
 */
export async function benchDatabases(
  options: {
    keep?: string | undefined;
    postgresUrl?: string | undefined;
    /** Only these engines ('PGlite', 'PostgreSQL'); all by default. */
    engines?: string[] | undefined;
  } = {},
): Promise<{ name: string; handle: DatabaseHandle; dispose(): Promise<void> }[]> {
  const result = [];
  const wanted = (name: string) => !options.engines || options.engines.includes(name);
  if (wanted('PGlite')) {
    const folder = options.keep ?? mkdtempSync(path.join(tmpdir(), 'digi-bench-'));
    const pglite = wrapPglite(await createPglite({ dataDir: path.join(folder, 'pglite') }));
    await migrate(pglite);
    result.push({
      name: 'PGlite',
      handle: pglite,
      dispose: async () => {
        await pglite.close();
        if (!options.keep) rmSync(folder, { recursive: true, force: true });
      },
    });
  }
  const bin = findPostgresBin();
  if (!wanted('PostgreSQL')) {
    // Not asked for.
  } else if (options.postgresUrl) {
    const handle = openPostgres(options.postgresUrl);
    await migrate(handle);
    result.push({ name: 'PostgreSQL', handle, dispose: () => handle.close() });
  } else if (bin) {
    const cluster = await startPostgresCluster(bin);
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query('CREATE DATABASE bench');
    await admin.end();
    const handle = openPostgres(cluster.url.replace(/\/postgres$/, '/bench'));
    await migrate(handle);
    result.push({
      name: 'PostgreSQL',
      handle,
      dispose: async () => {
        await handle.close();
        cluster.stop();
      },
    });
  } else {
    console.log(
      'PostgreSQL is not installed (apt-get install -y postgresql): measuring PGlite only.',
    );
  }
  return result;
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    NaN
  );
}

/** Times `fn` `runs` times after `warmups` untimed runs; milliseconds per run. */
export async function timeRuns(
  fn: () => Promise<unknown>,
  runs: number,
  warmups = 3,
): Promise<number[]> {
  for (let index = 0; index < warmups; index += 1) await fn();
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** A number with two decimals for tables. */
export const ms = (value: number) => value.toFixed(2);
