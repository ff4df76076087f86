import type { FastifyBaseLogger } from 'fastify';
import { ROOM_ACTIVITY_MS, ROOMS_ACTIVE_MAX } from '#contract/socket/chat.ts';
import type { ChatServer } from './context.ts';
import { createKeyedThrottle } from './throttle.ts';

/**
 * The Socket.IO room of the sockets showing the room list: a socket joins it when it asks
 * `unread_counts` (only the room list asks) and leaves it when it joins a chat room (decision
 * 042). Not `chat:`-prefixed: that prefix names chat rooms (`channel`).
 */
export const ROOM_LIST_WATCHERS = 'room-list';

/** A lone message after a quiet spell is told this soon (a burst right after it joins it). */
const ROOM_ACTIVITY_SETTLE_MS = 100;

/** Tells the room list's watchers which rooms had messages lately (`rooms_active`). */
export type RoomActivity = ReturnType<typeof createRoomActivity>;

/**
 * Which rooms had a message stored on this process lately, told to the room list's watchers on
 * every process (through the adapter: one NOTIFY) at most once per `ROOM_ACTIVITY_MS`, however
 * many messages were stored meanwhile. Their browsers then ask their own `unread_counts` for a
 * room they hold a count for: nothing is counted per member on a send (decision 042).
 *
 * Room names only: every signed-in socket is sent the whole room list (`available_rooms`), so a
 * name here tells nobody anything the list does not.
 */
export function createRoomActivity({
  io,
  log,
  intervalMs = ROOM_ACTIVITY_MS,
}: {
  io: ChatServer;
  log: FastifyBaseLogger;
  intervalMs?: number;
}) {
  /** Active rooms' names by id, in the order they became active. */
  const active = new Map<string, string>();
  const throttle = createKeyedThrottle<'rooms'>({
    intervalMs,
    settleMs: Math.min(ROOM_ACTIVITY_SETTLE_MS, intervalMs),
    fire: () => {
      const batch = [...active].slice(0, ROOMS_ACTIVE_MAX);
      for (const [roomId] of batch) active.delete(roomId);
      if (batch.length === 0) return;
      try {
        io.to(ROOM_LIST_WATCHERS).emit('rooms_active', {
          roomNames: batch.map(([, roomName]) => roomName),
        });
      } catch (error) {
        log.warn({ err: error }, 'could not tell the room list of active rooms');
      }
      // More rooms than one event carries: the rest go at the next window.
      if (active.size > 0) throttle.touch('rooms');
    },
  });
  return {
    /**
     * A message was stored in `room` on this process, or an edit or deletion added or took away a
     * mention (what the room list shows changed).
     */
    changed(room: { id: string; name: string }) {
      active.set(room.id, room.name);
      throttle.touch('rooms');
    },
    /** Stops the timer (a clean shutdown). */
    close() {
      throttle.close();
      active.clear();
    },
  };
}
