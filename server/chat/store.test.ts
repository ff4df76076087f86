import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import {
  createMessageWriter,
  createRoom,
  deleteRoom,
  insertMessagesIfOpen,
  roomHistory,
  setRestricted,
  type NewMessage,
} from './store.ts';

describe.each(testDatabaseKinds())('storing chat messages on %s', (kind) => {
  let database: DatabaseHandle;
  let open: string;
  let restricted: string;
  let gone: string;

  const message = (roomId: string, content: string, senderId = 'u-1'): NewMessage => ({
    roomId,
    senderId,
    senderName: senderId === 'u-1' ? 'Ada' : 'Grace',
    content,
  });

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    for (const [id, name] of [
      ['u-1', 'Ada'],
      ['u-2', 'Grace'],
    ]) {
      await sql`INSERT INTO users (id, name, email) VALUES (${id}, ${name}, ${`${id}@example.edu`})`.execute(
        database.db,
      );
    }
    const room = async (name: string) =>
      (await createRoom(database.db, {
        name,
        description: '',
        creatorId: 'u-1',
        creatorName: 'Ada',
      }))!.id;
    open = await room('Open');
    restricted = await room('Restricted');
    gone = await room('Gone');
    await setRestricted(database.db, restricted, true);
    await deleteRoom(database.db, gone);
  });
  afterAll(async () => database.close());

  it('writes many messages in one statement, each answer in its place', async () => {
    const rows = await insertMessagesIfOpen(database.db, [
      message(open, 'first'),
      message(restricted, 'held back'),
      message(open, 'same words'),
      message(gone, 'nowhere'),
      message(open, 'same words'),
      message(open, 'from Grace', 'u-2'),
    ]);
    expect(rows.map((row) => row?.content)).toEqual([
      'first',
      undefined,
      'same words',
      undefined,
      'same words',
      'from Grace',
    ]);
    expect(rows[5]).toMatchObject({ sender_id: 'u-2', sender_name: 'Grace', is_system: false });
    // Two identical messages are two rows, the earlier with the lower id; ids follow the order.
    const ids = rows.filter((row) => row !== undefined).map((row) => BigInt(row.id));
    expect(new Set(ids).size).toBe(4);
    expect([...ids].sort((a, b) => (a < b ? -1 : 1))).toEqual(ids);
    const { messages } = await roomHistory(database.db, open);
    expect(messages.slice(-4).map((row) => row.content)).toEqual([
      'first',
      'same words',
      'same words',
      'from Grace',
    ]);
  });

  it('gathers the messages that arrive during a write into the next one, in order', async () => {
    const writer = createMessageWriter(database.db, { maxBatch: 8 });
    const settled: string[] = [];
    const writes = Array.from({ length: 30 }, (_, index) =>
      writer.write(message(open, `burst ${index}`)).then((row) => {
        settled.push(row!.content);
        return row!;
      }),
    );
    const rows = await Promise.all(writes);
    // Settled (and so broadcast) in the order of their ids, which is the order they came in.
    expect(settled).toEqual(rows.map((row) => row.content));
    expect(rows.map((row) => row.content)).toEqual(writes.map((_, index) => `burst ${index}`));
    const ids = rows.map((row) => BigInt(row.id));
    expect(ids.every((id, index) => index === 0 || id > ids[index - 1]!)).toBe(true);
  });

  it('answers undefined for a closed room, and a refused row does not fail the others', async () => {
    const writer = createMessageWriter(database.db);
    const results = await Promise.allSettled([
      writer.write(message(open, 'kept 1')),
      writer.write(message(open, 'no such person', 'u-404')),
      writer.write(message(restricted, 'held back')),
      writer.write(message(open, 'kept 2')),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { content: 'kept 1' } });
    expect(results[1]).toMatchObject({ status: 'rejected' });
    expect(results[2]).toEqual({ status: 'fulfilled', value: undefined });
    expect(results[3]).toMatchObject({ status: 'fulfilled', value: { content: 'kept 2' } });
  });
});
