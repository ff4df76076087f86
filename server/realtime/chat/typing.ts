import type { FastifyBaseLogger } from 'fastify';
import type { Server } from 'socket.io';
import {
  TYPING_EXPIRE_MS,
  TYPING_FANOUT_MS,
  TYPING_MIN_INTERVAL_MS,
  TYPING_NAMES_MAX,
} from '#contract/socket/chat.ts';
import { heardFromOtherProcesses } from '../adapter.ts';
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
 * second, in one server-side message through the adapter), and tells its own sockets of a room at
 * most once a second (`typing_changed`, the first names and a count): a room of 500 typists costs
 * each member one event a second, not 500. More than one `typing` per socket a second is dropped
 * here, and someone not heard from for `TYPING_EXPIRE_MS` stops counting.
 */
export function createTyping({
  io,
  log,
  clock = Date.now,
}: {
  io: ChatServer;
  log: FastifyBaseLogger;
  clock?: () => number;
}) {
  const rooms = new Map<string, { name: string; typists: Map<string, Typist> }>();
  /** When each socket's last `typing` was taken (dropped ones do not count). */
  const lastTyped = new Map<string, number>();
  let outbox: TypingChange[] = [];
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
    io.local.to(channel(roomId)).emit('typing_changed', {
      roomName: room.name,
      names: shown.map(([, typist]) => typist.name),
      userIds: shown.map(([userId]) => userId),
      others: typists.length - shown.length,
    });
    if (room.typists.size === 0) rooms.delete(roomId);
  };
  const fanOut = createKeyedThrottle<string>({
    intervalMs: TYPING_FANOUT_MS,
    settleMs: 0,
    fire: emitRoom,
    clock,
  });

  const flush = () => {
    const changes = outbox;
    outbox = [];
    if (changes.length === 0 || !heardFromOtherProcesses(io.of('/').adapter)) return;
    cluster.serverSideEmit(TYPING_BETWEEN_PROCESSES, changes);
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
    outbox.push(change);
    publish.touch('changes');
  };

  cluster.on(TYPING_BETWEEN_PROCESSES, (changes: unknown) => {
    if (!Array.isArray(changes)) return;
    for (const change of changes as TypingChange[]) {
      if (typeof change?.roomId === 'string' && typeof change.userId === 'string') apply(change);
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

  // Expiry: a typist who went quiet (a closed laptop) disappears within a second of their time.
  const sweep = setInterval(() => {
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
        if (body.typing) {
          const now = clock();
          const last = lastTyped.get(socket.id);
          if (last !== undefined && now - last < TYPING_MIN_INTERVAL_MS) return;
          lastTyped.set(socket.id, now);
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
