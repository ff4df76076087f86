import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  SOCKET_BUDGETS,
  SOCKET_REFUSALS_MAX,
  type Ack,
  type ChatMessage,
} from '#contract/socket/chat.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { createPostgresDatabase, testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import { registerOn, startServerProcess, type ServerProcess } from '../test/process.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  type ChatClient,
} from '../test/sockets.ts';
import { countStatements } from '../test/statements.ts';

const { joins, rooms, moderation } = SOCKET_BUDGETS;

/** What a budget's refusal looks like in an acknowledgement. */
const overBudget = {
  ok: false,
  message: expect.stringMatching(/^Too many attempts/),
  retryAfter: expect.any(Number),
};

/** Emits `event` with an acknowledgement that is recorded when (if ever) it comes. */
const emitRecorded = (socket: ChatClient, event: string, payload: unknown, answers: Ack[]) =>
  (socket as unknown as { emit(name: string, ...args: unknown[]): void }).emit(
    event,
    payload,
    (answer: Ack) => answers.push(answer),
  );

describe.each(testDatabaseKinds())('socket event budgets on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  const open: ChatClient[] = [];
  let counter = 0;

  const connect = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const enter = async (socket: ChatClient, roomName: string) => {
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
    await history;
  };
  /** A message from `speaker` reaches `hearer`, both acknowledged and delivered. */
  const roomWorks = async (speaker: ChatClient, hearer: ChatClient, room: string) => {
    const text = `as usual ${++counter}`;
    const heard = new Promise<ChatMessage>((resolve) => {
      const listener = (message: ChatMessage) => {
        if (message.content !== text) return;
        hearer.off('receive_message', listener);
        resolve(message);
      };
      hearer.on('receive_message', listener);
    });
    expect(await emitAck(speaker, 'send_message', { room, message: text })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect((await heard).content).toBe(text);
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    url = await listenOnFreePort(testApp);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('refuses most of 3,000 joins from one socket at once and closes it, while a member of the same room chats on', async () => {
    const member = await signedInPerson(testApp);
    const other = await signedInPerson(testApp);
    const mallory = await signedInPerson(testApp);
    const speaker = await connect(member);
    const hearer = await connect(other);
    const room = `Busy ${kind}`;
    expect(await emitAck(speaker, 'create_room', { roomName: room })).toEqual({ ok: true });
    await enter(speaker, room);
    await enter(hearer, room);
    const flooder = await connect(mallory);
    await enter(flooder, room);
    const warn = vi.spyOn(testApp.app.log, 'warn');

    const closed = new Promise<string>((resolve) => flooder.once('disconnect', resolve));
    const answers: Ack[] = [];
    const statements = countStatements();
    for (let sent = 0; sent < 3_000; sent += 1) {
      emitRecorded(flooder, 'join_room', { roomName: room }, answers);
    }
    // The member in the same room notices nothing, during the flood and after it.
    await roomWorks(speaker, hearer, room);
    expect(await closed).toBe('io server disconnect');
    await roomWorks(hearer, speaker, room);
    statements.stop();

    const accepted = answers.filter((answer) => answer.ok);
    const refused = answers.filter((answer) => !answer.ok);
    // The rest of the socket's bucket was taken; then refusals until it was closed.
    expect(accepted.length).toBeLessThanOrEqual(joins.socket.burst);
    expect(refused).toHaveLength(SOCKET_REFUSALS_MAX + 1);
    for (const answer of refused) expect(answer).toEqual(overBudget);
    // The other 2,960 or so were never handled: the socket was closed under them.
    expect(answers.length).toBeLessThan(50);
    // A few statements per accepted join and the members' messages; nothing per refusal.
    expect(statements.count).toBeLessThan(12 * joins.socket.burst);
    // One warning for the socket, not one per event.
    const closings = warn.mock.calls.filter(([, message]) =>
      String(message).includes('kept sending'),
    );
    expect(closings).toHaveLength(1);
    warn.mockRestore();
    expect(speaker.connected && hearer.connected).toBe(true);
    // Reconnecting at once would start the flood again: the person is kept out for a while.
    await expect(connect(mallory)).rejects.toThrow(/^Too many attempts/);
  });

  it('answers a refusal before any work: no database, the retry time, and chat_error without an ack', async () => {
    const person = await signedInPerson(testApp);
    const socket = await connect(person);
    // Reports from outside a room are refused by the handler, but they spend the budget.
    for (let reported = 0; reported < moderation.socket.burst; reported += 1) {
      const answer = await emitAck(socket, 'report_abuse', { roomName: 'Nowhere' });
      expect(answer.ok).toBe(false);
      expect(answer).not.toEqual(overBudget);
    }
    // A room that does not exist: the handler would look it up and say so; the budget answers first.
    const statements = countStatements();
    const refused = await emitAck(socket, 'lift_restriction', { roomName: 'Nowhere' });
    statements.stop();
    expect(refused).toEqual(overBudget);
    const { retryAfter } = refused as { retryAfter: number };
    expect(retryAfter).toBeGreaterThan(moderation.socket.refillMs / 1000 - 10);
    expect(retryAfter).toBeLessThanOrEqual(moderation.socket.refillMs / 1000);
    expect(statements.count).toBe(0);
    const error = nextEvent(socket, 'chat_error');
    socket.emit('report_abuse', { roomName: 'Nowhere' });
    expect((await error)[0]).toEqual({ message: expect.stringMatching(/^Too many attempts/) });

    // A person who waits as told gets in again.
    const room = `Quiet ${kind}`;
    expect(await emitAck(socket, 'create_room', { roomName: room })).toEqual({ ok: true });
    const answers = await Promise.all(
      Array.from({ length: joins.socket.burst + 5 }, () =>
        emitAck(socket, 'join_room', { roomName: room }),
      ),
    );
    const late = answers.find((answer) => !answer.ok) as { retryAfter: number };
    expect(late).toEqual(overBudget);
    await new Promise((resolve) => setTimeout(resolve, late.retryAfter * 1000));
    expect(await emitAck(socket, 'join_room', { roomName: room })).toEqual({ ok: true });
    expect(socket.connected).toBe(true);
  });

  it('gives twenty sockets of one person one budget between them', async () => {
    const person = await signedInPerson(testApp);
    const owner = await connect(await signedInPerson(testApp));
    const room = `Many tabs ${kind}`;
    expect(await emitAck(owner, 'create_room', { roomName: room })).toEqual({ ok: true });
    const sockets = await Promise.all(Array.from({ length: 20 }, () => connect(person)));
    const started = performance.now();
    const answers = await Promise.all(
      sockets.flatMap((socket) =>
        Array.from({ length: joins.socket.burst }, () =>
          emitAck(socket, 'join_room', { roomName: room }),
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const accepted = answers.filter((answer) => answer.ok).length;
    // The person's burst, and what refilled while the test ran; not 20 sockets' worth (400).
    expect(accepted).toBeGreaterThanOrEqual(joins.person.burst);
    expect(accepted).toBeLessThanOrEqual(
      joins.person.burst + Math.ceil((seconds * 1000) / joins.person.refillMs) + 1,
    );
    for (const answer of answers.filter((candidate) => !candidate.ok)) {
      expect(answer).toEqual(overBudget);
    }
    // Each socket was refused fewer times than would close it.
    expect(sockets.every((socket) => socket.connected)).toBe(true);
  });

  it('refuses room creation and reports over their budgets, and nothing is created', async () => {
    const person = await signedInPerson(testApp);
    const socket = await connect(person);
    const names = Array.from(
      { length: rooms.person.burst + 1 },
      (_, index) => `Mine ${index} ${kind}`,
    );
    for (const roomName of names.slice(0, -1)) {
      expect(await emitAck(socket, 'create_room', { roomName })).toEqual({ ok: true });
    }
    // Another socket of the same person shares the budget.
    const second = await connect(person);
    const refused = await emitAck(second, 'create_room', { roomName: names.at(-1)! });
    expect(refused).toEqual(overBudget);
    expect((refused as { retryAfter: number }).retryAfter).toBeGreaterThan(60);
    const created = await testApp.database.db
      .selectFrom('chat_rooms')
      .select('name')
      .where('name', '=', names.at(-1)!)
      .execute();
    expect(created).toEqual([]);

    // Reports and lifts share a budget; whatever the moderation rules answer, the budget's
    // refusal comes after five.
    await enter(socket, names[0]!);
    for (let reported = 0; reported < moderation.person.burst; reported += 1) {
      const event = reported % 2 === 0 ? 'report_abuse' : 'lift_restriction';
      expect(await emitAck(socket, event, { roomName: names[0]! })).not.toEqual(overBudget);
    }
    expect(await emitAck(socket, 'report_abuse', { roomName: names[0]! })).toEqual(overBudget);
    expect(await emitAck(second, 'lift_restriction', { roomName: names[0]! })).toEqual(overBudget);
    // Joining is a budget of its own.
    await enter(second, names[1]!);
  });

  it('gives a librarian room to clear up: ten times the rooms budget', async () => {
    const desk = await connect(await signedInPerson(testApp, 'librarian'));
    for (let made = 0; made < rooms.person.burst * rooms.staffFactor; made += 1) {
      expect(await emitAck(desk, 'create_room', { roomName: `Desk ${made} ${kind}` })).toEqual({
        ok: true,
      });
    }
    expect(await emitAck(desk, 'close_room', { roomName: `Desk 0 ${kind}` })).toEqual(overBudget);
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))(
  'socket event budgets on two server processes',
  () => {
    const servers: ServerProcess[] = [];
    const sockets: ChatClient[] = [];
    afterAll(async () => {
      for (const socket of sockets) socket.close();
      for (const server of servers) await server.stop('SIGTERM');
    });

    it('counts a person’s room creations on both processes together', async () => {
      const env = { DATABASE_URL: await createPostgresDatabase(), DEMO_DATA: 'false' };
      const [one, two] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
      servers.push(one!, two!);
      const cookie = await registerOn(one!);
      const onOne = await connectChat(one!.url, cookie, one!.url);
      const onTwo = await connectChat(two!.url, cookie, two!.url);
      sockets.push(onOne, onTwo);
      // Each process hears the other's heartbeat (every 5 s) before it counts in the database.
      await new Promise((resolve) => setTimeout(resolve, 6_000));

      const create = (socket: ChatClient, index: number) =>
        emitAck(socket, 'create_room', { roomName: `Spread ${index}` });
      // The budget spread over both: each process's memory saw only part of it.
      for (let index = 0; index < rooms.person.burst; index += 1) {
        expect(await create(index % 2 === 0 ? onOne : onTwo, index)).toEqual({ ok: true });
      }
      expect(await create(onOne, 100)).toEqual(overBudget);
      expect(await create(onTwo, 101)).toEqual(overBudget);
      // A second socket on either process is the same person.
      const again = await connectChat(two!.url, cookie, two!.url);
      sockets.push(again);
      expect(await create(again, 102)).toEqual(overBudget);
    }, 120_000);
  },
);
