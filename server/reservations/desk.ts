import { sql, type Kysely } from 'kysely';
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
import { checkOut, recordCirculation, returnCopy, type Actor, type LoanTerms } from './loans.ts';
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
 * Collected lends the first copy of the book on the shelf (as `checkOut` by its barcode would),
 * returned takes back its loan's copy (`returnCopy`); every move is recorded with `actor`.
 */
export async function changeDeskStatus(
  db: Kysely<Database>,
  id: string,
  status: ReservationStatus,
  now: Date,
  desk: { actor: Actor; terms: LoanTerms },
): Promise<ReservationRow> {
  if (!isReservationId(id)) throw new Refusal(404, 'There is no reservation with that id.');
  await expireHolds(db, now);
  const current = await reservationQuery(db, now).where('r.id', '=', id).executeTakeFirst();
  if (!current) throw new Refusal(404, 'There is no reservation with that id.');
  const refuse = (row: ReservationRow) =>
    new Refusal(
      409,
      `This reservation is ${RESERVATION_STATUS_LABELS[row.status].toLowerCase()}; it cannot be marked ${RESERVATION_STATUS_LABELS[status].toLowerCase()}.`,
    );
  if (!DESK_TRANSITIONS[current.status].includes(status)) throw refuse(current);

  if (status === 'collected') {
    const copy = await db
      .selectFrom('copies')
      .select('barcode')
      .where('item_id', '=', current.item_id)
      .where('status', '=', 'available')
      .orderBy(sql`upper(barcode)`)
      .executeTakeFirst();
    if (!copy) {
      throw new Refusal(
        409,
        `No copy of "${current.title}" is on the shelf to hand over: every copy is out, in repair or missing.`,
      );
    }
    await checkOut(db, { barcode: copy.barcode, reservationId: id, ...desk, now });
  } else if (status === 'returned') {
    const loan = await db
      .selectFrom('loans as l')
      .innerJoin('copies as c', 'c.id', 'l.copy_id')
      .select('c.barcode')
      .where('l.reservation_id', '=', id)
      .where('l.returned_at', 'is', null)
      .executeTakeFirst();
    if (loan) await returnCopy(db, { barcode: loan.barcode, actor: desk.actor, now });
    else await moveWithoutLoan(db, current, status, now, desk.actor);
  } else {
    await moveWithoutLoan(db, current, status, now, desk.actor);
  }
  const row = await reservationQuery(db, now).where('r.id', '=', id).executeTakeFirst();
  if (!row) throw new Refusal(404, 'There is no reservation with that id.');
  if (row.status !== status) throw refuse(row);
  return row;
}

/**
 * A no-show, or the return of a copy collected before loans existed: the reservation's status
 * alone moves, atomically (of two librarians, the second is told), and the freed copy is offered
 * to the waiting list.
 */
async function moveWithoutLoan(
  db: Kysely<Database>,
  reservation: ReservationRow,
  status: ReservationStatus,
  now: Date,
  actor: Actor,
): Promise<void> {
  const from = (Object.keys(DESK_TRANSITIONS) as ReservationStatus[]).filter((source) =>
    DESK_TRANSITIONS[source].includes(status),
  );
  await db.transaction().execute(async (trx) => {
    // The book's row first, as a reservation takes it: a freed copy is offered to the queue
    // before anyone else can reserve it.
    await trx
      .selectFrom('items')
      .select('id')
      .where('id', '=', reservation.item_id)
      .forUpdate()
      .execute();
    const moved = await trx
      .updateTable('reservations')
      .set({ status, updated_at: now })
      .where('id', '=', reservation.id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst();
    if (!moved) return;
    if (status === 'no_show') {
      await recordCirculation(trx, {
        action: 'no_show',
        actor,
        borrower: { id: reservation.user_id, name: reservation.holder_name },
        item: { id: reservation.item_id, title: reservation.title },
        copy: null,
        loanId: null,
        reservationId: reservation.id,
        now,
      });
    }
    await offerFreedCopies(trx, reservation.item_id, now);
  });
}
