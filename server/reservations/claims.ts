import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';

/**
 * SQL for "this reservation claims a copy at `now`": an unexpired active hold, or collected
 * without a loan (before loans existed, decision 030). A collected reservation with a loan claims
 * nothing more: its copy's own status (`on_loan`) takes it off the shelf.
 */
export function holdsCopy(now: Date) {
  return sql<boolean>`((r.status = 'active' AND r.expires_at > ${now.toISOString()}::timestamptz)
    OR (r.status = 'collected' AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.reservation_id = r.id)))`;
}

/**
 * SQL for "the queued hold `alias` is a live offer at `now`": offered, and its 48 hours not over.
 * An offer past its time reads as expired before anything writes it so, like `activeAt`.
 */
export function liveOffer(now: Date, alias = 'q') {
  const q = sql.raw(alias);
  return sql<boolean>`(${q}.status = 'offered' AND ${q}.offer_expires_at > ${now.toISOString()}::timestamptz)`;
}

/** What stands between a book's copies on the shelf and someone who wants one, at a moment. */
export interface Claims {
  /** Reservations holding a copy: unexpired active holds and loans. */
  held: number;
  /** Live offers of freed copies to the queue. */
  offers: number;
  /** People waiting in the queue without an offer. */
  queued: number;
  /** `userId`'s live offer of this book, when asked and they have one. */
  ownOffer: string | null;
}

/** The claims on `itemId`'s copies at `now`, in one statement; `userId`'s live offer when given. */
export async function claimsOn(
  db: Kysely<Database> | Transaction<Database>,
  itemId: string,
  now: Date,
  userId: string | null = null,
): Promise<Claims> {
  const { rows } = await sql<{
    held: string;
    offers: string;
    queued: string;
    own_offer: string | null;
  }>`
    SELECT
      (SELECT count(*) FROM reservations r WHERE r.item_id = ${itemId}::uuid AND ${holdsCopy(now)}) AS held,
      (SELECT count(*) FROM queued_holds q WHERE q.item_id = ${itemId}::uuid AND ${liveOffer(now)}) AS offers,
      (SELECT count(*) FROM queued_holds q WHERE q.item_id = ${itemId}::uuid AND q.status = 'queued') AS queued,
      (SELECT q.id FROM queued_holds q
        WHERE q.item_id = ${itemId}::uuid AND q.user_id = ${userId} AND ${liveOffer(now)}) AS own_offer
  `.execute(db);
  const row = rows[0]!;
  return {
    held: Number(row.held),
    offers: Number(row.offers),
    queued: Number(row.queued),
    ownOffer: row.own_offer,
  };
}

/** Copies on the shelf that nobody holds and nobody has been offered: the queue's to take first. */
export function unclaimedCopies(
  item: { copies: number; copies_unavailable: number },
  claims: Pick<Claims, 'held' | 'offers'>,
): number {
  return item.copies - item.copies_unavailable - claims.held - claims.offers;
}
