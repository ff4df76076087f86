import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server, Socket } from 'socket.io';
import type { Moderator } from '#contract/moderation.ts';
import type { Ack, ClientToServerEvents, ServerToClientEvents } from '#contract/socket/chat.ts';
import type { EventBudget } from '../../chat/event-budget.ts';
import type { RoomWords } from '../../chat/room-words.ts';
import type { SendRate } from '../../chat/send-rate.ts';
import { findRoom, type createMessageWriter, type RoomRow } from '../../chat/store.ts';
import type { Database } from '../../db/schema.ts';
import { Refusal } from '../../refusal.ts';
import type { SocketUser } from '../socket-user.ts';
import type { Presence } from './presence.ts';
import type { RoomActivity } from './room-activity.ts';
import { emailNotVerified } from '../../auth/email-verification.ts';
import { isEmailVerified } from '../../users/store.ts';

/** What the server keeps on each socket. */
export interface ChatSocketData {
  user: SocketUser;
  /** The room this socket is in, if any (one at a time, as `leave_room` has no payload). */
  room?: { id: string; name: string };
}

/** The Socket.IO server, typed by the contract's event maps. */
export type ChatServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  ChatSocketData
>;

/** One connection to {@link ChatServer}. */
export type ChatSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  ChatSocketData
>;

/** What every event group shares in one process (`mountChat` builds it once). */
export interface ChatContext {
  io: ChatServer;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  now: () => Date;
  /** This process, in `chat_servers` and `chat_presence`. */
  serverId: string;
  moderator: Moderator;
  writer: ReturnType<typeof createMessageWriter>;
  sendRate: SendRate;
  /** Rooms' own word lists (decision 040), read again every two seconds. */
  roomWords: RoomWords;
  /** The budgets of every other event, per socket and per person (issue 19). */
  eventBudget: EventBudget;
  /** Sends every client the room list soon, once for a burst of changes. */
  pushRooms: () => void;
  /** Settles once this process has beaten, so that its own members count in a room list. */
  ready: Promise<void>;
  /** Who is in each room, pushed to its members at most every two seconds (decision 044). */
  presence: Presence;
  /** Rooms with new messages, told to the room list's watchers every two seconds at most (042). */
  roomActivity: RoomActivity;
}

/** Registers a handler of a client event: it answers the ack, or `chat_error` when there is none. */
export type On = (
  event: keyof ClientToServerEvents,
  handler: (payload: unknown) => Promise<Ack | void>,
  options?: OnOptions,
) => void;

/** How an event's answer goes back. */
export interface OnOptions {
  /**
   * A successful answer may wait for the next write to the socket (`sendUnhurried`,
   * `fan-out.ts`): an answer the person's own tab has no hurry for. Refusals go at once.
   */
  unhurriedAnswer?: boolean;
}

/** One socket, as each event group's handlers see it. */
export interface ChatConnection {
  socket: ChatSocket;
  user: SocketUser;
  on: On;
}

/** The Socket.IO room of a chat room (by id: names may hold any character). */
export const channel = (roomId: string) => `chat:${roomId}`;

/** What a person is told about a room closed under them. */
export const ROOM_GONE = 'This room does not exist any more. It may have been closed.';

/** The room called `name`; else a refusal saying it is gone. */
export async function existingRoom(db: Kysely<Database>, name: string): Promise<RoomRow> {
  const room = await findRoom(db, name);
  if (!room) throw new Refusal(404, ROOM_GONE);
  return room;
}

/** The room this socket joined, if it is the one named; else a refusal saying `refusal`. */
export function joinedRoom(socket: ChatSocket, name: string, refusal: string) {
  const joined = socket.data.room;
  if (!joined || joined.name.toLowerCase() !== name.toLowerCase()) throw new Refusal(403, refusal);
  return joined;
}

/**
 * Refuses creating a room or sending a message to an account whose e-mail address is not verified
 * (decision 026). A link opened since the socket connected counts: only then is the row read.
 */
export async function requireVerifiedSender(db: Kysely<Database>, user: SocketUser): Promise<void> {
  if (user.emailVerified) return;
  user.emailVerified = await isEmailVerified(db, user.id);
  if (!user.emailVerified) throw emailNotVerified(user.email);
}

/** True when `user` may close or lift the restriction of `room`. */
export const mayManage = (user: SocketUser, room: RoomRow) =>
  room.creator_id === user.id || user.role === 'librarian';
