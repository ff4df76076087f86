import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONNECT_TIMEOUT_MS, createPool, KEEPALIVE_DELAY_MS, openDatabase } from './client.ts';
import { lockDataDir } from './data-dir-lock.ts';

describe('the embedded database folder', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-lock-'));
  });
  afterEach(async () => rm(dataDir, { recursive: true, force: true }));

  it('is opened by one process at a time and released on close', async () => {
    const handle = await openDatabase({ dataDir });
    expect(handle.kind).toBe('pglite');
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(true);
    await handle.close();
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('refuses a folder held by another live process, naming it', async () => {
    // pid 1 is always alive.
    await writeFile(path.join(dataDir, 'pglite.lock'), '1');
    await expect(openDatabase({ dataDir })).rejects.toThrow(
      /Another Digi Library process \(pid 1\)/,
    );
  });

  it('takes over a lock left by a process that died', async () => {
    await writeFile(path.join(dataDir, 'pglite.lock'), '999999999');
    const release = lockDataDir(dataDir);
    release();
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });
});

describe('PostgreSQL pools', () => {
  it('give up connecting after a time-out and keep idle connections probed', async () => {
    const pool = createPool({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    expect(pool.options).toMatchObject({
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
      keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
    });
    await pool.end();
  });
});
