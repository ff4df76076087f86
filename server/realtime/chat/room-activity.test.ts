import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ROOM_ACTIVITY_MS,
  ROOM_NAME_MAX,
  ROOMS_ACTIVE_MAX,
  type RoomsActive,
} from '#contract/socket/chat.ts';
import { NOTIFY_BUDGET_BYTES } from './between-processes.ts';
import type { ChatServer } from './context.ts';
import { createRoomActivity, ROOM_LIST_WATCHERS } from './room-activity.ts';

/*
 * `rooms_active`'s pacing (decision 042), with a stand-in for Socket.IO: one event per window
 * for a process, however many messages; the rooms of a busy window in the next ones.
 */

function fakeIo() {
  const sent: { to: string; payload: RoomsActive }[] = [];
  const io = {
    to: (to: string) => ({
      emit: (event: string, payload: RoomsActive) => {
        expect(event).toBe('rooms_active');
        sent.push({ to, payload });
      },
    }),
  } as unknown as ChatServer;
  return { io, sent };
}

const log = { warn: () => {} } as unknown as FastifyBaseLogger;

describe('room activity', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells a lone message at once and a burst once per window', () => {
    const { io, sent } = fakeIo();
    const activity = createRoomActivity({ io, log });
    activity.changed({ id: '1', name: 'Physics' });
    vi.advanceTimersByTime(150);
    expect(sent).toEqual([{ to: ROOM_LIST_WATCHERS, payload: { roomNames: ['Physics'] } }]);

    // 200 messages in two rooms within the next window: one event, each room once.
    for (let i = 0; i < 200; i++)
      activity.changed(i % 2 ? { id: '1', name: 'Physics' } : { id: '2', name: 'Algebra' });
    // Not before a window has passed since the first event (at 100 ms).
    vi.advanceTimersByTime(ROOM_ACTIVITY_MS - 200);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.payload.roomNames).toEqual(['Algebra', 'Physics']);

    // Quiet: nothing more goes out.
    vi.advanceTimersByTime(10 * ROOM_ACTIVITY_MS);
    expect(sent).toHaveLength(2);
    activity.close();
  });

  it('carries at most ROOMS_ACTIVE_MAX names, the rest at the next window', () => {
    const { io, sent } = fakeIo();
    const activity = createRoomActivity({ io, log });
    const total = ROOMS_ACTIVE_MAX + 5;
    for (let i = 0; i < total; i++) activity.changed({ id: String(i), name: `Room ${i}` });
    vi.advanceTimersByTime(150);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.payload.roomNames).toHaveLength(ROOMS_ACTIVE_MAX);
    vi.advanceTimersByTime(ROOM_ACTIVITY_MS);
    expect(sent).toHaveLength(2);
    expect(sent[1]!.payload.roomNames).toEqual(
      Array.from({ length: 5 }, (_, i) => `Room ${ROOMS_ACTIVE_MAX + i}`),
    );
    activity.close();
  });

  it('fits a full event of the longest names in one NOTIFY between processes', () => {
    // A room name is at most ROOM_NAME_MAX UTF-16 units: at most 3 bytes each in UTF-8.
    const longest = '\u20ac'.repeat(ROOM_NAME_MAX);
    const payload = { roomNames: Array.from({ length: ROOMS_ACTIVE_MAX }, () => longest) };
    expect(Buffer.byteLength(JSON.stringify(payload))).toBeLessThan(NOTIFY_BUDGET_BYTES);
  });

  it('sends nothing after close', () => {
    const { io, sent } = fakeIo();
    const activity = createRoomActivity({ io, log });
    activity.changed({ id: '1', name: 'Physics' });
    activity.close();
    vi.advanceTimersByTime(10 * ROOM_ACTIVITY_MS);
    expect(sent).toEqual([]);
  });
});
