import type { Kysely } from 'kysely';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import type { Database } from '../db/schema.ts';
import { localDate, slotWindow } from '../reservations/calendar.ts';
import { questionKey } from './questions.ts';
import { createInsightRecorder, normaliseTerm } from './recorder.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The words a simulated month uses, so that a run can check what the insights list. */
export interface SimulatedTerms {
  /** Found nothing; searched by 6 and 5 people a day: listed. */
  wanted: [string, string];
  /** Found nothing; searched by only 3 people a day: never listed. */
  rare: string;
  /** Found something; searched by 8 people a day. */
  popular: string;
  /** Wordings of one question the chatbot cannot answer, asked by 6 people a day: one group. */
  question: [string, string, string];
  /** A question the chatbot cannot answer asked by only 2 people a day: never listed. */
  rareQuestion: string;
}

/** The terms of a run named by `prefix` (unique per run, so runs never mix). */
export function simulatedTerms(prefix: string): SimulatedTerms {
  return {
    wanted: [`${prefix} glarbo fizzwump`, `${prefix} orbital basketry`],
    rare: `${prefix} lonely lichen`,
    popular: 'pride',
    question: [
      `Can I bring my ${prefix} dog to the library?`,
      `can i bring a ${prefix} dog into the library`,
      `Bringing ${prefix} dogs to the library?`,
    ],
    rareQuestion: `Is there a ${prefix} harp in the basement?`,
  };
}

/** What a simulated month wrote, besides the insight counts. */
export interface SimulatedMonth {
  terms: SimulatedTerms;
  requests: number;
  reservations: number;
  noShows: number;
  loans: number;
}

/** Options of {@link simulateLibraryMonth}. */
export interface SimulateMonthOptions {
  /** The last simulated day is today; the first is `days - 1` days before. */
  now: Date;
  timeZone: string;
  /** The server's secret: the person keys are made with it, as the app makes them. */
  secret: string;
  prefix: string;
  days?: number;
  /** Days a loan lasts (the library's `LOAN_DAYS`). */
  loanDays?: number;
}

/** A documentation address (RFC 5737) standing for simulated person `n`. */
function address(n: number): string {
  return `198.51.100.${(n % 250) + 1}`;
}

/**
 * A month of library activity at once, backdated a day at a time, for the insights screen to have
 * something to show (a demo, the end-to-end test): the searches and the chatbot's unanswered
 * questions go through the app's own recorder, its clock set to each day, so they are counted and
 * keyed exactly as live ones; resource requests (most answered), reservations with their pickups
 * (one in five a no-show) and the loans of those collected are written to the tables the app
 * writes, by eight simulated readers. Circulation needs an item with a copy; without one, only
 * the counts and the requests are written.
 */
export async function simulateLibraryMonth(
  db: Kysely<Database>,
  options: SimulateMonthOptions,
): Promise<SimulatedMonth> {
  const { now, timeZone, secret, prefix, days = 30, loanDays = 21 } = options;
  const terms = simulatedTerms(prefix);
  let clock = now;
  const recorder = createInsightRecorder({
    db,
    secret,
    now: () => clock,
    timeZone,
    intervalMs: 3_600_000,
  });

  const readers = Array.from({ length: 8 }, (_, n) => ({
    id: crypto.randomUUID(),
    name: `Simulated Reader ${n + 1}`,
    email: `${prefix.toLowerCase().replace(/[^a-z0-9]+/gu, '-')}-reader-${n + 1}@simulated.invalid`,
    image: null,
    graduation_year: null,
  }));
  await db.insertInto('users').values(readers).execute();
  const copies = await db
    .selectFrom('copies as c')
    .innerJoin('items as i', 'i.id', 'c.item_id')
    .select(['c.id as copyId', 'c.item_id as itemId'])
    .where('i.withdrawn_at', 'is', null)
    .where('i.kind', '=', 'book')
    .orderBy('i.title')
    .limit(3)
    .execute();

  const result: SimulatedMonth = { terms, requests: 0, reservations: 0, noShows: 0, loans: 0 };
  const types = ['book', 'journal', 'article', 'courseMaterial'] as const;
  const answers = ['accepted', 'ordered', 'available', 'rejected'] as const;
  for (let day = 0; day < days; day += 1) {
    const back = days - 1 - day;
    clock = new Date(now.getTime() - back * DAY_MS);
    const date = localDate(clock, timeZone);
    // Each day a different crowd, so the month has many people without any one doing much.
    const base = day * 20;
    const search = (q: string, person: number, found: boolean) => {
      const who = { sessionToken: null, address: address(base + person) };
      const subject = normaliseTerm(q);
      recorder.record({ kind: 'search', scope: 'book', subject }, who);
      if (!found) recorder.record({ kind: 'search_empty', scope: 'book', subject }, who);
    };
    for (let n = 0; n < 6; n += 1) search(terms.wanted[0], n, false);
    for (let n = 0; n < 5; n += 1) search(terms.wanted[1], 6 + n, false);
    for (let n = 0; n < 3; n += 1) search(terms.rare, 11 + n, false);
    for (let n = 0; n < 8; n += 1) search(terms.popular, n, true);
    const ask = (question: string, person: number) =>
      recorder.record(
        {
          kind: 'chatbot_unanswered',
          scope: questionKey(question),
          subject: normaliseTerm(question),
        },
        { sessionToken: null, address: address(base + person) },
      );
    for (let n = 0; n < 6; n += 1) ask(terms.question[n % 3]!, n);
    for (let n = 0; n < 2; n += 1) ask(terms.rareQuestion, 14 + n);
    await recorder.flush();

    // A resource request a day; those older than two days have had their answer.
    const reader = readers[day % readers.length]!;
    const filed = new Date(clock.getTime() - 2 * 3_600_000);
    const answered = back > 2;
    const status = answered ? answers[day % answers.length]! : 'pending';
    const request = await db
      .insertInto('resource_requests')
      .values({
        requester_id: reader.id,
        requester_name: reader.name,
        title: `${prefix} simulated request ${day + 1}`,
        resource_type: types[day % types.length]!,
        institution_name: 'Simulated University',
        status,
        status_reason: status === 'rejected' ? 'Out of print (simulated).' : null,
        status_changed_at: answered
          ? new Date(filed.getTime() + (4 + (day % 5) * 10) * 3_600_000)
          : null,
        created_at: filed,
        updated_at: filed,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('request_supporters')
      .values({ request_id: request.id, user_id: reader.id, created_at: filed })
      .execute();
    result.requests += 1;

    // Pickups of past days: two a day, at a slot that turns with the day; one in five a no-show,
    // the others collected and lent, the loan back before today.
    if (copies.length === 0 || back === 0) continue;
    for (let n = 0; n < 2; n += 1) {
      const copy = copies[(day + n) % copies.length]!;
      const borrower = readers[(day * 2 + n) % readers.length]!;
      const slot = RESERVATION_TIME_SLOTS[(day + n * 2) % RESERVATION_TIME_SLOTS.length]!;
      const { startsAt: start, endsAt: end, expiresAt } = slotWindow(date, slot, timeZone);
      const noShow = (day * 2 + n) % 5 === 4;
      const reservation = await db
        .insertInto('reservations')
        .values({
          user_id: borrower.id,
          item_id: copy.itemId,
          pickup_date: date,
          time_slot: slot,
          slot_starts_at: start,
          expires_at: expiresAt,
          status: noShow ? 'no_show' : 'returned',
          created_at: new Date(start.getTime() - DAY_MS),
          updated_at: end,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      result.reservations += 1;
      if (noShow) {
        result.noShows += 1;
        continue;
      }
      const returned = new Date(Math.min(start.getTime() + 3 * DAY_MS, now.getTime() - 60_000));
      await db
        .insertInto('loans')
        .values({
          user_id: borrower.id,
          item_id: copy.itemId,
          copy_id: copy.copyId,
          reservation_id: reservation.id,
          checked_out_at: start,
          due_at: new Date(start.getTime() + loanDays * DAY_MS),
          returned_at: returned > start ? returned : new Date(start.getTime() + 60_000),
        })
        .execute();
      result.loans += 1;
    }
  }
  await recorder.close();
  return result;
}
