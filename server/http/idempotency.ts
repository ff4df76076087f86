import { createHash } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { errorBody } from './errors.ts';
import { Refusal } from '../refusal.ts';

/** How long a first answer is kept for retries. */
export const IDEMPOTENCY_KEY_HOURS = 24;

/** What a handler answers: a status and a JSON body. */
export interface Outcome {
  statusCode: number;
  body: unknown;
}

/** Deepest nesting of a body that is hashed; no real payload comes near it. */
export const IDEMPOTENT_BODY_DEPTH_MAX = 64;

/**
 * JSON with object keys sorted, so the same body always hashes the same. A body nested deeper
 * than {@link IDEMPOTENT_BODY_DEPTH_MAX} is a 400: the walk must not run out of stack (a 500).
 */
export function stableJson(value: unknown, depth = 0): string {
  if (depth > IDEMPOTENT_BODY_DEPTH_MAX)
    throw new Refusal(400, 'The request body is nested too deeply.');
  if (Array.isArray(value))
    return `[${value.map((item) => stableJson(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map(
        (key) =>
          `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key], depth + 1)}`,
      )
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The `Idempotency-Key` header's value, or undefined when absent; 400 when malformed. */
export function idempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !/^[\x21-\x7e]{8,255}$/.test(key)) {
    throw new Refusal(
      400,
      'The Idempotency-Key header must be 8 to 255 visible characters (a UUID is ideal).',
    );
  }
  return key;
}

/**
 * Runs `work` in one transaction, at most once per (user, key). The first call stores its answer
 * (success or a 4xx refusal) in the same transaction as its writes; a retry with the same key and
 * body gets that answer back and changes nothing; the same key with another body is a 422.
 *
 * Two concurrent calls with one key cannot both run: the second one's insert of the key waits on
 * the first transaction's uncommitted row (PostgreSQL), or on the one connection (PGlite), and
 * then finds the stored answer. Without a key, `work` simply runs in a transaction.
 */
export async function runIdempotent(
  db: Kysely<Database>,
  request: { userId: string; key: string | undefined; method: string; path: string; body: unknown },
  work: (trx: Transaction<Database>) => Promise<Outcome>,
): Promise<Outcome & { replayed: boolean }> {
  const { key } = request;
  if (key === undefined) {
    return { ...(await db.transaction().execute(work)), replayed: false };
  }
  const hash = createHash('sha256')
    .update(`${request.method} ${request.path}\n${stableJson(request.body)}`)
    .digest('hex');
  return db.transaction().execute(async (trx) => {
    const claimed = await trx
      .insertInto('idempotency_keys')
      .values({
        user_id: request.userId,
        key,
        request_hash: hash,
        status_code: 0,
        response: '{}',
      })
      .onConflict((conflict) => conflict.columns(['user_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!claimed) {
      const stored = await trx
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status_code', 'response'])
        .where('user_id', '=', request.userId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (stored.request_hash !== hash) {
        throw new Refusal(
          422,
          'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        );
      }
      return {
        statusCode: stored.status_code,
        body: JSON.parse(stored.response) as unknown,
        replayed: true,
      };
    }
    let outcome: Outcome;
    try {
      outcome = await work(trx);
    } catch (error) {
      // A refusal is an answer too: a retry must get the same refusal, not a second attempt.
      if (!(error instanceof Refusal) || error.statusCode >= 500) throw error;
      outcome = { statusCode: error.statusCode, body: errorBody(error.message, error.errors) };
    }
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: outcome.statusCode, response: JSON.stringify(outcome.body) })
      .where('user_id', '=', request.userId)
      .where('key', '=', key)
      .execute();
    return { ...outcome, replayed: false };
  });
}

/** Forgets answers older than `IDEMPOTENCY_KEY_HOURS`. */
export async function pruneIdempotencyKeys(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where(
      'created_at',
      '<',
      sql<Date>`${now.toISOString()}::timestamptz - make_interval(hours => ${IDEMPOTENCY_KEY_HOURS})`,
    )
    .execute();
}
