import { createAdapter } from '@socket.io/postgres-adapter';
import type pg from 'pg';
import { MessageType, type BroadcastOptions, type ClusterMessage } from 'socket.io-adapter';
import { createPool } from '../db/client.ts';
import { CLUSTER_CHANNEL_PREFIX, EMITTER_UID } from './emitter.ts';

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

/** A broadcast packet as Socket.IO builds it: an event's name and arguments in `data`. */
export interface BroadcastPacket {
  type?: number;
  data?: unknown[];
}

/** The parts of the library's cluster adapter the policies below read or replace. */
interface ClusterInternals {
  uid: string;
  nsp: { name: string };
  nodesMap: Map<string, number>;
  /** The library's one LISTEN client, shared by its namespaces. */
  client?: ListenInternals;
  publish(message: Omit<ClusterMessage, 'nsp' | 'uid'>): void;
  publishAndReturnOffset(message: Omit<ClusterMessage, 'nsp' | 'uid'>): Promise<string>;
  broadcast(packet: BroadcastPacket, options: BroadcastOptions): Promise<void>;
  onMessage(message: ClusterMessage, offset?: string): void;
}

/**
 * The library's LISTEN client: it sets `client` once its LISTEN statements are done, and unsets it
 * when that connection ends (then it takes a new one 1–3 s later, `initClient`, and LISTENs again).
 */
interface ListenInternals {
  client?: unknown;
  initClient(): Promise<void>;
}

/** What {@link watchCluster} is told, and what it may hold back. */
export interface ClusterWatch {
  /**
   * Sees every broadcast before it reaches this process's own sockets, whichever process sent
   * it. False: it goes through as usual. True: the watch took it and calls `deliver` when (and
   * if) this process's sockets should have it; the other processes are notified regardless.
   */
  intercept(packet: BroadcastPacket, rooms: ReadonlySet<string>, deliver: () => void): boolean;
  /**
   * Notifications may have been missed: the LISTEN connection is back (NOTIFY keeps nothing for a
   * listener that is away), or a process that was unknown or taken for gone has spoken.
   */
  mayHaveMissed(): void;
}

/** Per namespace adapter: since when it has been listening, and who watches it. */
interface ClusterState {
  listeningSince?: number;
  watch?: ClusterWatch;
}
const states = new WeakMap<object, ClusterState>();

/**
 * Socket.IO's PostgreSQL adapter, with changes to when it publishes and to what it tells.
 *
 * As shipped, every broadcast first sends a `pg_notify` through the pool and waits for it before
 * delivering to this process's own sockets: a database round trip, queued behind every other
 * notification on the pool's one free connection, added to every chat message even when no other
 * process is running. Here one-way messages (broadcasts, joins, leaves, disconnects) are:
 *
 * - **not awaited**: local delivery goes first and the notification follows in order on the same
 *   pool (the awaited value is an offset for connection-state recovery, which the chat does not
 *   use: clients catch up from the database instead);
 * - **not sent at all while this process is provably alone**: its LISTEN connection has been up
 *   without a break for longer than the heartbeat time-out and no other process has been heard
 *   from meanwhile (the adapter's heartbeats, every 5 s, and any message count). A process that
 *   starts, or whose LISTEN connection comes back, announces itself at once (`INITIAL_HEARTBEAT`,
 *   which every other process answers), so the others know it before its first client can join a
 *   room, and it hears them. Until the time-out has passed after its own (re)connection it
 *   publishes everything, since it cannot have heard the others yet: after a database outage,
 *   when every process had taken the others for gone, none of them goes quiet.
 *
 * Requests that wait for answers (fetching sockets, server-side emits) are left as they are.
 * NOTIFY keeps nothing for a listener that was away, so a {@link ClusterWatch} (the chat's
 * replay, `replay.ts`) is told when that may have happened and sees every broadcast first.
 */
export function createClusterAdapter(
  pool: pg.Pool,
  { onError, now = Date.now }: { onError: (error: Error) => void; now?: () => number },
) {
  const create = createAdapter(pool, {
    channelPrefix: CLUSTER_CHANNEL_PREFIX,
    errorHandler: onError,
    heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
  });
  // Socket.IO calls `new` on this: a function, not an arrow, and it returns the adapter itself.
  return function clusterAdapter(namespace: unknown) {
    const adapter = create(namespace);
    const internals = adapter as unknown as ClusterInternals;
    const state: ClusterState = {};
    states.set(adapter, state);

    const publish = internals.publishAndReturnOffset.bind(adapter);
    internals.publishAndReturnOffset = (message) => {
      if (!ONE_WAY.has(message.type)) return publish(message);
      const since = state.listeningSince;
      const alone =
        internals.nodesMap.size === 0 &&
        since !== undefined &&
        now() - since > HEARTBEAT_TIMEOUT_MS;
      // The library's publish reports most errors to `onError`, but not those of a message too
      // big for a NOTIFY (stored first, `publishWithAttachment`): those reject, and with no one
      // awaiting this they would be an unhandled rejection (seen when the pool had ended).
      if (!alone) {
        publish(message).catch((error: unknown) =>
          onError(error instanceof Error ? error : new Error(String(error))),
        );
      }
      return Promise.resolve('');
    };

    whenListening(internals.client, (listening) => {
      state.listeningSince = listening ? now() : undefined;
      if (!listening) return;
      // Every other process answers with a heartbeat, now that this one can hear it.
      internals.publish({ type: MessageType.INITIAL_HEARTBEAT });
      state.watch?.mayHaveMissed();
    });

    const onMessage = internals.onMessage.bind(adapter);
    internals.onMessage = (message, offset) => {
      const peer =
        message.nsp === internals.nsp.name &&
        typeof message.uid === 'string' &&
        message.uid !== internals.uid &&
        message.uid !== EMITTER_UID
          ? message.uid
          : undefined;
      const appeared =
        peer !== undefined &&
        message.type !== MessageType.ADAPTER_CLOSE &&
        !internals.nodesMap.has(peer);
      const watch = state.watch;
      const data = message.type === MessageType.BROADCAST ? message.data : undefined;
      if (watch && peer && data && data.requestId === undefined) {
        // Noted now, as the library would, even if the watch holds the broadcast back.
        internals.nodesMap.set(peer, Date.now());
        const taken = watch.intercept(
          data.packet as BroadcastPacket,
          new Set(data.opts.rooms),
          () => onMessage(message, offset),
        );
        if (!taken) onMessage(message, offset);
      } else {
        onMessage(message, offset);
      }
      if (appeared) watch?.mayHaveMissed();
    };

    const broadcast = internals.broadcast.bind(adapter);
    internals.broadcast = (packet, options) => {
      const watch = state.watch;
      if (!watch || options.flags?.local) return broadcast(packet, options);
      const local = { ...options, flags: { ...options.flags, local: true } };
      const taken = watch.intercept(packet, options.rooms, () => void broadcast(packet, local));
      if (!taken) return broadcast(packet, options);
      // The other processes at once, whatever the watch does with this process's sockets.
      const message = {
        type: MessageType.BROADCAST,
        data: {
          packet,
          opts: {
            rooms: [...options.rooms],
            except: [...(options.except ?? [])],
            flags: options.flags,
          },
        },
      } as const;
      void internals.publishAndReturnOffset(message as Omit<ClusterMessage, 'nsp' | 'uid'>);
      return Promise.resolve();
    };
    return adapter;
  };
}

/** Who hears of each LISTEN client's changes (one client serves every namespace's adapter). */
const watchedClients = new WeakMap<ListenInternals, Set<(listening: boolean) => void>>();

/**
 * Calls `change(true)` each time the library's LISTEN client is ready (its LISTEN statements
 * done), the first time included, and `change(false)` when its connection ends. The library has
 * no event for either; it assigns `client`, which is watched here.
 */
function whenListening(listen: ListenInternals | undefined, change: (listening: boolean) => void) {
  if (typeof listen?.initClient !== 'function') {
    throw new Error('@socket.io/postgres-adapter changed: its LISTEN client was not found');
  }
  const listeners = watchedClients.get(listen);
  if (listeners) {
    listeners.add(change);
    if (listen.client !== undefined) change(true);
    return;
  }
  const changes = new Set([change]);
  watchedClients.set(listen, changes);
  let client = listen.client;
  Object.defineProperty(listen, 'client', {
    configurable: true,
    enumerable: true,
    get: () => client,
    set: (value: unknown) => {
      client = value;
      for (const each of changes) each(value !== undefined);
    },
  });
  if (client !== undefined) change(true);
}

/**
 * Lets `watch` see every broadcast of `adapter` first and hear when notifications may have been
 * missed. False (and nothing happens) when `adapter` is not the cluster adapter (one process).
 */
export function watchCluster(adapter: unknown, watch: ClusterWatch): boolean {
  const state = typeof adapter === 'object' && adapter ? states.get(adapter) : undefined;
  if (!state) return false;
  state.watch = watch;
  return true;
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
