import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type {
  Ack,
  ChatMessage,
  ClientToServerEvents,
  RoomHistoryInfo,
  RoomMetadata,
  ServerToClientEvents,
} from '#contract/socket/chat.ts';
import type { SocketBudgets } from '../chat/event-budget.ts';
import type { DatabaseKind } from '../db/client.ts';
import { createTestApp, type TestApp } from './app.ts';
import type { SignedInPerson } from './factories.ts';

/** A typed chat client socket. */
export type ChatClient = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Makes the test app listen on a free loopback port and returns its URL. */
export async function listenOnFreePort(testApp: TestApp): Promise<string> {
  if (!testApp.app.server.listening) await testApp.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(testApp.app.server.address() as AddressInfo).port}`;
}

/**
 * A socket.io-client connection as a browser with `cookie` would open it (from `origin`),
 * connected; rejects with the server's reason when the connection is refused.
 */
export async function connectChat(
  url: string,
  cookie: string,
  origin: string,
  options: { reconnection?: boolean } = {},
): Promise<ChatClient> {
  const socket: ChatClient = io(url, {
    transports: ['websocket'],
    reconnection: options.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 200,
    extraHeaders: { origin, ...(cookie ? { cookie } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    // Each listener removes the other: a later connect_error (while reconnecting after a
    // server restart) must not close a socket that connected.
    const refused = (error: Error) => {
      socket.off('connect', connected);
      socket.close();
      reject(error);
    };
    const connected = () => {
      socket.off('connect_error', refused);
      resolve();
    };
    socket.once('connect', connected);
    socket.once('connect_error', refused);
  });
  return socket;
}

/** Emits `event` and waits for its acknowledgement (5 s at most). */
export function emitAck<Event extends keyof ClientToServerEvents>(
  socket: ChatClient,
  event: Event,
  ...args: Parameters<ClientToServerEvents[Event]> extends [infer Payload, unknown?]
    ? [Payload]
    : []
): Promise<Ack> {
  // socket.io's typings cannot follow the optional ack through the generic; the call is checked above.
  const timed = socket.timeout(5_000) as unknown as {
    emitWithAck(name: string, ...rest: unknown[]): Promise<Ack>;
  };
  return timed.emitWithAck(event, ...args);
}

/** The next `event` the socket receives, as its argument list (5 s at most). */
export function nextEvent<Event extends keyof ServerToClientEvents>(
  socket: ChatClient,
  event: Event,
  timeoutMs = 5_000,
): Promise<Parameters<ServerToClientEvents[Event]>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const listener = (...args: unknown[]) => {
      clearTimeout(timer);
      resolve(args as Parameters<ServerToClientEvents[Event]>);
    };
    (socket as unknown as { once(name: string, fn: (...args: unknown[]) => void): void }).once(
      event,
      listener,
    );
  });
}

/** Waits until `predicate` holds for an `available_rooms` push (or the first one that already does). */
export function roomsWhere(
  socket: ChatClient,
  predicate: (rooms: Parameters<ServerToClientEvents['available_rooms']>[0]) => boolean,
  timeoutMs = 5_000,
) {
  return new Promise<Parameters<ServerToClientEvents['available_rooms']>[0]>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('available_rooms', listener);
      reject(new Error(`no matching available_rooms within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (rooms: Parameters<ServerToClientEvents['available_rooms']>[0]) => {
      if (!predicate(rooms)) return;
      clearTimeout(timer);
      socket.off('available_rooms', listener);
      resolve(rooms);
    };
    socket.on('available_rooms', listener);
  });
}

/** What a join hands back: the `room_history` payload and the `room_metadata` that follows it. */
export interface JoinedRoom {
  history: ChatMessage[];
  info: RoomHistoryInfo | undefined;
  metadata: RoomMetadata;
}

/** The accessors `twoProcessChat` returns; the apps and URLs exist from its `beforeAll` on. */
export interface TwoProcessChat {
  /** The app the tests sign people up on and read the database through. */
  readonly app: TestApp;
  /** The second process on the same database (on PGlite, `app` itself: see `twoProcessChat`). */
  readonly other: TestApp;
  readonly url: string;
  /** Where a socket connects to be on the other process; on PGlite it is `url`. */
  readonly otherUrl: string;
  /** `person`'s chat socket, on `app` unless `at` says otherwise; closed after each test. */
  connect(person: SignedInPerson, at?: string): Promise<ChatClient>;
  /** Joins `roomName` (resuming `after` a message id if given), expecting the join to succeed. */
  join(socket: ChatClient, roomName: string, options?: { after?: string }): Promise<JoinedRoom>;
}

/**
 * The realtime tests' two processes on one database, for use inside a `describe`: it registers
 * the hooks that start both apps listening (`beforeAll`), close the sockets `connect` opened
 * (`afterEach`) and close both apps (`afterAll`). A test file's own `beforeAll` runs after it.
 *
 * On PostgreSQL `other` is a second app on the same database, so what crosses processes (the
 * adapter's broadcasts, the rules read from the database, each process's caches) is tested as it
 * runs in production. On PGlite `other` is `app`: PGlite is one process per data folder, so a
 * second app on it is a set-up production never has, and with it a socket that must hear a live
 * broadcast had to be steered to the first one. With one app, `otherUrl` is where such a socket
 * goes on both engines; the cross-process claims are proven on PostgreSQL.
 */
export function twoProcessChat(
  kind: DatabaseKind,
  options: { socketBudgets?: SocketBudgets } = {},
): TwoProcessChat {
  let app: TestApp | undefined;
  let other: TestApp | undefined;
  let url: string | undefined;
  let otherUrl: string | undefined;
  const open: ChatClient[] = [];
  // Read at describe time (a getter destructured there, say), nothing is started yet: say so.
  const started = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`twoProcessChat: ${name} is set in its beforeAll`);
    return value;
  };

  beforeAll(async () => {
    app = await createTestApp(kind, options);
    other =
      kind === 'postgres' ? await createTestApp(kind, { ...options, database: app.database }) : app;
    url = await listenOnFreePort(app);
    otherUrl = await listenOnFreePort(other);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    // The second app shares the first one's database: only the first closes it.
    if (other !== app) await other?.app.close();
    await app?.close();
  });

  return {
    get app() {
      return started(app, 'app');
    },
    get other() {
      return started(other, 'other');
    },
    get url() {
      return started(url, 'url');
    },
    get otherUrl() {
      return started(otherUrl, 'otherUrl');
    },
    async connect(person, at) {
      const origin = started(app, 'app').config.publicUrl;
      const socket = await connectChat(
        at ?? started(url, 'url'),
        person.client.cookieHeader(),
        origin,
      );
      open.push(socket);
      return socket;
    },
    async join(socket, roomName, { after } = {}) {
      // A successful join always sends both, history first, before its acknowledgement.
      const history = nextEvent(socket, 'room_history');
      const metadata = nextEvent(socket, 'room_metadata');
      // A refused join must fail the test once, not also leave two rejections unhandled.
      void Promise.allSettled([history, metadata]);
      expect(
        await emitAck(socket, 'join_room', after ? { roomName, after } : { roomName }),
      ).toEqual({
        ok: true,
      });
      const [messages, info] = await history;
      return { history: messages, info, metadata: (await metadata)[0] };
    },
  };
}
