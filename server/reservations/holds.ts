import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import {
  ACTIVE_RESERVATIONS_MAX,
  reservationBooksQuerySchema,
  type ReservationBooksQuery,
  type ReservationStatus,
} from '#contract/http/reservations.ts';
import { normaliseIsbn } from '../catalogue/isbn.ts';
import { isUuid } from '../db/ids.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { slotWindow, type TimeSlot } from './calendar.ts';
import { claimsOn, holdsCopy, liveOffer, unclaimedCopies } from './claims.ts';
import { fulfilOffer, offerFreedCopies } from './queue.ts';

const NOT_RESERVABLE = 'That book is not in the reservation catalogue.';

/**
 * SQL for "this reservation is an active hold at `now`": active, and its 24 hours not over yet.
 * A hold past its time reads as expired before `expireHolds` writes it so, and reads never write.
 */
export function activeAt(now: Date) {
  return sql<boolean>`(r.status = 'active' AND r.expires_at > ${now.toISOString()}::timestamptz)`;
}

/**
 * Reservations with what presenting one needs: the row, its book, its holder and the pickup date
 * as text, and the status as of `now` (see `activeAt`). Callers add their own conditions and order.
 */
export function reservationQuery(db: Kysely<Database> | Transaction<Database>, now: Date) {
  return db
    .selectFrom('reservations as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select([
      'r.id',
      'r.user_id',
      'r.item_id',
      sql<string>`r.pickup_date::text`.as('pickup_date'),
      'r.time_slot',
      'r.slot_starts_at',
      'r.expires_at',
      sql<ReservationStatus>`CASE WHEN r.status = 'active' AND NOT ${activeAt(now)} THEN 'expired' ELSE r.status END`.as(
        'status',
      ),
      'r.created_at',
      'i.title',
      'i.authors',
      'i.genre',
      'i.subjects',
      'i.cover_url',
      'u.name as holder_name',
      'u.email as holder_email',
      'u.phone_number as holder_phone',
    ]);
}

/** A reservation with its book and holder, as `reservationQuery` selects it. */
export type ReservationRow = Awaited<
  ReturnType<ReturnType<typeof reservationQuery>['execute']>
>[number];

/**
 * The copies of item `i` claimed at `now`, as a column `held` of a query over `items as i`:
 * active holds and loans, live offers to its waiting list, and the people still waiting (each
 * freed copy is theirs first). Free copies, for anyone not in the queue, are
 * `copies - copies_unavailable - held`.
 */
export function heldCopies(eb: ExpressionBuilder<Database & { i: ItemsTable }, 'i'>, now: Date) {
  const reservations = eb
    .selectFrom('reservations as r')
    .select((inner) => inner.fn.countAll<string>().as('n'))
    .whereRef('r.item_id', '=', 'i.id')
    .where(holdsCopy(now));
  const queue = eb
    .selectFrom('queued_holds as q')
    .select((inner) => inner.fn.countAll<string>().as('n'))
    .whereRef('q.item_id', '=', 'i.id')
    // The status as a literal, not a parameter: a prepared statement's generic plan can then
    // prove the queue index's condition (status queued or offered) and use it.
    .where((inner) => inner.or([sql<boolean>`q.status = 'queued'`, liveOffer(now)]));
  return sql<string>`((${reservations}) + (${queue}))`.as('held');
}

/** Copies free to reserve: on the shelf, less those claimed (`held` as {@link heldCopies} reads it). */
export function freeCopies(row: {
  copies: number;
  copies_unavailable: number;
  held?: string | number | null;
}): number {
  return Math.max(0, row.copies - row.copies_unavailable - Number(row.held ?? 0));
}

/**
 * Marks active holds whose 24 hours are over as expired, which frees their copies. Runs on a
 * timer, and inside every reservation for the person and book concerned, so correctness never
 * waits for the timer.
 */
export async function expireHolds(
  db: Kysely<Database> | Transaction<Database>,
  now: Date,
  scope: { userId?: string; itemId?: string } = {},
): Promise<number> {
  let query = db
    .updateTable('reservations')
    .set({ status: 'expired', updated_at: now })
    .where('status', '=', 'active')
    .where('expires_at', '<=', now);
  if (scope.userId !== undefined || scope.itemId !== undefined) {
    query = query.where((eb) =>
      eb.or([
        ...(scope.userId !== undefined ? [eb('user_id', '=', scope.userId)] : []),
        ...(scope.itemId !== undefined ? [eb('item_id', '=', scope.itemId)] : []),
      ]),
    );
  }
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** What a reservation needs to know. */
export interface HoldRequest {
  userId: string;
  itemId: string;
  date: string;
  slot: TimeSlot;
  timeZone: string;
  now: Date;
}

/**
 * Reserves one copy inside `trx`. The holder's users row and then the book's items row are
 * locked first (always in that order, so concurrent reservations never deadlock), so the counts
 * below cannot change until this transaction ends: two people cannot both take the last copy,
 * and one person cannot slip past the limits with parallel requests.
 */
export async function reserveCopy(trx: Transaction<Database>, hold: HoldRequest): Promise<string> {
  // An id that is not a UUID cannot be in the catalogue; PostgreSQL would refuse the cast and
  // abort the transaction, so answer before asking it.
  if (!isUuid(hold.itemId)) throw new Refusal(404, NOT_RESERVABLE);
  await trx
    .selectFrom('users')
    .select('id')
    .where('id', '=', hold.userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const item = await trx
    .selectFrom('items')
    .select(['id', 'title', 'copies', 'copies_unavailable', 'withdrawn_at'])
    .where('id', '=', hold.itemId)
    .forUpdate()
    .executeTakeFirst();
  if (!item || item.copies === 0 || item.withdrawn_at !== null) {
    throw new Refusal(404, NOT_RESERVABLE);
  }
  await expireHolds(trx, hold.now, { userId: hold.userId, itemId: hold.itemId });
  // Offers past their time pass on, and copies freed meanwhile go to the waiting list first.
  await offerFreedCopies(trx, hold.itemId, hold.now);

  const mine = await trx
    .selectFrom('reservations')
    .select(['id', 'item_id'])
    .where('user_id', '=', hold.userId)
    .where('status', '=', 'active')
    .execute();
  const same = mine.find((row) => row.item_id === hold.itemId);
  if (same) {
    throw new Refusal(
      409,
      `You already have "${item.title}" reserved (${same.id}). Cancel that reservation to choose another time.`,
    );
  }
  if (mine.length >= ACTIVE_RESERVATIONS_MAX) {
    throw new Refusal(
      409,
      `You already have ${ACTIVE_RESERVATIONS_MAX} active reservations, the most one person may hold. Collect or cancel one first.`,
    );
  }

  // An offer holder takes the copy offered to them; anyone else only a copy nobody waits for.
  const claims = await claimsOn(trx, hold.itemId, hold.now, hold.userId);
  const free = claims.ownOffer
    ? unclaimedCopies(item, claims) + 1
    : unclaimedCopies(item, claims) - claims.queued;
  if (free <= 0) {
    throw new Refusal(
      409,
      `Every copy of "${item.title}" is reserved or on loan right now. Please choose another book, or join its waiting list.`,
    );
  }

  const window = slotWindow(hold.date, hold.slot, hold.timeZone);
  const row = await trx
    .insertInto('reservations')
    .values({
      user_id: hold.userId,
      item_id: hold.itemId,
      pickup_date: hold.date,
      time_slot: hold.slot,
      slot_starts_at: window.startsAt,
      expires_at: window.expiresAt,
      created_at: hold.now,
      updated_at: hold.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (claims.ownOffer) await fulfilOffer(trx, claims.ownOffer, row.id, hold.now);
  return row.id;
}

/** `text` as a LIKE pattern that matches it anywhere, its own `%`, `_` and `\` taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Books with physical copies, each with how many are free at `now`, by title: those whose title,
 * authors or ISBN hold every word of `q`, by `author`, with a copy free now when `availableOnly`,
 * one page of them, and how many there are in all. A book offered to `callerId` from its waiting
 * list says until when (`offer_expires_at`).
 */
export async function reservableBooks(
  db: Kysely<Database>,
  now: Date,
  query: ReservationBooksQuery = reservationBooksQuerySchema.parse({}),
  callerId: string | null = null,
) {
  let books = db
    .selectFrom('items as i')
    .select([
      'i.id',
      'i.title',
      'i.authors',
      'i.cover_url',
      'i.genre',
      'i.subjects',
      'i.description',
      'i.copies',
      'i.copies_unavailable',
      (eb) => heldCopies(eb, now),
      // The caller's own live offer of it: a copy waits for them, though none is free to others.
      sql<string | null>`(SELECT q.offer_expires_at::text FROM queued_holds q
        WHERE q.item_id = i.id AND q.user_id = ${callerId} AND ${liveOffer(now)})`.as(
        'offer_expires_at',
      ),
    ])
    .where('i.copies', '>', 0)
    .where('i.withdrawn_at', 'is', null);
  if (query.id) books = books.where('i.id', '=', query.id);
  const authors = sql<string>`array_to_string(i.authors, ' ')`;
  for (const word of (query.q ?? '').split(/\s+/u).filter(Boolean)) {
    const isbn = normaliseIsbn(word);
    books = books.where((eb) =>
      eb.or([
        eb('i.title', 'ilike', containing(word)),
        eb(authors, 'ilike', containing(word)),
        ...(isbn ? [eb('i.isbn', '=', isbn)] : []),
      ]),
    );
  }
  if (query.author) books = books.where(authors, 'ilike', containing(query.author));
  const matching = db
    .selectFrom(books.as('b'))
    .$if(query.availableOnly, (q) =>
      q.where((eb) =>
        eb.or([
          eb(sql<number>`b.copies - b.copies_unavailable - b.held`, '>', 0),
          eb('b.offer_expires_at', 'is not', null),
        ]),
      ),
    );
  const [rows, count] = await Promise.all([
    matching
      .selectAll()
      .orderBy('b.title')
      .orderBy('b.id')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    matching.select((eb) => eb.fn.countAll<string>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
