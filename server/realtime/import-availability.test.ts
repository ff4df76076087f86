import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
} from 'kysely';
import { MessageType } from 'socket.io-adapter';
import { afterAll, describe, expect, it } from 'vitest';
import { importFile } from '../catalogue/import/import-file.ts';
import { openPostgres } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { availabilityChanged, hasAvailabilityListeners } from '../reservations/availability.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson } from '../test/factories.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  type ChatClient,
} from '../test/sockets.ts';
import { heardFromOtherProcesses } from './adapter.ts';
import { NOTIFY_BUDGET_BYTES } from './chat/between-processes.ts';
import { COMMITTED_BETWEEN_PROCESSES, COMMITTED_IDS_PER_EVENT } from './chat/items.ts';
import { CLUSTER_CHANNEL_PREFIX, EMITTER_UID, serverSideEmitFromOutside } from './emitter.ts';
import { forwardImportedAvailability } from './import-availability.ts';

// `npm run import` beside running servers (decision 045, "Imports from the command line").

/** A Kysely that runs nothing: the availability listeners are keyed by its instance. */
function dummyDb() {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });
}

const ids = (n: number) => Array.from({ length: n }, () => crypto.randomUUID());

describe('an import outside the servers hands its items over in NOTIFYs', () => {
  it('sends committed ids in chunks that each fit one NOTIFY, and waits for them', async () => {
    const db = dummyDb();
    const sent: { channel: string; payload: string }[] = [];
    const forwarder = forwardImportedAvailability({
      db,
      kind: 'postgres',
      executeSql: async (_text, values) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        sent.push({ channel: values?.[0] as string, payload: values?.[1] as string });
        return { rows: [] };
      },
    });
    const touched = ids(COMMITTED_IDS_PER_EVENT * 2 + 5);
    availabilityChanged(db, touched, { committed: true });
    // A change still in its transaction is the server's to read; none happens in the CLI.
    availabilityChanged(db, crypto.randomUUID());
    expect(await forwarder.finish()).toEqual({ items: touched.length });
    expect(hasAvailabilityListeners(db)).toBe(false);

    expect(sent).toHaveLength(3);
    const chunks = sent.map(({ channel, payload }) => {
      expect(channel).toBe(`${CLUSTER_CHANNEL_PREFIX}#/`);
      // PostgreSQL's NOTIFY takes less than 8,000 bytes.
      expect(Buffer.byteLength(payload)).toBeLessThan(8_000);
      const message = JSON.parse(payload);
      expect(message).toMatchObject({
        uid: EMITTER_UID,
        nsp: '/',
        type: MessageType.SERVER_SIDE_EMIT,
      });
      const [event, chunk] = message.data.packet;
      expect(event).toBe(COMMITTED_BETWEEN_PROCESSES);
      expect(Buffer.byteLength(JSON.stringify(chunk))).toBeLessThanOrEqual(NOTIFY_BUDGET_BYTES);
      return chunk as string[];
    });
    expect(chunks.map((chunk) => chunk.length)).toEqual([
      COMMITTED_IDS_PER_EVENT,
      COMMITTED_IDS_PER_EVENT,
      5,
    ]);
    expect(chunks.flat().sort()).toEqual([...touched].sort());
  });

  it('answers a failed send instead of throwing: the import stands', async () => {
    const db = dummyDb();
    const forwarder = forwardImportedAvailability({
      db,
      kind: 'postgres',
      executeSql: () => Promise.reject(new Error('the database went away')),
    });
    availabilityChanged(db, ids(3), { committed: true });
    const outcome = await forwarder.finish();
    expect(outcome.items).toBe(0);
    expect(outcome.failed?.message).toBe('the database went away');
  });

  it('refuses a message too big for one NOTIFY rather than writing the attachments table', async () => {
    const execute = async () => ({ rows: [] });
    await expect(serverSideEmitFromOutside(execute, 'x', 'y'.repeat(8_000))).rejects.toThrow(
      /does not fit in one NOTIFY/,
    );
  });

  it('listens to nothing on PGlite, where no server runs beside the import', async () => {
    const db = dummyDb();
    const forwarder = forwardImportedAvailability({
      db,
      kind: 'pglite',
      executeSql: () => Promise.reject(new Error('not called')),
    });
    expect(hasAvailabilityListeners(db)).toBe(false);
    expect(await forwarder.finish()).toEqual({ items: 0 });
  });
});

describe.each(testDatabaseKinds())('npm run import beside a running server (%s)', (kind) => {
  let testApp: TestApp | undefined;
  let socket: ChatClient | undefined;
  let folder: string | undefined;
  afterAll(async () => {
    socket?.close();
    await testApp?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it.skipIf(kind !== 'postgres')(
    'tells a socket watching an item of the copies an import in another process added ' +
      '(PostgreSQL only: on PGlite no server runs beside the import, one process per data folder)',
    async () => {
      testApp = await createTestApp('postgres');
      const server = testApp;
      const url = await listenOnFreePort(server);
      const reader = await signedInPerson(server);
      // No copies yet: a copy made by the server would be told to the socket too.
      const item = await server.database.db
        .insertInto('items')
        .values({
          kind: 'book',
          title: `Imported Beside ${crypto.randomUUID().slice(0, 8)}`,
          authors: ['A. Writer'],
          source: 'test',
          source_id: crypto.randomUUID(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      socket = await connectChat(url, reader.client.cookieHeader(), server.config.publicUrl);
      expect(await emitAck(socket, 'watch_items', { itemIds: [item.id] })).toEqual({ ok: true });

      // The server hears NOTIFYs once its adapter's LISTEN statement is done.
      const channel = `${CLUSTER_CHANNEL_PREFIX}#/`;
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await server.database.executeSql(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND query = $1`,
          [`LISTEN "${channel}"`],
        );
        if ((rows[0] as { n: number }).n > 0) break;
        if (Date.now() > deadline) throw new Error('the server never listened');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      folder = await mkdtemp(join(tmpdir(), 'holdings-beside-'));
      const file = join(folder, 'holdings.csv');
      await writeFile(
        file,
        `item_id,barcode,location\n${item.id},IMP${crypto.randomUUID().slice(0, 8)},Main library\n`,
      );
      // The one item this socket watches.
      const heard = nextEvent(socket, 'item_availability', 10_000);

      // What `npm run import` runs, with a pool of its own as the CLI has.
      const cli = openPostgres(server.database.connectionString!);
      try {
        const forwarder = forwardImportedAvailability(cli);
        const result = await importFile(cli.db, 'holdings', file);
        expect(result.counts).toMatchObject({ inserted: 1, skipped: 0 });
        expect(await forwarder.finish()).toEqual({ items: 1 });
      } finally {
        await cli.close();
      }
      expect((await heard)[0]).toEqual({ itemId: item.id, total: 1, available: 1, queue: 0 });
      // The emitter is no process of the cluster: this server still knows itself alone.
      expect(heardFromOtherProcesses(server.app.io.of('/').adapter)).toBe(false);
    },
    60_000,
  );
});
