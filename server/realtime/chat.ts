import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server, Socket } from 'socket.io';
import type { z } from 'zod';
import { createModerator } from '../../contract/moderation.ts';
import {
  CHAT_TEXT,
  closeRoomSchema,
  createRoomSchema,
  joinRoomSchema,
  liftRestrictionSchema,
  loadHistorySchema,
  reportAbuseSchema,
  MESSAGE_RATE_LIMIT,
  OPEN_ROOMS_PER_PERSON_MAX,
  MESSAGE_RATE_WINDOW_MS,
  sendMessageSchema,
  type Ack,
  type RoomHistoryInfo,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '../../contract/socket/chat.ts';
import {
  beat,
  countRoomsCreatedBy,
  createRoom,
  deleteRoom,
  enterRoom,
  exitRoom,
  findRoom,
  forgetServers,
  createMessageWriter,
  listRooms,
  roomHistory,
  SERVER_STALE_MS,
  setRestricted,
  takeSendSlot,
  type RoomRow,
} from '../chat/store.ts';
import type { Database } from '../db/schema.ts';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/unavailable.ts';
import { presentMessage, presentRoom, presentRoomMetadata } from '../presenters/chat.ts';
import { unstorableText } from '../http/errors.ts';
import { Refusal } from '../refusal.ts';
import { heardFromOtherProcesses } from './adapter.ts';
import type { SocketUser } from './index.ts';

/** What the server keeps on each socket. */
export interface ChatSocketData {
  user: SocketUser;
  /** The room this socket is in, if any (one at a time, as `leave_room` has no payload). */
  room?: { id: string; name: string };
}

export type ChatServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  ChatSocketData
>;
type ChatSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  ChatSocketData
>;

/** The Socket.IO room of a chat room (by id: names may hold any character). */
const channel = (roomId: string) => `chat:${roomId}`;

/** How often this process proves it is alive, for the member counts. */
const HEARTBEAT_MS = 10_000;

/** The refusal of a message over the rate. */
const TOO_FAST = `You are sending messages too fast: at most ${MESSAGE_RATE_LIMIT} every ${MESSAGE_RATE_WINDOW_MS / 1000} seconds. Please wait a moment.`;

/** `available_rooms` goes out at most this often; a burst of joins becomes one push. */
const ROOMS_PUSH_DELAY_MS = 150;

/** The schema of each client event's payload (`leave_room` has none). */
export const PAYLOAD_SCHEMAS = {
  create_room: createRoomSchema,
  join_room: joinRoomSchema,
  send_message: sendMessageSchema,
  close_room: closeRoomSchema,
  load_history: loadHistorySchema,
  lift_restriction: liftRestrictionSchema,
  report_abuse: reportAbuseSchema,
} as const satisfies Partial<Record<keyof ClientToServerEvents, z.ZodType>>;

type PayloadEvent = keyof typeof PAYLOAD_SCHEMAS;

/**
 * The payload of a client event, parsed; anything else is a {@link Refusal} whose message the
 * person sees: the first problem the schema names, or why the database could not store the text.
 */
export function parsePayload<Event extends PayloadEvent>(
  event: Event,
  payload: unknown,
): z.infer<(typeof PAYLOAD_SCHEMAS)[Event]> {
  const result = PAYLOAD_SCHEMAS[event].safeParse(payload);
  if (!result.success)
    throw new Refusal(400, result.error.issues[0]?.message ?? 'Invalid request.');
  // The same rule as HTTP input: text the database cannot store is refused, not a failed insert.
  const bad = unstorableText(result.data);
  if (bad) throw new Refusal(400, bad.message);
  return result.data as z.infer<(typeof PAYLOAD_SCHEMAS)[Event]>;
}

/**
 * The discussion forum over Socket.IO: rooms and messages in the database (an acknowledged
 * message survives a restart), the server deciding who sends and who owns a room, abuse checked
 * with the shared matcher before anything is stored, and a per-person message rate.
 */
export function mountChat(
  io: ChatServer,
  options: {
    db: Kysely<Database>;
    log: FastifyBaseLogger;
    moderationWords: readonly string[];
    now?: () => Date;
  },
) {
  const { db, log } = options;
  const now = options.now ?? (() => new Date());
  const serverId = randomUUID();
  const moderator = createModerator(options.moderationWords);
  const recent = new Map<string, number[]>();
  const writer = createMessageWriter(db);

  let pushTimer: NodeJS.Timeout | undefined;
  /** Sends every client the room list soon, once for a burst of changes. */
  const pushRooms = () => {
    if (pushTimer) return;
    pushTimer = setTimeout(() => {
      pushTimer = undefined;
      listRooms(db, now())
        .then((rows) => io.emit('available_rooms', rows.map(presentRoom)))
        .catch((error: unknown) => log.warn({ err: error }, 'could not push the room list'));
    }, ROOMS_PUSH_DELAY_MS);
  };

  const heartbeat = async () => {
    const at = now();
    await beat(db, serverId, at);
    await forgetServers(db, { staleBefore: new Date(at.getTime() - 10 * SERVER_STALE_MS) });
  };
  // Room lists wait for the first beat, so this process's members count from the start.
  const ready = heartbeat().catch((error: unknown) =>
    log.warn({ err: error }, 'chat heartbeat failed'),
  );
  const timer = setInterval(() => {
    heartbeat().catch((error: unknown) => log.warn({ err: error }, 'chat heartbeat failed'));
    forgetQuietSenders();
  }, HEARTBEAT_MS);
  timer.unref();

  /** True when `user` may close or lift the restriction of `room`. */
  const mayManage = (user: SocketUser, room: RoomRow) =>
    room.creator_id === user.id || user.role === 'librarian';

  const existing = async (name: string) => {
    const room = await findRoom(db, name);
    if (!room)
      throw new Refusal(404, 'This room does not exist any more. It may have been closed.');
    return room;
  };

  /**
   * Restricts a room for everyone in it and tells them (`abuse_detected`, `room_metadata`, the
   * room list). False when it already was restricted: nothing changes and nobody is told again.
   */
  const restrict = async (name: string) => {
    const room = await existing(name);
    if (room.abuse_detected) return false;
    await setRestricted(db, room.id, true);
    io.to(channel(room.id)).emit('abuse_detected', { roomName: room.name });
    io.to(channel(room.id)).emit(
      'room_metadata',
      presentRoomMetadata({ ...room, abuse_detected: true }),
    );
    pushRooms();
    return true;
  };

  /**
   * True while other processes share this database (the cluster adapter has heard from one):
   * then a person's message rate is also counted in the database, since they may be connected to
   * several processes at once (decision 014). Alone, memory is enough and costs no write.
   */
  const sharingRate = () => heardFromOtherProcesses(io.of('/').adapter);

  /** The person may send one more message now (a sliding window per person, this process). */
  const withinRate = (userId: string) => {
    const at = Date.now();
    const times = (recent.get(userId) ?? []).filter((time) => at - time < MESSAGE_RATE_WINDOW_MS);
    if (times.length >= MESSAGE_RATE_LIMIT) {
      recent.set(userId, times);
      return false;
    }
    times.push(at);
    recent.set(userId, times);
    return true;
  };

  /** Drops the send times of people who sent nothing within the window (they count for nothing). */
  const forgetQuietSenders = () => {
    const at = Date.now();
    for (const [userId, times] of recent) {
      if (times.every((time) => at - time >= MESSAGE_RATE_WINDOW_MS)) recent.delete(userId);
    }
  };

  const leave = async (socket: ChatSocket) => {
    const room = socket.data.room;
    if (!room) return;
    socket.data.room = undefined;
    await socket.leave(channel(room.id));
    await exitRoom(db, socket.id);
    pushRooms();
  };

  io.on('connection', (socket: ChatSocket) => {
    const user = socket.data.user;
    /** This socket's last database rate check (see `send_message`). */
    let slotChecks: Promise<boolean> = Promise.resolve(true);

    /** The name the person chose in the forum may have changed since they connected. */
    const refreshName = async () => {
      const row = await db
        .selectFrom('users')
        .select(['chat_username', 'first_name'])
        .where('id', '=', user.id)
        .executeTakeFirst();
      if (row) user.chatName = row.chat_username ?? row.first_name;
    };

    /** The room this socket joined, if it is the one named; else a refusal saying `refusal`. */
    const joinedRoom = (name: string, refusal: string) => {
      const joined = socket.data.room;
      if (!joined || joined.name.toLowerCase() !== name.toLowerCase())
        throw new Refusal(403, refusal);
      return joined;
    };

    /** What the person is told when an event fails; only unexpected failures are logged as errors. */
    const failureMessage = (error: unknown, event: string) => {
      if (error instanceof Refusal) return error.message;
      if (isDatabaseUnavailable(error)) {
        log.warn({ err: error, event }, 'chat event failed: the database is unavailable');
        return DATABASE_UNAVAILABLE_MESSAGE;
      }
      log.error({ err: error, event }, 'chat event failed');
      return 'Something went wrong on our side. Please try again.';
    };

    /** Registers a handler: parses, answers the ack, or `chat_error` when there is none. */
    const on = (
      event: keyof ClientToServerEvents,
      handler: (payload: unknown) => Promise<Ack | void>,
    ) => {
      socket.on(event, async (...args: unknown[]) => {
        const ack = typeof args.at(-1) === 'function' ? (args.pop() as (a: Ack) => void) : null;
        let answer: Ack;
        try {
          answer = (await handler(args[0])) ?? { ok: true };
        } catch (error) {
          answer = { ok: false, message: failureMessage(error, event) };
        }
        if (ack) ack(answer);
        else if (!answer.ok) socket.emit('chat_error', { message: answer.message });
      });
    };

    void ready
      .then(() => listRooms(db, now()))
      .then((rows) => socket.emit('available_rooms', rows.map(presentRoom)))
      .catch((error: unknown) => log.warn({ err: error }, 'could not send the room list'));

    on('create_room', async (payload) => {
      const body = parsePayload('create_room', payload);
      // Rooms stay until closed and every socket receives the list: one person cannot grow it
      // without bound. (Two creations at the same instant may both pass; the bound holds roughly.)
      if (
        user.role !== 'librarian' &&
        (await countRoomsCreatedBy(db, user.id)) >= OPEN_ROOMS_PER_PERSON_MAX
      ) {
        throw new Refusal(429, CHAT_TEXT.tooManyRooms);
      }
      await refreshName();
      const room = await createRoom(db, {
        name: body.roomName,
        description: body.description,
        creatorId: user.id,
        creatorName: user.chatName,
      });
      if (!room) throw new Refusal(409, CHAT_TEXT.duplicateRoom);
      pushRooms();
    });

    on('join_room', async (payload) => {
      const body = parsePayload('join_room', payload);
      const room = await existing(body.roomName);
      await refreshName();
      if (socket.data.room?.id !== room.id) {
        await leave(socket);
        await socket.join(channel(room.id));
        socket.data.room = { id: room.id, name: room.name };
      }
      await enterRoom(db, { socketId: socket.id, serverId, roomId: room.id, userId: user.id });
      let history = await roomHistory(db, room.id, body.after ? { after: body.after } : {});
      let info: RoomHistoryInfo = { roomName: room.name, hasMore: history.hasMore };
      if (body.after && !history.hasMore) {
        // A catch-up says nothing of older messages: the client holds them.
        info = { roomName: room.name, hasMore: false };
      } else if (body.after) {
        // Too much was missed to send: start over from the latest page, as a first join does.
        history = await roomHistory(db, room.id);
        info = { roomName: room.name, hasMore: history.hasMore, replace: true };
      }
      socket.emit(
        'room_history',
        history.messages.map((message) => presentMessage(message, room.name)),
        info,
      );
      socket.emit('room_metadata', presentRoomMetadata(room));
      pushRooms();
    });

    on('leave_room', async () => {
      await leave(socket);
    });

    on('load_history', async (payload) => {
      const body = parsePayload('load_history', payload);
      const room = await existing(body.roomName);
      const { messages, hasMore } = await roomHistory(db, room.id, { before: body.before });
      return {
        ok: true,
        history: messages.map((message) => presentMessage(message, room.name)),
        hasMore,
      };
    });

    on('send_message', async (payload) => {
      const body = parsePayload('send_message', payload);
      const joined = joinedRoom(body.room, 'Join the room before sending messages to it.');
      if (!withinRate(user.id)) throw new Refusal(429, TOO_FAST);
      if (sharingRate()) {
        // Other processes are up, and this person may be on them too: count in the database.
        // One socket's checks take turns, so its messages are stored in the order sent.
        const slot = slotChecks.then(() =>
          takeSendSlot(db, user.id, {
            limit: MESSAGE_RATE_LIMIT,
            windowMs: MESSAGE_RATE_WINDOW_MS,
          }),
        );
        slotChecks = slot.catch(() => false);
        if (!(await slot)) throw new Refusal(429, TOO_FAST);
      }
      if (moderator.isAbusive(body.message)) {
        // Never stored, never delivered: the room is restricted for everyone instead.
        if (!(await restrict(joined.name))) throw new Refusal(403, CHAT_TEXT.restricted);
        throw new Refusal(422, `${CHAT_TEXT.abuseWarning} ${CHAT_TEXT.abuseWarningMore}`);
      }
      const row = await writer.write({
        roomId: joined.id,
        senderId: user.id,
        senderName: user.chatName,
        content: body.message,
      });
      if (!row) {
        // Gone or restricted since the person joined: say which.
        const current = await findRoom(db, joined.name);
        throw new Refusal(
          current?.id === joined.id ? 403 : 404,
          current?.id === joined.id
            ? CHAT_TEXT.restricted
            : 'This room does not exist any more. It may have been closed.',
        );
      }
      io.to(channel(joined.id)).emit('receive_message', presentMessage(row, joined.name));
      return { ok: true, id: row.id };
    });

    on('close_room', async (payload) => {
      const body = parsePayload('close_room', payload);
      const room = await existing(body.roomName);
      if (!mayManage(user, room)) {
        throw new Refusal(403, 'Only the room’s creator or a librarian can close it.');
      }
      await deleteRoom(db, room.id);
      io.to(channel(room.id)).emit('room_closed', { roomName: room.name });
      io.in(channel(room.id)).socketsLeave(channel(room.id));
      pushRooms();
    });

    on('report_abuse', async (payload) => {
      // The browser's copy of the matcher caught a message and kept it; the server restricts the
      // room as it would have. Anyone in the room could do the same by sending the words, so this
      // gives nobody a power they lacked, and the words themselves never travel.
      const body = parsePayload('report_abuse', payload);
      const joined = joinedRoom(body.roomName, 'Join the room before reporting anything in it.');
      if (await restrict(joined.name)) {
        log.info({ userId: user.id, roomId: joined.id }, 'the browser caught abusive language');
      }
    });

    on('lift_restriction', async (payload) => {
      const body = parsePayload('lift_restriction', payload);
      const room = await existing(body.roomName);
      if (!mayManage(user, room)) {
        throw new Refusal(403, 'Only the room’s creator or a librarian can lift the restriction.');
      }
      await setRestricted(db, room.id, false);
      io.to(channel(room.id)).emit(
        'room_metadata',
        presentRoomMetadata({ ...room, abuse_detected: false }),
      );
      pushRooms();
    });

    socket.on('disconnect', () => {
      if (!socket.data.room) return;
      socket.data.room = undefined;
      exitRoom(db, socket.id)
        .then(pushRooms)
        .catch((error: unknown) => log.warn({ err: error }, 'could not record a departure'));
    });
  });

  return {
    serverId,
    /** Stops the heartbeat and forgets this process's presence (a clean shutdown). */
    async close() {
      clearInterval(timer);
      if (pushTimer) clearTimeout(pushTimer);
      await forgetServers(db, { serverId }).catch(() => {});
    },
  };
}
