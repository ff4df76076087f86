import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIVE_RESERVATIONS_MAX } from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { seedDemoData } from '../../db/seed.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, type SignedInPerson } from '../../test/factories.ts';
import { clearCirculation } from '../../test/circulation.ts';

/** One step of a random history. */
type Step =
  | { kind: 'reserve'; person: number; book: number; day: number; slot: number }
  | { kind: 'cancel'; person: number; pick: number }
  | { kind: 'wait'; hours: number };

const PEOPLE = 4;
/** Demo books and the copies they hold: one with a single copy, two with two. */
const BOOKS = [
  { sourceId: 'book-alice-in-wonderland', copies: 1 },
  { sourceId: 'book-frankenstein', copies: 2 },
  { sourceId: 'book-the-time-machine', copies: 2 },
];

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('reserve' as const),
      person: fc.nat(PEOPLE - 1),
      book: fc.nat(BOOKS.length - 1),
      // From tomorrow: today's slots may already be over, which another test covers.
      day: fc.integer({ min: 1, max: 6 }),
      slot: fc.nat(RESERVATION_TIME_SLOTS.length - 1),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('cancel' as const),
      person: fc.nat(PEOPLE - 1),
      pick: fc.nat(20),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('wait' as const),
      hours: fc.integer({ min: 1, max: 60 }),
    }),
  },
);

describe.each(testDatabaseKinds())('reservation histories on %s (fast-check)', (kind) => {
  let testApp: TestApp;
  let clock = new Date('2026-11-23T15:00:00Z');
  let people: SignedInPerson[];
  let bookIds: string[];

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: 'Europe/Paris' },
      now: () => clock,
    });
    await seedDemoData(testApp.database.db);
    people = await signedInPeople(testApp, PEOPLE);
    bookIds = [];
    for (const book of BOOKS) {
      const row = await testApp.database.db
        .selectFrom('items')
        .select('id')
        .where('source_id', '=', book.sourceId)
        .executeTakeFirstOrThrow();
      await setNumberedCopies(testApp.database.db, row.id, book.copies);
      bookIds.push(row.id);
    }
  });
  afterAll(async () => testApp.close());

  /** What the database holds must never break the rules, whatever happened before. */
  async function checkInvariants() {
    const at = clock.toISOString();
    const held = await sql<{ item_id: string; held: string }>`
      SELECT item_id, count(*) AS held FROM reservations
      WHERE status = 'collected' OR (status = 'active' AND expires_at > ${at}::timestamptz)
      GROUP BY item_id`.execute(testApp.database.db);
    for (const row of held.rows) {
      const book = BOOKS[bookIds.indexOf(row.item_id)]!;
      expect(Number(row.held), book.sourceId).toBeLessThanOrEqual(book.copies);
    }
    const doubles = await sql<{ n: string }>`
      SELECT count(*) AS n FROM (
        SELECT user_id, item_id FROM reservations
        WHERE status = 'active' AND expires_at > ${at}::timestamptz
        GROUP BY user_id, item_id HAVING count(*) > 1) AS d`.execute(testApp.database.db);
    expect(Number(doubles.rows[0]!.n)).toBe(0);
    const perPerson = await sql<{ n: string }>`
      SELECT count(*) AS n FROM reservations
      WHERE status = 'active' AND expires_at > ${at}::timestamptz
      GROUP BY user_id ORDER BY n DESC LIMIT 1`.execute(testApp.database.db);
    expect(Number(perPerson.rows[0]?.n ?? 0)).toBeLessThanOrEqual(ACTIVE_RESERVATIONS_MAX);
  }

  it('never holds more copies than a book has, nor two of one book or more than 3 for one person, and answers as a simple model predicts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
        clock = new Date('2026-11-23T15:00:00Z');
        await clearCirculation(testApp.database.db);
        await testApp.database.db.deleteFrom('rate_limits').execute();
        // The model: every reservation made, with its holder, book, end of hold and status.
        const model: {
          id: string;
          person: number;
          book: number;
          expiresAt: number;
          cancelled: boolean;
        }[] = [];
        const active = () =>
          model.filter((entry) => !entry.cancelled && entry.expiresAt > clock.getTime());

        for (const action of steps) {
          if (action.kind === 'wait') {
            clock = new Date(clock.getTime() + action.hours * 3_600_000);
          } else if (action.kind === 'reserve') {
            const date = reservableDates(clock, 'Europe/Paris')[action.day]!;
            const response = await people[action.person]!.client.post('/api/users/reservation', {
              book: { id: bookIds[action.book] },
              reservation: { date, timeSlot: RESERVATION_TIME_SLOTS[action.slot] },
            });
            const now = active();
            const expected =
              now.some((entry) => entry.person === action.person && entry.book === action.book) ||
              now.filter((entry) => entry.person === action.person).length >=
                ACTIVE_RESERVATIONS_MAX ||
              now.filter((entry) => entry.book === action.book).length >= BOOKS[action.book]!.copies
                ? 409
                : 200;
            expect(response.statusCode, response.body).toBe(expected);
            if (response.statusCode === 200) {
              const { reservation } = response.json();
              model.push({
                id: reservation.reservationId,
                person: action.person,
                book: action.book,
                expiresAt: Date.parse(reservation.expiresAt),
                cancelled: false,
              });
            }
          } else {
            const mine = model.filter((entry) => entry.person === action.person);
            if (mine.length === 0) continue;
            const entry = mine[action.pick % mine.length]!;
            const response = await people[action.person]!.client.delete(
              `/api/users/reservations/${entry.id}`,
            );
            const wasActive = !entry.cancelled && entry.expiresAt > clock.getTime();
            expect(response.statusCode, response.body).toBe(wasActive ? 200 : 409);
            if (wasActive) entry.cancelled = true;
          }
          await checkInvariants();
        }
      }),
      { numRuns: 30 },
    );
  }, 180_000);
});
