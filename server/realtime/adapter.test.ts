import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { Server } from 'socket.io';
import { MessageType } from 'socket.io-adapter';
import { afterEach, describe, expect, it } from 'vitest';
import { createClusterAdapter } from './adapter.ts';

/**
 * A pool that records the notifications the adapter sends. Each `pg_notify` stays pending until
 * the test lets it go, as a slow database would, so the test sees whether delivery waits for it.
 */
function recordingPool() {
  const notified: { type: MessageType; uid: string }[] = [];
  const pending: (() => void)[] = [];
  const listener = Object.assign(new EventEmitter(), {
    query: async () => ({ rows: [] }),
    release: () => {},
  });
  const pool = {
    connect: async () => listener,
    query: (sql: string, values?: string[]) => {
      if (!sql.includes('pg_notify')) return Promise.resolve({ rows: [] });
      notified.push(JSON.parse(values?.[1] ?? '{}') as { type: MessageType; uid: string });
      return new Promise((resolve) => pending.push(() => resolve({ rows: [] })));
    },
  };
  return {
    pool: pool as unknown as pg.Pool,
    notified,
    settle: () => pending.forEach((go) => go()),
  };
}

const broadcasts = (notified: { type: MessageType }[]) =>
  notified.filter((message) => message.type === MessageType.BROADCAST).length;

describe('the cluster adapter', () => {
  let io: Server | undefined;
  afterEach(async () => {
    // No HTTP server is attached, so the adapter is closed by itself (its timers stop).
    await io?.of('/').adapter.close();
    io = undefined;
  });

  function start() {
    const recording = recordingPool();
    let clock = 1_000_000;
    io = new Server();
    io.adapter(
      createClusterAdapter(recording.pool, {
        onError: (error) => {
          throw error;
        },
        now: () => clock,
      }),
    );
    const adapter = io.of('/').adapter as unknown as {
      onMessage(message: { uid: string; nsp: string; type: MessageType }): void;
      broadcast(
        packet: object,
        options: { rooms: Set<string>; except: Set<string> },
      ): Promise<void>;
    };
    return {
      ...recording,
      io,
      adapter,
      advance: (ms: number) => (clock += ms),
    };
  }

  it('delivers locally without waiting for the notification', async () => {
    const { adapter, notified } = start();
    // The notification never completes here: a broadcast that waited for it would never finish.
    const delivered = adapter
      .broadcast(
        { type: 2, data: ['hello'], nsp: '/' },
        { rooms: new Set(['room']), except: new Set() },
      )
      .then(() => 'delivered');
    const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 50));
    expect(await Promise.race([delivered, waiting])).toBe('delivered');
    expect(broadcasts(notified)).toBe(1);
  });

  it('notifies everything while it is still learning who else is up', () => {
    const { io, notified, advance } = start();
    advance(9_000);
    io.to('room').emit('hello');
    io.in('room').socketsJoin('other');
    expect(notified.map((message) => message.type)).toEqual(
      expect.arrayContaining([MessageType.BROADCAST, MessageType.SOCKETS_JOIN]),
    );
  });

  it('stops notifying once it has heard from no other process for the heartbeat time-out', () => {
    const { io, notified, advance } = start();
    advance(10_001);
    io.to('room').emit('hello');
    io.in('room').socketsLeave('room');
    io.in('room').disconnectSockets();
    expect(notified.filter((message) => message.type !== MessageType.INITIAL_HEARTBEAT)).toEqual(
      [],
    );
  });

  it('notifies again as soon as another process speaks, and stops when it leaves', () => {
    const { io, adapter, notified, advance } = start();
    advance(60_000);
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.INITIAL_HEARTBEAT });
    io.to('room').emit('hello');
    expect(broadcasts(notified)).toBe(1);
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.ADAPTER_CLOSE });
    io.to('room').emit('hello');
    expect(broadcasts(notified)).toBe(1);
  });

  it('still sends its heartbeats while alone, so others can find it', () => {
    const { notified } = start();
    expect(notified.map((message) => message.type)).toContain(MessageType.INITIAL_HEARTBEAT);
  });
});
