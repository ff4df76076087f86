import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemCardsResponseSchema, type ItemAvailability } from '#contract/http/item-cards.ts';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setNumberedCopies } from '../catalogue/copies.ts';
import { importHoldings } from '../catalogue/import/holdings.ts';
import { onAvailabilityChange } from '../reservations/availability.ts';
import { openPostgres } from '../db/client.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  type ChatClient,
} from '../test/sockets.ts';
import { heardFromOtherProcesses } from './adapter.ts';

// The library in the conversation (issue 26, decision 045): cards of catalogue items, their live
// availability over sockets, and the room tied to an item.

let books = 0;

/** A new book with `copies` copies on the shelf; answers its id and barcodes. */
async function book(testApp: TestApp, copies: number, title?: string) {
  const row = await testApp.database.db
    .insertInto('items')
    .values({
      kind: 'book',
      title: title ?? `Card Book ${++books} ${crypto.randomUUID().slice(0, 8)}`,
      authors: ['A. Writer'],
      source: 'test',
      source_id: crypto.randomUUID(),
    })
    .returning(['id', 'title'])
    .executeTakeFirstOrThrow();
  await setNumberedCopies(testApp.database.db, row.id, copies);
  const rows = await testApp.database.db
    .selectFrom('copies')
    .select('barcode')
    .where('item_id', '=', row.id)
    .orderBy('barcode')
    .execute();
  return { id: row.id, title: row.title, barcodes: rows.map((copy) => copy.barcode) };
}

/** The next `item_availability` of `itemId` on `socket`. */
function availabilityOf(socket: ChatClient, itemId: string, timeoutMs = 5_000) {
  return new Promise<ItemAvailability>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('item_availability', listener);
      reject(new Error(`no item_availability of ${itemId} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: ItemAvailability) => {
      if (payload.itemId !== itemId) return;
      clearTimeout(timer);
      socket.off('item_availability', listener);
      resolve(payload);
    };
    socket.on('item_availability', listener);
  });
}

describe.each(testDatabaseKinds())('item cards and live availability (%s)', (kind) => {
  let testApp: TestApp;
  let url: string;
  let ada: SignedInPerson;
  let ben: SignedInPerson;
  let desk: SignedInPerson;
  const sockets: ChatClient[] = [];

  const socketOf = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    url = await listenOnFreePort(testApp);
    ada = await signedInPerson(testApp);
    ben = await signedInPerson(testApp);
    desk = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await testApp.close();
  });

  it('answers the cards of many items in one call, with their availability', async () => {
    const three = await book(testApp, 3);
    const none = await book(testApp, 0);
    const missing = crypto.randomUUID();
    const response = await ada.client.get(
      `/api/items/cards?ids=${three.id},${none.id.toUpperCase()},${missing}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const { items } = itemCardsResponseSchema.parse(response.json());
    expect(items.map((item) => item.id)).toEqual([three.id, none.id]);
    expect(items[0]).toMatchObject({
      type: 'book',
      title: three.title,
      authors: ['A. Writer'],
      availability: { itemId: three.id, total: 3, available: 3, queue: 0 },
    });
    expect(items[1]!.availability).toEqual({ itemId: none.id, total: 0, available: 0, queue: 0 });
  });

  it('refuses a malformed list in words, and guests', async () => {
    const bad = await ada.client.get('/api/items/cards?ids=not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(JSON.stringify(bad.json())).toMatch(/item id/);
    const many = Array.from({ length: 51 }, () => crypto.randomUUID()).join(',');
    expect((await ada.client.get(`/api/items/cards?ids=${many}`)).statusCode).toBe(400);
    const guest = await testApp.app.inject({ url: `/api/items/cards?ids=${crypto.randomUUID()}` });
    expect(guest.statusCode).toBe(401);
  });

  it('tells a watching socket when the desk checks a copy out, and when it comes back', async () => {
    const shelf = await book(testApp, 3);
    const socket = await socketOf(ada);
    expect(await emitAck(socket, 'watch_items', { itemIds: [shelf.id] })).toEqual({ ok: true });

    const lent = availabilityOf(socket, shelf.id);
    const checkOut = await desk.client.post('/api/desk/loans', {
      barcode: shelf.barcodes[0],
      email: ben.email,
    });
    expect(checkOut.statusCode, checkOut.body).toBe(200);
    expect(await lent).toEqual({ itemId: shelf.id, total: 3, available: 2, queue: 0 });

    const back = availabilityOf(socket, shelf.id);
    const returned = await desk.client.post('/api/desk/returns', { barcode: shelf.barcodes[0] });
    expect(returned.statusCode, returned.body).toBe(200);
    expect(await back).toEqual({ itemId: shelf.id, total: 3, available: 3, queue: 0 });
  });

  it('tells watchers once a holdings import added, moved or withdrew copies, in one call', async () => {
    const shelf = await book(testApp, 2);
    const other = await book(testApp, 1);
    const socket = await socketOf(ada);
    expect(await emitAck(socket, 'watch_items', { itemIds: [shelf.id, other.id] })).toEqual({
      ok: true,
    });
    const heard: [string, boolean][] = [];
    const stop = onAvailabilityChange(testApp.database.db, (itemId, committed) =>
      heard.push([itemId, committed]),
    );
    const file = join(await mkdtemp(join(tmpdir(), 'holdings-')), 'holdings.csv');
    const fresh = () => `IMP${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
    await writeFile(
      file,
      [
        'item_id,barcode,location,status',
        // Two new copies, one of them on loan; one withdrawn; the other book's copy moves here.
        `${shelf.id},${fresh()},Main library,`,
        `${shelf.id},${fresh()},Main library,on loan`,
        `${shelf.id},${shelf.barcodes[0]},Main library,withdrawn`,
        `${shelf.id},${other.barcodes[0]},Main library,`,
      ].join('\n'),
    );
    const shelfHeard = availabilityOf(socket, shelf.id);
    const otherHeard = availabilityOf(socket, other.id);
    try {
      const result = await importHoldings(testApp.database.db, file);
      expect(result.counts).toMatchObject({ inserted: 2, updated: 2, skipped: 0 });
      expect(await shelfHeard).toEqual({ itemId: shelf.id, total: 4, available: 3, queue: 0 });
      expect(await otherHeard).toEqual({ itemId: other.id, total: 0, available: 0, queue: 0 });
      // One call at the end, after the commit: each item once, not once per row.
      expect(heard.filter(([, committed]) => committed).sort()).toEqual(
        [
          [shelf.id, true],
          [other.id, true],
        ].sort(),
      );
    } finally {
      stop();
    }
  });

  it('counts the waiting list, and stops telling a socket that unwatched', async () => {
    const one = await book(testApp, 1);
    const socket = await socketOf(ada);
    await emitAck(socket, 'watch_items', { itemIds: [one.id] });
    const lent = availabilityOf(socket, one.id);
    await desk.client.post('/api/desk/loans', { barcode: one.barcodes[0], email: ada.email });
    expect(await lent).toMatchObject({ available: 0, total: 1 });
    const joined = availabilityOf(socket, one.id);
    const hold = await ben.client.post('/api/users/holds', { bookId: one.id });
    expect(hold.statusCode, hold.body).toBe(200);
    expect(await joined).toEqual({ itemId: one.id, total: 1, available: 0, queue: 1 });

    expect(await emitAck(socket, 'unwatch_items', { itemIds: [one.id] })).toEqual({ ok: true });
    const silent = availabilityOf(socket, one.id, 600);
    await desk.client.post('/api/desk/returns', { barcode: one.barcodes[0] });
    await expect(silent).rejects.toThrow(/no item_availability/);
  });

  it('refuses a watch list that is not item ids, in words', async () => {
    const socket = await socketOf(ada);
    expect(await emitAck(socket, 'watch_items', { itemIds: ['nope'] })).toEqual({
      ok: false,
      message: 'Each item id must be a UUID',
    });
    expect(await emitAck(socket, 'watch_items', { itemIds: [] })).toMatchObject({ ok: false });
  });

  it('opens one room per item, even when two people press at once', async () => {
    const shelf = await book(testApp, 1, `Discussed ${crypto.randomUUID().slice(0, 8)}`);
    const [first, second] = await Promise.all([
      ada.client.post(`/api/items/${shelf.id}/room`, {}),
      ben.client.post(`/api/items/${shelf.id}/room`, {}),
    ]);
    expect(first!.statusCode, first!.body).toBe(200);
    expect(second!.statusCode, second!.body).toBe(200);
    expect(first!.json().roomName).toBe(shelf.title);
    expect(second!.json().roomName).toBe(shelf.title);
    expect([first!.json().created, second!.json().created].sort()).toEqual([false, true]);
    const rooms = await testApp.database.db
      .selectFrom('chat_rooms')
      .select(['name', 'description'])
      .where('item_id', '=', shelf.id)
      .execute();
    expect(rooms).toHaveLength(1);
    expect(rooms[0]!.description).toContain(`/userprofile/openlibrary?item=${shelf.id}`);

    // The room's metadata names its item, so the room shows the item's card.
    const socket = await socketOf(ada);
    const metadata = nextEvent(socket, 'room_metadata');
    await emitAck(socket, 'join_room', { roomName: shelf.title });
    expect((await metadata)[0].itemId).toBe(shelf.id);
  });

  it('names an item room "Title (2)" when a room of that name exists', async () => {
    const title = `Same Name ${crypto.randomUUID().slice(0, 8)}`;
    const socket = await socketOf(ada);
    expect(await emitAck(socket, 'create_room', { roomName: title })).toEqual({ ok: true });
    const shelf = await book(testApp, 1, title);
    const opened = await ada.client.post(`/api/items/${shelf.id}/room`, {});
    expect(opened.json()).toEqual({ roomName: `${title} (2)`, created: true });
    const missing = await ada.client.post(`/api/items/${crypto.randomUUID()}/room`, {});
    expect(missing.statusCode).toBe(404);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))(
  'live availability across two processes on one PostgreSQL',
  () => {
    let one: TestApp;
    let two: TestApp;
    const sockets: ChatClient[] = [];
    afterAll(async () => {
      for (const socket of sockets) socket.close();
      await two?.close();
      await one?.close();
    });

    it('reaches a watcher on the other process when the desk checks a copy out', async () => {
      one = await createTestApp('postgres');
      two = await createTestApp('postgres', {
        database: openPostgres(one.database.connectionString!),
      });
      const [, urlTwo] = [await listenOnFreePort(one), await listenOnFreePort(two)];
      // The first process hears the second announce itself before it sends through the adapter.
      const deadline = Date.now() + 15_000;
      while (!heardFromOtherProcesses(one.app.io.of('/').adapter) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const reader = await signedInPerson(one);
      const borrower = await signedInPerson(one);
      const desk = await signedInPerson(one, 'librarian');
      const shelf = await book(one, 2);
      const socket = await connectChat(urlTwo, reader.client.cookieHeader(), one.config.publicUrl);
      sockets.push(socket);
      expect(await emitAck(socket, 'watch_items', { itemIds: [shelf.id] })).toEqual({ ok: true });
      const lent = availabilityOf(socket, shelf.id, 10_000);
      const checkOut = await desk.client.post('/api/desk/loans', {
        barcode: shelf.barcodes[0],
        email: borrower.email,
      });
      expect(checkOut.statusCode, checkOut.body).toBe(200);
      expect(await lent).toEqual({ itemId: shelf.id, total: 2, available: 1, queue: 0 });

      // An import on the first process: its items go over as one server-side message.
      const file = join(await mkdtemp(join(tmpdir(), 'holdings-')), 'holdings.csv');
      await writeFile(
        file,
        `item_id,barcode,location\n${shelf.id},IMP${crypto.randomUUID().slice(0, 8)},Main library\n`,
      );
      const imported = availabilityOf(socket, shelf.id, 10_000);
      await importHoldings(one.database.db, file);
      expect(await imported).toEqual({ itemId: shelf.id, total: 3, available: 2, queue: 0 });
    }, 60_000);
  },
);
