import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SOCKET_BUDGETS,
  SOCKET_REFUSAL_WINDOW_MS,
  SOCKET_REFUSALS_MAX,
  SOCKET_SHUT_OUT_MS,
} from '#contract/socket/chat.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Database } from '../db/schema.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { createEventBudget, takeSharedToken } from './event-budget.ts';

/** A database the budgets must not touch: any use fails the test. */
const noDatabase = new Proxy({} as Kysely<Database>, {
  get() {
    throw new Error('the budget used the database while this process is alone');
  },
});

const clockAt = (start: number) => {
  const clock = { ms: start, now: () => clock.ms };
  return clock;
};

const ada = { id: 'ada', role: 'student' };
const grace = { id: 'grace', role: 'student' };
const { joins, rooms, moderation } = SOCKET_BUDGETS;

describe('the event budgets in memory', () => {
  it('lets a burst of joins through, then one per refill, and says how long to wait', () => {
    const clock = clockAt(1_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const socket = budget.forSocket(ada);
    for (let taken = 0; taken < joins.socket.burst; taken += 1) {
      expect(socket.take(taken % 2 ? 'join_room' : 'load_history')).toBe(0);
    }
    // The three events share one bucket.
    expect(socket.take('leave_room')).toBe(joins.socket.refillMs);
    clock.ms += joins.socket.refillMs - 1;
    expect(socket.take('join_room')).toBe(1);
    clock.ms += 1;
    expect(socket.take('join_room')).toBe(0);
    expect(socket.take('join_room')).toBe(joins.socket.refillMs);
    // Other groups have buckets of their own, and send_message is not budgeted here.
    expect(socket.take('create_room')).toBe(0);
    expect(socket.take('report_abuse')).toBe(0);
    for (let sent = 0; sent < 100; sent += 1) expect(socket.take('send_message')).toBe(0);
  });

  it('refills no further than the burst', () => {
    const clock = clockAt(2_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const socket = budget.forSocket(ada);
    expect(socket.take('create_room')).toBe(0);
    clock.ms += 100 * rooms.socket.refillMs;
    for (let taken = 0; taken < rooms.socket.burst; taken += 1) {
      expect(socket.take('close_room')).toBe(0);
    }
    expect(socket.take('create_room')).toBe(rooms.socket.refillMs);
  });

  it('gives a person one budget however many sockets they open', () => {
    const clock = clockAt(3_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const sockets = Array.from({ length: 20 }, () => budget.forSocket(ada));
    let taken = 0;
    for (const socket of sockets) {
      for (let event = 0; event < joins.socket.burst; event += 1) {
        if (socket.take('join_room') === 0) taken += 1;
      }
    }
    expect(taken).toBe(joins.person.burst);
    // Someone else is not held back.
    expect(budget.forSocket(grace).take('join_room')).toBe(0);
    // The person refills at the person's pace, whichever socket asks.
    clock.ms += joins.person.refillMs;
    expect(sockets[7]!.take('join_room')).toBe(0);
    expect(sockets[8]!.take('join_room')).toBe(joins.person.refillMs);
  });

  it('refuses by the emptier of the two buckets, and a refusal takes from neither', () => {
    const clock = clockAt(4_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const first = budget.forSocket(ada);
    for (let taken = 0; taken < moderation.socket.burst; taken += 1) {
      expect(first.take('report_abuse')).toBe(0);
    }
    // The person's bucket is as empty as the first socket's: a second socket gets nothing.
    const second = budget.forSocket(ada);
    expect(second.take('lift_restriction')).toBe(moderation.person.refillMs);
    for (let refused = 0; refused < 50; refused += 1) first.take('report_abuse');
    clock.ms += moderation.person.refillMs;
    expect(second.take('lift_restriction')).toBe(0);
    expect(first.take('report_abuse')).toBe(moderation.person.refillMs);
  });

  it('gives librarians larger buckets for rooms and moderation, not for joins', () => {
    const budget = createEventBudget({ db: noDatabase, sharing: () => false });
    const desk = budget.forSocket({ id: 'desk', role: 'librarian' });
    const count = (event: 'create_room' | 'join_room') => {
      let taken = 0;
      while (desk.take(event) === 0) taken += 1;
      return taken;
    };
    expect(count('create_room')).toBe(rooms.person.burst * rooms.staffFactor);
    expect(count('join_room')).toBe(joins.socket.burst);
  });

  it('says to close a socket once it has been refused more than the limit within the window', () => {
    const clock = clockAt(5_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const socket = budget.forSocket(ada);
    for (let refused = 0; refused < SOCKET_REFUSALS_MAX; refused += 1) {
      expect(socket.refused()).toBe(false);
      clock.ms += Math.floor(SOCKET_REFUSAL_WINDOW_MS / SOCKET_REFUSALS_MAX) - 1;
    }
    expect(budget.shutOutFor('ada')).toBe(0);
    expect(socket.refused()).toBe(true);
    // Its person may not connect again for a while; others may.
    expect(budget.shutOutFor('ada')).toBe(SOCKET_SHUT_OUT_MS);
    expect(budget.shutOutFor('grace')).toBe(0);
    clock.ms += SOCKET_SHUT_OUT_MS - 1;
    expect(budget.shutOutFor('ada')).toBe(1);
    budget.forgetQuiet();
    clock.ms += 1;
    expect(budget.shutOutFor('ada')).toBe(0);
    // Refusals spread out further than that are what a person who reads them does.
    const patient = budget.forSocket(grace);
    for (let refused = 0; refused < 5 * SOCKET_REFUSALS_MAX; refused += 1) {
      expect(patient.refused()).toBe(false);
      clock.ms += SOCKET_REFUSAL_WINDOW_MS / SOCKET_REFUSALS_MAX;
    }
    expect(budget.shutOutFor('grace')).toBe(0);
  });

  it('forgets shut-outs once they are over', () => {
    const clock = clockAt(7_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    const socket = budget.forSocket(ada);
    for (let refused = 0; refused <= SOCKET_REFUSALS_MAX; refused += 1) socket.refused();
    expect(budget.remembered).toBe(1);
    clock.ms += SOCKET_SHUT_OUT_MS;
    budget.forgetQuiet();
    expect(budget.remembered).toBe(0);
  });

  it('forgets the people whose buckets have filled up again, and keeps the others', () => {
    const clock = clockAt(6_000_000);
    const budget = createEventBudget({ db: noDatabase, sharing: () => false, clock: clock.now });
    budget.forSocket(ada).take('join_room');
    budget.forSocket(grace).take('create_room');
    expect(budget.remembered).toBe(2);
    clock.ms += joins.person.refillMs;
    budget.forgetQuiet();
    expect(budget.remembered).toBe(1);
    clock.ms += rooms.person.refillMs;
    budget.forgetQuiet();
    expect(budget.remembered).toBe(0);
    // Forgetting a full bucket changes nothing: the next socket starts from the burst.
    const socket = budget.forSocket(ada);
    for (let taken = 0; taken < joins.socket.burst; taken += 1) {
      expect(socket.take('join_room')).toBe(0);
    }
  });

  it('while alone, answers without waiting and without a database', () => {
    const budget = createEventBudget({ db: noDatabase, sharing: () => false });
    const socket = budget.forSocket(ada);
    for (const event of ['create_room', 'report_abuse', 'join_room'] as const) {
      expect(socket.take(event)).toBe(0);
    }
  });

  it('joins stay in memory even while other processes share the database', () => {
    const budget = createEventBudget({ db: noDatabase, sharing: () => true });
    const socket = budget.forSocket(ada);
    expect(socket.take('join_room')).toBe(0);
    expect(socket.take('load_history')).toBe(0);
    expect(socket.take('send_message')).toBe(0);
  });
});

describe.each(testDatabaseKinds())('the shared budgets on %s', (kind) => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(async () => database.close());

  it('takes a burst from the database, then refuses with the wait until the next token', async () => {
    const { db } = database;
    const budget = { burst: 3, refillMs: 60_000 };
    for (let taken = 0; taken < budget.burst; taken += 1) {
      expect(await takeSharedToken(db, 'socket-budget:test:ada', budget)).toBe(0);
    }
    const wait = await takeSharedToken(db, 'socket-budget:test:ada', budget);
    expect(wait).toBeGreaterThan(budget.refillMs - 5_000);
    expect(wait).toBeLessThanOrEqual(budget.refillMs);
    // Someone else's bucket is their own.
    expect(await takeSharedToken(db, 'socket-budget:test:grace', budget)).toBe(0);
  });

  it('lets concurrent takes through exactly the burst', async () => {
    const { db } = database;
    const budget = { burst: 5, refillMs: 60_000 };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => takeSharedToken(db, 'socket-budget:test:many', budget)),
    );
    expect(answers.filter((wait) => wait === 0)).toHaveLength(budget.burst);
  });

  it('refills at the budget’s pace: a short refill gives the next token soon', async () => {
    const { db } = database;
    const budget = { burst: 1, refillMs: 200 };
    expect(await takeSharedToken(db, 'socket-budget:test:fast', budget)).toBe(0);
    expect(await takeSharedToken(db, 'socket-budget:test:fast', budget)).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(await takeSharedToken(db, 'socket-budget:test:fast', budget)).toBe(0);
  });

  it('takes memory first, and the database only for rooms and moderation while sharing', async () => {
    const { db } = database;
    const budget = createEventBudget({ db, sharing: () => true });
    const socket = budget.forSocket({ id: 'shared-ada', role: 'student' });
    for (let taken = 0; taken < rooms.person.burst; taken += 1) {
      expect(await socket.take('create_room')).toBe(0);
    }
    // Another process's memory knows nothing of these, but the database does.
    const elsewhere = createEventBudget({ db, sharing: () => true });
    const wait = await elsewhere
      .forSocket({ id: 'shared-ada', role: 'student' })
      .take('close_room');
    expect(wait).toBeGreaterThan(0);
    const row = await db
      .selectFrom('rate_limits')
      .select('count')
      .where('key', '=', 'socket-budget:rooms:shared-ada')
      .executeTakeFirst();
    expect(row?.count).toBe(rooms.person.burst);
  });
});
