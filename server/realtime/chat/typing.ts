import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import {
  TYPING_EXPIRE_MS,
  TYPING_FANOUT_MS,
  TYPING_MIN_INTERVAL_MS,
  TYPING_NAMES_MAX,
} from '#contract/socket/chat.ts';
import type { PostingBans } from '../../chat/posting-bans.ts';
import { heardFromOtherProcesses } from '../adapter.ts';
import { sendUnhurried } from '../fan-out.ts';
import { addRoomEntry, readRoomNews, sendRoomNews, type RoomEntries } from './between-processes.ts';
import { channel, joinedRoom, type ChatConnection, type ChatServer } from './context.ts';
import { parsePayload } from './payload.ts';
import { createKeyedThrottle } from './throttle.ts';

/** The server-side event that carries one process's typing changes to the others. */
const TYPING_BETWEEN_PROCESSES = 'chat:typing';
/** The start of every chat room's Socket.IO room. */
const CHANNEL_PREFIX = channel('');

/** One person starting (or refreshing) or stopping typing in one room. */
interface TypingChange {
  roomId: string;
  roomName: string;
  userId: string;
  name: string;
  socketId: string;
  typing: boolean;
}

/**
 * One change as the other processes hear it: who, their name, typing or not (1 or 0). Their
 * socket is this process's business (a socket leaving its room stops its typing here, which then
 * goes out as a change of its own).
 */
type TypingEntry = [userId: string, name: string, typing: 0 | 1];

const isTypingEntry = (entry: unknown): entry is TypingEntry =>
  Array.isArray(entry) &&
  entry.length === 3 &&
  typeof entry[0] === 'string' &&
  typeof entry[1] === 'string' &&
  (entry[2] === 0 || entry[2] === 1);

interface Typist {
  name: string;
  socketId: string;
  /** When they started typing (the order of the names), and until when they count as typing. */
  since: number;
  until: number;
}

/** Who types where, as every process knows it; `typing_changed` comes from here. */
export type Typing = ReturnType<typeof createTyping>;

/**
 * The typing indicator (decision 044). Every process keeps who is typing in each room, from its
 * own sockets and from the others' (each process sends its changes to the others at most once a
 * second, slim, in as few server-side messages as fit a NOTIFY each: `between-processes.ts`), and
 * tells its own sockets of a room at most once a second (`typing_changed`, the first names and a
 * count): a room of 500 typists costs each member one event a second, not 500. More than one
 * `typing` per socket a second is dropped here, and someone not heard from for `TYPING_EXPIRE_MS`
 * stops counting. Someone who may not post in the room now (muted there or everywhere, removed from it) is not shown typing: `bans`,
 * read for everyone at most every two seconds, never per event; a mute that starts while they
 * type takes them off the list within that time on every process.
 */
export function createTyping({
  io,
  log,
  bans,
  clock = Date.now,
}: {
  io: ChatServer;
  log: FastifyBaseLogger;
  /** Who may not post where now; without it, nobody's typing is dropped for a sanction. */
  bans?: PostingBans;
  clock?: () => number;
}) {
  const rooms = new Map<string, { name: string; typists: Map<string, Typist> }>();
  /** When each socket's last `typing` was taken (dropped ones do not count). */
  const lastTyped = new Map<string, number>();
  /** This process's changes since its last message to the others, by room. */
  let outbox = new Map<string, RoomEntries<TypingEntry>>();
  // The adapter's server-side events are untyped in the contract's maps (`Record<string, never>`).
  const cluster = io as unknown as Server;

  const emitRoom = (roomId: string) => {
    const room = rooms.get(roomId);
    if (!room) return;
    const now = clock();
    for (const [userId, typist] of room.typists)
      if (typist.until <= now) room.typists.delete(userId);
    const typists = [...room.typists.entries()].sort((a, b) => a[1].since - b[1].since);
    const shown = typists.slice(0, TYPING_NAMES_MAX);
    // Once a second: it may wait for the room's next message to carry it (`fan-out.ts`).
    sendUnhurried(() =>
      io.local.to(channel(roomId)).emit('typing_changed', {
        roomName: room.name,
        names: shown.map(([, typist]) => typist.name),
        userIds: shown.map(([userId]) => userId),
        others: typists.length - shown.length,
      }),
    );
    if (room.typists.size === 0) rooms.delete(roomId);
  };
  const fanOut = createKeyedThrottle<string>({
    intervalMs: TYPING_FANOUT_MS,
    settleMs: 0,
    fire: emitRoom,
    clock,
  });

  const flush = () => {
    const rooms = outbox;
    outbox = new Map();
    if (rooms.size === 0 || !heardFromOtherProcesses(io.of('/').adapter)) return;
    sendRoomNews(cluster, TYPING_BETWEEN_PROCESSES, rooms);
  };
  const publish = createKeyedThrottle<'changes'>({
    intervalMs: TYPING_FANOUT_MS,
    settleMs: 10,
    fire: flush,
    clock,
  });

  const apply = (change: TypingChange) => {
    const now = clock();
    let room = rooms.get(change.roomId);
    // Another process's news too: each process holds its own bans, read every two seconds.
    if (change.typing && bans?.barred(change.userId, change.roomId)) return;
    if (change.typing) {
      if (!room) {
        room = { name: change.roomName, typists: new Map() };
        rooms.set(change.roomId, room);
      }
      const before = room.typists.get(change.userId);
      room.typists.set(change.userId, {
        name: change.name,
        socketId: change.socketId,
        since: before && before.until > now ? before.since : now,
        until: now + TYPING_EXPIRE_MS,
      });
    } else if (!room?.typists.delete(change.userId)) {
      return;
    }
    fanOut.touch(change.roomId);
  };

  const share = (change: TypingChange) => {
    apply(change);
    const entry: TypingEntry = [change.userId, change.name, change.typing ? 1 : 0];
    addRoomEntry(outbox, change.roomId, change.roomName, entry);
    publish.touch('changes');
  };

  cluster.on(TYPING_BETWEEN_PROCESSES, (message: unknown) => {
    for (const [roomId, roomName, entries] of readRoomNews(message, isTypingEntry)) {
      for (const [userId, name, typing] of entries) {
        apply({ roomId, roomName, userId, name, socketId: '', typing: typing === 1 });
      }
    }
  });

  // A socket leaving its room (leave_room, another room, a disconnect, a removal) stops typing.
  io.of('/').adapter.on('leave-room', (roomKey: string, socketId: string) => {
    lastTyped.delete(socketId);
    if (!roomKey.startsWith(CHANNEL_PREFIX)) return;
    const roomId = roomKey.slice(CHANNEL_PREFIX.length);
    const room = rooms.get(roomId);
    if (!room) return;
    for (const [userId, typist] of room.typists) {
      if (typist.socketId !== socketId) continue;
      share({ roomId, roomName: room.name, userId, name: typist.name, socketId, typing: false });
    }
  });

  /** Takes off every list here the typists who may not post in its room now (a mute just set). */
  const dropBarred = () => {
    if (!bans || rooms.size === 0) return;
    bans
      .fresh()
      .then(() => {
        for (const [roomId, room] of rooms) {
          for (const userId of room.typists.keys()) {
            if (!bans.barred(userId, roomId)) continue;
            room.typists.delete(userId);
            fanOut.touch(roomId);
          }
        }
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not read the chat’s mutes'));
  };

  // Expiry: a typist who went quiet (a closed laptop) disappears within a second of their time.
  const sweep = setInterval(() => {
    dropBarred();
    const now = clock();
    for (const [roomId, room] of rooms) {
      for (const typist of room.typists.values()) {
        if (typist.until <= now) {
          fanOut.touch(roomId);
          break;
        }
      }
    }
    fanOut.forgetQuiet();
    publish.forgetQuiet();
    for (const [socketId, at] of lastTyped) {
      if (now - at > TYPING_MIN_INTERVAL_MS) lastTyped.delete(socketId);
    }
  }, TYPING_FANOUT_MS);
  sweep.unref();

  return {
    /** Registers `typing` on one socket: only in the room it joined; too frequent ones are dropped. */
    events({ socket, user, on }: ChatConnection) {
      on('typing', async (payload) => {
        const body = parsePayload('typing', payload);
        const room = joinedRoom(socket, body.roomName, 'Join the room before typing in it.');
        // Removed by a moderator: the socket was taken out of the room's channel at once, on
        // every process, though it still names the room.
        if (!socket.rooms.has(channel(room.id))) return;
        if (body.typing) {
          const now = clock();
          const last = lastTyped.get(socket.id);
          if (last !== undefined && now - last < TYPING_MIN_INTERVAL_MS) return;
          lastTyped.set(socket.id, now);
          // Dropped without a refusal, as a muted person's composer is disabled already: one
          // read of every ban per two seconds for the whole process, none per event. Without the
          // database, what was read last decides (the sweep logs the failure).
          if (bans) {
            await bans.fresh().catch(() => {});
            if (bans.barred(user.id, room.id)) return;
          }
        }
        share({
          roomId: room.id,
          roomName: room.name,
          userId: user.id,
          name: user.chatName,
          socketId: socket.id,
          typing: body.typing,
        });
      });
    },
    /** Stops the timers (a clean shutdown). */
    close() {
      clearInterval(sweep);
      fanOut.close();
      publish.close();
      log.debug('typing indicator stopped');
    },
  };
}
