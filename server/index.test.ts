import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CHAT_ROOMS, DEMO_ITEMS, DEMO_ROW_COUNT } from './db/demo-data.ts';
import { SEARCH_BY_MEANING_TURNED_OFF, searchByMeaningWarning } from './db/vector.ts';
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
    expect(await health.json()).toEqual({
      status: 'ok',
      database: 'pglite',
      // The demo library is being embedded in the background meanwhile.
      searchByMeaning: { available: true, embedded: expect.any(Number), total: expect.any(Number) },
    });
    const ready = first.logs().find((line) => line.msg === 'database ready');
    expect(ready).toMatchObject({ database: 'pglite', demoRowsInserted: DEMO_ROW_COUNT });
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

  // A first start creates the database (initdb) and migrates it: slow on a busy machine.
  it('lets exactly one of two servers started at once on a fresh DATA_DIR use it', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'digi-race-'));
    const started = await Promise.allSettled([
      startServerProcess({ DATA_DIR: fresh }),
      startServerProcess({ DATA_DIR: fresh }),
    ]);
    try {
      const serving = started.flatMap((result) =>
        result.status === 'fulfilled' ? [result.value] : [],
      );
      expect(serving).toHaveLength(1);
      const winner = serving[0]!;
      expect(await (await fetch(`${winner.url}/api/health`)).json()).toEqual({
        status: 'ok',
        database: 'pglite',
        searchByMeaning: {
          available: true,
          embedded: expect.any(Number),
          total: expect.any(Number),
        },
      });
      const refused = started.find((result) => result.status === 'rejected');
      const message = String((refused as PromiseRejectedResult).reason);
      expect(message).toContain('server exited with 1 before listening');
      expect(message).toContain(
        `Another Digi Library process (pid ${winner.child.pid}) is using the database in ${fresh}. Stop it first, or set DATA_DIR to another folder.`,
      );
    } finally {
      for (const result of started)
        if (result.status === 'fulfilled') expect(await result.value.stop()).toBe(0);
      await rm(fresh, { recursive: true, force: true });
    }
  }, 90_000);

  it('inserts no demo data with DEMO_DATA=false', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'digi-no-demo-'));
    try {
      const server = await startServerProcess({ DATA_DIR: fresh, DEMO_DATA: 'false' });
      expect(server.logs().find((line) => line.msg === 'database ready')).toMatchObject({
        demoRowsInserted: 0,
      });
      expect(await server.stop()).toBe(0);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 90_000);

  it('with SEMANTIC_SEARCH=false says so at start-up and in health, and loads no model', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'digi-no-meaning-'));
    try {
      // With the demo catalogue, which a server with search by meaning starts embedding at once.
      const server = await startServerProcess({ DATA_DIR: fresh, SEMANTIC_SEARCH: 'false' });
      expect(await (await fetch(`${server.url}/api/health`)).json()).toEqual({
        status: 'ok',
        database: 'pglite',
        searchByMeaning: SEARCH_BY_MEANING_TURNED_OFF,
      });
      expect(server.logs()).toContainEqual(
        expect.objectContaining({
          level: 40,
          msg: searchByMeaningWarning(SEARCH_BY_MEANING_TURNED_OFF),
        }),
      );
      // Long enough for the embedding job to have started and loaded the model, had it been queued.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const messages = server.logs().map((line) => line.msg);
      expect(messages).not.toContain('embedding model loaded');
      expect(server.logs().filter((line) => line.kind === 'embed-items')).toEqual([]);
      expect(await server.stop()).toBe(0);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 90_000);

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
        // Whether search by meaning is on depends on pgvector here: server/db/vector.test.ts.
        expect(await (await fetch(`${server.url}/api/health`)).json()).toMatchObject({
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
      // Both seeded at once: each demo room and its conversation went in once.
      const chat = await client.query<{ rooms: string; messages: string }>(
        'SELECT (SELECT count(*) FROM chat_rooms) AS rooms, (SELECT count(*) FROM chat_messages) AS messages',
      );
      expect(chat.rows[0]).toEqual({
        rooms: String(DEMO_CHAT_ROOMS.length),
        messages: String(DEMO_ROW_COUNT - DEMO_ITEMS.length - DEMO_CHAT_ROOMS.length),
      });
    } finally {
      for (const server of servers) expect(await server.stop()).toBe(0);
      await client.end();
    }
  });
});
