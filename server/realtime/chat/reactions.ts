import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Server } from 'socket.io';
import {
  packReactionsBatch,
  REACTION_EMOJI,
  REACTIONS_BATCH_MAX,
  REACTIONS_FANOUT_MS,
  type ReactionEmoji,
  type ReactionsChanged,
} from '#contract/socket/chat.ts';
import { createReactionWriter, reactionsOf } from '../../chat/threads.ts';
import type { Database } from '../../db/schema.ts';
import { heardFromOtherProcesses } from '../adapter.ts';
import { sendUnhurried } from '../fan-out.ts';
import { userRoom } from '../index.ts';
import { addRoomEntry, readRoomNews, sendRoomNews, type RoomEntries } from './between-processes.ts';
import { channel, type ChatServer } from './context.ts';
import { createKeyedThrottle } from './throttle.ts';

/** The server-side event that carries one process's reaction toggles to the others. */
const REACTIONS_BETWEEN_PROCESSES = 'chat:reactions';

/**
 * One toggle that went through, as the other processes hear it: who, on which message, which
 * emoji (its place in `REACTION_EMOJI`) and whether it went on. Not the message's reactions: a
 * process reads those itself, once a second for its room batch, and for the person's own tabs
 * there only when they have any; so a second's toggles stay within a NOTIFY or two.
 */
type ToggleEntry = [by: string, messageId: string, emoji: number, added: 0 | 1];

const isToggleEntry = (entry: unknown): entry is ToggleEntry =>
  Array.isArray(entry) &&
  entry.length === 4 &&
  typeof entry[0] === 'string' &&
  typeof entry[1] === 'string' &&
  typeof entry[2] === 'number' &&
  REACTION_EMOJI[entry[2]] !== undefined &&
  (entry[3] === 0 || entry[3] === 1);

/** The reactions' fan-out of one process (decision 043); `reactions_batch` comes from here. */
export type ReactionFanOut = ReturnType<typeof createReactionFanOut>;

/**
 * Reactions told to a room at most once a second (decision 043, as typing in decision 044). Each
 * toggle marks its message changed in its room; at most once per `REACTIONS_FANOUT_MS` a room's
 * changed messages are read again (one statement) and their counts sent to this process's sockets
 * of the room as one `reactions_batch`: 500 people reacting each second cost each member one frame
 * a second, not 500. The person who toggled hears `reactions_changed` at once on their own sockets
 * (their `mine`). Other processes hear the toggles once a second, slim (who, which message, which
 * emoji, on or off) in as few server-side messages as fit a NOTIFY each (`between-processes.ts`),
 * and do the same for their own sockets, reading the database after the toggles were written, so
 * every process sends the counts as they are.
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
  /** This process's toggles since its last message to the others, by room. */
  let outbox = new Map<string, RoomEntries<ToggleEntry>>();
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
    const batch = packReactionsBatch({
      roomName: room.name,
      messages: ids.map((messageId) => ({ messageId, reactions: reactions.get(messageId) ?? [] })),
    });
    // Once a second: it may wait for the room's next message to carry it (`fan-out.ts`).
    sendUnhurried(() => io.local.to(channel(roomId)).emit('reactions_batch', batch));
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
    const rooms = outbox;
    outbox = new Map();
    if (rooms.size === 0 || !heardFromOtherProcesses(io.of('/').adapter)) return;
    sendRoomNews(cluster, REACTIONS_BETWEEN_PROCESSES, rooms);
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

  /**
   * Another process's toggles reached people with tabs here (a person's tabs may be spread over
   * processes): their `reactions_changed`, the message's reactions read here in one statement.
   */
  const echo = async (toggles: Omit<ReactionsChanged, 'reactions'>[]) => {
    const reactions = await reactionsOf(db, [...new Set(toggles.map((t) => t.messageId))]);
    for (const toggle of toggles) {
      const change = { ...toggle, reactions: reactions.get(toggle.messageId) ?? [] };
      io.local.to(userRoom(toggle.by)).emit('reactions_changed', change);
    }
  };

  cluster.on(REACTIONS_BETWEEN_PROCESSES, (message: unknown) => {
    const local = io.of('/').adapter.rooms;
    const echoes: Omit<ReactionsChanged, 'reactions'>[] = [];
    for (const [roomId, roomName, toggles] of readRoomNews(message, isToggleEntry)) {
      // Only a room with members here is read again and told.
      const served = local.has(channel(roomId));
      for (const [by, messageId, emoji, added] of toggles) {
        if (served) mark(roomId, roomName, messageId);
        // The person's tabs on this process, if any, learn their own toggle (a second late).
        if (local.has(userRoom(by))) {
          const reaction = REACTION_EMOJI[emoji] as ReactionEmoji;
          echoes.push({ roomName, messageId, by, emoji: reaction, added: added === 1 });
        }
      }
    }
    if (echoes.length === 0) return;
    echo(echoes).catch((error: unknown) =>
      log.warn({ err: error }, 'could not send a person their reaction'),
    );
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
      const emoji = REACTION_EMOJI.indexOf(change.emoji);
      const entry: ToggleEntry = [change.by, change.messageId, emoji, change.added ? 1 : 0];
      addRoomEntry(outbox, roomId, change.roomName, entry);
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
