/**
 * True when `error` is PostgreSQL's unique_violation (SQLSTATE 23505), from node-postgres or
 * PGlite alike: a row that a unique index refused, which the caller answers as "taken".
 */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}
