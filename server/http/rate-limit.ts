import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';

/** One limit: at most `limit` hits per `windowSeconds` for `key` (e.g. `login:ip:1.2.3.4`). */
export interface RateRule {
  key: string;
  limit: number;
  windowSeconds: number;
}

/** An Refusal 429 that also tells the client when to retry. */
export class RateLimitError extends Refusal {
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
 * process; each is one atomic upsert, so concurrent hits cannot slip past. A row keeps the end of
 * its window (`expires_at`): a hit after it starts a new window, and the sweeper deletes rows past
 * it (`pruneRateLimits`), so a key's address stays no longer than its window.
 */
export async function enforceRateLimits(db: Kysely<Database>, rules: RateRule[]): Promise<void> {
  let retryAfter = 0;
  for (const rule of rules) {
    const window = sql`make_interval(secs => ${rule.windowSeconds})`;
    const { rows } = await sql<{ count: number; retry_after: number }>`
      INSERT INTO rate_limits AS r (key, count, window_started_at, expires_at)
      VALUES (${rule.key}, 1, now(), now() + ${window})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.count + 1 END,
        window_started_at = CASE WHEN r.expires_at <= now() THEN now() ELSE r.window_started_at END,
        expires_at = CASE WHEN r.expires_at <= now() THEN now() + ${window} ELSE r.expires_at END
      RETURNING count, ceil(extract(epoch FROM (expires_at - now())))::int AS retry_after
    `.execute(db);
    const row = rows[0];
    if (row && row.count > rule.limit)
      retryAfter = Math.max(retryAfter, Math.max(1, row.retry_after));
  }
  if (retryAfter > 0) throw new RateLimitError(retryAfter);
}

/**
 * The longest window of better-auth's own limiter (`rateLimit` in server/auth/auth.ts: 60 s, and
 * its built-in rules for sign-in, sign-up and password reset: 10 s and 60 s). Its rows keep only
 * their last request, not their window, so one older than this is past any window.
 */
export const AUTH_RATE_WINDOW_MAX_SECONDS = 60;

/**
 * Deletes the counters whose window has passed: ours (`rate_limits`, keyed by e-mail and IP
 * addresses), the sign-in throttle's (`sign_in_throttles`, e-mail and IP address pairs, once
 * their failures are forgotten) and better-auth's (`auth_rate_limits`, keyed by IP address and
 * path). better-auth deletes its old rows only when some key starts a new window, which a quiet
 * server may never see. A deleted row counts exactly as one past its window would: the next hit
 * starts afresh.
 */
export async function pruneRateLimits(db: Kysely<Database>, now: Date): Promise<void> {
  await db.deleteFrom('rate_limits').where('expires_at', '<=', now).execute();
  await db.deleteFrom('sign_in_throttles').where('expires_at', '<=', now).execute();
  await db
    .deleteFrom('auth_rate_limits')
    .where('last_request', '<', now.getTime() - AUTH_RATE_WINDOW_MAX_SECONDS * 1000)
    .execute();
}
