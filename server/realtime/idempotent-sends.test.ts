import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findRoom, insertMessagesIfOpen } from '../chat/store.ts';
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

/*
 * Idempotent sends (issue 19, finding 8): a message in flight when its process died was stored
 * but never acknowledged, and the client's retry stored it again. A send may carry a client-made
 * id (`clientId`); a retry with it is acknowledged with the stored message, which is neither
 * stored nor delivered again, and two sends of it at once store it once (the unique index on
 * sender and client id decides).
 */

describe.each(testDatabaseKinds())('idempotent sends on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  let listener: SignedInPerson;
  const open: ChatClient[] = [];
  let rooms = 0;

  const connect = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const join = async (socket: ChatClient, roomName: string) => {
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
    await history;
  };
  /**
   * A new room with a new sender (the message rate is per person) and a listener in it; the
   * listener counts each message content it receives.
   */
  const room = async () => {
    const roomName = `Retries ${++rooms} ${kind}`;
    const person = await signedInPerson(testApp);
    const sender = await connect(person);
    expect(await emitAck(sender, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    await join(sender, roomName);
    const hearer = await connect(listener);
    await join(hearer, roomName);
    const heard = new Map<string, number>();
    hearer.on('receive_message', (message) =>
      heard.set(message.content, (heard.get(message.content) ?? 0) + 1),
    );
    /** Everything sent to the listener before this call has arrived. */
    const settled = async () => {
      const { ok } = await emitAck(hearer, 'load_history', { roomName, before: '1' });
      expect(ok).toBe(true);
    };
    return { roomName, person, sender, heard, settled };
  };
  const stored = async (roomName: string, content: string) => {
    const { id } = (await findRoom(testApp.database.db, roomName))!;
    return testApp.database.db
      .selectFrom('chat_messages')
      .select([sql<string>`id::text`.as('id'), 'sender_id', 'client_id'])
      .where('room_id', '=', id)
      .where('content', '=', content)
      .execute();
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    url = await listenOnFreePort(testApp);
    listener = await signedInPerson(testApp);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('stores a message sent twice with the same clientId once; both acknowledgements carry it', async () => {
    const { roomName, person, sender, heard, settled } = await room();
    const clientId = randomUUID();
    const payload = { room: roomName, message: 'Is the lab open today?', clientId };
    const first = await emitAck(sender, 'send_message', payload);
    // The retry, as after a lost acknowledgement: on a new connection, the id written in capitals.
    const again = await connect(person);
    await join(again, roomName);
    const second = await emitAck(again, 'send_message', {
      ...payload,
      clientId: clientId.toUpperCase(),
    });
    expect(first).toEqual({ ok: true, id: expect.stringMatching(/^\d+$/) });
    expect(second).toEqual(first);
    const rows = await stored(roomName, payload.message);
    expect(rows).toEqual([
      { id: (first as { id: string }).id, sender_id: person.id, client_id: clientId },
    ]);
    await settled();
    expect(heard.get(payload.message)).toBe(1);
  });

  it('stores one of two sends of the same clientId at once, from one socket or two', async () => {
    const { roomName, person, sender, heard, settled } = await room();
    const other = await connect(person);
    await join(other, roomName);
    for (const [a, b] of [
      [sender, sender],
      [sender, other],
    ]) {
      const payload = {
        room: roomName,
        message: `Twice at once, from ${a === b ? 'one socket' : 'two'}`,
        clientId: randomUUID(),
      };
      const [first, second] = await Promise.all([
        emitAck(a!, 'send_message', payload),
        emitAck(b!, 'send_message', payload),
      ]);
      expect(first).toEqual({ ok: true, id: expect.stringMatching(/^\d+$/) });
      expect(second).toEqual(first);
      expect(await stored(roomName, payload.message)).toHaveLength(1);
      await settled();
      expect(heard.get(payload.message)).toBe(1);
    }
  });

  it('lets the unique index decide between concurrent statements', async () => {
    const { roomName, person } = await room();
    const { id: roomId } = (await findRoom(testApp.database.db, roomName))!;
    const message = {
      roomId,
      senderId: person.id,
      senderName: 'Racer',
      content: 'one of us wins',
      clientId: randomUUID(),
    };
    // Separate statements (on PostgreSQL, separate connections), each racing for the row.
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => insertMessagesIfOpen(testApp.database.db, [message])),
    );
    expect(answers.flat().filter(Boolean)).toHaveLength(1);
    expect(await stored(roomName, message.content)).toHaveLength(1);
  });

  it('keeps sends apart: without a clientId, by another person, and refuses an id reused for another message', async () => {
    const { roomName, sender, heard, settled } = await room();
    // The spec's payload, without an id: two sends are two messages.
    for (let copy = 0; copy < 2; copy += 1)
      expect((await emitAck(sender, 'send_message', { room: roomName, message: 'hello' })).ok).toBe(
        true,
      );
    expect(await stored(roomName, 'hello')).toHaveLength(2);

    // The same id from someone else is their own message.
    const clientId = randomUUID();
    expect(
      (await emitAck(sender, 'send_message', { room: roomName, message: 'mine', clientId })).ok,
    ).toBe(true);
    const otherPerson = await connect(listener);
    await join(otherPerson, roomName);
    expect(
      (await emitAck(otherPerson, 'send_message', { room: roomName, message: 'mine', clientId }))
        .ok,
    ).toBe(true);
    expect(await stored(roomName, 'mine')).toHaveLength(2);

    // The same id with other text is not a retry: refused, and nothing is stored.
    expect(
      await emitAck(sender, 'send_message', { room: roomName, message: 'not mine', clientId }),
    ).toEqual({ ok: false, message: 'That message id was already used for another message.' });
    expect(await stored(roomName, 'not mine')).toHaveLength(0);
    await settled();
    expect(heard.get('hello')).toBe(2);
    expect(heard.get('not mine')).toBeUndefined();
  });
});
