import type { CirculationEvent, DeskLoan } from '#contract/http/loans.ts';
import { ApiError } from '../../api/client.ts';
import { formatDate } from '../../components/records/format.ts';

/** A refusal in the server's own words, or what to do when it could not be reached. */
export function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (!error.fromServer)
    return 'The server could not be reached. Check the connection and try again.';
  const fields = error.fieldErrors
    .map((field) => field.message)
    .filter((text) => text !== error.message);
  return [error.message, ...fields].join(' ');
}

/** The refusal of the copy `barcode`, naming the copy unless the server's words already do. */
export function refusalOfCopy(barcode: string, error: unknown): string {
  const text = refusalText(error);
  return text.toLowerCase().includes(barcode.toLowerCase()) ? text : `${barcode}: ${text}`;
}

/** "“Dune” checked out to Ada Lovelace, due Dec 16, 2026." */
export function checkedOutText(loan: DeskLoan): string {
  return `“${loan.book.title}” checked out to ${loan.borrower.name}, due ${formatDate(loan.dueAt)}.`;
}

/** "“Dune” returned by Ada Lovelace." with, when it came back late, by how much. */
export function returnedText(loan: DeskLoan): string {
  const back = loan.returnedAt ? new Date(loan.returnedAt) : new Date();
  const late = back.getTime() > new Date(loan.dueAt).getTime();
  return `“${loan.book.title}” (copy ${loan.copy.barcode}) returned by ${loan.borrower.name}${
    late ? `, late: it was due ${formatDate(loan.dueAt)}` : ''
  }.`;
}

/** "“Dune” renewed for Ada Lovelace: now due Dec 30, 2026." */
export function renewedText(loan: DeskLoan): string {
  return `“${loan.book.title}” renewed for ${loan.borrower.name}: now due ${formatDate(loan.dueAt)}.`;
}

/** One recorded action in a sentence: who did what to whose loan of which book. */
export function activityText(event: CirculationEvent): string {
  const title = `“${event.title}”`;
  switch (event.action) {
    case 'check_out':
      return `${event.actor} checked out ${title} to ${event.borrower}`;
    case 'return':
      return `${event.actor} checked in ${title} from ${event.borrower}`;
    case 'renew':
      return event.actor === event.borrower
        ? `${event.borrower} renewed their loan of ${title}`
        : `${event.actor} renewed ${event.borrower}’s loan of ${title}`;
    case 'no_show':
      return `${event.actor} marked ${event.borrower} as a no-show for ${title}`;
  }
}
