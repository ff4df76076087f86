import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { MessageType, type ClusterMessage } from 'socket.io-adapter';
import { createPool } from '../db/client.ts';

/**
 * Messages that only tell the other processes to do something: nothing here waits for an answer
 * to them, and a process that is not running has nothing to do with them.
 */
const ONE_WAY = new Set<MessageType>([
  MessageType.BROADCAST,
  MessageType.SOCKETS_JOIN,
  MessageType.SOCKETS_LEAVE,
  MessageType.DISCONNECT_SOCKETS,
]);

/** The adapter's own default: a process not heard from for this long is taken for gone. */
const HEARTBEAT_TIMEOUT_MS = 10_000;

/** The parts of the library's cluster adapter the publish policy below reads or replaces. */
interface ClusterInternals {
  nodesMap: Map<string, number>;
  publishAndReturnOffset(message: Omit<ClusterMessage, 'nsp' | 'uid'>): Promise<string>;
}

/**
 * Socket.IO's PostgreSQL adapter, with two changes to when it publishes.
 *
 * As shipped, every broadcast first sends a `pg_notify` through the pool and waits for it before
 * delivering to this process's own sockets: a database round trip, queued behind every other
 * notification on the pool's one free connection, added to every chat message even when no other
 * process is running. Here one-way messages (broadcasts, joins, leaves, disconnects) are:
 *
 * - **not awaited**: local delivery goes first and the notification follows in order on the same
 *   pool (the awaited value is an offset for connection-state recovery, which the chat does not
 *   use: clients catch up from the database instead);
 * - **not sent at all while this process is alone**: no other process has been heard from (the
 *   adapter's heartbeats, every 5 s, and any message count) and this one has been up for longer
 *   than the heartbeat time-out, so it would have heard one. A process that starts sends its
 *   initial heartbeat at once, so the others know it before its first client can join a room;
 *   and it publishes everything during its own first time-out, while it learns who else is up.
 *
 * Requests that wait for answers (fetching sockets, server-side emits) are left as they are.
 */
export function createClusterAdapter(
  pool: pg.Pool,
  { onError, now = Date.now }: { onError: (error: Error) => void; now?: () => number },
) {
  const create = createAdapter(pool, {
    errorHandler: onError,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
  });
  // Socket.IO calls `new` on this: a function, not an arrow, and it returns the adapter itself.
  return function clusterAdapter(namespace: unknown) {
    const adapter = create(namespace);
    const internals = adapter as unknown as ClusterInternals;
    const startedAt = now();
    const publish = internals.publishAndReturnOffset.bind(adapter);
    internals.publishAndReturnOffset = (message) => {
      if (!ONE_WAY.has(message.type)) return publish(message);
      const alone = internals.nodesMap.size === 0 && now() - startedAt > HEARTBEAT_TIMEOUT_MS;
      // The library's publish reports its own errors to `onError` and never rejects.
      if (!alone) void publish(message);
      return Promise.resolve('');
    };
    return adapter;
  };
}

/**
 * True when `adapter` is the cluster adapter and has heard from another process within its
 * heartbeat time-out. The in-memory adapter (one process, PGlite) has no peers.
 */
export function heardFromOtherProcesses(adapter: unknown): boolean {
  return ((adapter as Partial<ClusterInternals>).nodesMap?.size ?? 0) > 0;
}

/**
 * The adapter's pool: two connections (the LISTEN one it keeps, one for notifications), of its
 * own so that the app's pool can end while the adapter is still up, and the other way round.
 */
export function createAdapterPool(connectionString: string) {
  return closablePool(createPool({ connectionString, max: 2 }));
}

/**
 * The adapter's pool, which can end even while the adapter is still connecting.
 *
 * The adapter takes its LISTEN connection asynchronously and keeps it, but only knows it has it
 * once its LISTEN statements are done; its `close()` releases it only then. A shutdown soon after
 * start-up (a test, a SIGTERM during boot) could close the adapter in between: the connection was
 * never released, and `pool.end()` waited for it until Fastify's 30 s timeout. So `end()` closes
 * whatever the adapter still holds, and later attempts (the adapter retries when a connection
 * drops) wait forever instead of failing into a retry loop that would keep the process alive.
 * A connection that ends under the adapter (the database went away) goes back to the pool.
 */
function closablePool(pool: pg.Pool) {
  let ending = false;
  const held = new Set<pg.PoolClient>();
  const never = () => new Promise<never>(() => {});
  pool.on('release', (_error: unknown, client: pg.PoolClient) => held.delete(client));
  const facade = {
    async connect() {
      if (ending) return never();
      const client = await pool.connect();
      if (ending) {
        client.release();
        return never();
      }
      held.add(client);
      // When the database goes away the adapter forgets this connection and takes a new one, but
      // never releases it: hand it back broken, or the pool stays one short for good.
      client.once('end', () => {
        if (held.has(client)) client.release(new Error('the LISTEN connection ended'));
      });
      return client;
    },
    query: pool.query.bind(pool),
  };
  return {
    /** What the adapter is given: it uses only `connect` and `query`. */
    pool: facade as unknown as pg.Pool,
    async end() {
      ending = true;
      for (const client of held) client.release(true);
      held.clear();
      await pool.end();
    },
  };
}
