import type { Server } from 'socket.io';
import { WATCHED_ITEMS_MAX } from '#contract/http/item-cards.ts';
import { isUuid } from '../../db/ids.ts';
import { onAvailabilityChange, readAvailability } from '../../reservations/availability.ts';
import { Refusal } from '../../refusal.ts';
import { NOTIFY_BUDGET_BYTES } from './between-processes.ts';
import type { ChatConnection, ChatContext } from './context.ts';
import { parsePayload } from './payload.ts';

/** The Socket.IO room of the sockets showing a card of item `itemId` (decision 045). */
export const itemChannel = (itemId: string) => `item:${itemId}`;

/** Changes within this long are read and sent together: a check-out touches an item twice. */
const AVAILABILITY_BATCH_MS = 50;

/**
 * A socket's cards (decision 045): `watch_items` joins the rooms of the items whose cards it
 * shows, `unwatch_items` leaves them. At most `WATCHED_ITEMS_MAX` at once per socket.
 */
export function itemEvents(_context: ChatContext, { socket, on }: ChatConnection) {
  const watched = () => [...socket.rooms].filter((room) => room.startsWith('item:')).length;

  on('watch_items', async (payload) => {
    const { itemIds } = parsePayload('watch_items', payload);
    const rooms = itemIds.map((id) => itemChannel(id.toLowerCase()));
    const fresh = rooms.filter((room) => !socket.rooms.has(room));
    if (watched() + fresh.length > WATCHED_ITEMS_MAX) {
      throw new Refusal(
        429,
        `This page shows more than ${WATCHED_ITEMS_MAX} items; reload it to see their availability.`,
      );
    }
    await socket.join(fresh);
  });

  on('unwatch_items', async (payload) => {
    const { itemIds } = parsePayload('unwatch_items', payload);
    for (const id of itemIds) await socket.leave(itemChannel(id.toLowerCase()));
  });
}

/**
 * The server-side event that hands an import's items to the server processes (decision 045): sent
 * by the process that imported (a server, or `npm run import` on PostgreSQL) with one chunk of
 * {@link committedIdChunks} as its one argument.
 */
export const COMMITTED_BETWEEN_PROCESSES = 'chat:availability-committed';

/** One item id in a JSON array: 36 characters, two quotes and a comma. */
const ID_JSON_BYTES = 39;

/**
 * Ids one such event carries at most: the chunk stays within one NOTIFY (`NOTIFY_BUDGET_BYTES` of
 * JSON), never a row of the adapter's attachments table that every process must then read.
 */
export const COMMITTED_IDS_PER_EVENT = Math.floor(NOTIFY_BUDGET_BYTES / ID_JSON_BYTES);

/** `ids` in the chunks that {@link COMMITTED_BETWEEN_PROCESSES} carries, one event each. */
export function committedIdChunks(ids: readonly string[]): string[][] {
  const chunks: string[][] = [];
  for (let at = 0; at < ids.length; at += COMMITTED_IDS_PER_EVENT) {
    chunks.push(ids.slice(at, at + COMMITTED_IDS_PER_EVENT));
  }
  return chunks;
}

/**
 * Sends `item_availability` to the sockets watching an item whenever the circulation seam says
 * it may have changed (`availabilityChanged`, called by `offerFreedCopies` in every change's
 * transaction). The availability is read once the change has committed, and sent through the
 * adapter, so watchers connected to other processes hear it too.
 *
 * An import says at once every item it touched, after its batches committed (`committed`): there
 * may be thousands, nearly all watched by nobody. So those are not read and broadcast one by one:
 * the ids go to the other processes in a few server-side messages, and each process reads, in
 * one statement, only the items its own sockets watch and tells them. Returns the stop.
 */
export function watchAvailability(context: ChatContext, sharing: () => boolean): () => void {
  const { io, db, log, now } = context;
  // The adapter's server-side events are untyped in the contract's maps (`Record<string, never>`).
  const cluster = io as unknown as Server;
  let pending = new Set<string>();
  let committed = new Set<string>();
  let timer: NodeJS.Timeout | undefined;

  const flushChanges = async () => {
    const local = io.of('/').adapter.rooms;
    // Nobody here watches, and no other process could: nothing to read.
    const ids = [...pending].filter((id) => sharing() || local.has(itemChannel(id)));
    pending = new Set();
    if (ids.length === 0) return;
    const counts = await readAvailability(db, ids, now(), { waitForChanges: true });
    for (const availability of counts.values()) {
      io.to(itemChannel(availability.itemId)).emit('item_availability', availability);
    }
  };

  /** Tells this process's watchers of `ids` (changes committed already). */
  const tellLocalWatchers = async (ids: Iterable<string>) => {
    const local = io.of('/').adapter.rooms;
    const watched = [...ids].filter((id) => local.has(itemChannel(id)));
    if (watched.length === 0) return;
    const counts = await readAvailability(db, watched, now());
    for (const availability of counts.values()) {
      io.local.to(itemChannel(availability.itemId)).emit('item_availability', availability);
    }
  };

  const flushCommitted = async () => {
    const ids = [...committed];
    committed = new Set();
    if (ids.length === 0) return;
    if (sharing()) {
      for (const chunk of committedIdChunks(ids)) {
        cluster.serverSideEmit(COMMITTED_BETWEEN_PROCESSES, chunk);
      }
    }
    await tellLocalWatchers(ids);
  };

  const flush = async () => {
    timer = undefined;
    await Promise.all([flushChanges(), flushCommitted()]);
  };

  const onOtherProcess = (ids: unknown) => {
    if (!Array.isArray(ids)) return;
    const valid = ids.filter((id): id is string => typeof id === 'string' && isUuid(id));
    tellLocalWatchers(valid).catch((error: unknown) =>
      log.warn({ err: error }, 'could not send an item availability'),
    );
  };
  cluster.on(COMMITTED_BETWEEN_PROCESSES, onOtherProcess);

  const stop = onAvailabilityChange(db, (itemId, done) => {
    (done ? committed : pending).add(itemId);
    timer ??= setTimeout(() => {
      flush().catch((error: unknown) =>
        log.warn({ err: error }, 'could not send an item availability'),
      );
    }, AVAILABILITY_BATCH_MS);
  });
  return () => {
    stop();
    cluster.off(COMMITTED_BETWEEN_PROCESSES, onOtherProcess);
    if (timer) clearTimeout(timer);
  };
}
