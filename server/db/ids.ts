/**
 * True for the text form of a UUID, the id type of our tables. Checked before a query: PostgreSQL
 * refuses to cast anything else to `uuid` (an error, and an aborted transaction), so an id that
 * cannot exist is answered as not found without asking the database.
 */
export function isUuid(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
}

/**
 * True for a reservation's id as the database makes it (`RES-` and the sequence's digits).
 * Checked before a query, so an id that cannot exist (one holding U+0000 would fail the query) is
 * answered as not found without asking the database.
 */
export function isReservationId(id: string): boolean {
  return /^RES-\d{1,19}$/.test(id);
}

/**
 * True for text that can be an account's id (better-auth's random ids, `demo-chat-account`):
 * letters, digits, `_` and `-`. Anything else (a NUL would make PostgreSQL refuse the query) is
 * answered as not found without asking the database.
 */
export function isAccountId(id: string): boolean {
  return /^[A-Za-z0-9_-]{1,100}$/.test(id);
}
