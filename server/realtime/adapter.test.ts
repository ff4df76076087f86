import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { Server } from 'socket.io';
import { MessageType } from 'socket.io-adapter';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClusterAdapter, watchCluster, type BroadcastPacket } from './adapter.ts';

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
    /** The LISTEN connection: `emit('end')` is the database going away under it. */
    listener,
    settle: () => pending.forEach((go) => go()),
  };
}

/** Lets the adapter's LISTEN statements (answered at once here) complete. */
const listening = () => new Promise((resolve) => setImmediate(resolve));

const broadcasts = (notified: { type: MessageType }[]) =>
  notified.filter((message) => message.type === MessageType.BROADCAST).length;

describe('the cluster adapter', () => {
  let io: Server | undefined;
  afterEach(async () => {
    // No HTTP server is attached, so the adapter is closed by itself (its timers stop).
    await io?.of('/').adapter.close();
    io = undefined;
  });

  async function start() {
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
      nodesMap: Map<string, number>;
      onMessage(message: {
        uid: string;
        nsp: string;
        type: MessageType;
        data?: { packet: BroadcastPacket; opts: { rooms: string[]; except: string[] } };
      }): void;
      broadcast(
        packet: object,
        options: { rooms: Set<string>; except: Set<string> },
      ): Promise<void>;
    };
    await listening();
    return {
      ...recording,
      io,
      adapter,
      advance: (ms: number) => (clock += ms),
    };
  }

  it('delivers locally without waiting for the notification', async () => {
    const { adapter, notified } = await start();
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

  it('notifies everything while it is still learning who else is up', async () => {
    const { io, notified, advance } = await start();
    advance(9_000);
    io.to('room').emit('hello');
    io.in('room').socketsJoin('other');
    expect(notified.map((message) => message.type)).toEqual(
      expect.arrayContaining([MessageType.BROADCAST, MessageType.SOCKETS_JOIN]),
    );
  });

  it('stops notifying once it has heard from no other process for the heartbeat time-out', async () => {
    const { io, notified, advance } = await start();
    advance(10_001);
    io.to('room').emit('hello');
    io.in('room').socketsLeave('room');
    io.in('room').disconnectSockets();
    expect(notified.filter((message) => message.type !== MessageType.INITIAL_HEARTBEAT)).toEqual(
      [],
    );
  });

  it('notifies again as soon as another process speaks, and stops when it leaves', async () => {
    const { io, adapter, notified, advance } = await start();
    advance(60_000);
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.INITIAL_HEARTBEAT });
    io.to('room').emit('hello');
    expect(broadcasts(notified)).toBe(1);
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.ADAPTER_CLOSE });
    io.to('room').emit('hello');
    expect(broadcasts(notified)).toBe(1);
  });

  it('still sends its heartbeats while alone, so others can find it', async () => {
    const { notified } = await start();
    expect(notified.map((message) => message.type)).toContain(MessageType.INITIAL_HEARTBEAT);
  });

  it('after its LISTEN connection comes back, announces itself, publishes again and says so', async () => {
    const { io, listener, notified, advance } = await start();
    let missed = 0;
    expect(
      watchCluster(io.of('/').adapter, { intercept: () => false, mayHaveMissed: () => missed++ }),
    ).toBe(true);
    advance(60_000);
    io.to('room').emit('alone');
    expect(broadcasts(notified)).toBe(0);

    // The database restarts: the library takes a new connection 1–3 s later and LISTENs again.
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      listener.emit('end');
      // Down: it cannot have heard the others, so it is not known to be alone.
      io.to('room').emit('while down');
      expect(broadcasts(notified)).toBe(1);
      const announced = notified.filter((m) => m.type === MessageType.INITIAL_HEARTBEAT).length;
      await vi.advanceTimersByTimeAsync(3_000);
      expect(notified.filter((m) => m.type === MessageType.INITIAL_HEARTBEAT)).toHaveLength(
        announced + 1,
      );
      expect(missed).toBe(1);
    } finally {
      vi.useRealTimers();
    }
    // Everything goes out for a heartbeat time-out after it listens again, the others' answers
    // included; then, if none came, it is alone again.
    advance(9_000);
    io.to('room').emit('back');
    expect(broadcasts(notified)).toBe(2);
    advance(1_001);
    io.to('room').emit('alone again');
    expect(broadcasts(notified)).toBe(2);
  });

  it('says notifications may have been missed when a process unknown or taken for gone speaks', async () => {
    const { io, adapter } = await start();
    let missed = 0;
    watchCluster(io.of('/').adapter, { intercept: () => false, mayHaveMissed: () => missed++ });
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.HEARTBEAT });
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.HEARTBEAT });
    expect(missed).toBe(1);
    adapter.nodesMap.delete('other-process');
    adapter.onMessage({ uid: 'other-process', nsp: '/', type: MessageType.HEARTBEAT });
    expect(missed).toBe(2);
    adapter.onMessage({ uid: 'leaving-process', nsp: '/', type: MessageType.ADAPTER_CLOSE });
    expect(missed).toBe(2);
  });

  it('lets a watch hold back broadcasts to its own sockets, never the notification', async () => {
    const { io, adapter, notified, advance } = await start();
    advance(1_000);
    const held: { packet: BroadcastPacket; rooms: string[]; deliver: () => void }[] = [];
    watchCluster(io.of('/').adapter, {
      intercept: (packet, rooms, deliver) => {
        if (packet.data?.[0] !== 'held') return false;
        held.push({ packet, rooms: [...rooms], deliver });
        return true;
      },
      mayHaveMissed: () => {},
    });
    io.to('room').emit('held', { id: '1' });
    io.to('room').emit('as usual');
    expect(broadcasts(notified)).toBe(2);
    expect(held).toMatchObject([{ packet: { data: ['held', { id: '1' }] }, rooms: ['room'] }]);
    // Released: to this process's sockets only, so the others are not told twice.
    held[0]!.deliver();
    expect(broadcasts(notified)).toBe(2);

    adapter.onMessage({
      uid: 'other-process',
      nsp: '/',
      type: MessageType.BROADCAST,
      data: {
        packet: { type: 2, data: ['held', { id: '2' }] },
        opts: { rooms: ['room'], except: [] },
      },
    });
    expect(held[1]).toMatchObject({ packet: { data: ['held', { id: '2' }] }, rooms: ['room'] });
    // The sender counts as heard from, even while its broadcast waits.
    expect(adapter.nodesMap.has('other-process')).toBe(true);
  });

  it('reports a failed store of a large broadcast instead of leaving it unhandled', async () => {
    const errors: Error[] = [];
    const listener = Object.assign(new EventEmitter(), {
      query: async () => ({ rows: [] }),
      release: () => {},
    });
    // The pool after `end()`: a NOTIFY too large to send inline is stored first, and that fails.
    const ended = {
      connect: async () => listener,
      query: () => Promise.reject(new Error('Cannot use a pool after calling end on the pool')),
    } as unknown as pg.Pool;
    io = new Server();
    io.adapter(createClusterAdapter(ended, { onError: (error) => errors.push(error) }));
    await listening();
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      io.to('room').emit('large', 'x'.repeat(20_000));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
      expect(errors.map((error) => error.message)).toContain(
        'Cannot use a pool after calling end on the pool',
      );
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
