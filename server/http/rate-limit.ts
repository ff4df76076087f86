import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { HttpError } from './errors.ts';

/** One limit: at most `limit` hits per `windowSeconds` for `key` (e.g. `login:ip:1.2.3.4`). */
export interface RateRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** An HttpError 429 that also tells the client when to retry. */
export class RateLimitError extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, `Too many attempts. Please try again in ${describeWait(retryAfterSeconds)}.`);
  }
}

function describeWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/**
 * Counts one hit against every rule and throws `RateLimitError` when any is over its limit.
 * Counters live in the database, so they survive restarts and are shared by every server
 * process; each is one atomic upsert, so concurrent hits cannot slip past.
 */
export async function enforceRateLimits(db: Kysely<Database>, rules: RateRule[]): Promise<void> {
  let retryAfter = 0;
  for (const rule of rules) {
    const { rows } = await sql<{ count: number; retry_after: number }>`
      INSERT INTO rate_limits AS r (key, count, window_started_at)
      VALUES (${rule.key}, 1, now())
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                     THEN 1 ELSE r.count + 1 END,
        window_started_at = CASE WHEN r.window_started_at <= now() - make_interval(secs => ${rule.windowSeconds})
                     THEN now() ELSE r.window_started_at END
      RETURNING count,
        ceil(extract(epoch FROM (window_started_at + make_interval(secs => ${rule.windowSeconds}) - now())))::int AS retry_after
    `.execute(db);
    const row = rows[0];
    if (row && row.count > rule.limit)
      retryAfter = Math.max(retryAfter, Math.max(1, row.retry_after));
  }
  if (retryAfter > 0) throw new RateLimitError(retryAfter);
}
