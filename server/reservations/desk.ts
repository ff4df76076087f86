import type { Kysely } from 'kysely';
import {
  DESK_TRANSITIONS,
  RESERVATION_STATUS_LABELS,
  type ReservationStatus,
} from '#contract/http/reservations.ts';
import { isReservationId } from '../db/ids.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { localDate, requestedDate } from './calendar.ts';
import { expireHolds, reservationQuery, type ReservationRow } from './holds.ts';
import { offerFreedCopies } from './queue.ts';

/** Most copies on loan the desk lists. */
export const ON_LOAN_LIMIT = 500;

/** One day at the library desk: its pickups and every copy out on loan. */
export interface DeskDay {
  /** `YYYY-MM-DD`. */
  date: string;
  /** The day's reservations of any status, by slot and then as made. */
  pickups: ReservationRow[];
  /** Copies collected and not yet returned, oldest first. */
  onLoan: ReservationRow[];
}

/**
 * The desk's view of `date` (`YYYY-MM-DD`; today in `timeZone` when absent): 400 for a date that
 * does not exist.
 */
export async function deskDay(
  db: Kysely<Database>,
  date: string | undefined,
  now: Date,
  timeZone: string,
): Promise<DeskDay> {
  const day = date ? requestedDate(date, timeZone) : localDate(now, timeZone);
  if (day === null) throw new Refusal(400, 'date must be a real date (YYYY-MM-DD).');
  const [pickups, onLoan] = await Promise.all([
    reservationQuery(db, now)
      .where('r.pickup_date', '=', day)
      .orderBy('r.slot_starts_at')
      .orderBy('r.created_at')
      .execute(),
    reservationQuery(db, now)
      .where('r.status', '=', 'collected')
      .orderBy('r.updated_at')
      .limit(ON_LOAN_LIMIT)
      .execute(),
  ]);
  return { date: day, pickups, onLoan };
}

/**
 * Marks reservation `id` collected, no-show or returned at the desk, when `DESK_TRANSITIONS`
 * allows it from its status at `now`: 404 for no such reservation, 409 for a move not allowed.
 */
export async function changeDeskStatus(
  db: Kysely<Database>,
  id: string,
  status: ReservationStatus,
  now: Date,
): Promise<ReservationRow> {
  if (!isReservationId(id)) throw new Refusal(404, 'There is no reservation with that id.');
  await expireHolds(db, now);
  const from = (Object.keys(DESK_TRANSITIONS) as ReservationStatus[]).filter((source) =>
    DESK_TRANSITIONS[source].includes(status),
  );
  const changed = await db.transaction().execute(async (trx) => {
    const reservation = await trx
      .selectFrom('reservations')
      .select('item_id')
      .where('id', '=', id)
      .executeTakeFirst();
    if (!reservation) return undefined;
    // The book's row first, as a reservation takes it: a freed copy is offered to the queue
    // before anyone else can reserve it.
    await trx
      .selectFrom('items')
      .select('id')
      .where('id', '=', reservation.item_id)
      .forUpdate()
      .execute();
    // The status in the WHERE makes the move atomic: of two librarians, the second one is told.
    const moved = await trx
      .updateTable('reservations')
      .set({ status, updated_at: now })
      .where('id', '=', id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst();
    if (moved && status !== 'collected') await offerFreedCopies(trx, reservation.item_id, now);
    return moved;
  });
  const row = await reservationQuery(db, now).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw new Refusal(404, 'There is no reservation with that id.');
  if (!changed) {
    throw new Refusal(
      409,
      `This reservation is ${RESERVATION_STATUS_LABELS[row.status].toLowerCase()}; it cannot be marked ${RESERVATION_STATUS_LABELS[status].toLowerCase()}.`,
    );
  }
  return row;
}
