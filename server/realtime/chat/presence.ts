import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { PRESENCE_FANOUT_MS, PRESENCE_NAMES_MAX } from '#contract/socket/chat.ts';
import { roomPeople } from '../../chat/presence.ts';
import type { Database } from '../../db/schema.ts';
import { channel, type ChatServer } from './context.ts';
import { createKeyedThrottle } from './throttle.ts';

/** A burst of joins (a class walking in) settles this long before the first push. */
const PRESENCE_SETTLE_MS = 50;

/** Who is in each room, pushed to its members (`presence_changed`). */
export type Presence = ReturnType<typeof createPresence>;

/**
 * "N here" and the list of names in a room's header (decision 044). A join or a departure on this
 * process marks the room; at most every `PRESENCE_FANOUT_MS` the room's people are read from
 * `chat_presence` (every process's sockets) and sent to the whole room through the adapter, so
 * the members on every process see the same list. A burst of joins costs one read and one
 * broadcast, not one per join.
 */
export function createPresence({
  io,
  db,
  log,
  now,
  ready,
}: {
  io: ChatServer;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  now: () => Date;
  /** Settles once this process has beaten: before, its own sockets would not count. */
  ready: Promise<void>;
}) {
  const names = new Map<string, string>();
  const send = async (roomId: string) => {
    const roomName = names.get(roomId);
    if (roomName === undefined) return;
    await ready;
    const people = await roomPeople(db, roomId, now(), PRESENCE_NAMES_MAX);
    io.to(channel(roomId)).emit('presence_changed', { roomName, ...people });
    if (people.count === 0) names.delete(roomId);
  };
  const throttle = createKeyedThrottle<string>({
    intervalMs: PRESENCE_FANOUT_MS,
    settleMs: PRESENCE_SETTLE_MS,
    fire: (roomId) => {
      send(roomId).catch((error: unknown) =>
        log.warn({ err: error }, 'could not send who is in a room'),
      );
    },
  });
  const sweep = setInterval(() => throttle.forgetQuiet(), 10 * PRESENCE_FANOUT_MS);
  sweep.unref();
  return {
    /** Someone came into or left `room` (its row of `chat_presence` is written). */
    changed(room: { id: string; name: string }) {
      names.set(room.id, room.name);
      throttle.touch(room.id);
    },
    /** Stops the timers (a clean shutdown). */
    close() {
      clearInterval(sweep);
      throttle.close();
    },
  };
}
