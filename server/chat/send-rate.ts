import { sql, type Kysely } from 'kysely';
import { MESSAGE_RATE_LIMIT, MESSAGE_RATE_WINDOW_MS } from '#contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';

/** The refusal of a message over the rate. */
export const TOO_FAST = `You are sending messages too fast: at most ${MESSAGE_RATE_LIMIT} every ${MESSAGE_RATE_WINDOW_MS / 1000} seconds. Please wait a moment.`;

/**
 * Takes one of a person's `limit` sends per `windowMs`, counted in the database so that every
 * process sees the same count (the row lock makes concurrent sends take turns). False when the
 * person has used them all: nothing is recorded then.
 */
export async function takeSendSlot(
  db: Kysely<Database>,
  userId: string,
  { limit, windowMs }: { limit: number; windowMs: number },
): Promise<boolean> {
  const since = sql`now() - make_interval(secs => ${windowMs / 1000})`;
  const taken = await sql<{ user_id: string }>`
    INSERT INTO chat_send_times AS held (user_id, times) VALUES (${userId}, ARRAY[now()])
    ON CONFLICT (user_id) DO UPDATE
      SET times = ARRAY(SELECT time FROM unnest(held.times) AS time WHERE time > ${since}) || now()
      WHERE (SELECT count(*) FROM unnest(held.times) AS time WHERE time > ${since}) < ${limit}
    RETURNING user_id
  `.execute(db);
  return taken.rows.length > 0;
}

/** One socket's sends: see {@link createSendRate}. */
export type SendSlot = (userId: string) => Promise<void> | undefined;

/**
 * The per-person message rate (decision 014): a sliding window per person in this process's
 * memory, checked first (cheap, and a refusal costs nothing), and, while `sharing()` says other
 * processes share the database, a slot in `chat_send_times` too, since the person may be
 * connected to several processes at once. Alone, memory is enough and costs no write.
 */
export function createSendRate(options: {
  db: Kysely<Database>;
  sharing: () => boolean;
  limit?: number;
  windowMs?: number;
  /** Milliseconds since the epoch; the window counts in them. */
  clock?: () => number;
}) {
  const { db, sharing } = options;
  const limit = options.limit ?? MESSAGE_RATE_LIMIT;
  const windowMs = options.windowMs ?? MESSAGE_RATE_WINDOW_MS;
  const clock = options.clock ?? Date.now;
  const recent = new Map<string, number[]>();

  /** The person may send one more message now (a sliding window per person, this process). */
  const withinRate = (userId: string) => {
    const at = clock();
    const times = (recent.get(userId) ?? []).filter((time) => at - time < windowMs);
    if (times.length >= limit) {
      recent.set(userId, times);
      return false;
    }
    times.push(at);
    recent.set(userId, times);
    return true;
  };

  return {
    withinRate,
    /** Drops the send times of people who sent nothing within the window (they count for nothing). */
    forgetQuietSenders() {
      const at = clock();
      for (const [userId, times] of recent) {
        if (times.every((time) => at - time >= windowMs)) recent.delete(userId);
      }
    },
    /** How many people this process holds send times of. */
    get remembered() {
      return recent.size;
    },
    /**
     * The sends of one socket: each call takes a send for `userId` or throws a {@link Refusal}
     * saying {@link TOO_FAST}. Undefined when memory decided (no wait, so the hot path stays
     * synchronous); else a promise of the database's answer. One socket's database checks take
     * turns, so its messages are stored in the order sent.
     */
    forSocket(): SendSlot {
      let checks: Promise<boolean> = Promise.resolve(true);
      return (userId) => {
        if (!withinRate(userId)) throw new Refusal(429, TOO_FAST);
        if (!sharing()) return undefined;
        const slot = checks.then(() => takeSendSlot(db, userId, { limit, windowMs }));
        checks = slot.catch(() => false);
        return slot.then((taken) => {
          if (!taken) throw new Refusal(429, TOO_FAST);
        });
      };
    },
  };
}

/** The message rate of one process: see {@link createSendRate}. */
export type SendRate = ReturnType<typeof createSendRate>;
