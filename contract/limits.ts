/**
 * Business constants shared by the web app and the server (product spec section 9).
 * One place, so a rule never drifts between the screen that shows it and the server that enforces it.
 */

/** Landing-page counters: each animates from 0 to `target` over `COUNTER_DURATION_MS`. */
export const LANDING_COUNTERS = [
  { target: 10, suffix: 'K+', label: 'Research Papers' },
  { target: 5, suffix: 'K+', label: 'Academic Books' },
  { target: 100, suffix: '+', label: 'Universities' },
] as const;

/** The faculty landing's 'Our Impact' block. */
export const FACULTY_IMPACT_COUNTERS = [
  { target: 1000, suffix: '+', label: 'Published Books' },
  { target: 500, suffix: '+', label: 'Active Teachers' },
  { target: 50, suffix: '+', label: 'Academic Categories' },
  { target: 10000, suffix: '+', label: 'Student Requests' },
] as const;

/** How long the landing and faculty counters take to reach their targets. */
export const COUNTER_DURATION_MS = 2000;

/** Pickup slots a physical book can be reserved for. */
export const RESERVATION_TIME_SLOTS = [
  '9:00-9:30 AM',
  '10:00-10:30 AM',
  '11:00-11:30 AM',
  '2:00-2:30 PM',
  '3:00-3:30 PM',
] as const;

/** Today plus the next six days. */
export const RESERVATION_DAYS_AHEAD = 7;

/** A reservation is held for this long from the selected time. */
export const RESERVATION_HOLD_HOURS = 24;

/** Password length bounds at sign-up and reset. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** Fields-of-study and interest tags at sign-up. */
export const TAG_MAX_COUNT = 20;
export const TAG_MAX_LENGTH = 60;

/** Graduation years accepted at sign-up, inclusive. */
export const GRADUATION_YEAR_MIN = 2023;
export const GRADUATION_YEAR_MAX = 2030;

/** Guest search: results shown and the length of the description preview. */
export const GUEST_MAX_RESULTS = 15;
export const GUEST_DESCRIPTION_PREVIEW = 100;

/** Topics shown on a search result card before an ellipsis. */
export const RESULT_TOPICS_SHOWN = 3;

/** Default type of a resource request. */
export const DEFAULT_RESOURCE_TYPE = 'other';

/** Socket.IO client defaults (spec section 9). */
export const SOCKET_DEFAULTS = {
  timeout: 20_000,
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Infinity,
} as const;

/**
 * The largest values of PostgreSQL's `bigint` (message ids) and `integer` (page numbers, years)
 * columns. A number a client sends is checked against them where it is parsed: beyond them the
 * database would refuse the query, a fault instead of a refusal (issue 19).
 */
export const DATABASE_BIGINT_MAX = 9_223_372_036_854_775_807n;
export const DATABASE_INTEGER_MAX = 2_147_483_647;

/** True when `digits` (decimal, leading zeros allowed) name a `bigint` id: 1 to its largest. */
export function isDatabaseBigintId(digits: string): boolean {
  return /^\d{1,20}$/.test(digits) && BigInt(digits) >= 1n && BigInt(digits) <= DATABASE_BIGINT_MAX;
}
