import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { sweep } from '../../sweeper.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { clearCirculation } from '../../test/circulation.ts';

/** One step of a random history of one library day after another. */
type Step =
  | { kind: 'reserve'; person: number; book: number; day: number; slot: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'join'; person: number; book: number }
  | { kind: 'leave'; pick: number }
  | { kind: 'take'; pick: number; day: number; slot: number }
  | { kind: 'desk'; pick: number; noShow: boolean }
  | { kind: 'wait'; hours: number }
  | { kind: 'sweep' };

/** Reproduce a failure with the seed it prints: PROPERTY_SEED=<seed> npx vitest run <this file>. */
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_128);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 30);
const TIME_ZONE = 'Europe/Paris';
const START = new Date('2026-11-23T15:00:00Z');
const PEOPLE = 4;
/** Two books: one with a single copy, one with two. */
const COPIES = [1, 2];

const person = fc.nat(PEOPLE - 1);
const book = fc.nat(COPIES.length - 1);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      person,
      book,
      day: fc.integer({ min: 1, max: 3 }),
      slot: fc.nat(RESERVATION_TIME_SLOTS.length - 1),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('join' as const), person, book }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leave' as const), pick: fc.nat(10) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('take' as const),
      pick: fc.nat(10),
      day: fc.integer({ min: 1, max: 3 }),
      slot: fc.nat(RESERVATION_TIME_SLOTS.length - 1),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(10) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('desk' as const),
      pick: fc.nat(10),
      noShow: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      hours: fc.integer({ min: 1, max: 72 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sweep' as const) }) },
);

describe.each(testDatabaseKinds())('holds queue histories on %s (fast-check)', (kind) => {
  let testApp: TestApp;
  let clock = START;
  let people: SignedInPerson[];
  let librarian: SignedInPerson;
  let bookIds: string[];

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => clock,
    });
    people = await signedInPeople(testApp, PEOPLE);
    librarian = await signedInPerson(testApp, 'librarian');
    bookIds = [];
    for (const [index, copies] of COPIES.entries()) {
      const row = await testApp.database.db
        .insertInto('items')
        .values({
          kind: 'book',
          title: `Queue Property Book ${index}`,
          authors: [],
          source: 'test',
          source_id: crypto.randomUUID(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await setNumberedCopies(testApp.database.db, row.id, copies);
      bookIds.push(row.id);
    }
  });
  afterAll(async () => testApp.close());

  const db = () => testApp.database.db;

  /** Per book at `clock`: copies held by reservations, live offers and the queue in order. */
  async function state() {
    const at = clock.toISOString();
    const held = await sql<{ item_id: string; user_id: string }>`
      SELECT item_id, user_id FROM reservations
      WHERE status = 'collected' OR (status = 'active' AND expires_at > ${at}::timestamptz)`.execute(
      db(),
    );
    const open = await sql<{ item_id: string; user_id: string; number: string; status: string }>`
      SELECT item_id, user_id, number, status FROM queued_holds
      WHERE status = 'queued' OR (status = 'offered' AND offer_expires_at > ${at}::timestamptz)
      ORDER BY number`.execute(db());
    return bookIds.map((id) => ({
      held: held.rows.filter((row) => row.item_id === id),
      offers: open.rows.filter((row) => row.item_id === id && row.status === 'offered'),
      queued: open.rows.filter((row) => row.item_id === id && row.status === 'queued'),
    }));
  }

  /** One of the holds stored with one of `statuses` (lapsed offers too), picked by `pick`. */
  async function openHold(pick: number, statuses: ('queued' | 'offered')[]) {
    const rows = await db()
      .selectFrom('queued_holds')
      .select(['id', 'user_id', 'item_id'])
      .where('status', 'in', statuses)
      .orderBy('number')
      .execute();
    if (rows.length === 0) return undefined;
    const row = rows[pick % rows.length]!;
    return {
      id: row.id,
      person: people.findIndex((each) => each.id === row.user_id),
      book: bookIds.indexOf(row.item_id),
    };
  }

  /** The rules that must hold whatever happened before. */
  async function checkInvariants({ settled }: { settled: boolean }) {
    const books = await state();
    for (const [index, { held, offers, queued }] of books.entries()) {
      const copies = COPIES[index]!;
      // No copy offered twice, nor offered and reserved at once.
      expect(held.length + offers.length, `book ${index}`).toBeLessThanOrEqual(copies);
      // Nobody skipped: everyone offered joined before everyone still waiting.
      const lastOffered = Math.max(...offers.map((row) => Number(row.number)), 0);
      const firstWaiting = Math.min(...queued.map((row) => Number(row.number)), Infinity);
      expect(lastOffered, `book ${index}`).toBeLessThan(firstWaiting);
      // Nobody twice for one book: one open hold at most, and none beside a copy they hold (a
      // loan and a new reservation of one book are the reservations' own affair).
      const waiting = [...offers, ...queued].map((row) => row.user_id);
      expect(new Set(waiting).size, `book ${index}`).toBe(waiting.length);
      const holders = new Set(held.map((row) => row.user_id));
      expect(
        waiting.filter((id) => holders.has(id)),
        `book ${index}`,
      ).toEqual([]);
      // Once the queues are settled, no copy stands free while someone waits.
      if (settled && queued.length > 0) {
        expect(held.length + offers.length, `book ${index}`).toBe(copies);
      }
    }
  }

  it('offers in queue order, never a copy twice, nobody twice per book, and no later joiner takes a copy before someone waiting', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 20, maxLength: 40 }), async (steps) => {
        clock = START;
        await clearCirculation(db());
        await db().deleteFrom('rate_limits').execute();

        for (const action of steps) {
          let settled = false;
          if (action.kind === 'wait') {
            clock = new Date(clock.getTime() + action.hours * 3_600_000);
          } else if (action.kind === 'sweep') {
            await sweep(testApp.database, clock);
            settled = true;
          } else if (action.kind === 'reserve' || action.kind === 'take') {
            // `take`: someone offered a copy (live or lapsed) reserves it.
            const offer =
              action.kind === 'take'
                ? await openHold(action.pick, ['offered'])
                : { person: action.person, book: action.book };
            if (!offer) continue;
            const who = people[offer.person]!;
            const itemId = bookIds[offer.book]!;
            const date = reservableDates(clock, TIME_ZONE)[action.day]!;
            const response = await who.client.post('/api/users/reservation', {
              book: { id: itemId },
              reservation: { date, timeSlot: RESERVATION_TIME_SLOTS[action.slot] },
            });
            expect([200, 400, 409], response.body).toContain(response.statusCode);
            if (response.statusCode === 200) {
              // Taken from an offer, or nobody was left waiting for the book.
              const id = response.json().reservation.reservationId as string;
              const fromOffer = await db()
                .selectFrom('queued_holds')
                .select('id')
                .where('reservation_id', '=', id)
                .where('status', '=', 'fulfilled')
                .executeTakeFirst();
              const waiting = (await state())[offer.book]!.queued;
              expect(fromOffer !== undefined || waiting.length === 0, response.body).toBe(true);
            }
          } else if (action.kind === 'join') {
            const who = people[action.person]!;
            const response = await who.client.post('/api/users/holds', {
              bookId: bookIds[action.book],
            });
            expect([200, 409], response.body).toContain(response.statusCode);
          } else if (action.kind === 'leave') {
            const hold = await openHold(action.pick, ['queued', 'offered']);
            if (!hold) continue;
            const response = await people[hold.person]!.client.delete(
              `/api/users/holds/${hold.id}`,
            );
            // A lapsed offer is no longer open: 409.
            expect([200, 409], response.body).toContain(response.statusCode);
          } else if (action.kind === 'cancel') {
            // Someone cancels one of their reservations (a lapsed one answers 409).
            const active = await db()
              .selectFrom('reservations')
              .select(['id', 'user_id'])
              .where('status', '=', 'active')
              .orderBy('id')
              .execute();
            if (active.length === 0) continue;
            const row = active[action.pick % active.length]!;
            const who = people.find((each) => each.id === row.user_id)!;
            const response = await who.client.delete(`/api/users/reservations/${row.id}`);
            expect([200, 409], response.body).toContain(response.statusCode);
          } else {
            const all = await db()
              .selectFrom('reservations')
              .select(['id', 'status'])
              .where('status', 'in', ['active', 'collected'])
              .orderBy('id')
              .execute();
            if (all.length === 0) continue;
            const row = all[action.pick % all.length]!;
            const status =
              row.status === 'collected' ? 'returned' : action.noShow ? 'no_show' : 'collected';
            const response = await librarian.client.patch(`/api/desk/reservations/${row.id}`, {
              status,
            });
            // An active hold past its time has expired: 409.
            expect([200, 409], response.body).toContain(response.statusCode);
          }
          await checkInvariants({ settled });
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  }, 240_000);
});
