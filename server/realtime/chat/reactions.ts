import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import {
  REACTIONS_BATCH_MAX,
  REACTIONS_FANOUT_MS,
  type ReactionsChanged,
} from '#contract/socket/chat.ts';
import { createReactionWriter, reactionsOf } from '../../chat/threads.ts';
import type { Database } from '../../db/schema.ts';
import { heardFromOtherProcesses } from '../adapter.ts';
import { userRoom } from '../index.ts';
import { channel, type ChatServer } from './context.ts';
import { createKeyedThrottle } from './throttle.ts';

/** The server-side event that carries one process's reaction changes to the others. */
const REACTIONS_BETWEEN_PROCESSES = 'chat:reactions';

/** One toggle that went through, as the other processes hear it. */
interface ReactionToggle {
  roomId: string;
  /** The person's own frame: their tabs on other processes update their `mine` from it. */
  change: ReactionsChanged;
}

/** The reactions' fan-out of one process (decision 043); `reactions_batch` comes from here. */
export type ReactionFanOut = ReturnType<typeof createReactionFanOut>;

/**
 * Reactions told to a room at most once a second (decision 043, as typing in decision 044). Each
 * toggle marks its message changed in its room; at most once per `REACTIONS_FANOUT_MS` a room's
 * changed messages are read again (one statement) and their counts sent to this process's sockets
 * of the room as one `reactions_batch`: 500 people reacting each second cost each member one frame
 * a second, not 500. The person who toggled hears `reactions_changed` at once on their own sockets
 * (their `mine`). Other processes hear the toggles once a second, in one server-side message
 * through the adapter, and do the same for their own sockets, reading the database after the
 * toggles were written, so every process sends the counts as they are.
 */
export function createReactionFanOut({
  io,
  db,
  log,
}: {
  io: ChatServer;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
}) {
  /** The messages whose reactions changed in each room since its last batch. */
  const changed = new Map<string, { name: string; messageIds: Set<string> }>();
  let outbox: ReactionToggle[] = [];
  // The adapter's server-side events are untyped in the contract's maps (`Record<string, never>`).
  const cluster = io as unknown as Server;

  const emitRoom = async (roomId: string) => {
    const room = changed.get(roomId);
    if (!room) return;
    const ids = [...room.messageIds].slice(0, REACTIONS_BATCH_MAX);
    for (const id of ids) room.messageIds.delete(id);
    if (room.messageIds.size === 0) changed.delete(roomId);
    else fanOut.touch(roomId); // more than one batch holds: the rest in the next one
    // None of the room's members on this process (they left meanwhile): nothing to read.
    if (!io.of('/').adapter.rooms.has(channel(roomId))) return;
    // Read after the toggles were written: a change made meanwhile marks its message again.
    const reactions = await reactionsOf(db, ids).catch((error: unknown) => {
      for (const id of ids) mark(roomId, room.name, id); // the next window tries again
      throw error;
    });
    const batch = {
      roomName: room.name,
      messages: ids.map((messageId) => ({ messageId, reactions: reactions.get(messageId) ?? [] })),
    };
    io.local.to(channel(roomId)).emit('reactions_batch', batch);
  };
  const fanOut = createKeyedThrottle<string>({
    intervalMs: REACTIONS_FANOUT_MS,
    settleMs: 50,
    fire: (roomId) => {
      emitRoom(roomId).catch((error: unknown) =>
        log.warn({ err: error }, 'could not send a room its reactions'),
      );
    },
  });

  const flush = () => {
    const toggles = outbox;
    outbox = [];
    if (toggles.length === 0 || !heardFromOtherProcesses(io.of('/').adapter)) return;
    cluster.serverSideEmit(REACTIONS_BETWEEN_PROCESSES, toggles);
  };
  const publish = createKeyedThrottle<'toggles'>({
    intervalMs: REACTIONS_FANOUT_MS,
    settleMs: 10,
    fire: flush,
  });

  const mark = (roomId: string, roomName: string, messageId: string) => {
    let room = changed.get(roomId);
    if (!room) {
      room = { name: roomName, messageIds: new Set() };
      changed.set(roomId, room);
    }
    room.messageIds.add(messageId);
    fanOut.touch(roomId);
  };

  cluster.on(REACTIONS_BETWEEN_PROCESSES, (toggles: unknown) => {
    if (!Array.isArray(toggles)) return;
    for (const toggle of toggles as ReactionToggle[]) {
      const change = toggle?.change;
      if (typeof toggle?.roomId !== 'string' || typeof change?.messageId !== 'string') continue;
      // Only a room with members here is read again and told.
      if (io.of('/').adapter.rooms.has(channel(toggle.roomId))) {
        mark(toggle.roomId, change.roomName, change.messageId);
      }
      // The person's tabs on this process, if any, learn their own toggle (a second late).
      if (io.of('/').adapter.rooms.has(userRoom(change.by))) {
        io.local.to(userRoom(change.by)).emit('reactions_changed', change);
      }
    }
  });

  // Forget the throttles' memory of rooms quiet for a while.
  const sweep = setInterval(() => {
    fanOut.forgetQuiet();
    publish.forgetQuiet();
  }, 10 * REACTIONS_FANOUT_MS);
  sweep.unref();

  return {
    /** Writes this process's toggles in batches (`createReactionWriter`). */
    writer: createReactionWriter(db),
    /**
     * A toggle went through in room `roomId`: the person's other sockets on this process hear it
     * at once (not `fromSocketId`, which has it in its acknowledgement), the room (and the other
     * processes) within a second.
     */
    toggled(roomId: string, change: ReactionsChanged, fromSocketId: string) {
      // Most people have one tab: skip the broadcast machinery when no other socket is theirs.
      if ((io.of('/').adapter.rooms.get(userRoom(change.by))?.size ?? 0) > 1) {
        io.local.to(userRoom(change.by)).except(fromSocketId).emit('reactions_changed', change);
      }
      mark(roomId, change.roomName, change.messageId);
      outbox.push({ roomId, change });
      publish.touch('toggles');
    },
    /** Stops the timers (a clean shutdown). */
    close() {
      clearInterval(sweep);
      fanOut.close();
      publish.close();
      changed.clear();
    },
  };
}
