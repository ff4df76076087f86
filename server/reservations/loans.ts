import { sql, type Kysely, type Transaction } from 'kysely';
import { LOAN_RENEWALS_MAX, LOANS_LIST_MAX, type DeskLoansQuery } from '#contract/http/loans.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { addDays, formatDate, localDate, zonedInstant } from './calendar.ts';
import { holdsCopy, liveOffer } from './claims.ts';
import { activeAt, expireHolds } from './holds.ts';
import { offerFreedCopies } from './queue.ts';

/** Who does something at the desk (or a borrower renewing their own loan). */
export interface Actor {
  id: string;
  name: string;
}

/** How long loans run and where the library's days begin and end. */
export interface LoanTerms {
  loanDays: number;
  timeZone: string;
}

/** True for text shaped like a loan's id (`LOAN-` and digits). */
export function isLoanId(id: string): boolean {
  return /^LOAN-\d{1,19}$/.test(id);
}

/**
 * The due date of a loan that runs `loanDays` from `from`: the end of that day (23:59) in the
 * library's time zone, so a book is due on a day, not at the minute it was handed over.
 */
export function dueDate(from: Date, terms: LoanTerms): Date {
  return zonedInstant(
    addDays(localDate(from, terms.timeZone), terms.loanDays),
    23,
    59,
    terms.timeZone,
  );
}

/** A due date as a message says it. */
function dueText(due: Date, timeZone: string): string {
  return formatDate(localDate(due, timeZone));
}

/**
 * Loans with what presenting one needs: the row, its copy, its book, its borrower and `waiting`,
 * the people queued for the book or offered a copy of it at `now` (a renewal is refused while
 * anyone waits). Callers add their own conditions and order.
 */
export function loanQuery(db: Kysely<Database> | Transaction<Database>, now: Date) {
  return db
    .selectFrom('loans as l')
    .innerJoin('items as i', 'i.id', 'l.item_id')
    .innerJoin('copies as c', 'c.id', 'l.copy_id')
    .leftJoin('users as u', 'u.id', 'l.user_id')
    .select([
      'l.id',
      'l.user_id',
      'l.item_id',
      'l.copy_id',
      'l.reservation_id',
      'l.checked_out_at',
      'l.due_at',
      'l.renewals',
      'l.returned_at',
      'c.barcode',
      'c.location',
      'i.title',
      'i.authors',
      'i.cover_url',
      sql<string>`coalesce(u.name, 'Deleted account')`.as('borrower_name'),
      sql<string>`coalesce(u.email, '')`.as('borrower_email'),
      sql<string>`coalesce(u.phone_number, '')`.as('borrower_phone'),
      sql<string>`(SELECT count(*) FROM queued_holds q
        WHERE q.item_id = l.item_id AND (q.status = 'queued' OR ${liveOffer(now)}))`.as('waiting'),
    ]);
}

/** A loan with its copy, book and borrower, as `loanQuery` selects it. */
export type LoanRow = Awaited<ReturnType<ReturnType<typeof loanQuery>['execute']>>[number];

/** Why `row` cannot be renewed at `now`, in words; null when it can. */
export function renewBlockedBecause(row: LoanRow): string | null {
  if (row.returned_at !== null) return 'This book has been returned.';
  if (row.renewals >= LOAN_RENEWALS_MAX) {
    return `Renewed ${LOAN_RENEWALS_MAX} times, the most allowed.`;
  }
  if (Number(row.waiting) > 0) return 'Someone is waiting for this book.';
  return null;
}

/** Writes one circulation event (who, when, which copy) in the action's own transaction. */
export async function recordCirculation(
  trx: Transaction<Database>,
  event: {
    action: 'check_out' | 'return' | 'renew' | 'no_show';
    actor: Actor;
    borrower: { id: string | null; name: string };
    item: { id: string; title: string };
    copy: { id: string; barcode: string } | null;
    loanId: string | null;
    reservationId: string | null;
    now: Date;
  },
): Promise<void> {
  await trx
    .insertInto('circulation_events')
    .values({
      at: event.now,
      action: event.action,
      actor_id: event.actor.id,
      actor_name: event.actor.name,
      borrower_id: event.borrower.id,
      borrower_name: event.borrower.name,
      item_id: event.item.id,
      title: event.item.title,
      copy_id: event.copy?.id ?? null,
      barcode: event.copy?.barcode ?? null,
      loan_id: event.loanId,
      reservation_id: event.reservationId,
    })
    .execute();
}

/** The copy printed with `barcode` (any case), locked, with its book's row locked first. */
async function lockCopy(trx: Transaction<Database>, barcode: string) {
  const found = await trx
    .selectFrom('copies')
    .select(['id', 'item_id'])
    .where(sql<string>`upper(barcode)`, '=', barcode.trim().toUpperCase())
    .executeTakeFirst();
  if (!found) throw new Refusal(404, `No copy has the barcode ${barcode.trim()}.`);
  // The book's row first, as reservations and offers take it: the counts they read cannot
  // change under a check-out or return, and a freed copy goes to the queue before anyone else.
  const item = await trx
    .selectFrom('items')
    .select(['id', 'title', 'copies', 'copies_unavailable', 'withdrawn_at'])
    .where('id', '=', found.item_id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const copy = await trx
    .selectFrom('copies')
    .select(['id', 'barcode', 'status'])
    .where('id', '=', found.id)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { item, copy };
}

const COPY_STATUS_WORDS = {
  in_repair: 'marked in repair',
  missing: 'marked missing',
  withdrawn: 'withdrawn',
} as const;

/** What the desk gives to check a copy out. */
export interface CheckOut {
  barcode: string;
  reservationId?: string | undefined;
  email?: string | undefined;
  actor: Actor;
  terms: LoanTerms;
  now: Date;
}

/**
 * Lends the copy with `barcode`, in one transaction: to the holder of `reservationId`, or of the
 * active reservation of its book by the person with `email`, or of the book's only active
 * reservation; with `email` and no reservation, to that person when a copy of the book is
 * unclaimed (nobody holds, is offered or waits for it). The copy goes on loan, the reservation is
 * collected, and the desk's action is recorded. Answers the loan's id.
 */
export async function checkOut(db: Kysely<Database>, request: CheckOut): Promise<string> {
  const { now } = request;
  return db.transaction().execute(async (trx) => {
    const { item, copy } = await lockCopy(trx, request.barcode);
    if (copy.status === 'on_loan') {
      const open = await loanQuery(trx, now)
        .where('l.copy_id', '=', copy.id)
        .where('l.returned_at', 'is', null)
        .executeTakeFirst();
      throw new Refusal(
        409,
        open
          ? `Copy ${copy.barcode} is already on loan to ${open.borrower_name}, due ${dueText(open.due_at, request.terms.timeZone)}. Return it first.`
          : `Copy ${copy.barcode} is marked on loan outside this system. Mark it available on its catalogue page first.`,
      );
    }
    if (copy.status !== 'available') {
      throw new Refusal(
        409,
        `Copy ${copy.barcode} of "${item.title}" is ${COPY_STATUS_WORDS[copy.status]}; it cannot be lent.`,
      );
    }
    await expireHolds(trx, now, { itemId: item.id });
    await offerFreedCopies(trx, item.id, now);

    const reservation = await chooseReservation(trx, request, item);
    let borrower: { id: string; name: string };
    if (reservation) {
      borrower = { id: reservation.user_id, name: reservation.holder_name };
    } else {
      borrower = await walkInBorrower(trx, request.email!, item, now);
    }

    const loan = await trx
      .insertInto('loans')
      .values({
        user_id: borrower.id,
        item_id: item.id,
        copy_id: copy.id,
        reservation_id: reservation?.id ?? null,
        checked_out_at: now,
        checked_out_by: request.actor.id,
        due_at: dueDate(now, request.terms),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('copies')
      .set({ status: 'on_loan', updated_at: now, updated_by: request.actor.id })
      .where('id', '=', copy.id)
      .execute();
    if (reservation) {
      await trx
        .updateTable('reservations')
        .set({ status: 'collected', updated_at: now })
        .where('id', '=', reservation.id)
        .execute();
    }
    await recordCirculation(trx, {
      action: 'check_out',
      actor: request.actor,
      borrower,
      item,
      copy,
      loanId: loan.id,
      reservationId: reservation?.id ?? null,
      now,
    });
    return loan.id;
  });
}

/** The active reservation a check-out is for, or null for a walk-in (`email` given, none held). */
async function chooseReservation(
  trx: Transaction<Database>,
  request: CheckOut,
  item: { id: string; title: string },
) {
  const active = trx
    .selectFrom('reservations as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.user_id', 'r.item_id', 'r.status', 'r.expires_at', 'u.name as holder_name'])
    .where(activeAt(request.now));
  if (request.reservationId) {
    const chosen = await trx
      .selectFrom('reservations as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .innerJoin('items as i', 'i.id', 'r.item_id')
      .select([
        'r.id',
        'r.user_id',
        'r.item_id',
        'u.name as holder_name',
        'i.title',
        activeAt(request.now).as('active'),
      ])
      .where('r.id', '=', request.reservationId)
      .forUpdate('r')
      .executeTakeFirst();
    if (!chosen) throw new Refusal(404, `There is no reservation ${request.reservationId}.`);
    if (chosen.item_id !== item.id) {
      throw new Refusal(
        409,
        `This copy is of "${item.title}", but ${chosen.id} is for "${chosen.title}". Scan a copy of that book.`,
      );
    }
    if (!chosen.active) {
      throw new Refusal(409, `${chosen.id} is no longer active; it cannot be collected.`);
    }
    return chosen;
  }
  if (request.email) {
    const own = await active
      .where('r.item_id', '=', item.id)
      .where('u.email', '=', request.email.toLowerCase())
      .executeTakeFirst();
    return own ?? null;
  }
  const candidates = await active
    .where('r.item_id', '=', item.id)
    .orderBy('r.slot_starts_at')
    .limit(6)
    .execute();
  if (candidates.length === 1) return candidates[0]!;
  if (candidates.length === 0) {
    throw new Refusal(
      409,
      `Nobody has an active reservation of "${item.title}". To lend it without one, give the borrower's e-mail.`,
    );
  }
  const names = candidates.slice(0, 5).map((row) => `${row.holder_name} (${row.id})`);
  throw new Refusal(
    409,
    `Several people have reserved "${item.title}": ${names.join(', ')}. Choose whose pickup it is.`,
  );
}

/** The person with `email`, when a copy of the book is theirs to take without a reservation. */
async function walkInBorrower(
  trx: Transaction<Database>,
  email: string,
  item: { id: string; title: string; copies: number; copies_unavailable: number },
  now: Date,
) {
  const person = await trx
    .selectFrom('users')
    .select(['id', 'name', 'disabled_at'])
    // Stored in lower case (a CHECK says so): the unique index finds it.
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  if (!person) throw new Refusal(404, `Nobody has an account with the e-mail ${email}.`);
  if (person.disabled_at !== null) {
    throw new Refusal(409, `${person.name}'s account is disabled; they cannot borrow.`);
  }
  const already = await trx
    .selectFrom('loans')
    .select('id')
    .where('user_id', '=', person.id)
    .where('item_id', '=', item.id)
    .where('returned_at', 'is', null)
    .executeTakeFirst();
  if (already) {
    throw new Refusal(409, `${person.name} already has "${item.title}" on loan (${already.id}).`);
  }
  // A walk-in takes only a copy that no reservation, offer or waiting person has a claim on.
  const { rows } = await sql<{ claimed: string }>`
    SELECT
      (SELECT count(*) FROM reservations r WHERE r.item_id = ${item.id}::uuid AND ${holdsCopy(now)})
      + (SELECT count(*) FROM queued_holds q
          WHERE q.item_id = ${item.id}::uuid AND (q.status = 'queued' OR ${liveOffer(now)})) AS claimed
  `.execute(trx);
  const unclaimed = item.copies - item.copies_unavailable - Number(rows[0]?.claimed ?? 0);
  if (unclaimed <= 0) {
    throw new Refusal(
      409,
      `Every copy of "${item.title}" on the shelf is reserved or promised to someone waiting. ${person.name} can join its waiting list.`,
    );
  }
  return { id: person.id, name: person.name };
}

/**
 * Takes back the copy with `barcode`: its open loan is returned, the copy is on the shelf again
 * and offered to the book's waiting list first, its reservation reads returned, and the return is
 * recorded. Answers the loan's id.
 */
export async function returnCopy(
  db: Kysely<Database>,
  request: { barcode: string; actor: Actor; now: Date },
): Promise<string> {
  const { now } = request;
  return db.transaction().execute(async (trx) => {
    const { item, copy } = await lockCopy(trx, request.barcode);
    const loan = await trx
      .selectFrom('loans as l')
      .leftJoin('users as u', 'u.id', 'l.user_id')
      .select(['l.id', 'l.user_id', 'l.reservation_id', 'u.name'])
      .where('l.copy_id', '=', copy.id)
      .where('l.returned_at', 'is', null)
      .forUpdate('l')
      .executeTakeFirst();
    if (!loan) {
      throw new Refusal(
        409,
        copy.status === 'on_loan'
          ? `Copy ${copy.barcode} is marked on loan outside this system. Mark it available on its catalogue page.`
          : `Copy ${copy.barcode} of "${item.title}" is not on loan.`,
      );
    }
    await trx
      .updateTable('loans')
      .set({ returned_at: now, returned_by: request.actor.id })
      .where('id', '=', loan.id)
      .execute();
    await trx
      .updateTable('copies')
      .set({ status: 'available', updated_at: now, updated_by: request.actor.id })
      .where('id', '=', copy.id)
      .where('status', '=', 'on_loan')
      .execute();
    if (loan.reservation_id) {
      await trx
        .updateTable('reservations')
        .set({ status: 'returned', updated_at: now })
        .where('id', '=', loan.reservation_id)
        .where('status', '=', 'collected')
        .execute();
    }
    await recordCirculation(trx, {
      action: 'return',
      actor: request.actor,
      borrower: { id: loan.user_id, name: loan.name ?? 'Deleted account' },
      item,
      copy,
      loanId: loan.id,
      reservationId: loan.reservation_id,
      now,
    });
    await offerFreedCopies(trx, item.id, now);
    return loan.id;
  });
}

/**
 * Renews loan `loanId` by `LOAN_DAYS` from its due date (or from today, when overdue): at most
 * `LOAN_RENEWALS_MAX` times, and never while someone waits for the book. `borrowerId` limits it
 * to that person's own loans (404 for anyone else's); the desk gives none. Answers the loan's id.
 */
export async function renewLoan(
  db: Kysely<Database>,
  request: {
    loanId: string;
    borrowerId: string | null;
    actor: Actor;
    terms: LoanTerms;
    now: Date;
  },
): Promise<string> {
  const { now } = request;
  const notFound = new Refusal(
    404,
    request.borrowerId ? 'You have no loan with that id.' : 'There is no loan with that id.',
  );
  if (!isLoanId(request.loanId)) throw notFound;
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('loans')
      .select(['item_id'])
      .where('id', '=', request.loanId)
      .$if(request.borrowerId !== null, (q) => q.where('user_id', '=', request.borrowerId))
      .executeTakeFirst();
    if (!found) throw notFound;
    // The book's row before the loan's, as a join of its queue takes it: nobody can join
    // between the check below and the new due date.
    await trx
      .selectFrom('items')
      .select('id')
      .where('id', '=', found.item_id)
      .forUpdate()
      .execute();
    const row = await loanQuery(trx, now)
      .where('l.id', '=', request.loanId)
      .forUpdate('l')
      .executeTakeFirstOrThrow();
    const blocked = renewBlockedBecause(row);
    if (blocked) {
      throw new Refusal(
        409,
        row.returned_at === null
          ? `${blocked} It cannot be renewed; please return it by ${dueText(row.due_at, request.terms.timeZone)}.`
          : blocked,
      );
    }
    const from = row.due_at > now ? row.due_at : now;
    await trx
      .updateTable('loans')
      .set({ due_at: dueDate(from, request.terms), renewals: row.renewals + 1 })
      .where('id', '=', row.id)
      .execute();
    await recordCirculation(trx, {
      action: 'renew',
      actor: request.actor,
      borrower: { id: row.user_id, name: row.borrower_name },
      item: { id: row.item_id, title: row.title },
      copy: { id: row.copy_id, barcode: row.barcode },
      loanId: row.id,
      reservationId: row.reservation_id,
      now,
    });
    return row.id;
  });
}

/** One loan by id, as of `now`. */
export async function findLoan(db: Kysely<Database>, id: string, now: Date): Promise<LoanRow> {
  const row = await loanQuery(db, now).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw new Refusal(404, 'There is no loan with that id.');
  return row;
}

/** `userId`'s loans: those out first, soonest due, then returned ones, newest first. */
export async function ownLoans(db: Kysely<Database>, userId: string, now: Date) {
  return loanQuery(db, now)
    .where('l.user_id', '=', userId)
    .orderBy(sql`l.returned_at IS NOT NULL`)
    .orderBy('l.due_at')
    .orderBy('l.returned_at', 'desc')
    .limit(LOANS_LIST_MAX)
    .execute();
}

/**
 * The copies out on loan, soonest due first: only those past due with `overdue`, and only those
 * whose borrower's name or e-mail, title or barcode hold every word of `q`; with how many match
 * and how many of those are overdue.
 */
export async function deskLoans(db: Kysely<Database>, query: DeskLoansQuery, now: Date) {
  let open = loanQuery(db, now).where('l.returned_at', 'is', null);
  for (const word of (query.q ?? '').split(/\s+/u).filter(Boolean)) {
    const pattern = `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
    open = open.where((eb) =>
      eb.or([
        eb('u.name', 'ilike', pattern),
        eb('u.email', 'ilike', pattern),
        eb('i.title', 'ilike', pattern),
        eb('c.barcode', 'ilike', pattern),
      ]),
    );
  }
  const counts = await db
    .selectFrom(open.as('o'))
    .select([
      (eb) => eb.fn.countAll<string>().as('total'),
      sql<string>`count(*) FILTER (WHERE o.due_at <= ${now.toISOString()}::timestamptz)`.as(
        'overdue',
      ),
    ])
    .executeTakeFirstOrThrow();
  const rows = await open
    .$if(query.overdue, (q) => q.where('l.due_at', '<=', now))
    .orderBy('l.due_at')
    .orderBy('l.number')
    .limit(LOANS_LIST_MAX)
    .execute();
  return { rows, total: Number(counts.total), overdue: Number(counts.overdue) };
}

/** Most events the desk's activity list shows. */
export const DESK_ACTIVITY_LIMIT = 50;

/** The latest recorded circulation actions, newest first. */
export async function deskActivity(db: Kysely<Database>) {
  return db
    .selectFrom('circulation_events')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(DESK_ACTIVITY_LIMIT)
    .execute();
}
