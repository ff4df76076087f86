/** Dates and times of requests and reservations, in the product's one language (en-US). */
const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  // The zone is named so a reader in another zone than the library's is not misled.
  timeZoneName: 'short',
});

/** `Mar 5, 2026` for an ISO date-time; the input itself when it does not parse. */
export function formatDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
}

/** `Mar 5, 2026, 9:00 AM GMT+1` for an ISO date-time; the input itself when it does not parse. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
}
