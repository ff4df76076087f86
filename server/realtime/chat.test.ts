import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_TEXT, HISTORY_PAGE, OPEN_ROOMS_PER_PERSON_MAX } from '#contract/socket/chat.ts';
import { CATCH_UP_MAX, insertMessage, findRoom } from '../chat/store.ts';
import { createTestApp, ROOMS_BUDGET_LIFTED, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import { TestClient } from '../test/http.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  roomsWhere,
  type ChatClient,
} from '../test/sockets.ts';

describe.each(testDatabaseKinds())('the chat on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  let ada: SignedInPerson;
  let alan: SignedInPerson;
  let librarian: SignedInPerson;
  const open: ChatClient[] = [];
  let roomCounter = 0;

  const connect = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const newRoomName = () => `Physics ${++roomCounter} ${kind}`;

  /** A room made by `socket`, joined by it. */
  const roomOf = async (socket: ChatClient, name = newRoomName()) => {
    expect(await emitAck(socket, 'create_room', { roomName: name, description: 'Waves' })).toEqual({
      ok: true,
    });
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName: name })).toEqual({ ok: true });
    await history;
    return name;
  };
  const join = async (socket: ChatClient, name: string) => {
    const history = nextEvent(socket, 'room_history');
    const metadata = nextEvent(socket, 'room_metadata');
    expect(await emitAck(socket, 'join_room', { roomName: name })).toEqual({ ok: true });
    return { history: await history, metadata: (await metadata)[0] };
  };

  beforeAll(async () => {
    // These people create rooms far faster than anyone would (Ada a dozen in seconds, Grace
    // OPEN_ROOMS_PER_PERSON_MAX at once): the rooms budget is lifted for this file's other rules.
    testApp = await createTestApp(kind, {
      env: { MODERATION_WORDS: 'grimbleflax' },
      socketBudgets: ROOMS_BUDGET_LIFTED,
    });
    url = await listenOnFreePort(testApp);
    ada = await signedInPerson(testApp);
    alan = await signedInPerson(testApp, 'student', { firstName: 'Alan' });
    librarian = await signedInPerson(testApp, 'librarian');
    expect(
      (
        await ada.client.request({
          method: 'PUT',
          url: '/api/users/chat-username',
          payload: { username: 'ada_l' },
        })
      ).statusCode,
    ).toBe(200);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('refuses guests with a reason the forum shows', async () => {
    const guest = new TestClient(testApp.app, testApp.config.publicUrl);
    await expect(connectChat(url, guest.cookieHeader(), testApp.config.publicUrl)).rejects.toThrow(
      'Please sign in to use the chat.',
    );
  });

  it('keeps the chosen username on the profile, within 2 to 30 characters', async () => {
    const me = await ada.client.get('/api/users/me');
    expect(me.json().user.chatUsername).toBe('ada_l');
    for (const username of ['a', 'x'.repeat(31), '<b>hi</b>']) {
      const response = await ada.client.request({
        method: 'PUT',
        url: '/api/users/chat-username',
        payload: { username },
      });
      expect(response.statusCode, username).toBe(400);
    }
    const guest = new TestClient(testApp.app, testApp.config.publicUrl);
    expect(
      (
        await guest.request({
          method: 'PUT',
          url: '/api/users/chat-username',
          payload: { username: 'x1' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('pushes the room list on connect and after a room is created, the server naming the creator', async () => {
    const first = await connect(ada);
    const watcher = await connect(alan);
    const name = newRoomName();
    const pushed = roomsWhere(watcher, (rooms) => rooms.some((room) => room.roomName === name));
    expect(
      await emitAck(first, 'create_room', {
        roomName: name,
        description: 'Optics study group',
        creator: 'Somebody Else',
      }),
    ).toEqual({ ok: true });
    const room = (await pushed).find((candidate) => candidate.roomName === name)!;
    expect(room).toMatchObject({
      description: 'Optics study group',
      creator: 'ada_l',
      creatorId: ada.id,
      memberCount: 0,
      abuseDetected: false,
    });
    const late = await connectChat(url, librarian.client.cookieHeader(), testApp.config.publicUrl);
    open.push(late);
  });

  it('lets one person keep at most OPEN_ROOMS_PER_PERSON_MAX open rooms; librarians are not held to it', async () => {
    const grace = await connect(await signedInPerson(testApp, 'student', { firstName: 'Grace' }));
    const names = Array.from({ length: OPEN_ROOMS_PER_PERSON_MAX }, () => newRoomName());
    for (const roomName of names) {
      expect(await emitAck(grace, 'create_room', { roomName, description: '' })).toEqual({
        ok: true,
      });
    }
    expect(await emitAck(grace, 'create_room', { roomName: newRoomName() })).toEqual({
      ok: false,
      message: CHAT_TEXT.tooManyRooms,
    });
    // Closing one makes room for another.
    expect(await emitAck(grace, 'close_room', { roomName: names[0]! })).toEqual({ ok: true });
    expect(await emitAck(grace, 'create_room', { roomName: newRoomName() })).toEqual({ ok: true });

    const desk = await connect(await signedInPerson(testApp, 'librarian'));
    for (let made = 0; made <= OPEN_ROOMS_PER_PERSON_MAX; made += 1) {
      expect(await emitAck(desk, 'create_room', { roomName: newRoomName() })).toEqual({ ok: true });
    }
  });

  it('refuses duplicate names ignoring case, and bad names, by ack or chat_error', async () => {
    const socket = await connect(ada);
    const name = newRoomName();
    expect(await emitAck(socket, 'create_room', { roomName: name, description: '' })).toEqual({
      ok: true,
    });
    expect(
      await emitAck(socket, 'create_room', { roomName: name.toUpperCase(), description: '' }),
    ).toEqual({ ok: false, message: CHAT_TEXT.duplicateRoom });
    expect(await emitAck(socket, 'create_room', { roomName: '  ', description: '' })).toEqual({
      ok: false,
      message: 'Please enter a room name',
    });
    expect(await emitAck(socket, 'create_room', { roomName: 'x'.repeat(61) })).toMatchObject({
      ok: false,
      message: 'Room names are at most 60 characters',
    });
    const error = nextEvent(socket, 'chat_error');
    socket.emit('create_room', { roomName: name, description: '' });
    expect((await error)[0]).toEqual({ message: CHAT_TEXT.duplicateRoom });
    // Junk instead of a payload is refused, and the connection stays usable.
    for (const junk of [null, 42, 'room', [1, 2], { roomName: { $gt: '' } }]) {
      const answer = await emitAck(socket, 'join_room', junk as never);
      expect(answer.ok, JSON.stringify(junk)).toBe(false);
    }
    expect(socket.connected).toBe(true);
  });

  it('delivers a message to everyone in the room once stored, with the server-side sender', async () => {
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    const name = newRoomName();
    // Listening from the start: the push with both members may come before the messages do.
    const bothIn = roomsWhere(alanSocket, (rooms) =>
      rooms.some((room) => room.roomName === name && room.memberCount === 2),
    );
    await roomOf(adaSocket, name);
    const joined = await join(alanSocket, name);
    expect(joined.history[0]).toEqual([]);
    expect(joined.metadata).toEqual({
      roomName: name,
      creator: 'ada_l',
      creatorId: ada.id,
      abuseDetected: false,
    });
    const atAlan = nextEvent(alanSocket, 'receive_message');
    const atAda = nextEvent(adaSocket, 'receive_message');
    // The broadcast reaches Alan's WebSocket directly, not as an Engine.IO packet (fan-out.ts).
    const enginePackets: string[] = [];
    testApp.app.io.sockets.sockets
      .get(alanSocket.id!)
      ?.conn.on('packetCreate', (packet: { data?: unknown }) =>
        enginePackets.push(String(packet.data)),
      );
    const answer = await emitAck(adaSocket, 'send_message', {
      room: name,
      message: 'Hello <b>everyone</b>',
      sender: 'The Librarian',
    });
    expect(answer).toMatchObject({ ok: true, id: expect.stringMatching(/^\d+$/) });
    const [message] = await atAlan;
    expect(message).toMatchObject({
      id: (answer as { id: string }).id,
      room: name,
      sender: 'ada_l',
      senderId: ada.id,
      content: 'Hello <b>everyone</b>',
      isSystemMessage: false,
    });
    expect((await atAda)[0]).toEqual(message);
    expect(enginePackets.filter((data) => data.includes('receive_message'))).toEqual([]);
    expect((await bothIn).find((room) => room.roomName === name)?.memberCount).toBe(2);
  });

  it('refuses empty, overlong and out-of-room messages', async () => {
    const socket = await connect(ada);
    const name = await roomOf(socket);
    expect(await emitAck(socket, 'send_message', { room: name, message: '   ' })).toEqual({
      ok: false,
      message: 'Type a message first',
    });
    expect(
      await emitAck(socket, 'send_message', { room: name, message: 'x'.repeat(2001) }),
    ).toEqual({ ok: false, message: 'Messages are at most 2000 characters' });
    expect(
      await emitAck(socket, 'send_message', { room: 'Somewhere else', message: 'hi' }),
    ).toEqual({ ok: false, message: 'Join the room before sending messages to it.' });
    expect(
      await emitAck(socket, 'send_message', { room: name, message: 'x'.repeat(2000) }),
    ).toMatchObject({ ok: true });
  });

  it('sends the last 100 messages on join, older ones on request, and only the missed ones after a reconnect', async () => {
    const socket = await connect(ada);
    const name = await roomOf(socket);
    const room = (await findRoom(testApp.database.db, name))!;
    const ids: string[] = [];
    for (let index = 1; index <= HISTORY_PAGE + 5; index += 1) {
      const row = await insertMessage(testApp.database.db, {
        roomId: room.id,
        senderId: ada.id,
        senderName: 'ada_l',
        content: `message ${index}`,
      });
      ids.push(row.id);
    }
    const reader = await connect(alan);
    const { history } = await join(reader, name);
    const [messages, info] = history;
    expect(messages.map((message) => message.content)).toEqual(
      ids.slice(5).map((_, index) => `message ${index + 6}`),
    );
    expect(info).toEqual({ roomName: name, hasMore: true });
    const older = await emitAck(reader, 'load_history', {
      roomName: name,
      before: messages[0]!.id,
    });
    expect(older).toMatchObject({ ok: true, hasMore: false });
    expect((older as { history: { content: string }[] }).history.map((m) => m.content)).toEqual([
      'message 1',
      'message 2',
      'message 3',
      'message 4',
      'message 5',
    ]);
    // Catching up: only what came after the last message held.
    const caught = nextEvent(reader, 'room_history');
    await emitAck(reader, 'join_room', { roomName: name, after: ids.at(-3)! });
    expect((await caught)[0].map((message) => message.content)).toEqual([
      `message ${HISTORY_PAGE + 4}`,
      `message ${HISTORY_PAGE + 5}`,
    ]);
  });

  it('limits each person to 5 messages in 5 seconds without slowing anyone else', async () => {
    // Fresh people: the window of those in the other tests may still be open.
    const adaSocket = await connect(await signedInPerson(testApp));
    const alanSocket = await connect(await signedInPerson(testApp));
    const name = await roomOf(adaSocket);
    await join(alanSocket, name);
    const answers = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push(await emitAck(adaSocket, 'send_message', { room: name, message: `m${index}` }));
    }
    expect(answers.slice(0, 5).every((answer) => answer.ok)).toBe(true);
    expect(answers[5]).toEqual({
      ok: false,
      message: expect.stringMatching(/^You are sending messages too fast/),
    });
    expect(
      await emitAck(alanSocket, 'send_message', { room: name, message: 'fine' }),
    ).toMatchObject({
      ok: true,
    });
  });

  it('never stores nor delivers an abusive message; the room is restricted until its creator lifts it', async () => {
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    const name = await roomOf(adaSocket);
    await join(alanSocket, name);
    const first = nextEvent(adaSocket, 'receive_message');
    expect(
      await emitAck(alanSocket, 'send_message', {
        room: name,
        message: 'Scunthorpe assessment of a classic',
      }),
    ).toMatchObject({ ok: true });
    await first;
    // A shared catalogue link whose id reads as l33t ('455c') is a link, not a word: it once
    // restricted the room it was shared to.
    const link = `${testApp.config.publicUrl}/userprofile/openlibrary?item=37052b0d-8df4-455c-beb5-6e1e5ff1c2af`;
    const shared = nextEvent(adaSocket, 'receive_message');
    expect(
      await emitAck(alanSocket, 'send_message', { room: name, message: `Read this?\n${link}` }),
    ).toMatchObject({ ok: true });
    await shared;

    const warned = nextEvent(adaSocket, 'abuse_detected');
    const metadata = nextEvent(adaSocket, 'room_metadata');
    let delivered = 0;
    adaSocket.on('receive_message', () => (delivered += 1));
    const refused = await emitAck(alanSocket, 'send_message', {
      room: name,
      message: 'you f u c k',
    });
    expect(refused).toEqual({
      ok: false,
      message: `${CHAT_TEXT.abuseWarning} ${CHAT_TEXT.abuseWarningMore}`,
    });
    expect((await warned)[0]).toEqual({ roomName: name });
    expect((await metadata)[0].abuseDetected).toBe(true);
    // A word the library added in configuration is caught too.
    expect((await emitAck(adaSocket, 'send_message', { room: name, message: 'ok' })).ok).toBe(
      false,
    );
    const room = (await findRoom(testApp.database.db, name))!;
    const stored = await testApp.database.db
      .selectFrom('chat_messages')
      .select('content')
      .where('room_id', '=', room.id)
      .orderBy('id')
      .execute();
    expect(stored.map((row) => row.content)).toEqual([
      'Scunthorpe assessment of a classic',
      `Read this?\n${link}`,
    ]);
    expect(delivered).toBe(0);

    expect(await emitAck(alanSocket, 'lift_restriction', { roomName: name })).toEqual({
      ok: false,
      message: 'Only the room’s creator or a librarian can lift the restriction.',
    });
    const lifted = nextEvent(alanSocket, 'room_metadata');
    expect(await emitAck(adaSocket, 'lift_restriction', { roomName: name })).toEqual({ ok: true });
    expect((await lifted)[0].abuseDetected).toBe(false);
    expect((await emitAck(alanSocket, 'send_message', { room: name, message: 'sorry' })).ok).toBe(
      true,
    );
    expect(
      (await emitAck(alanSocket, 'send_message', { room: name, message: 'a grimbleflax!' })).ok,
    ).toBe(false);
  });

  it('leave_room takes a member out: no more messages, and the count drops', async () => {
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    const name = await roomOf(adaSocket);
    const both = roomsWhere(adaSocket, (rooms) =>
      rooms.some((room) => room.roomName === name && room.memberCount === 2),
    );
    await join(alanSocket, name);
    await both;
    const one = roomsWhere(adaSocket, (rooms) =>
      rooms.some((room) => room.roomName === name && room.memberCount === 1),
    );
    expect(await emitAck(alanSocket, 'leave_room')).toEqual({ ok: true });
    await one;
    let heard = 0;
    alanSocket.on('receive_message', () => (heard += 1));
    const own = nextEvent(adaSocket, 'receive_message');
    expect(
      (await emitAck(adaSocket, 'send_message', { room: name, message: 'still here?' })).ok,
    ).toBe(true);
    await own;
    expect(heard).toBe(0);
    // Sending needs the room joined again.
    expect(await emitAck(alanSocket, 'send_message', { room: name, message: 'back' })).toEqual({
      ok: false,
      message: 'Join the room before sending messages to it.',
    });
  });

  it('starts a client over from the latest page when it missed more than one catch-up holds', async () => {
    const socket = await connect(ada);
    const name = await roomOf(socket);
    const room = (await findRoom(testApp.database.db, name))!;
    const first = await insertMessage(testApp.database.db, {
      roomId: room.id,
      senderId: ada.id,
      senderName: 'ada_l',
      content: 'before the break',
    });
    await sql`
      INSERT INTO chat_messages (room_id, sender_id, sender_name, content)
      SELECT ${room.id}::uuid, ${ada.id}, 'ada_l', 'missed ' || n
      FROM generate_series(1, ${CATCH_UP_MAX + 5}) AS n
    `.execute(testApp.database.db);
    const reader = await connect(alan);
    const caught = nextEvent(reader, 'room_history');
    expect(await emitAck(reader, 'join_room', { roomName: name, after: first.id })).toEqual({
      ok: true,
    });
    const [messages, info] = await caught;
    expect(info).toEqual({ roomName: name, hasMore: true, replace: true });
    expect(messages).toHaveLength(HISTORY_PAGE);
    expect(messages.at(-1)!.content).toBe(`missed ${CATCH_UP_MAX + 5}`);
  });

  it('restricts the room for everyone when a browser reports what its own check caught', async () => {
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    const name = await roomOf(adaSocket);
    // Only from inside the room.
    expect(await emitAck(alanSocket, 'report_abuse', { roomName: name })).toEqual({
      ok: false,
      message: 'Join the room before reporting anything in it.',
    });
    await join(alanSocket, name);
    const warned = nextEvent(adaSocket, 'abuse_detected');
    const metadata = nextEvent(adaSocket, 'room_metadata');
    const listed = roomsWhere(adaSocket, (rooms) =>
      rooms.some((room) => room.roomName === name && room.abuseDetected),
    );
    // The text the browser caught goes with the report, and the server's matcher agrees
    // (server/realtime/reports.test.ts: what happens when it does not).
    expect(
      await emitAck(alanSocket, 'report_abuse', { roomName: name, text: 'you grimbleflax' }),
    ).toEqual({ ok: true });
    expect((await warned)[0]).toEqual({ roomName: name });
    expect((await metadata)[0].abuseDetected).toBe(true);
    await listed;
    // Kept in the database: someone who joins later (or reloads) finds the room restricted.
    const later = await connect(librarian);
    expect((await join(later, name)).metadata.abuseDetected).toBe(true);
    // A second report (by someone else: one per person per room in ten minutes) changes nothing
    // and tells nobody again.
    let told = 0;
    adaSocket.on('abuse_detected', () => (told += 1));
    expect(
      await emitAck(later, 'report_abuse', { roomName: name, text: 'you grimbleflax' }),
    ).toEqual({ ok: true });
    expect((await emitAck(adaSocket, 'send_message', { room: name, message: 'hi' })).ok).toBe(
      false,
    );
    expect(told).toBe(0);
    const room = (await findRoom(testApp.database.db, name))!;
    expect(room.abuse_detected).toBe(true);
  });

  it('lets only the creator or a librarian close a room, which ends it for everyone in it', async () => {
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    const desk = await connect(librarian);
    const name = await roomOf(adaSocket);
    await join(alanSocket, name);
    expect(await emitAck(alanSocket, 'close_room', { roomName: name, username: 'ada_l' })).toEqual({
      ok: false,
      message: 'Only the room’s creator or a librarian can close it.',
    });
    const closedForAda = nextEvent(adaSocket, 'room_closed');
    const closedForAlan = nextEvent(alanSocket, 'room_closed');
    const gone = roomsWhere(desk, (rooms) => !rooms.some((room) => room.roomName === name));
    expect(await emitAck(desk, 'close_room', { roomName: name })).toEqual({ ok: true });
    expect((await closedForAda)[0]).toEqual({ roomName: name });
    expect((await closedForAlan)[0]).toEqual({ roomName: name });
    await gone;
    expect(await emitAck(alanSocket, 'join_room', { roomName: name })).toEqual({
      ok: false,
      message: 'This room does not exist any more. It may have been closed.',
    });
    expect((await emitAck(adaSocket, 'send_message', { room: name, message: 'hi' })).ok).toBe(
      false,
    );
  });

  it('drops a connection that sends a frame over 64 KB, and stays up for everyone else', async () => {
    const socket = await connect(ada);
    const other = await connect(alan);
    const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    socket.emit('send_message', { room: 'x', message: 'y'.repeat(70_000) });
    expect(await dropped).toBe('transport close');
    expect((await emitAck(other, 'create_room', { roomName: newRoomName() })).ok).toBe(true);
  });

  it('keeps acknowledged messages when the server restarts', async () => {
    const socket = await connect(await signedInPerson(testApp));
    const name = await roomOf(socket);
    const answer = await emitAck(socket, 'send_message', { room: name, message: 'kept' });
    expect(answer.ok).toBe(true);
    socket.close();
    await testApp.app.close();
    const database = testApp.database;
    testApp = await createTestApp(kind, { database });
    url = await listenOnFreePort(testApp);
    const again = await connect(ada);
    const { history } = await join(again, name);
    expect(history[0].map((message) => message.content)).toEqual(['kept']);
  });
});
