import type {
  DeskPickups,
  DeskReservation,
  ReservationBook,
  ReservationRecord,
} from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { formatDate } from '../reservations/calendar.ts';
import type { DeskDay } from '../reservations/desk.ts';
import { freeCopies, type reservableBooks, type ReservationRow } from '../reservations/holds.ts';
import { isoInstant } from './instant.ts';

/** The genre a reservation card shows: the item's own, else its first subject. */
const genreOf = (row: { genre: string | null; subjects: string[] }) =>
  row.genre ?? row.subjects[0] ?? '';

/** A reservation as its holder sees it. */
export function presentReservation(row: ReservationRow): ReservationRecord {
  return {
    reservationId: row.id,
    status: row.status,
    date: row.pickup_date,
    formattedDate: formatDate(row.pickup_date),
    timeSlot: row.time_slot,
    slotStartsAt: isoInstant(row.slot_starts_at),
    expiresAt: isoInstant(row.expires_at),
    createdAt: isoInstant(row.created_at),
    book: {
      id: row.item_id,
      title: row.title,
      author: row.authors.join(', '),
      genre: genreOf(row),
      coverImage: row.cover_url ?? '',
    },
  };
}

/** A reservation as the library desk sees it, with who holds it. */
export function presentDeskReservation(row: ReservationRow): DeskReservation {
  return {
    ...presentReservation(row),
    holder: { name: row.holder_name, email: row.holder_email, phoneNumber: row.holder_phone },
  };
}

/** A day at the library desk: its pickups slot by slot, and the copies on loan. */
export function presentDeskDay(day: DeskDay): DeskPickups {
  return {
    date: day.date,
    formattedDate: formatDate(day.date),
    slots: RESERVATION_TIME_SLOTS.map((timeSlot) => ({
      timeSlot,
      reservations: day.pickups
        .filter((row) => row.time_slot === timeSlot)
        .map(presentDeskReservation),
    })),
    onLoan: day.onLoan.map(presentDeskReservation),
  };
}

/** A reservable book in the spec's shape. */
export function presentReservationBook(
  row: Awaited<ReturnType<typeof reservableBooks>>['rows'][number],
): ReservationBook {
  const free = freeCopies(row);
  const offer = row.offer_expires_at ? new Date(row.offer_expires_at).toISOString() : undefined;
  return {
    _id: row.id,
    title: row.title,
    author: row.authors.join(', '),
    coverImage: row.cover_url ?? '',
    genre: genreOf(row),
    available: free > 0 || offer !== undefined,
    description: row.description ?? '',
    copies: row.copies,
    freeCopies: free,
    ...(offer ? { offerExpiresAt: offer } : {}),
  };
}
