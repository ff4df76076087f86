import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { Ack, ClientToServerEvents, ServerToClientEvents } from '#contract/socket/chat.ts';
import type { TestApp } from './app.ts';

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
