import { sql, type Kysely, type Transaction } from 'kysely';
import { RESERVATION_STATUS_LABELS } from '#contract/http/reservations.ts';
import { RESERVATION_DAYS_AHEAD } from '#contract/limits.ts';
import { isReservationId } from '../db/ids.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { formatDate, isSlotOpen, requestedDate, reservableDates } from './calendar.ts';
import {
  activeAt,
  expireHolds,
  reservationQuery,
  reserveCopy,
  type HoldRequest,
  type ReservationRow,
} from './holds.ts';
import { offerFreedCopies } from './queue.ts';

/** Most reservations a holder's list shows. */
export const OWN_RESERVATIONS_LIMIT = 100;

/**
 * Reserves a copy inside `trx` for a day the library takes reservations on and a slot not yet
 * over (400 otherwise), with `reserveCopy`'s locks and limits. `wish.date` is as the person sent
 * it: `YYYY-MM-DD`, or an ISO date-time read in the library's time zone. Returns the reservation.
 */
export async function reserve(
  trx: Transaction<Database>,
  wish: HoldRequest,
): Promise<ReservationRow> {
  const { timeZone, now } = wish;
  const date = requestedDate(wish.date, timeZone);
  const dates = reservableDates(now, timeZone);
  if (date === null) throw new Refusal(400, 'The reservation date is not a real date.');
  if (!dates.includes(date)) {
    throw new Refusal(
      400,
      `Choose a date from ${formatDate(dates[0]!)} to ${formatDate(dates.at(-1)!)} (today and the next ${RESERVATION_DAYS_AHEAD - 1} days).`,
    );
  }
  if (!isSlotOpen(date, wish.slot, now, timeZone)) {
    throw new Refusal(
      400,
      `The ${wish.slot} slot is already over today. Please choose a later slot or another day.`,
    );
  }
  const id = await reserveCopy(trx, { ...wish, date });
  return reservationQuery(trx, now).where('r.id', '=', id).executeTakeFirstOrThrow();
}

/** `userId`'s reservation `id` as of `now`; 404 when they hold none by that id. */
export async function findOwnReservation(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: Date,
): Promise<ReservationRow> {
  const row = await reservationQuery(db, now)
    .where('r.id', '=', id)
    .where('r.user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new Refusal(404, 'You have no reservation with that id.');
  return row;
}

/**
 * `userId`'s reservations: active holds first, soonest slot first, then the rest newest first.
 * A read writes nothing: a hold past its time reads as expired (`reservationQuery`).
 */
export async function ownReservations(
  db: Kysely<Database>,
  userId: string,
  now: Date,
): Promise<ReservationRow[]> {
  return reservationQuery(db, now)
    .where('r.user_id', '=', userId)
    .orderBy(sql`CASE WHEN ${activeAt(now)} THEN 0 ELSE 1 END`)
    .orderBy(sql`CASE WHEN ${activeAt(now)} THEN r.slot_starts_at END`, 'asc')
    .orderBy('r.created_at', 'desc')
    .limit(OWN_RESERVATIONS_LIMIT)
    .execute();
}

/**
 * Cancels `userId`'s active reservation `id`: 404 when it is not theirs, 409 when not active.
 * The copy goes to the book's waiting list first, in the same transaction (`offerFreedCopies`).
 */
export async function cancelReservation(
  db: Kysely<Database>,
  userId: string,
  id: string,
  now: Date,
): Promise<ReservationRow> {
  if (!isReservationId(id)) throw new Refusal(404, 'You have no reservation with that id.');
  await expireHolds(db, now, { userId });
  const cancelled = await db.transaction().execute(async (trx) => {
    const mine = await trx
      .selectFrom('reservations')
      .select('item_id')
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!mine) return undefined;
    // The book's row first, as a reservation takes it, then the reservation's.
    await trx.selectFrom('items').select('id').where('id', '=', mine.item_id).forUpdate().execute();
    const changed = await trx
      .updateTable('reservations')
      .set({ status: 'cancelled', updated_at: now })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .returning('id')
      .executeTakeFirst();
    if (changed) await offerFreedCopies(trx, mine.item_id, now);
    return changed;
  });
  const row = await findOwnReservation(db, userId, id, now);
  if (!cancelled) {
    throw new Refusal(
      409,
      `This reservation is ${RESERVATION_STATUS_LABELS[row.status].toLowerCase()} and can no longer be cancelled.`,
    );
  }
  return row;
}
