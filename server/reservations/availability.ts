import { sql, type Kysely, type Transaction } from 'kysely';
import type { ItemAvailability } from '#contract/http/item-cards.ts';
import type { Database } from '../db/schema.ts';
import { freeCopies, heldCopies } from './holds.ts';
import { liveOffer } from './claims.ts';

/*
 * Live availability (issue 26, decision 045). Every change that can move an item's availability
 * (a reservation made, cancelled or lapsed, a join or leave of the waiting list, a check-out, a
 * return, a copy added, withdrawn or back on the shelf) runs `offerFreedCopies` inside its
 * transaction, under the item's row lock: that is the one seam, and it calls
 * `availabilityChanged`. Listeners (the realtime layer) hear the item ids after the call and read
 * the availability once the change's transaction has let go of the row (`readAvailability` waits
 * for the lock), so what they send is what was committed.
 */

/**
 * Hears the ids of items whose availability may have changed; `committed` when the change has
 * committed already (an import's batch), so nothing need wait for its transaction.
 */
export type AvailabilityListener = (itemId: string, committed: boolean) => void;

/**
 * Listeners per database: keyed by the query adapter, which a Kysely instance shares with every
 * transaction it opens, so two apps in one process (tests) hear only their own database.
 */
const listeners = new WeakMap<object, Set<AvailabilityListener>>();

function keyOf(db: Kysely<Database> | Transaction<Database>): object {
  return db.getExecutor().adapter;
}

/** Calls `listener` with each item whose availability may have changed in `db`; returns the stop. */
export function onAvailabilityChange(
  db: Kysely<Database>,
  listener: AvailabilityListener,
): () => void {
  const key = keyOf(db);
  let set = listeners.get(key);
  if (!set) {
    set = new Set();
    listeners.set(key, set);
  }
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

/**
 * Says `itemId`'s availability may have changed in the transaction `trx` holding its row lock;
 * or, with `committed`, that the availability of `itemId` (one id or many: an import says all the
 * items a run touched in one call) changed in transactions that have committed already.
 * Never throws and never waits: the listeners run on a later turn, after the caller went on.
 */
export function availabilityChanged(
  trx: Kysely<Database> | Transaction<Database>,
  itemId: string | readonly string[],
  { committed = false }: { committed?: boolean } = {},
): void {
  const set = listeners.get(keyOf(trx));
  if (!set || set.size === 0) return;
  const ids = typeof itemId === 'string' ? [itemId] : [...itemId];
  if (ids.length === 0) return;
  setImmediate(() => {
    for (const listener of set) {
      try {
        for (const id of ids) listener(id, committed);
      } catch {
        // A listener's failure is its own (it logs); the change has happened.
      }
    }
  });
}

/** True when something in this process hears `db`'s availability changes (a chat is mounted). */
export function hasAvailabilityListeners(db: Kysely<Database>): boolean {
  return (listeners.get(keyOf(db))?.size ?? 0) > 0;
}

/**
 * The availability of `itemIds` now, in one statement; with `waitForChanges`, each item's row is
 * first locked for share, which waits for a change still holding it (its transaction commits
 * first), so the counts read are the committed ones. Unknown and withdrawn items are left out.
 */
export async function readAvailability(
  db: Kysely<Database>,
  itemIds: readonly string[],
  now: Date,
  { waitForChanges = false }: { waitForChanges?: boolean } = {},
): Promise<Map<string, ItemAvailability>> {
  const answer = new Map<string, ItemAvailability>();
  if (itemIds.length === 0) return answer;
  const ids = [...itemIds];
  if (waitForChanges) {
    // One row per statement: a statement holds its locks until it ends, so waiting for one item
    // while holding another could deadlock with a change that locks several (a deleted account).
    for (const id of ids) {
      await db.selectFrom('items').select('id').where('id', '=', id).forShare().execute();
    }
  }
  const rows = await db
    .selectFrom('items as i')
    .select([
      'i.id',
      'i.copies',
      'i.copies_unavailable',
      (eb) => heldCopies(eb, now),
      (eb) =>
        eb
          .selectFrom('queued_holds as q')
          .select((inner) => inner.fn.countAll<string>().as('n'))
          .whereRef('q.item_id', '=', 'i.id')
          .where((inner) => inner.or([inner('q.status', '=', 'queued'), liveOffer(now)]))
          .as('queue'),
    ])
    .where(sql<boolean>`i.id = ANY (${ids}::uuid[])`)
    .where('i.withdrawn_at', 'is', null)
    .execute();
  for (const row of rows) {
    answer.set(row.id, {
      itemId: row.id,
      total: row.copies,
      available: row.copies > 0 ? freeCopies(row) : 0,
      queue: Number(row.queue ?? 0),
    });
  }
  return answer;
}

/** An import says its touched items at its end, or each time this many have gathered. */
const IMPORT_ITEMS_PER_CALL = 5_000;

/**
 * Gathers the items an import's committed batches touched (`add`, after each commit) and says
 * them through {@link availabilityChanged} in one call at the end (`done`), or every
 * `IMPORT_ITEMS_PER_CALL` items of a long import, so its memory stays bounded. Nothing is gathered
 * where nothing listens (`npm run import`, a process of its own).
 */
export function gatherImportedAvailability(db: Kysely<Database>) {
  const listening = hasAvailabilityListeners(db);
  let touched = new Set<string>();
  const say = () => {
    if (touched.size === 0) return;
    availabilityChanged(db, [...touched], { committed: true });
    touched = new Set();
  };
  return {
    /** Items whose copies a committed batch changed. */
    add(itemIds: readonly string[]): void {
      if (!listening) return;
      for (const id of itemIds) touched.add(id);
      if (touched.size >= IMPORT_ITEMS_PER_CALL) say();
    },
    /** The import is over (or failed after some batches committed): says what is left. */
    done: say,
  };
}
