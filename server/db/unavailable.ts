/** What a person sees while the database cannot be reached. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'The library is temporarily unavailable. Please try again shortly.';

/** How long a client should wait before trying again (the `Retry-After` of a 503). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

// Socket errors of a server that is down, restarting or unreachable.
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// SQLSTATEs of a server that is going away or not taking connections: 57P01 admin_shutdown,
// 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up or shutting down), 53300
// too_many_connections. Class 08 (connection exception) is matched by its prefix below.
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);

// node-postgres says these in words only: a connection that ended under a query, a pool that
// could not connect in time, a client used after its connection failed.
const MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|connection timeout|is not queryable/i;

/**
 * True when `error` means the database could not be reached or dropped the connection (as opposed
 * to refusing a query): the request may succeed once it is back, so it deserves a 503, not a 500.
 * Looks through `cause` and AggregateError's `errors`, as better-auth and Node wrap what pg threw.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 5) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
      return true;
  }
  if (typeof message === 'string' && MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1)))
    return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
