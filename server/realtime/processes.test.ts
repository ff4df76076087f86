import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ChatMessage, RoomSummary } from '#contract/socket/chat.ts';
import { createPostgresDatabase, testDatabaseKinds } from '../test/databases.ts';
import { registerOn, startServerProcess, type ServerProcess } from '../test/process.ts';
import { connectChat, emitAck, type ChatClient } from '../test/sockets.ts';

// Real server processes, as `npm start` runs them: a kill -9 in the middle of a conversation,
// and two processes sharing one PostgreSQL through Socket.IO's Postgres adapter.

/** A new student registered on `server` (from their own address), and their cookie. */
const registerStudent = (server: ServerProcess, firstName: string) =>
  registerOn(
    server,
    { firstName },
    { 'x-forwarded-for': `203.0.113.${Math.floor(Math.random() * 250)}` },
  );

/** A chat socket to `server` with `cookie`, connected. */
const socketTo = (
  server: ServerProcess,
  cookie: string,
  options: { reconnection?: boolean } = {},
) => connectChat(server.url, cookie, server.url, options);

const historyOf = (socket: ChatClient, roomName: string, after?: string) =>
  new Promise<ChatMessage[]>((resolve, reject) => {
    socket.once('room_history', (messages) => resolve(messages));
    emitAck(socket, 'join_room', { roomName, ...(after ? { after } : {}) }).then((answer) => {
      if (!answer.ok) reject(new Error(answer.message));
    }, reject);
  });

describe('a server killed with SIGKILL in the middle of a conversation', () => {
  const servers: ServerProcess[] = [];
  let dataDir: string;
  afterAll(async () => {
    for (const server of servers) await server.stop('SIGKILL');
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged message, and its clients reconnect and catch up without gaps or duplicates', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'digi-kill-'));
    // TRUST_PROXY so each registration counts against its own (forwarded) address.
    const env = { DATA_DIR: dataDir, TRUST_PROXY: 'true' };
    const first = await startServerProcess(env);
    servers.push(first);
    const cookies = [];
    for (const name of ['Ada', 'Alan', 'Grace', 'Edsger', 'Barbara']) {
      cookies.push(await registerStudent(first, name));
    }
    const sockets = await Promise.all(
      cookies.map((cookie) => socketTo(first, cookie, { reconnection: true })),
    );
    const roomName = 'Durability';
    expect(await emitAck(sockets[0]!, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    for (const socket of sockets) await historyOf(socket, roomName);

    // The listener keeps what it receives live; the senders remember what was acknowledged.
    const listener = sockets[0]!;
    const received = new Map<string, ChatMessage>();
    listener.on('receive_message', (message) => received.set(message.id, message));
    const acknowledged: string[] = [];
    const sending = sockets.slice(1).flatMap((socket, who) =>
      [0, 1, 2, 3].map(async (index) => {
        const answer = await emitAck(socket, 'send_message', {
          room: roomName,
          message: `from ${who}: ${index}`,
        }).catch(() => ({ ok: false as const, message: 'no answer' }));
        if (answer.ok) acknowledged.push(answer.id!);
      }),
    );
    // Kill as soon as a few messages are through, while others are still on their way.
    while (acknowledged.length < 4) await new Promise((resolve) => setTimeout(resolve, 5));
    await first.stop('SIGKILL');
    await Promise.all(sending);
    const lastHeld = [...received.keys()].sort((a, b) => Number(a) - Number(b)).at(-1);

    const reconnected = new Promise<number>((resolve) => {
      const started = Date.now();
      listener.io.once('reconnect', () => resolve(Date.now() - started));
    });
    const second = await startServerProcess({ ...env, PORT: new URL(first.url).port });
    servers.push(second);
    // A reconnect, not a hang. How fast is a benchmark's question (house rule: no timings in
    // tests); on a loaded two-core machine the client's back-off alone can pass 5 s.
    expect(await reconnected).toBeLessThan(20_000);

    const missed = await historyOf(listener, roomName, lastHeld);
    const all = [...received.values(), ...missed];
    const ids = all.map((message) => message.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of acknowledged) expect(ids).toContain(id);
    const fresh = await socketTo(second, cookies[1]!);
    const history = await historyOf(fresh, roomName);
    for (const id of acknowledged) expect(history.map((message) => message.id)).toContain(id);
    expect(history.map((message) => message.id).sort()).toEqual([...ids].sort());
    for (const socket of [...sockets, fresh]) socket.close();
  }, 120_000);
});

describe.runIf(testDatabaseKinds().includes('postgres'))(
  'two server processes on one PostgreSQL',
  () => {
    const servers: ServerProcess[] = [];
    afterAll(async () => {
      for (const server of servers) await server.stop('SIGTERM');
    });

    it('deliver each other’s messages and agree on the room list', async () => {
      const databaseUrl = await createPostgresDatabase();
      const env = { DATABASE_URL: databaseUrl, DEMO_DATA: 'false' };
      const one = await startServerProcess(env);
      servers.push(one);
      const adaCookie = await registerStudent(one, 'Ada');
      // A process that has heard from no other for the adapter's heartbeat time-out (10 s) stops
      // notifying (server/realtime/adapter.ts); the second one's start must wake it up again.
      await new Promise((resolve) => setTimeout(resolve, 10_500));
      const two = await startServerProcess(env);
      servers.push(two);

      const alanCookie = await registerStudent(two, 'Alan');
      const ada = await socketTo(one, adaCookie);
      const alan = await socketTo(two, alanCookie);
      const roomName = 'Across processes';

      const seenOnTwo = new Promise<RoomSummary[]>((resolve) => {
        const check = (rooms: RoomSummary[]) => {
          if (rooms.some((room) => room.roomName === roomName && room.memberCount === 1)) {
            alan.off('available_rooms', check);
            resolve(rooms);
          }
        };
        alan.on('available_rooms', check);
      });
      expect(await emitAck(ada, 'create_room', { roomName, description: 'Shared' })).toEqual({
        ok: true,
      });
      await historyOf(ada, roomName);
      await seenOnTwo;

      await historyOf(alan, roomName);
      const atAlan = new Promise<ChatMessage>((resolve) => alan.once('receive_message', resolve));
      const atAda = new Promise<ChatMessage>((resolve) => ada.once('receive_message', resolve));
      expect(
        (await emitAck(ada, 'send_message', { room: roomName, message: 'hello from one' })).ok,
      ).toBe(true);
      expect((await atAlan).content).toBe('hello from one');
      const back = new Promise<ChatMessage>((resolve) =>
        ada.on('receive_message', (message) => {
          if (message.content === 'hello from two') resolve(message);
        }),
      );
      await atAda;
      expect(
        (await emitAck(alan, 'send_message', { room: roomName, message: 'hello from two' })).ok,
      ).toBe(true);
      expect((await back).sender).toBe('Alan');

      // Both processes list the room with both members.
      const countOn = (socket: ChatClient) =>
        new Promise<number>((resolve) => {
          const check = (rooms: RoomSummary[]) => {
            const room = rooms.find((candidate) => candidate.roomName === roomName);
            if (room?.memberCount === 2) {
              socket.off('available_rooms', check);
              resolve(2);
            }
          };
          socket.on('available_rooms', check);
        });
      const late = await socketTo(one, adaCookie);
      expect(await countOn(late)).toBe(2);
      const lateTwo = await socketTo(two, alanCookie);
      expect(await countOn(lateTwo)).toBe(2);

      // The message rate is per person, not per process: Alan on both processes at once still
      // gets five messages per five seconds in all.
      const alanOnOne = await socketTo(one, alanCookie);
      await historyOf(alanOnOne, roomName);
      const burst = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          emitAck(index % 2 === 0 ? alan : alanOnOne, 'send_message', {
            room: roomName,
            message: `burst ${index}`,
          }),
        ),
      );
      // 'hello from two' above was one of Alan's five.
      expect(burst.filter((answer) => answer.ok)).toHaveLength(4);
      expect(burst.find((answer) => !answer.ok)).toMatchObject({
        message: expect.stringMatching(/^You are sending messages too fast/),
      });

      // Closing on one process ends the room for members on the other.
      const closed = new Promise((resolve) => alan.once('room_closed', resolve));
      expect(await emitAck(ada, 'close_room', { roomName })).toEqual({ ok: true });
      expect(await closed).toEqual({ roomName });
      for (const socket of [ada, alan, alanOnOne, late, lateTwo]) socket.close();
    }, 120_000);
  },
);
