import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ITEMS } from './db/demo-data.ts';
import { createPostgresDatabase, testDatabaseKinds } from './test/databases.ts';
import { registerOn, runServerToExit, startServerProcess } from './test/process.ts';

// These tests start the real process, as `npm start` does, so they take a few seconds each.
describe('the server process on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-process-'));
  });
  afterAll(async () => rm(dataDir, { recursive: true, force: true }));

  it('migrates and seeds on first start, changes nothing on the second, and shuts down cleanly', async () => {
    const first = await startServerProcess({ DATA_DIR: dataDir });
    const health = await fetch(`${first.url}/api/health`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
    const ready = first.logs().find((line) => line.msg === 'database ready');
    expect(ready).toMatchObject({ database: 'pglite', demoRowsInserted: DEMO_ITEMS.length });
    expect((ready?.migrationsApplied as string[]).length).toBeGreaterThan(0);
    expect(await first.stop('SIGTERM')).toBe(0);
    expect(first.output()).toContain('shutdown complete');

    const second = await startServerProcess({ DATA_DIR: dataDir });
    expect(second.logs().find((line) => line.msg === 'database ready')).toMatchObject({
      migrationsApplied: [],
      demoRowsInserted: 0,
    });
    expect(await second.stop('SIGINT')).toBe(0);
    expect(second.output()).toContain('shutdown complete');
  });

  it('closes open sockets on SIGTERM instead of hanging', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir });
    const cookie = await registerOn(server);
    const socket = connectSocket(server.url, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { cookie, origin: server.url },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(await disconnected).toBeTruthy();
    socket.close();
  });

  it('logs requests without cookies, authorization headers or passwords', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir });
    await fetch(`${server.url}/api/health?probe=1`, {
      headers: { cookie: 'session=COOKIE-SECRET', authorization: 'Bearer TOKEN-SECRET' },
    });
    await fetch(`${server.url}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.example', password: 'PASSWORD-SECRET' }),
    });
    await server.stop();
    const output = server.output();
    expect(output).toContain('/api/health?probe=1');
    expect(output).not.toMatch(/COOKIE-SECRET|TOKEN-SECRET|PASSWORD-SECRET/);
  });

  it('refuses a second server on the same DATA_DIR instead of corrupting it', async () => {
    const first = await startServerProcess({ DATA_DIR: dataDir });
    try {
      const second = await runServerToExit({ DATA_DIR: dataDir, PORT: '0' });
      expect(second.code).toBe(1);
      expect(second.output).toContain(`Another Digi Library process (pid ${first.child.pid})`);
      expect(await (await fetch(`${first.url}/api/health`)).json()).toMatchObject({ status: 'ok' });
    } finally {
      expect(await first.stop()).toBe(0);
    }
  });

  it('refuses to start on a bad setting and names the variable', async () => {
    const result = await runServerToExit({
      DATA_DIR: dataDir,
      PORT: 'eighty',
      LOG_LEVEL: 'chatty',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('Invalid configuration');
    expect(result.output).toContain('PORT: must be a whole number from 0 to 65535 (got "eighty")');
    expect(result.output).toContain('LOG_LEVEL:');
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))('the server process on PostgreSQL', () => {
  it('uses DATABASE_URL, and several processes starting at once share one migrated database', async () => {
    const url = await createPostgresDatabase();
    // Start from an empty database so the processes really race to migrate it.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
    const servers = await Promise.all([
      startServerProcess({ DATABASE_URL: url, DATA_DIR: '/nonexistent' }),
      startServerProcess({ DATABASE_URL: url, DATA_DIR: '/nonexistent' }),
    ]);
    try {
      for (const server of servers) {
        expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({
          status: 'ok',
          database: 'postgres',
        });
      }
      const applied = servers.map(
        (server) =>
          (
            server.logs().find((line) => line.msg === 'database ready')
              ?.migrationsApplied as string[]
          ).length,
      );
      expect(applied.sort()).toEqual([0, applied[1]]);
      const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM items');
      expect(Number(rows[0]?.count)).toBe(DEMO_ITEMS.length);
    } finally {
      for (const server of servers) expect(await server.stop()).toBe(0);
      await client.end();
    }
  });
});
