import type { HoldRecord } from '#contract/http/holds.ts';
import type { HoldRow } from '../reservations/queue.ts';
import { isoInstant } from './instant.ts';

/**
 * A hold as its holder sees it. While queued: the position, and about how many days until a
 * copy comes back, one loan (`loanDays`) for each round of the book's copies ahead of them.
 */
export function presentHold(row: HoldRow, loanDays: number): HoldRecord {
  const position = row.status === 'queued' ? Number(row.place) : null;
  return {
    holdId: row.id,
    status: row.status,
    position,
    estimatedDays:
      position === null ? null : Math.ceil(position / Math.max(1, row.copies)) * loanDays,
    offerExpiresAt:
      row.status === 'offered' && row.offer_expires_at ? isoInstant(row.offer_expires_at) : null,
    reservationId: row.status === 'fulfilled' ? row.reservation_id : null,
    createdAt: isoInstant(row.created_at),
    book: {
      id: row.item_id,
      title: row.title,
      author: row.authors.join(', '),
      coverImage: row.cover_url ?? '',
    },
  };
}
