import { beforeAll, describe, expect, it } from 'vitest';
import {
  TYPING_EXPIRE_MS,
  type PresenceChanged,
  type TypingChanged,
} from '#contract/socket/chat.ts';
import { MODERATION_BUDGET_LIFTED } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import { emitAck, nextEvent, twoProcessChat, type ChatClient } from '../test/sockets.ts';

/*
 * Typing, presence and ending a mute early (issue 26, decision 044), on both engines and, on
 * PostgreSQL, across two processes on one database: typing is coalesced per room and crosses
 * processes as server-side messages, presence is read from `chat_presence` and broadcast through
 * the adapter, and a mute ended early lets the person post again on every process.
 */

/** Resolves with the first `event` payload that `predicate` accepts (`timeoutMs` at most). */
function eventWhere<T>(
  socket: ChatClient,
  event: 'typing_changed' | 'presence_changed',
  predicate: (payload: T) => boolean,
  timeoutMs = 6_000,
): Promise<{ payload: T; seen: T[] }> {
  const seen: T[] = [];
  const on = socket as unknown as {
    on(name: string, fn: (payload: T) => void): void;
    off(name: string, fn: (payload: T) => void): void;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      on.off(event, listener);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms: ${JSON.stringify(seen)}`));
    }, timeoutMs);
    const listener = (payload: T) => {
      seen.push(payload);
      if (!predicate(payload)) return;
      clearTimeout(timer);
      on.off(event, listener);
      resolve({ payload, seen });
    };
    on.on(event, listener);
  });
}

describe.each(testDatabaseKinds())('typing, presence and ending a mute early on %s', (kind) => {
  // Live events cross processes through the Postgres adapter only (PGlite: one process).
  const chat = twoProcessChat(kind, { socketBudgets: MODERATION_BUDGET_LIFTED });
  const { connect, join } = chat;
  let librarian: SignedInPerson;
  let rooms = 0;

  const newRoom = async (creator: ChatClient) => {
    const roomName = `Presence ${++rooms} ${kind}`;
    expect(await emitAck(creator, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    return roomName;
  };

  beforeAll(async () => {
    librarian = await signedInPerson(chat.app, 'librarian');
  });

  it('shows who is typing to the others in the room, coalesced, and clears on stop', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const bo = await signedInPerson(chat.app, 'student', { firstName: 'Bo' });
    const adaSocket = await connect(ada);
    const boSocket = await connect(bo, chat.otherUrl);
    const roomName = await newRoom(adaSocket);
    await join(adaSocket, roomName);
    await join(boSocket, roomName);

    const typing = eventWhere<TypingChanged>(boSocket, 'typing_changed', (p) =>
      p.names.includes('Ada'),
    );
    expect(await emitAck(adaSocket, 'typing', { roomName })).toEqual({ ok: true });
    const { payload } = await typing;
    expect(payload).toEqual({ roomName, names: ['Ada'], userIds: [ada.id], others: 0 });

    // More than one a second from a socket is dropped without a refusal.
    expect(await emitAck(adaSocket, 'typing', { roomName })).toEqual({ ok: true });

    const stopped = eventWhere<TypingChanged>(
      boSocket,
      'typing_changed',
      (p) => p.names.length === 0,
    );
    expect(await emitAck(adaSocket, 'typing', { roomName, typing: false })).toEqual({ ok: true });
    expect((await stopped).payload).toEqual({ roomName, names: [], userIds: [], others: 0 });
  });

  it('sends a room of many typists one list a second, with the first names and a count', async () => {
    const watcher = await signedInPerson(chat.app, 'student', { firstName: 'Watcher' });
    const watcherSocket = await connect(watcher, chat.otherUrl);
    const roomName = await newRoom(watcherSocket);
    await join(watcherSocket, roomName);
    const typists: ChatClient[] = [];
    for (const name of ['Ann', 'Ben', 'Cat', 'Dan', 'Eve', 'Fay']) {
      const person = await signedInPerson(chat.app, 'student', { firstName: name });
      const socket = await connect(person);
      await join(socket, roomName);
      typists.push(socket);
    }
    const started = Date.now();
    const all = eventWhere<TypingChanged>(
      watcherSocket,
      'typing_changed',
      (p) => p.names.length === 3 && p.others === 3,
    );
    await Promise.all(typists.map((socket) => emitAck(socket, 'typing', { roomName })));
    const { payload, seen } = await all;
    expect(payload.names).toEqual(['Ann', 'Ben', 'Cat'].filter((n) => payload.names.includes(n)));
    // Six typists, yet at most one list per second (plus the first, sent at once).
    const seconds = (Date.now() - started) / 1000;
    expect(seen.length).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });

  it('refuses typing in a room the socket has not joined, in words', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const socket = await connect(ada);
    const roomName = await newRoom(socket);
    expect(await emitAck(socket, 'typing', { roomName })).toEqual({
      ok: false,
      message: 'Join the room before typing in it.',
    });
    expect(await emitAck(socket, 'typing', { roomName: '' })).toMatchObject({ ok: false });
  });

  it('tells the room who is here, on every process, as people come and go', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const bo = await signedInPerson(chat.app, 'student', { firstName: 'Bo' });
    const adaSocket = await connect(ada);
    const roomName = await newRoom(adaSocket);
    const alone = eventWhere<PresenceChanged>(adaSocket, 'presence_changed', (p) => p.count === 1);
    await join(adaSocket, roomName);
    expect((await alone).payload).toEqual({ roomName, count: 1, names: ['Ada'] });

    const boSocket = await connect(bo, chat.otherUrl);
    const both = eventWhere<PresenceChanged>(adaSocket, 'presence_changed', (p) => p.count === 2);
    await join(boSocket, roomName);
    expect((await both).payload).toEqual({ roomName, count: 2, names: ['Ada', 'Bo'] });

    const left = eventWhere<PresenceChanged>(adaSocket, 'presence_changed', (p) => p.count === 1);
    boSocket.close();
    expect((await left).payload).toEqual({ roomName, count: 1, names: ['Ada'] });
  });

  it('never shows a muted or removed person typing, and takes them off when a mute starts', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const alan = await signedInPerson(chat.app, 'student', { firstName: 'Alan' });
    const bo = await signedInPerson(chat.app, 'student', { firstName: 'Bo' });
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    // Bo watches from the other process (on PostgreSQL): its own list hears the bans too.
    const boSocket = await connect(bo, chat.otherUrl);
    const roomName = await newRoom(adaSocket);
    for (const socket of [adaSocket, alanSocket, boSocket]) await join(socket, roomName);
    const sent = (await emitAck(alanSocket, 'send_message', { room: roomName, message: 'hm' })) as {
      id: string;
    };
    // Alan keeps typing, as a browser does, so nothing here is the list's expiry.
    let typing = true;
    const keepTyping = (async () => {
      while (typing) {
        await emitAck(alanSocket, 'typing', { roomName });
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      }
    })();
    const heard: TypingChanged[] = [];
    boSocket.on('typing_changed', (payload) => heard.push(payload));
    const alanShown = (payload: TypingChanged) => payload.userIds.includes(alan.id);
    try {
      await eventWhere<TypingChanged>(boSocket, 'typing_changed', alanShown);
      const act = (action: 'mute' | 'remove') =>
        librarian.client.post('/api/moderation/actions', {
          messageId: sent.id,
          action,
          scope: 'room',
          duration: '1h',
          reason: 'Cool off.',
        });
      expect((await act('mute')).statusCode).toBe(200);
      const mutedAt = Date.now();
      // Off Bo's list within the bans' two seconds and a fan-out, though Alan types on.
      await eventWhere<TypingChanged>(boSocket, 'typing_changed', (p) => !alanShown(p), 4_500);
      expect(Date.now() - mutedAt).toBeLessThan(TYPING_EXPIRE_MS);
      heard.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(heard.filter(alanShown)).toEqual([]);

      // A mute ended early: he shows again.
      const queue = (await librarian.client.get('/api/moderation/queue')).json();
      const mute = queue.sanctions.find(
        (row: { person: string; roomName: string }) =>
          row.person === 'Alan' && row.roomName === roomName,
      );
      expect(
        (
          await librarian.client.post(`/api/moderation/sanctions/${mute.id}/end`, {
            reason: 'Fine now.',
          })
        ).statusCode,
      ).toBe(200);
      await eventWhere<TypingChanged>(boSocket, 'typing_changed', alanShown);

      // Removed from the room: whatever his socket still sends is dropped.
      expect((await act('remove')).statusCode).toBe(200);
      await eventWhere<TypingChanged>(boSocket, 'typing_changed', (p) => !alanShown(p), 4_500);
      heard.length = 0;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(heard.filter(alanShown)).toEqual([]);
    } finally {
      typing = false;
      await keepTyping;
    }
  });

  it('lets a librarian end a mute early: recorded, told, and the person may post again everywhere', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const alan = await signedInPerson(chat.app, 'student', { firstName: 'Alan' });
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan, chat.otherUrl);
    const roomName = await newRoom(adaSocket);
    await join(adaSocket, roomName);
    await join(alanSocket, roomName);
    const sent = (await emitAck(alanSocket, 'send_message', {
      room: roomName,
      message: 'rude',
    })) as {
      id: string;
    };
    const muted = await librarian.client.post('/api/moderation/actions', {
      messageId: sent.id,
      action: 'mute',
      scope: 'room',
      duration: '1h',
      reason: 'Be civil.',
    });
    expect(muted.statusCode).toBe(200);

    // Joining while muted tells the browser at once, so the composer starts disabled.
    const again = await connect(alan, chat.url);
    const onJoin = nextEvent(again, 'moderation_notice');
    await join(again, roomName);
    expect((await onJoin)[0]).toMatchObject({ action: 'mute', roomName, reason: 'Be civil.' });

    const queue = (await librarian.client.get('/api/moderation/queue')).json();
    const sanction = queue.sanctions.find(
      (row: { person: string; roomName: string }) =>
        row.person === 'Alan' && row.roomName === roomName,
    );
    expect(sanction).toMatchObject({ kind: 'mute', reason: 'Be civil.' });

    // A reason is required, in words; a bad id is a 400.
    const noReason = await librarian.client.post(
      `/api/moderation/sanctions/${sanction.id}/end`,
      {},
    );
    expect(noReason.statusCode).toBe(400);
    expect(
      (await librarian.client.post('/api/moderation/sanctions/x/end', { reason: 'r' })).statusCode,
    ).toBe(400);
    // Only librarians.
    expect(
      (await ada.client.post(`/api/moderation/sanctions/${sanction.id}/end`, { reason: 'r' }))
        .statusCode,
    ).toBe(403);

    const told = nextEvent(alanSocket, 'moderation_notice');
    const ended = await librarian.client.post(`/api/moderation/sanctions/${sanction.id}/end`, {
      reason: 'Apologised.',
    });
    expect(ended.statusCode).toBe(200);
    expect(ended.json().action).toMatchObject({
      action: 'lift',
      target: expect.stringContaining('Alan'),
      roomName,
      reason: 'Apologised.',
    });
    expect((await told)[0]).toMatchObject({
      action: 'lift',
      roomName,
      reason: 'Apologised.',
      message: expect.stringContaining('you may post again'),
    });
    // Both processes let him post again at once.
    expect(
      (await emitAck(alanSocket, 'send_message', { room: roomName, message: 'sorry' })).ok,
    ).toBe(true);
    expect((await emitAck(again, 'send_message', { room: roomName, message: 'truly' })).ok).toBe(
      true,
    );
    // Recorded; gone from the list; a second end is a 409 in words.
    const after = (await librarian.client.get('/api/moderation/queue')).json();
    expect(after.history[0]).toMatchObject({ action: 'lift', reason: 'Apologised.' });
    expect(after.sanctions.some((row: { id: string }) => row.id === sanction.id)).toBe(false);
    const twice = await librarian.client.post(`/api/moderation/sanctions/${sanction.id}/end`, {
      reason: 'Again.',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('That mute or removal has already ended.');
    // The bell says so too.
    const notices = (await alan.client.get('/api/notices')).json();
    expect(notices.payload[0].title).toBe('Your mute in the chat was ended');
  });
});
