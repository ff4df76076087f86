import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../db/schema.ts';
import { enforceRateLimits, RateLimitError, type RateRule } from './rate-limit.ts';

/**
 * How `POST /api/users/login` slows guessing (decision 020): per (e-mail, client address) pair,
 * `freeFailures` attempts go straight to the password check; from then on each further attempt
 * must wait `firstDelaySeconds`, doubling with every failure up to `maxDelaySeconds`. A sign-in
 * clears the pair; otherwise its failures are forgotten `forgetAfterSeconds` after the last one.
 * There is no limit per e-mail alone: it would let anyone lock the owner out (issue 19).
 */
export const SIGN_IN_THROTTLE = {
  freeFailures: 5,
  firstDelaySeconds: 1,
  maxDelaySeconds: 5 * 60,
  forgetAfterSeconds: 60 * 60,
} as const;

/**
 * The ceiling per client address, against credential stuffing (many e-mails from one address):
 * attempts that did not sign in, per window. Generous, as a campus puts many people behind one
 * address; a sign-in gives its attempt back.
 */
export const SIGN_IN_ADDRESS_CEILING = { limit: 300, windowSeconds: 15 * 60 } as const;

/** A sign-in attempt's e-mail (as the contract normalises it) and client address. */
export interface SignInPair {
  email: string;
  address: string;
}

const ceilingRule = (address: string): RateRule => ({
  key: `login:ip:${address}`,
  ...SIGN_IN_ADDRESS_CEILING,
});

/** The wait before the attempt after `failures` counted ones, as SQL (an `interval`). */
function delayAfter(failures: RawBuilder<unknown>): RawBuilder<unknown> {
  const { freeFailures, firstDelaySeconds, maxDelaySeconds } = SIGN_IN_THROTTLE;
  // The exponent is capped so that years of failures cannot overflow `power`.
  return sql`make_interval(secs => CASE WHEN ${failures} < ${freeFailures}::int THEN 0 ELSE
    least(${firstDelaySeconds}::float8 * power(2, least(${failures} - ${freeFailures}::int, 30)),
      ${maxDelaySeconds}::float8) END)`;
}

/**
 * Lets one sign-in attempt through, or throws `RateLimitError` with the seconds to wait: when the
 * address is over its ceiling, or the pair's wait has not passed. The attempt is counted as a
 * failure before the password is checked, in the same statement that checks the wait, so that
 * many attempts sent at once cannot all slip past; `recordSignIn` gives it back.
 */
export async function claimSignInAttempt(db: Kysely<Database>, pair: SignInPair): Promise<void> {
  await enforceRateLimits(db, [ceilingRule(pair.address)]);
  const forget = sql`make_interval(secs => ${SIGN_IN_THROTTLE.forgetAfterSeconds}::int)`;
  const counted = sql`(CASE WHEN t.expires_at <= now() THEN 1 ELSE t.failures + 1 END)`;
  // The outer query reads the row as it was before the upsert: a refused pair's wait. Under a
  // concurrent update that reading may be a moment old; the wait then answered is at least 1 s.
  const { rows } = await sql<{ claimed: boolean; retry_after: number | null }>`
    WITH claimed AS (
      INSERT INTO sign_in_throttles AS t (email, address, failures, next_attempt_at, expires_at)
      VALUES (${pair.email}, ${pair.address}, 1, now() + ${delayAfter(sql`1`)}, now() + ${forget})
      ON CONFLICT (email, address) DO UPDATE SET
        failures = ${counted},
        next_attempt_at = now() + ${delayAfter(counted)},
        expires_at = now() + ${forget}
      WHERE t.next_attempt_at <= now()
      RETURNING 1
    )
    SELECT
      EXISTS (SELECT 1 FROM claimed) AS claimed,
      (SELECT ceil(extract(epoch FROM (next_attempt_at - now())))::int
        FROM sign_in_throttles WHERE email = ${pair.email} AND address = ${pair.address}
      ) AS retry_after
  `.execute(db);
  const row = rows[0];
  if (!row?.claimed) throw new RateLimitError(Math.max(1, row?.retry_after ?? 1));
}

/**
 * After a wrong password: the pair's wait starts again from now, so that a slow password check
 * does not eat into it.
 */
export async function recordFailedSignIn(db: Kysely<Database>, pair: SignInPair): Promise<void> {
  await sql`
    UPDATE sign_in_throttles
    SET next_attempt_at = greatest(next_attempt_at, now() + ${delayAfter(sql.ref('failures'))})
    WHERE email = ${pair.email} AND address = ${pair.address}
  `.execute(db);
}

/**
 * After a sign-in: the pair's failures are cleared, and the attempt is given back to the
 * address's ceiling, so that only failures count against either (one statement).
 */
export async function recordSignIn(db: Kysely<Database>, pair: SignInPair): Promise<void> {
  const { key } = ceilingRule(pair.address);
  await sql`
    WITH cleared AS (
      DELETE FROM sign_in_throttles WHERE email = ${pair.email} AND address = ${pair.address}
    )
    UPDATE rate_limits SET count = greatest(count - 1, 0) WHERE key = ${key} AND expires_at > now()
  `.execute(db);
}
