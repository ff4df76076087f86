import { useEffect, useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';
import { SOCKET_DEFAULTS } from '#contract/limits.ts';
import type {
  Ack,
  ClientToServerEvents,
  RoomSummary,
  ServerToClientEvents,
} from '#contract/socket/chat.ts';

/** The forum's socket, typed by the contract's event maps. */
export type ChatSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * The state of the live connection as the screens show it. `refused`: the server turned the
 * connection away (not signed in) and retrying will not help; `message` is its sentence.
 */
export type ChatConnection =
  { status: 'connecting' | 'connected' | 'reconnecting' } | { status: 'refused'; message: string };

/** Client → server events that carry a payload and are answered by an acknowledgement. */
export type ChatRequestEvent = Exclude<keyof ClientToServerEvents, 'leave_room' | 'unread_counts'>;
/** The payload of one `ChatRequestEvent`. */
export type ChatRequestPayload<Event extends ChatRequestEvent> = Parameters<
  ClientToServerEvents[Event]
>[0];

/** Shown when an event is attempted while the socket is down (it would be buffered otherwise). */
export const OFFLINE_MESSAGE =
  'The chat is not connected right now. Please wait for it to reconnect and try again.';
/** Shown when the server does not acknowledge within `ACK_TIMEOUT_MS`. */
export const NO_ANSWER_MESSAGE =
  'The chat server did not answer. Please check your connection and try again.';
const REFUSED_FALLBACK = 'The chat could not connect. Please reload the page.';

/** How long an acknowledgement may take: the spec's connection time-out. */
const ACK_TIMEOUT_MS = SOCKET_DEFAULTS.timeout;
/**
 * Moving from the forum to a room unmounts one chat screen just before mounting the next; the
 * socket stays open this long after the last one goes, so that hop is not a reconnect.
 */
const CLOSE_GRACE_MS = 2_000;

let socket: ChatSocket | null = null;
let users = 0;
let closeTimer: ReturnType<typeof setTimeout> | undefined;
let connection: ChatConnection = { status: 'connecting' };
let rooms: RoomSummary[] | null = null;
const subscribers = new Set<() => void>();

function notify() {
  for (const subscriber of subscribers) subscriber();
}

function setConnection(next: ChatConnection) {
  connection = next;
  notify();
}

function subscribe(subscriber: () => void) {
  subscribers.add(subscriber);
  return () => {
    subscribers.delete(subscriber);
  };
}

/**
 * The one shared socket, created on first use and not connected until a chat screen mounts
 * (`useChatConnection`) or the top bar's bell holds it (`holdChatSocket`). Same origin, so the
 * session cookie is what signs it in.
 */
export function getChatSocket(): ChatSocket {
  if (socket) return socket;
  const created: ChatSocket = io({ path: '/socket.io', autoConnect: false, ...SOCKET_DEFAULTS });
  created.on('connect', () => setConnection({ status: 'connected' }));
  created.on('disconnect', (reason) => {
    // Our own close (the last chat screen went away) is not a connection problem.
    if (reason === 'io client disconnect') return;
    if (reason === 'io server disconnect') {
      // The server dropped us (a restart, a deploy); Socket.IO does not retry that on its own.
      // An ended session then comes back as a refused `connect_error` with its sentence.
      setTimeout(() => {
        if (users > 0 && !created.active) created.connect();
      }, SOCKET_DEFAULTS.reconnectionDelay);
    }
    setConnection({ status: 'reconnecting' });
  });
  created.on('connect_error', (error) => {
    // Not `active` means the server refused the handshake (not signed in): no retry is coming.
    // Otherwise the server is out of reach and Socket.IO keeps trying with back-off.
    setConnection(
      created.active
        ? { status: 'reconnecting' }
        : { status: 'refused', message: error.message || REFUSED_FALLBACK },
    );
  });
  created.on('available_rooms', (list) => {
    rooms = list;
    notify();
  });
  socket = created;
  return created;
}

function acquire() {
  const current = getChatSocket();
  users += 1;
  clearTimeout(closeTimer);
  closeTimer = undefined;
  if (!current.connected && !current.active) {
    if (connection.status === 'refused') setConnection({ status: 'connecting' });
    current.connect();
  }
}

function release() {
  users -= 1;
  if (users > 0) return;
  closeTimer = setTimeout(() => {
    closeTimer = undefined;
    if (users > 0) return;
    socket?.disconnect();
    // The next chat screen starts afresh: the server pushes the room list again on connect.
    rooms = null;
    setConnection({ status: 'connecting' });
  }, CLOSE_GRACE_MS);
}

/**
 * Keeps the shared socket connected until the returned function is called, for a listener that
 * is not a chat screen: the top bar's bell holds it while someone is signed in, to hear of new
 * notices (issue 21). Chat screens then find it connected; calling the release twice is harmless.
 */
export function holdChatSocket(): () => void {
  acquire();
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    release();
  };
}

/**
 * Keeps the shared socket connected while the calling screen is mounted (the spec's "opens when
 * the chat context mounts") and returns the connection state to show.
 */
export function useChatConnection(): ChatConnection {
  useEffect(() => {
    acquire();
    return release;
  }, []);
  return useSyncExternalStore(subscribe, () => connection);
}

/** The latest `available_rooms` push, or null until the first one arrives. */
export function useAvailableRooms(): RoomSummary[] | null {
  return useSyncExternalStore(subscribe, () => rooms);
}

/**
 * Emits `event` and resolves with the server's acknowledgement. It never rejects: offline, a
 * lost answer and a refusal all come back as `{ ok: false, message }` with a sentence to show.
 * While disconnected nothing is emitted, because Socket.IO would otherwise buffer the event and
 * send it after reconnecting, perhaps after the person has already tried again.
 */
export function chatRequest<Event extends ChatRequestEvent>(
  event: Event,
  payload: ChatRequestPayload<Event>,
): Promise<Ack> {
  const current = getChatSocket();
  if (!current.connected) return Promise.resolve({ ok: false, message: OFFLINE_MESSAGE });
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ ok: false, message: NO_ANSWER_MESSAGE }),
      ACK_TIMEOUT_MS,
    );
    // Socket.IO's typings cannot check a generic event name against its argument list.
    const emit = current.emit.bind(current) as (
      name: Event,
      body: ChatRequestPayload<Event>,
      ack: (answer: Ack) => void,
    ) => void;
    emit(event, payload, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

/** Leaves the room this socket is in (no acknowledgement needed: leaving cannot be refused). */
export function leaveChatRoom(): void {
  const current = getChatSocket();
  if (current.connected) current.emit('leave_room');
}
