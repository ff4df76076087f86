import { sql, type Kysely, type Transaction } from 'kysely';
import { OFFER_HOURS, QUEUED_HOLDS_MAX, type HoldStatus } from '#contract/http/holds.ts';
import { isUuid } from '../db/ids.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { availabilityChanged } from './availability.ts';
import { claimsOn, holdsCopy, liveOffer, unclaimedCopies } from './claims.ts';

const NOT_QUEUEABLE = 'That book is not in the reservation catalogue.';
const NO_SUCH_HOLD = 'You have no place in a waiting list with that id.';

/** Why a hold that is no longer open cannot be left. */
const CLOSED: Partial<Record<HoldStatus, string>> = {
  fulfilled: 'You have already reserved the copy offered to you; cancel that reservation instead.',
  cancelled: 'You have already left this waiting list.',
  expired: 'This offer has lapsed, and the copy has gone to the next in line.',
};

/** Most holds a holder's list shows. */
export const OWN_HOLDS_LIMIT = 100;

/** True for text shaped like a hold's id (`HOLD-` and digits). */
export function isHoldId(id: string): boolean {
  return /^HOLD-\d{1,19}$/.test(id);
}

/**
 * Locks `itemId`'s row and offers its unclaimed copies to the head of its queue, in order: each
 * offered hold gets 48 hours to become a reservation. Offers past their time are first marked
 * expired, so their copies pass on. Call it inside the transaction of every change that can free
 * a copy (a reservation cancelled, expired, a no-show or a return, a copy back on the shelf) and
 * of every reservation and join, so nobody jumps the queue and no copy is offered twice: the
 * item row's lock makes offers take turns with reservations. Returns how many offers it made.
 */
export async function offerFreedCopies(
  trx: Transaction<Database>,
  itemId: string,
  now: Date,
): Promise<number> {
  const item = await trx
    .selectFrom('items')
    .select(['copies', 'copies_unavailable', 'withdrawn_at'])
    .where('id', '=', itemId)
    .forUpdate()
    .executeTakeFirst();
  if (!item) return 0;
  // Every change of the item's availability passes here, holding the row: the one seam that
  // tells the cards shown in chat rooms (decision 045).
  availabilityChanged(trx, itemId);
  await trx
    .updateTable('queued_holds')
    .set({ status: 'expired', updated_at: now })
    .where('item_id', '=', itemId)
    .where('status', '=', 'offered')
    .where('offer_expires_at', '<=', now)
    .execute();
  if (item.withdrawn_at !== null) return 0;
  const claims = await claimsOn(trx, itemId, now);
  const free = unclaimedCopies(item, claims);
  if (free <= 0 || claims.queued === 0) return 0;
  const next = await trx
    .selectFrom('queued_holds')
    .select('id')
    .where('item_id', '=', itemId)
    .where('status', '=', 'queued')
    .orderBy('number')
    .limit(free)
    .execute();
  await trx
    .updateTable('queued_holds')
    .set({
      status: 'offered',
      offered_at: now,
      offer_expires_at: new Date(now.getTime() + OFFER_HOURS * 3_600_000),
      updated_at: now,
    })
    .where(
      'id',
      'in',
      next.map((row) => row.id),
    )
    .execute();
  return next.length;
}

/**
 * Settles every queue that has an offer past its time or an unclaimed copy at `now`, one book per
 * transaction (`offerFreedCopies`): the sweeper's catch-up for changes that bypass the API (an
 * import, a hold that lapsed on its own). Returns how many offers it made.
 */
export async function settleQueues(db: Kysely<Database>, now: Date): Promise<number> {
  const at = now.toISOString();
  const { rows } = await sql<{ item_id: string }>`
    SELECT DISTINCT q.item_id FROM queued_holds q
    WHERE (q.status = 'offered' AND q.offer_expires_at <= ${at}::timestamptz)
       OR (q.status = 'queued' AND EXISTS (
         SELECT 1 FROM items i
         WHERE i.id = q.item_id AND i.withdrawn_at IS NULL
           AND i.copies - i.copies_unavailable
             - (SELECT count(*) FROM reservations r WHERE r.item_id = i.id AND ${holdsCopy(now)})
             - (SELECT count(*) FROM queued_holds o WHERE o.item_id = i.id AND ${liveOffer(now, 'o')})
             > 0))
  `.execute(db);
  let offered = 0;
  for (const { item_id } of rows) {
    offered += await db.transaction().execute((trx) => offerFreedCopies(trx, item_id, now));
  }
  return offered;
}

/**
 * Holds with what presenting one needs: the row, its book, the status as of `now` (an offer past
 * its time reads as expired, see `liveOffer`) and `place`, the number of people queued for the
 * book up to and including this hold (its position while queued).
 */
export function holdQuery(db: Kysely<Database> | Transaction<Database>, now: Date) {
  return db
    .selectFrom('queued_holds as q')
    .innerJoin('items as i', 'i.id', 'q.item_id')
    .select([
      'q.id',
      'q.number',
      'q.user_id',
      'q.item_id',
      sql<HoldStatus>`CASE WHEN q.status = 'offered' AND NOT ${liveOffer(now)} THEN 'expired' ELSE q.status END`.as(
        'status',
      ),
      'q.offer_expires_at',
      'q.reservation_id',
      'q.created_at',
      'i.title',
      'i.authors',
      'i.cover_url',
      'i.copies',
      sql<string>`(SELECT count(*) FROM queued_holds ahead
        WHERE ahead.item_id = q.item_id AND ahead.status = 'queued' AND ahead.number <= q.number)`.as(
        'place',
      ),
    ]);
}

/** A hold with its book and place, as `holdQuery` selects it. */
export type HoldRow = Awaited<ReturnType<ReturnType<typeof holdQuery>['execute']>>[number];

/**
 * Puts `userId` in `itemId`'s waiting list inside `trx`, locking the person and then the book
 * (the order `reserveCopy` takes them in). Joining again answers the open hold they have. 404 for
 * a book without physical copies; 409 when they hold a copy of it already, have the most open
 * holds, or a copy is free now (reserve it instead).
 */
export async function joinQueue(
  trx: Transaction<Database>,
  { userId, itemId, now }: { userId: string; itemId: string; now: Date },
): Promise<HoldRow> {
  if (!isUuid(itemId)) throw new Refusal(404, NOT_QUEUEABLE);
  await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const item = await trx
    .selectFrom('items')
    .select(['id', 'title', 'copies', 'copies_unavailable', 'withdrawn_at'])
    .where('id', '=', itemId)
    .forUpdate()
    .executeTakeFirst();
  if (!item || item.copies === 0 || item.withdrawn_at !== null) {
    throw new Refusal(404, NOT_QUEUEABLE);
  }
  await offerFreedCopies(trx, itemId, now);

  const open = await trx
    .selectFrom('queued_holds as q')
    .select(['q.id', 'q.item_id'])
    .where('q.user_id', '=', userId)
    .where((eb) => eb.or([eb('q.status', '=', 'queued'), liveOffer(now)]))
    .execute();
  const same = open.find((row) => row.item_id === itemId);
  if (same) return holdQuery(trx, now).where('q.id', '=', same.id).executeTakeFirstOrThrow();

  // A copy held for them, or one they have out: a reservation, or a loan made without one.
  const holding =
    (await trx
      .selectFrom('reservations as r')
      .select('r.id')
      .where('r.user_id', '=', userId)
      .where('r.item_id', '=', itemId)
      .where((eb) => eb.or([holdsCopy(now), eb('r.status', '=', 'collected')]))
      .executeTakeFirst()) ??
    (await trx
      .selectFrom('loans as l')
      .select('l.id')
      .where('l.user_id', '=', userId)
      .where('l.item_id', '=', itemId)
      .where('l.returned_at', 'is', null)
      .executeTakeFirst());
  if (holding) {
    throw new Refusal(
      409,
      `You already hold a copy of "${item.title}" (${holding.id}); there is no need to wait for another.`,
    );
  }
  if (open.length >= QUEUED_HOLDS_MAX) {
    throw new Refusal(
      409,
      `You are already waiting for ${QUEUED_HOLDS_MAX} books, the most one person may. Leave one of those waiting lists first.`,
    );
  }
  const claims = await claimsOn(trx, itemId, now);
  if (unclaimedCopies(item, claims) - claims.queued > 0) {
    throw new Refusal(
      409,
      `A copy of "${item.title}" is free right now: reserve it for a pickup slot instead of joining the waiting list.`,
    );
  }
  const row = await trx
    .insertInto('queued_holds')
    .values({ user_id: userId, item_id: itemId, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return holdQuery(trx, now).where('q.id', '=', row.id).executeTakeFirstOrThrow();
}

/**
 * Takes `userId` out of the waiting list of their hold `id`, queued or offered (an offer declined
 * passes at once to the next in line): 404 when it is not theirs, 409 when it is no longer open.
 */
export async function leaveQueue(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: Date,
): Promise<HoldRow> {
  if (!isHoldId(id)) throw new Refusal(404, NO_SUCH_HOLD);
  return db.transaction().execute(async (trx) => {
    const hold = await trx
      .selectFrom('queued_holds')
      .select('item_id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!hold) throw new Refusal(404, NO_SUCH_HOLD);
    // Locks the book first, and writes an offer past its time as expired before the change.
    await offerFreedCopies(trx, hold.item_id, now);
    const left = await trx
      .updateTable('queued_holds')
      .set({ status: 'cancelled', updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'offered'])
      .returning('id')
      .executeTakeFirst();
    const row = await holdQuery(trx, now).where('q.id', '=', id).executeTakeFirstOrThrow();
    if (!left) throw new Refusal(409, CLOSED[row.status] ?? NO_SUCH_HOLD);
    await offerFreedCopies(trx, hold.item_id, now);
    return row;
  });
}

/**
 * `userId`'s holds: live offers first (soonest to lapse first), then their places in queues (as
 * joined), then the rest newest first. A read writes nothing.
 */
export async function ownHolds(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<HoldRow[]> {
  const rank = sql`CASE WHEN ${liveOffer(now)} THEN 0 WHEN q.status = 'queued' THEN 1 ELSE 2 END`;
  return holdQuery(db, now)
    .where('q.user_id', '=', userId)
    .orderBy(rank)
    .orderBy(sql`CASE WHEN ${liveOffer(now)} THEN q.offer_expires_at END`, 'asc')
    .orderBy(sql`CASE WHEN q.status = 'queued' THEN q.number END`, 'asc')
    .orderBy('q.number', 'desc')
    .limit(OWN_HOLDS_LIMIT)
    .execute();
}

/** Marks `userId`'s live offer `holdId` fulfilled by reservation `reservationId`, inside `trx`. */
export async function fulfilOffer(
  trx: Transaction<Database>,
  holdId: string,
  reservationId: string,
  now: Date,
): Promise<void> {
  await trx
    .updateTable('queued_holds')
    .set({ status: 'fulfilled', reservation_id: reservationId, updated_at: now })
    .where('id', '=', holdId)
    .where('status', '=', 'offered')
    .execute();
}
