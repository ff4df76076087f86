import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_RATE_LIMIT, MESSAGE_RATE_WINDOW_MS } from '#contract/socket/chat.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { createSendRate, takeSendSlot, TOO_FAST } from './send-rate.ts';

/** A database the rate must not touch: any use fails the test. */
const noDatabase = new Proxy({} as Kysely<Database>, {
  get() {
    throw new Error('the rate used the database while this process is alone');
  },
});

/** How a send ended: taken, or the refusal's code and message. */
async function outcome(send: () => Promise<void> | undefined) {
  try {
    await send();
    return 'taken';
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    return `${error.statusCode} ${error.message}`;
  }
}

const REFUSED = `429 ${TOO_FAST}`;

describe('the message rate in memory', () => {
  const clockAt = (start: number) => {
    const clock = { ms: start, now: () => clock.ms };
    return clock;
  };

  it('allows the limit per sliding window per person, and a refusal records nothing', () => {
    const clock = clockAt(1_000_000);
    const rate = createSendRate({ db: noDatabase, sharing: () => false, clock: clock.now });
    for (let sent = 0; sent < MESSAGE_RATE_LIMIT; sent += 1) {
      expect(rate.withinRate('ada')).toBe(true);
      clock.ms += 100;
    }
    expect(rate.withinRate('ada')).toBe(false);
    // Someone else is not held back.
    expect(rate.withinRate('grace')).toBe(true);
    // The window slides: the first send leaves it exactly one window after it was made.
    clock.ms = 1_000_000 + MESSAGE_RATE_WINDOW_MS - 1;
    expect(rate.withinRate('ada')).toBe(false);
    clock.ms = 1_000_000 + MESSAGE_RATE_WINDOW_MS;
    expect(rate.withinRate('ada')).toBe(true);
    // The refusals above took nothing: only the four later sends and this one count.
    expect(rate.withinRate('ada')).toBe(false);
  });

  it('forgets people who sent nothing within the window, and keeps the others', () => {
    const clock = clockAt(5_000_000);
    const rate = createSendRate({ db: noDatabase, sharing: () => false, clock: clock.now });
    rate.withinRate('quiet');
    clock.ms += MESSAGE_RATE_WINDOW_MS - 10;
    rate.withinRate('busy');
    expect(rate.remembered).toBe(2);
    clock.ms += 10;
    rate.forgetQuietSenders();
    expect(rate.remembered).toBe(1);
    // The busy sender's times are kept: their window still holds one send.
    for (let sent = 1; sent < MESSAGE_RATE_LIMIT; sent += 1)
      expect(rate.withinRate('busy')).toBe(true);
    expect(rate.withinRate('busy')).toBe(false);
    clock.ms += MESSAGE_RATE_WINDOW_MS;
    rate.forgetQuietSenders();
    expect(rate.remembered).toBe(0);
  });

  it('answers at once while alone: nothing to wait for, a refusal thrown, no database', () => {
    const rate = createSendRate({ db: noDatabase, sharing: () => false, limit: 2 });
    const send = rate.forSocket();
    expect(send('ada')).toBeUndefined();
    expect(send('ada')).toBeUndefined();
    expect(() => send('ada')).toThrow(new Refusal(429, TOO_FAST));
  });
});

describe.each(testDatabaseKinds())('the message rate across processes on %s', (kind) => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    for (const [id, name] of [
      ['u-1', 'Ada'],
      ['u-2', 'Grace'],
      ['u-3', 'Edsger'],
      ['u-4', 'Barbara'],
      ['u-5', 'Alan'],
    ]) {
      await sql`INSERT INTO users (id, name, email) VALUES (${id}, ${name}, ${`${id}@example.edu`})`.execute(
        database.db,
      );
    }
  });
  afterAll(async () => database.close());

  const sendTimes = async (userId: string) =>
    (
      await database.db
        .selectFrom('chat_send_times')
        .select('times')
        .where('user_id', '=', userId)
        .executeTakeFirst()
    )?.times.length ?? 0;

  it('counts a person’s sends in the database: at most the limit per window, even all at once', async () => {
    const rate = { limit: 5, windowMs: 400 };
    // Ten sends at the same moment (as from two processes): the row lock makes them take turns.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => takeSendSlot(database.db, 'u-2', rate)),
    );
    expect(answers.filter(Boolean)).toHaveLength(5);
    // Another person is not held back.
    expect(await takeSendSlot(database.db, 'u-1', rate)).toBe(true);
    // Refusals record nothing, so the window frees up on time.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await takeSendSlot(database.db, 'u-2', rate)).toBe(true);
  });

  it('holds a person on two processes to one limit while they share the database', async () => {
    const options = { db: database.db, sharing: () => true, limit: 3, windowMs: 400 };
    // Two processes' rates, each with its own memory, and one socket of the same person on each.
    const [one, two] = [createSendRate(options).forSocket(), createSendRate(options).forSocket()];
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) => outcome(() => (index % 2 ? one : two)('u-3'))),
    );
    expect(results.filter((result) => result === 'taken')).toHaveLength(3);
    expect(results.filter((result) => result === REFUSED)).toHaveLength(3);
    expect(await sendTimes('u-3')).toBe(3);
    // Once the window has passed, the person may send again.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await outcome(() => one('u-3'))).toBe('taken');
  });

  it('takes one socket’s database checks in the order the messages were sent', async () => {
    const send = createSendRate({ db: database.db, sharing: () => true }).forSocket();
    const settled: number[] = [];
    await Promise.all(
      Array.from({ length: MESSAGE_RATE_LIMIT }, (_, index) =>
        send('u-4')!.then(() => settled.push(index)),
      ),
    );
    expect(settled).toEqual([0, 1, 2, 3, 4]);
    // Memory refuses the next one before the database is asked.
    expect(() => send('u-4')).toThrow(new Refusal(429, TOO_FAST));
    expect(await sendTimes('u-4')).toBe(MESSAGE_RATE_LIMIT);
  });

  it('writes nothing while this process is alone', async () => {
    const send = createSendRate({ db: database.db, sharing: () => false }).forSocket();
    expect(send('u-5')).toBeUndefined();
    expect(await sendTimes('u-5')).toBe(0);
  });
});
