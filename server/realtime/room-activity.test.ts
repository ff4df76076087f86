import { describe, expect, it } from 'vitest';
import { ROOM_ACTIVITY_MS, type RoomsActive } from '#contract/socket/chat.ts';
import { ROOMS_BUDGET_LIFTED } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson } from '../test/factories.ts';

type Person = Awaited<ReturnType<typeof signedInPerson>>;
import { emitAck, twoProcessChat, type ChatClient } from '../test/sockets.ts';

/*
 * The room list's counts follow new messages within seconds (issue 26, decision 042), on both
 * engines and, on PostgreSQL, across two processes: a message stored on one process marks its
 * room active, and at most once per `ROOM_ACTIVITY_MS` the sockets that asked `unread_counts`
 * (on any process) hear `rooms_active` naming it; a socket that never asked, or that has since
 * joined a room, hears nothing.
 */

/** Every `rooms_active` `socket` hears from now on, with when it arrived. */
function recordActive(socket: ChatClient) {
  const heard: { at: number; roomNames: string[] }[] = [];
  socket.on('rooms_active', (payload: RoomsActive) => {
    heard.push({ at: Date.now(), roomNames: payload.roomNames });
  });
  return heard;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds, polling, for `timeoutMs` at most. */
async function until(check: () => boolean, timeoutMs: number, what: string) {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await sleep(20);
  }
}

describe.each(testDatabaseKinds())('live room list counts on %s', (kind) => {
  const chat = twoProcessChat(kind, { socketBudgets: ROOMS_BUDGET_LIFTED });
  const { connect, join } = chat;
  let rooms = 0;

  const newRoom = async (creator: ChatClient) => {
    const roomName = `Active ${++rooms} ${kind}`;
    expect(await emitAck(creator, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    return roomName;
  };

  /**
   * `creator` makes a new room and is in it; `visitor` (on the other process) has been in it and
   * is back on the room list.
   */
  const visitedRoom = async (creator: Person, visitor: Person) => {
    const creatorSocket = await connect(creator);
    const roomName = await newRoom(creatorSocket);
    await join(creatorSocket, roomName);
    const visitorSocket = await connect(visitor, chat.otherUrl);
    await join(visitorSocket, roomName);
    expect(await emitAck(visitorSocket, 'leave_room')).toEqual({ ok: true });
    return { roomName, creatorSocket, visitorSocket };
  };

  it('tells the watchers of the room list on the other process, and nobody else', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const bo = await signedInPerson(chat.app, 'student', { firstName: 'Bo' });
    const cy = await signedInPerson(chat.app, 'student', { firstName: 'Cy' });
    // Bo visited the room and is back on the room list (on the other process): he asks his counts.
    const {
      roomName,
      creatorSocket: adaSocket,
      visitorSocket: boSocket,
    } = await visitedRoom(ada, bo);
    const first = await emitAck(boSocket, 'unread_counts');
    expect(first.ok && first.unread).toEqual([{ roomName, unread: 0, mentioned: false }]);
    const boHeard = recordActive(boSocket);
    // Cy is connected there too but never asked: not a room list.
    const cySocket = await connect(cy, chat.otherUrl);
    const cyHeard = recordActive(cySocket);

    const sentAt = Date.now();
    expect((await emitAck(adaSocket, 'send_message', { room: roomName, message: 'Hi' })).ok).toBe(
      true,
    );
    await until(
      () => boHeard.some((event) => event.roomNames.includes(roomName)),
      ROOM_ACTIVITY_MS + 1_000,
      'Bo hears rooms_active',
    );
    expect(boHeard[0]!.at - sentAt).toBeLessThanOrEqual(ROOM_ACTIVITY_MS + 500);
    expect(boHeard[0]!.roomNames).toEqual([roomName]);
    // His browser then asks, and the count has moved.
    const after = await emitAck(boSocket, 'unread_counts');
    expect(after.ok && after.unread).toEqual([{ roomName, unread: 1, mentioned: false }]);

    // Bo opens a room: the list is not shown, so he stops hearing of activity.
    await join(boSocket, roomName);
    await sleep(ROOM_ACTIVITY_MS + 100);
    const heardBefore = boHeard.length;
    expect(
      (await emitAck(adaSocket, 'send_message', { room: roomName, message: 'Still there?' })).ok,
    ).toBe(true);
    await sleep(ROOM_ACTIVITY_MS + 500);
    expect(boHeard).toHaveLength(heardBefore);
    expect(cyHeard).toEqual([]);
  });

  it('tells the room list when an edit adds a mention or a deletion takes one away', async () => {
    const ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    const bo = await signedInPerson(chat.app, 'student', { firstName: 'Bo' });
    const boName = `Bo${rooms}${kind === 'postgres' ? 'p' : 'g'}edit`;
    await chat.app.database.db
      .updateTable('users')
      .set({ chat_username: boName })
      .where('id', '=', bo.id)
      .execute();
    const {
      roomName,
      creatorSocket: adaSocket,
      visitorSocket: boSocket,
    } = await visitedRoom(ada, bo);
    const sent = await emitAck(adaSocket, 'send_message', { room: roomName, message: 'Plain' });
    const messageId = (sent as { id: string }).id;
    expect((await emitAck(boSocket, 'unread_counts')).ok).toBe(true);
    // The send's own rooms_active has gone out before Bo listens.
    await sleep(ROOM_ACTIVITY_MS + 300);
    const heard = recordActive(boSocket);
    const marker = async () => {
      const counts = await emitAck(boSocket, 'unread_counts');
      return counts.ok && counts.unread;
    };

    // The edit mentions Bo: his list hears of the room, and its marker is on.
    const edit = { roomName, messageId, text: `Plain, @${boName}` };
    expect(await emitAck(adaSocket, 'edit_message', edit)).toEqual({ ok: true, id: messageId });
    await until(() => heard.length === 1, ROOM_ACTIVITY_MS + 1_000, 'the edit is told');
    expect(heard[0]!.roomNames).toEqual([roomName]);
    expect(await marker()).toEqual([{ roomName, unread: 1, mentioned: true }]);

    // An edit that leaves the mention as it was changes nothing on the list: nothing is told.
    const again = { ...edit, text: `Plainly, @${boName}` };
    expect(await emitAck(adaSocket, 'edit_message', again)).toEqual({ ok: true, id: messageId });
    await sleep(ROOM_ACTIVITY_MS + 300);
    expect(heard).toHaveLength(1);

    // Deleted, the message mentions nobody: told again, and the marker is off.
    expect(await emitAck(adaSocket, 'delete_message', { roomName, messageId })).toEqual({
      ok: true,
      id: messageId,
    });
    await until(() => heard.length === 2, ROOM_ACTIVITY_MS + 1_000, 'the deletion is told');
    expect(await marker()).toEqual([{ roomName, unread: 1, mentioned: false }]);
  });

  it('tells a burst of 50 messages once per window', async () => {
    const watcher = await signedInPerson(chat.app, 'student', { firstName: 'Wren' });
    const senders = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        signedInPerson(chat.app, 'student', { firstName: `Sender${i}` }),
      ),
    );
    const sockets = await Promise.all(senders.map((sender) => connect(sender)));
    const roomName = await newRoom(sockets[0]!);
    for (const socket of sockets) await join(socket, roomName);
    const watcherSocket = await connect(watcher, chat.otherUrl);
    await join(watcherSocket, roomName);
    expect(await emitAck(watcherSocket, 'leave_room')).toEqual({ ok: true });
    expect((await emitAck(watcherSocket, 'unread_counts')).ok).toBe(true);
    // Anything still pending from the test before has gone out.
    await sleep(ROOM_ACTIVITY_MS + 100);
    const heard = recordActive(watcherSocket);

    // Five each (the per-person rate), all at once: 50 messages.
    const start = Date.now();
    const acks = await Promise.all(
      sockets.flatMap((socket, s) =>
        Array.from({ length: 5 }, (_, m) =>
          emitAck(socket, 'send_message', { room: roomName, message: `Burst ${s}.${m}` }),
        ),
      ),
    );
    const elapsed = Date.now() - start;
    expect(acks.every((ack) => ack.ok)).toBe(true);
    await sleep(ROOM_ACTIVITY_MS + 500);

    // The first soon after the first message, then at most one per window while they go on.
    expect(heard.length).toBeGreaterThanOrEqual(1);
    expect(heard.length).toBeLessThanOrEqual(Math.ceil(elapsed / ROOM_ACTIVITY_MS) + 1);
    for (const event of heard) expect(event.roomNames).toEqual([roomName]);
    // One window apart (less what delivery may bunch up).
    for (let i = 1; i < heard.length; i++) {
      expect(heard[i]!.at - heard[i - 1]!.at).toBeGreaterThan(ROOM_ACTIVITY_MS - 300);
    }
    const counts = await emitAck(watcherSocket, 'unread_counts');
    expect(counts.ok && counts.unread).toEqual([{ roomName, unread: 50, mentioned: false }]);
  });
});
