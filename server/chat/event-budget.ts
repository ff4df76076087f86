import { sql, type Kysely } from 'kysely';
import {
  SOCKET_BUDGETS,
  SOCKET_EVENT_GROUPS,
  SOCKET_REFUSAL_WINDOW_MS,
  SOCKET_REFUSALS_MAX,
  SOCKET_SHUT_OUT_MS,
  type ClientToServerEvents,
  type SocketBudgetGroup,
  type TokenBudget,
} from '#contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';

/** The budgets of every event group: the contract's, or a test's own. */
export type SocketBudgets = Record<
  SocketBudgetGroup,
  { socket: TokenBudget; person: TokenBudget; staffFactor: number }
>;

/**
 * Groups counted in the database too while other processes share it, as a person may be connected
 * to several: what they cost stays in the database (rooms, restrictions). Joins cost a process
 * only while they run, so each process's own buckets protect it.
 */
const SHARED_GROUPS: ReadonlySet<SocketBudgetGroup> = new Set(['rooms', 'moderation']);

/** A bucket as last touched: its tokens at `at`, and when it is full again (ms since the epoch). */
interface Bucket {
  tokens: number;
  at: number;
  fullAt: number;
}

/** The tokens of `bucket` at `now`, refilled since it was last touched (a new bucket is full). */
function tokensAt(bucket: Bucket | undefined, budget: TokenBudget, now: number): number {
  if (!bucket) return budget.burst;
  return Math.min(budget.burst, bucket.tokens + Math.max(0, now - bucket.at) / budget.refillMs);
}

/**
 * Milliseconds until a bucket holding `tokens` holds one whole token (at least 1 if not now). The
 * tolerances absorb floating-point dust: 499 ms into a 500 ms refill leaves 1 ms to wait, not 2.
 */
const waitFor = (tokens: number, budget: TokenBudget) =>
  tokens >= 1 - 1e-9 ? 0 : Math.max(1, Math.ceil((1 - tokens) * budget.refillMs - 1e-6));

/** `bucket` after one token is taken from its `tokens` at `now`. */
const afterTaking = (tokens: number, budget: TokenBudget, now: number): Bucket => ({
  tokens: tokens - 1,
  at: now,
  fullAt: now + (budget.burst - tokens + 1) * budget.refillMs,
});

/** A librarian's bucket: `factor` times the burst, refilled `factor` times as fast. */
const scaled = (budget: TokenBudget, factor: number): TokenBudget =>
  factor === 1 ? budget : { burst: budget.burst * factor, refillMs: budget.refillMs / factor };

/**
 * Takes one token of `key`'s bucket in the database, which every process shares, or answers how
 * long to wait for one (ms; 0 when taken). The bucket is one row of `rate_limits` holding the
 * instant it is full again (`expires_at`, the "theoretical arrival time" of GCRA): a token is
 * there while that instant is at most `(burst - 1) × refillMs` away, and taking one moves it
 * `refillMs` later. One upsert, so concurrent takes cannot slip past; the sweeper deletes a row
 * once its bucket is full, which counts exactly as no row.
 */
export async function takeSharedToken(
  db: Kysely<Database>,
  key: string,
  budget: TokenBudget,
): Promise<number> {
  const step = sql`make_interval(secs => ${budget.refillMs / 1000}::float8)`;
  const slack = sql`make_interval(secs => ${((budget.burst - 1) * budget.refillMs) / 1000}::float8)`;
  // The outer query reads the row as it was before the upsert: a refused take's wait.
  const { rows } = await sql<{ taken: boolean; wait_ms: number | null }>`
    WITH taken AS (
      INSERT INTO rate_limits AS r (key, count, window_started_at, expires_at)
      VALUES (${key}, 1, now(), now() + ${step})
      ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN r.expires_at <= now() THEN 1 ELSE r.count + 1 END,
        window_started_at = CASE WHEN r.expires_at <= now() THEN now() ELSE r.window_started_at END,
        expires_at = greatest(r.expires_at, now()) + ${step}
      WHERE r.expires_at <= now() + ${slack}
      RETURNING 1
    )
    SELECT
      EXISTS (SELECT 1 FROM taken) AS taken,
      (SELECT ceil(extract(epoch FROM (expires_at - now() - ${slack})) * 1000)::int
        FROM rate_limits WHERE key = ${key}) AS wait_ms
  `.execute(db);
  const row = rows[0];
  if (row?.taken) return 0;
  return Math.max(1, row?.wait_ms ?? 1);
}

/** Who a socket belongs to, as far as the budgets care. */
export interface BudgetHolder {
  id: string;
  role: string;
}

/**
 * The budgets of every socket event but `send_message` (issue 19; the groups and numbers are in
 * the contract): a token bucket per socket and one per person and group, in this process's memory,
 * checked before any work (a refusal costs nothing); while `sharing()` says other processes share
 * the database, the person's bucket of `rooms` and `moderation` is taken in the database too,
 * since the person may be connected to several processes at once. Alone, memory is enough.
 */
export function createEventBudget(options: {
  db: Kysely<Database>;
  sharing: () => boolean;
  budgets?: SocketBudgets;
  /** Milliseconds since the epoch; buckets refill in them. */
  clock?: () => number;
}) {
  const { db, sharing } = options;
  const budgets = options.budgets ?? SOCKET_BUDGETS;
  const clock = options.clock ?? Date.now;
  /** Each person's bucket per group, by `group user-id`. */
  const people = new Map<string, Bucket>();
  /** People whose socket was closed for flooding, and until when they may not connect. */
  const shutOut = new Map<string, number>();

  return {
    /**
     * The budgets of one socket of `holder`. `take(event)` answers 0 when the event may go on and
     * otherwise the milliseconds until it may; a promise when the database answers too.
     * `refused()` counts a refusal and is true once the socket has had more than
     * `SOCKET_REFUSALS_MAX` within `SOCKET_REFUSAL_WINDOW_MS`: it keeps going, and should be
     * closed; its person is then shut out for `SOCKET_SHUT_OUT_MS` (see `shutOutFor`).
     */
    forSocket(holder: BudgetHolder) {
      const own = new Map<SocketBudgetGroup, Bucket>();
      const refusals: number[] = [];
      return {
        take(event: keyof ClientToServerEvents): number | Promise<number> {
          const group = SOCKET_EVENT_GROUPS[event];
          if (!group) return 0;
          const { socket, person, staffFactor } = budgets[group];
          const factor = holder.role === 'librarian' ? staffFactor : 1;
          const socketBudget = scaled(socket, factor);
          const personBudget = scaled(person, factor);
          const key = `${group} ${holder.id}`;
          const now = clock();
          const mine = tokensAt(own.get(group), socketBudget, now);
          const theirs = tokensAt(people.get(key), personBudget, now);
          const wait = Math.max(waitFor(mine, socketBudget), waitFor(theirs, personBudget));
          // Refused: neither bucket changes.
          if (wait > 0) return wait;
          own.set(group, afterTaking(mine, socketBudget, now));
          people.set(key, afterTaking(theirs, personBudget, now));
          if (!SHARED_GROUPS.has(group) || !sharing()) return 0;
          return takeSharedToken(db, `socket-budget:${group}:${holder.id}`, personBudget);
        },
        refused(): boolean {
          const now = clock();
          refusals.push(now);
          while (
            refusals.length > SOCKET_REFUSALS_MAX + 1 ||
            now - refusals[0]! >= SOCKET_REFUSAL_WINDOW_MS
          ) {
            refusals.shift();
          }
          if (refusals.length <= SOCKET_REFUSALS_MAX) return false;
          shutOut.set(holder.id, now + SOCKET_SHUT_OUT_MS);
          return true;
        },
      };
    },
    /** Milliseconds until a person whose socket was closed for flooding may connect; 0 now. */
    shutOutFor(userId: string): number {
      const until = shutOut.get(userId);
      return until === undefined ? 0 : Math.max(0, until - clock());
    },
    /**
     * Drops the buckets of people that have filled up again (a full bucket is a new one), and
     * shut-outs that are over.
     */
    forgetQuiet() {
      const now = clock();
      for (const [key, bucket] of people) if (bucket.fullAt <= now) people.delete(key);
      for (const [userId, until] of shutOut) if (until <= now) shutOut.delete(userId);
    },
    /** How many buckets of people and shut-outs this process holds. */
    get remembered() {
      return people.size + shutOut.size;
    },
  };
}

/** The event budgets of one process: see {@link createEventBudget}. */
export type EventBudget = ReturnType<typeof createEventBudget>;

/** The budgets of one socket: see `EventBudget.forSocket`. */
export type SocketBudget = ReturnType<EventBudget['forSocket']>;
