import { afterEach, describe, expect, it } from 'vitest';
import { createModerator } from '#contract/moderation.ts';
import { roomSummarySchema } from '#contract/socket/chat.ts';
import { createRoom, deleteRoom, listRooms } from '../chat/store.ts';
import { presentRoom } from '../presenters/chat.ts';
import type { DatabaseHandle } from './client.ts';
import { DEMO_CHAT_ROOMS, DEMO_ITEMS, DEMO_ROW_COUNT, demoHoldings } from './demo-data.ts';
import { DEMO_ACCOUNT, DEMO_SOURCE, seedDemoData } from './seed.ts';
import { createTestApp } from '../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { TestClient } from '../test/http.ts';

const chatMessageCount = DEMO_CHAT_ROOMS.reduce((sum, room) => sum + room.messages.length, 0);

describe.each(testDatabaseKinds())('demo data on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => handle?.close());

  /** Every room with its messages, oldest first, as the seed's tests compare them. */
  const forum = async () => {
    const db = handle!.db;
    const rooms = await db.selectFrom('chat_rooms').selectAll().orderBy('created_at').execute();
    return Promise.all(
      rooms.map(async (room) => ({
        ...room,
        messages: await db
          .selectFrom('chat_messages')
          .selectAll()
          .where('room_id', '=', room.id)
          .orderBy('id')
          .execute(),
      })),
    );
  };

  it('inserts the demo catalogue once; a second run changes nothing', async () => {
    handle = await openTestDatabase(kind);
    expect(await seedDemoData(handle.db)).toBe(DEMO_ROW_COUNT);
    expect(DEMO_ROW_COUNT).toBe(DEMO_ITEMS.length + DEMO_CHAT_ROOMS.length + chatMessageCount);
    const before = await handle.db.selectFrom('items').selectAll().orderBy('source_id').execute();
    expect(before).toHaveLength(DEMO_ITEMS.length);
    expect(new Set(before.map((item) => item.kind))).toEqual(new Set(['book', 'paper', 'course']));

    const copiesBefore = await handle.db.selectFrom('copies').selectAll().orderBy('id').execute();

    expect(await seedDemoData(handle.db)).toBe(0);
    const after = await handle.db.selectFrom('items').selectAll().orderBy('source_id').execute();
    expect(after).toEqual(before);
    expect(await handle.db.selectFrom('copies').selectAll().orderBy('id').execute()).toEqual(
      copiesBefore,
    );
  });

  it('gives each demo book the copies its holdings list, by location and status', async () => {
    handle = await openTestDatabase(kind);
    await seedDemoData(handle.db);
    const rows = await handle.db
      .selectFrom('copies')
      .innerJoin('items', 'items.id', 'copies.item_id')
      .select(['items.source_id', 'copies.location', 'copies.status', 'copies.barcode'])
      .execute();
    const count = (list: { source_id: string; location: string; status: string }[]) => {
      const counts: Record<string, number> = {};
      for (const { source_id, location, status } of list) {
        const key = `${source_id} | ${location} | ${status}`;
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    };
    const expected = DEMO_ITEMS.flatMap((item) =>
      demoHoldings(item).flatMap((holding) => {
        const row = (status: string) => ({
          source_id: item.source_id,
          location: holding.location ?? 'Main library',
          status,
        });
        const onLoan = holding.unavailable ?? 0;
        const inRepair = holding.inRepair ?? 0;
        return [
          ...Array.from({ length: holding.copies - onLoan - inRepair }, () => row('available')),
          ...Array.from({ length: onLoan }, () => row('on_loan')),
          ...Array.from({ length: inRepair }, () => row('in_repair')),
        ];
      }),
    );
    expect(count(rows)).toEqual(count(expected));
    expect(new Set(rows.map((row) => row.barcode)).size).toBe(rows.length);
    // The items' counts follow the rows: a handful of books have no copy to lend at all.
    const books = await handle.db
      .selectFrom('items')
      .select(['source_id', 'copies', 'copies_unavailable'])
      .where('kind', '=', 'book')
      .execute();
    const lent = books.filter((book) => book.copies > 0);
    expect(lent.length).toBeGreaterThanOrEqual(60);
    expect(lent.filter((book) => book.copies_unavailable === book.copies).length).toBeGreaterThan(
      3,
    );
    expect(new Set(rows.map((row) => row.location)).size).toBeGreaterThanOrEqual(4);
  });

  it('writes a demo catalogue worth exploring, every invented item saying it is a demo', () => {
    expect(DEMO_ITEMS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(DEMO_ITEMS.map((item) => item.source_id)).size).toBe(DEMO_ITEMS.length);
    for (const item of DEMO_ITEMS) {
      expect(item.source_id.startsWith(`${item.kind}-`), item.source_id).toBe(true);
      expect(item.description, item.source_id).toBeTruthy();
      // No invented ISBNs.
      expect(item.isbn, item.source_id).toBeUndefined();
      if (item.kind === 'paper')
        expect(item.description, item.source_id).toMatch(/^Demo paper written for Digi Library: /);
      if (item.kind === 'course')
        expect(item.description, item.source_id).toMatch(
          /^Demo course material written for Digi Library: /,
        );
      if (item.kind !== 'book') expect(item.holdings, item.source_id).toBeUndefined();
      for (const holding of demoHoldings(item)) {
        expect(holding.copies, item.source_id).toBeGreaterThan(0);
        expect(
          (holding.unavailable ?? 0) + (holding.inRepair ?? 0),
          item.source_id,
        ).toBeLessThanOrEqual(holding.copies);
      }
    }
  });

  it('leaves an edited demo row as the librarian left it', async () => {
    handle = await openTestDatabase(kind);
    await seedDemoData(handle.db);
    await handle.db
      .updateTable('items')
      .set({ title: 'Pride and Prejudice (annotated)' })
      .where('source', '=', DEMO_SOURCE)
      .where('source_id', '=', 'book-pride-and-prejudice')
      .execute();
    await seedDemoData(handle.db);
    const row = await handle.db
      .selectFrom('items')
      .select('title')
      .where('source_id', '=', 'book-pride-and-prejudice')
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('Pride and Prejudice (annotated)');
  });

  it('has no demo rooms, account or messages when it was not seeded (DEMO_DATA=false)', async () => {
    handle = await openTestDatabase(kind);
    expect(await forum()).toEqual([]);
    expect(await handle.db.selectFrom('users').select('id').execute()).toEqual([]);
    expect(await handle.db.selectFrom('demo_seeds').select('key').execute()).toEqual([]);
  });

  it('fills the forum once with demo rooms and their conversations, marked as demo', async () => {
    handle = await openTestDatabase(kind);
    const now = new Date('2026-11-25T12:00:00Z');
    await seedDemoData(handle.db, now);
    const rooms = await forum();
    expect(rooms.map((room) => room.name)).toEqual(DEMO_CHAT_ROOMS.map((room) => room.name));
    for (const [index, room] of rooms.entries()) {
      const demo = DEMO_CHAT_ROOMS[index]!;
      expect(room).toMatchObject({
        is_demo: true,
        creator_id: DEMO_ACCOUNT.id,
        creator_name: demo.creatorName,
        abuse_detected: false,
      });
      expect(room.description).toMatch(/^Demo room\b/);
      expect(room.created_at.getTime()).toBeLessThan(now.getTime());
      expect(room.messages.map((message) => [message.sender_name, message.content])).toEqual(
        demo.messages.map((message) => [message.sender, message.content]),
      );
      // In the order they were written, and in the past.
      const times = room.messages.map((message) => message.created_at.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(times.at(-1)!).toBeLessThan(now.getTime());
      for (const message of room.messages)
        expect(message).toMatchObject({ sender_id: DEMO_ACCOUNT.id, is_system: false });
    }
    // The room list marks them.
    const listed = (await listRooms(handle.db, now)).map(presentRoom);
    expect(listed.map((room) => roomSummarySchema.parse(room).isDemo)).toEqual(
      DEMO_CHAT_ROOMS.map(() => true),
    );

    expect(await seedDemoData(handle.db, new Date())).toBe(0);
    expect(await forum()).toEqual(rooms);
  });

  it('owns the demo rooms by an account nobody can sign in to', async () => {
    const testApp = await createTestApp(kind);
    try {
      const db = testApp.database.db;
      await seedDemoData(db);
      const account = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', DEMO_ACCOUNT.id)
        .executeTakeFirstOrThrow();
      expect(account).toMatchObject({ email: DEMO_ACCOUNT.email, profile_completed: false });
      // A domain that never receives mail: no reset link reaches anybody.
      expect(account.email).toMatch(/\.invalid$/);
      // No password, no provider identity.
      expect(await db.selectFrom('accounts').selectAll().execute()).toEqual([]);
      const client = new TestClient(testApp.app, testApp.config.publicUrl);
      for (const password of ['', 'password', 'demo']) {
        const response = await client.post('/api/auth/sign-in/email', {
          email: DEMO_ACCOUNT.email,
          password,
        });
        expect(response.statusCode, password).toBeGreaterThanOrEqual(400);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      expect(
        (await client.post('/api/users/login', { email: DEMO_ACCOUNT.email, password: 'demo' }))
          .statusCode,
      ).toBe(401);
      expect(await db.selectFrom('sessions').selectAll().execute()).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  it('writes demo messages the chat’s own abuse check lets through', () => {
    const moderator = createModerator();
    for (const room of DEMO_CHAT_ROOMS) {
      expect(moderator.isAbusive(room.name), room.name).toBe(false);
      expect(moderator.isAbusive(room.description), room.description).toBe(false);
      for (const message of room.messages)
        expect(moderator.isAbusive(message.content), message.content).toBe(false);
    }
  });

  it('does not bring back a demo room that was deleted or renamed', async () => {
    handle = await openTestDatabase(kind);
    await seedDemoData(handle.db);
    const [deleted, renamed] = await forum();
    await deleteRoom(handle.db, deleted!.id);
    await handle.db
      .updateTable('chat_rooms')
      .set({ name: 'Frankenstein readers' })
      .where('id', '=', renamed!.id)
      .execute();
    const before = await forum();

    expect(await seedDemoData(handle.db)).toBe(0);
    expect(await forum()).toEqual(before);
    const names = before.map((room) => room.name);
    expect(names).not.toContain(deleted!.name);
    expect(names).not.toContain(renamed!.name);
    expect(names).toContain('Frankenstein readers');
  });

  it('leaves a room a person already made under a demo room’s name alone', async () => {
    handle = await openTestDatabase(kind);
    await handle.db
      .insertInto('users')
      .values({ id: 'person-1', name: 'Ada Lovelace', email: 'ada@example.edu' })
      .execute();
    const [taken, ...others] = DEMO_CHAT_ROOMS;
    const theirs = await createRoom(handle.db, {
      name: taken!.name.toUpperCase(),
      description: 'Our own room',
      creatorId: 'person-1',
      creatorName: 'Ada',
    });

    const inserted = await seedDemoData(handle.db);
    expect(inserted).toBe(
      DEMO_ITEMS.length + others.reduce((sum, room) => sum + 1 + room.messages.length, 0),
    );
    const rooms = await forum();
    const kept = rooms.find((room) => room.id === theirs!.id);
    expect(kept).toMatchObject({ is_demo: false, description: 'Our own room', messages: [] });
    expect(rooms.filter((room) => room.is_demo).map((room) => room.name)).toEqual(
      others.map((room) => room.name),
    );
  });
});
