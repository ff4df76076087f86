import type { CirculationEvent, DeskLoan, LoanRecord } from '#contract/http/loans.ts';
import { LOAN_RENEWALS_MAX } from '#contract/http/loans.ts';
import type { Selectable } from 'kysely';
import type { CirculationEventsTable } from '../db/schema.ts';
import { renewBlockedBecause, type LoanRow } from '../reservations/loans.ts';
import { isoInstant } from './instant.ts';

/** A loan as its borrower sees it, as of `now`. */
export function presentLoan(row: LoanRow, now: Date): LoanRecord {
  return {
    loanId: row.id,
    status: row.returned_at === null ? 'on_loan' : 'returned',
    checkedOutAt: isoInstant(row.checked_out_at),
    dueAt: isoInstant(row.due_at),
    overdue: row.returned_at === null && row.due_at.getTime() <= now.getTime(),
    renewals: row.renewals,
    renewalsLeft: Math.max(0, LOAN_RENEWALS_MAX - row.renewals),
    renewBlockedBecause: renewBlockedBecause(row),
    returnedAt: row.returned_at === null ? null : isoInstant(row.returned_at),
    reservationId: row.reservation_id,
    copy: { barcode: row.barcode, location: row.location },
    book: {
      id: row.item_id,
      title: row.title,
      author: row.authors.join(', '),
      coverImage: row.cover_url ?? '',
    },
  };
}

/** A loan as the desk sees it, with who has it. */
export function presentDeskLoan(row: LoanRow, now: Date): DeskLoan {
  return {
    ...presentLoan(row, now),
    borrower: {
      name: row.borrower_name,
      email: row.borrower_email,
      phoneNumber: row.borrower_phone,
    },
  };
}

/** One recorded circulation action. */
export function presentCirculationEvent(row: Selectable<CirculationEventsTable>): CirculationEvent {
  return {
    at: isoInstant(row.at),
    action: row.action,
    actor: row.actor_name,
    borrower: row.borrower_name,
    barcode: row.barcode,
    title: row.title,
    loanId: row.loan_id,
    reservationId: row.reservation_id,
  };
}
