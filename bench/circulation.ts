/**
 * `npm run bench:circulation`: a day of simulated circulation at the desk (issue 21). Sets up a
 * fresh database of each engine with 5,000 students, 8,000 books holding 20,000 copies (2,000
 * books with one copy, 4,000 with two, 2,000 with five) and 5,000 loans made before the day (every
 * one-copy book and 1,000 two-copy books entirely out), plus 20 copies an import marked on loan
 * with no loan behind them. Then runs one library day, moving `now` through it, and the next
 * morning, calling the domain code the routes call (no HTTP, one desk: one action at a time):
 * reservations for the day's pickup slots (`reserve`), check-outs by barcode of those reservations
 * and of walk-ins by e-mail (`checkOut`), returns (`returnCopy`) of the earlier loans and of some
 * of the day's, renewals now and then (`renewLoan`), 500 places joined in the waiting lists of
 * books whose copies are all out (`joinQueue`), some left, offers taken as reservations and
 * collected or declined (`leaveQueue`), and `sweep` every 10 simulated minutes. Checks the
 * invariants in SQL every simulated hour and at the end, and exits 1 when one breaks.
 *
 * Prints the check-out p50/p95/p99, the p95 of the other actions, the totals, the wall time and
 * the check-out p95 against a baseline measured in the same run: the indexed SELECT of a copy by
 * its barcode that every desk action starts with. Target (issue 21): check-out p95 < 100 ms on
 * PGlite. PGlite, then PostgreSQL when it is installed (`BENCH_ENGINES=PGlite` for one);
 * `BENCH_SEED` changes the day (default 21).
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import type { Database } from '#server/db/schema.ts';
import { Refusal } from '#server/refusal.ts';
import { addDays, slotWindow, zonedInstant, type TimeSlot } from '#server/reservations/calendar.ts';
import { reserve } from '#server/reservations/holder.ts';
import { checkOut, renewLoan, returnCopy, type LoanTerms } from '#server/reservations/loans.ts';
import { joinQueue, leaveQueue } from '#server/reservations/queue.ts';
import { sweep } from '#server/sweeper.ts';
import { benchDatabases, formatNumber, loadAverage, machineLine, ms, percentile } from './lib.ts';
import { seededRandom } from './seeded-random.ts';

const STUDENTS = 5_000;
const BOOKS = 8_000;
/** Books 1–2,000 have one copy, 2,001–6,000 two, 6,001–8,000 five: 20,000 copies. */
const copiesOf = (book: number) => (book <= 2_000 ? 1 : book <= 6_000 ? 2 : 5);
/** Reservations made for the day (most before 9:00, the rest during it, a tenth for tomorrow). */
const RESERVATIONS = 1_650;
const NO_SHOW = 0.05;
const WALK_INS = 250;
const RETURNS_OF_EARLIER_LOANS = 1_750;
const RETURNS_OF_THE_DAYS_LOANS = 250;
const JOINS = 500;
const LEAVES = 60;
const RENEWALS = 120;
const IMPORT_MARKED = 20;
const IMPORT_NOTE = 'bench: marked on loan by an import';
const TARGET_P95_MS = 100;

const engines = process.env.BENCH_ENGINES?.split(',');
const timeZone = process.env.LIBRARY_TIME_ZONE ?? 'Europe/London';
/** A Tuesday; the day before, the loans were made. */
const DAY = '2026-12-01';
const NEXT_DAY = addDays(DAY, 1);
const terms: LoanTerms = { loanDays: 21, timeZone };
const actor = { id: 'bench-librarian', name: 'Desk Librarian' };
const MINUTE = 60_000;

const at = (date: string, hour: number, minute = 0) => zonedInstant(date, hour, minute, timeZone);

/** Creates the students, books, copies and earlier loans in a few statements. */
async function setUp(db: Kysely<Database>, dayStart: Date): Promise<void> {
  await sql`
    INSERT INTO users (id, name, email, email_verified, role, first_name, last_name, student_id)
    SELECT 'bench-student-' || n, 'Student ' || n, 'student' || n || '@bench.example', true,
           'student', 'Student', n::text, 'S-' || n
    FROM generate_series(1, ${STUDENTS}::int) AS n
  `.execute(db);
  await sql`
    INSERT INTO users (id, name, email, email_verified, role)
    VALUES (${actor.id}, ${actor.name}, 'desk@bench.example', true, 'librarian')
  `.execute(db);
  await sql`
    INSERT INTO items (kind, title, authors, source, source_id, year)
    SELECT 'book', 'Circulation book ' || n, ARRAY['Author ' || (n % 997)], 'bench', n::text,
           1950 + n % 70
    FROM generate_series(1, ${BOOKS}::int) AS n
  `.execute(db);
  await sql`
    INSERT INTO copies (item_id, barcode, location, status)
    SELECT i.id, 'CB' || lpad(i.source_id, 5, '0') || '-' || k, 'Main library', 'available'
    FROM items i
    CROSS JOIN LATERAL generate_series(1,
      CASE WHEN i.source_id::int <= 2000 THEN 1 WHEN i.source_id::int <= 6000 THEN 2 ELSE 5 END) AS k
    WHERE i.source = 'bench'
  `.execute(db);
  // Out before the day: every one-copy book, both copies of books 2,001–3,000 and one copy of
  // books 6,001–7,000; each student borrowed one (7,919 is prime to 5,000), some now overdue.
  await sql`
    INSERT INTO loans (user_id, item_id, copy_id, checked_out_at, checked_out_by, due_at)
    SELECT 'bench-student-' || (1 + (o.rn * 7919) % ${STUDENTS}::int), o.item_id, o.id,
           ${dayStart.toISOString()}::timestamptz - ((1 + o.rn % 25) || ' days')::interval,
           ${actor.id},
           ${dayStart.toISOString()}::timestamptz - ((1 + o.rn % 25) || ' days')::interval
             + interval '21 days'
    FROM (
      SELECT c.id, c.item_id, row_number() OVER (ORDER BY c.barcode) AS rn
      FROM copies c JOIN items i ON i.id = c.item_id
      WHERE i.source_id::int <= 3000
         OR (i.source_id::int BETWEEN 6001 AND 7000 AND c.barcode LIKE '%-1')
    ) AS o
  `.execute(db);
  await sql`
    UPDATE copies SET status = 'on_loan'
    WHERE id IN (SELECT copy_id FROM loans WHERE returned_at IS NULL)
  `.execute(db);
  await sql`
    UPDATE copies SET status = 'on_loan', note = ${IMPORT_NOTE}
    WHERE barcode IN (SELECT 'CB' || lpad(n::text, 5, '0') || '-2'
                      FROM generate_series(7001, ${7000 + IMPORT_MARKED}::int) AS n)
  `.execute(db);
  // As an import leaves it (`VACUUM (ANALYZE)` in import-file.ts): the planner knows the sizes.
  await sql`ANALYZE`.execute(db);
}

/** The invariants of issue 21 at `now`, each as the rows that break it. */
const INVARIANTS: [string, (now: Date) => RawBuilder<unknown>][] = [
  [
    'no copy in two open loans',
    () => sql`SELECT copy_id FROM loans WHERE returned_at IS NULL
              GROUP BY copy_id HAVING count(*) > 1`,
  ],
  [
    'every copy on loan has exactly one open loan (import-marked ones aside)',
    () => sql`SELECT c.barcode FROM copies c
              WHERE c.status = 'on_loan' AND c.note <> ${IMPORT_NOTE}
                AND (SELECT count(*) FROM loans l
                     WHERE l.copy_id = c.id AND l.returned_at IS NULL) <> 1`,
  ],
  [
    'every open loan is of a copy on loan',
    () => sql`SELECT l.id FROM loans l JOIN copies c ON c.id = l.copy_id
              WHERE l.returned_at IS NULL AND c.status <> 'on_loan'`,
  ],
  [
    'per book, held + live offers + copies on loan <= copies',
    (now) => sql`SELECT i.id, i.copies FROM items i
      WHERE i.copies <
        (SELECT count(*) FROM reservations r
          WHERE r.item_id = i.id AND r.status = 'active'
            AND r.expires_at > ${now.toISOString()}::timestamptz)
        + (SELECT count(*) FROM queued_holds q
          WHERE q.item_id = i.id AND q.status = 'offered'
            AND q.offer_expires_at > ${now.toISOString()}::timestamptz)
        + (SELECT count(*) FROM copies c WHERE c.item_id = i.id AND c.status = 'on_loan')`,
  ],
  [
    "each book's copy counts match its copies",
    () => sql`SELECT i.id FROM items i
      WHERE i.copies <> (SELECT count(*) FROM copies c
                         WHERE c.item_id = i.id AND c.status <> 'withdrawn')
         OR i.copies_unavailable <> (SELECT count(*) FROM copies c
                         WHERE c.item_id = i.id AND c.status IN ('on_loan', 'in_repair', 'missing'))`,
  ],
  [
    'nobody offered twice per book',
    () => sql`SELECT user_id, item_id FROM queued_holds WHERE offered_at IS NOT NULL
              GROUP BY user_id, item_id HAVING count(*) > 1`,
  ],
  [
    'offers in queue order (nobody skipped while waiting)',
    () => sql`SELECT o.id FROM queued_holds o JOIN queued_holds q
                ON q.item_id = o.item_id AND q.number < o.number
              WHERE o.offered_at IS NOT NULL AND q.created_at <= o.offered_at AND (
                (q.offered_at IS NULL AND (q.status = 'queued'
                  OR (q.status = 'cancelled' AND q.updated_at > o.offered_at)))
                OR q.offered_at > o.offered_at)`,
  ],
  [
    'no open loan without a borrower',
    () => sql`SELECT id FROM loans WHERE returned_at IS NULL AND user_id IS NULL`,
  ],
  [
    'no collected reservation without its loan',
    () => sql`SELECT r.id FROM reservations r
              WHERE r.status IN ('collected', 'returned')
                AND NOT EXISTS (SELECT 1 FROM loans l WHERE l.reservation_id = r.id)`,
  ],
];

/** The invariants broken at `now`, with a few of the rows breaking each. */
async function brokenInvariants(db: Kysely<Database>, now: Date): Promise<string[]> {
  const broken: string[] = [];
  for (const [name, query] of INVARIANTS) {
    const { rows } = await query(now).execute(db);
    if (rows.length > 0) {
      broken.push(`${name}: ${rows.length} rows, e.g. ${JSON.stringify(rows.slice(0, 3))}`);
    }
  }
  return broken;
}

type Action = 'check-out' | 'return' | 'reserve' | 'join' | 'leave' | 'renew' | 'sweep';

interface Event {
  at: number;
  order: number;
  run: (now: Date) => Promise<void>;
}

async function simulate(name: string, handle: DatabaseHandle): Promise<boolean> {
  const { db } = handle;
  // Seeded, so every run simulates the same day.
  const random = seededRandom(Number(process.env.BENCH_SEED ?? 21));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const between = (from: Date, to: Date) =>
    from.getTime() + Math.floor(random() * (to.getTime() - from.getTime()));
  const dayStart = at(DAY, 0);

  const setUpStarted = performance.now();
  await setUp(db, dayStart);
  const items = await db
    .selectFrom('items')
    .select(['id', 'source_id'])
    .where('source', '=', 'bench')
    .execute();
  const itemOf = new Map<number, string>(items.map((row) => [Number(row.source_id), row.id]));
  /** Copies on the shelf per book, as the harness has seen the desk move them. */
  const shelf = new Map<string, number>();
  for (let book = 1; book <= BOOKS; book += 1) {
    const out = book <= 3_000 ? copiesOf(book) : book <= 7_000 && book > 6_000 ? 1 : 0;
    const marked = book > 7_000 && book <= 7_000 + IMPORT_MARKED ? 1 : 0;
    shelf.set(itemOf.get(book)!, copiesOf(book) - out - marked);
  }
  const earlier = await db
    .selectFrom('loans as l')
    .innerJoin('copies as c', 'c.id', 'l.copy_id')
    .select(['l.id', 'l.item_id', 'c.barcode'])
    .where('l.returned_at', 'is', null)
    .orderBy('l.number')
    .execute();
  console.log(
    `  set up ${STUDENTS.toLocaleString('en-US')} students, ${BOOKS.toLocaleString('en-US')} books, 20,000 copies and ${earlier.length.toLocaleString('en-US')} earlier loans in ${((performance.now() - setUpStarted) / 1000).toFixed(1)} s`,
  );

  const times = new Map<Action, number[]>();
  const refusals = new Map<string, number>();
  async function timed<T>(action: Action, work: () => Promise<T>): Promise<T | undefined> {
    const started = performance.now();
    try {
      const result = await work();
      const list = times.get(action) ?? [];
      list.push(performance.now() - started);
      times.set(action, list);
      return result;
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      // Refusals are part of a desk's day (a queue blocks a renewal); counted, not timed.
      const key = `${action} ${error.statusCode}: ${error.message.replace(/"[^"]*"|\b(RES|HOLD|LOAN)-\d+|\S+@\S+|CB\d+-\d|[\w ]+, due [^.]*|[A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}/g, '…')}`;
      refusals.set(key, (refusals.get(key) ?? 0) + 1);
      return undefined;
    }
  }

  // The baseline: before the day, 5 at every sweep (under the same load as the day) and after it;
  // its barcodes in an order of their own, so the day's draws stay the same.
  const barcodes = earlier.map((row) => row.barcode);
  const base: number[] = [];
  let looked = 0;
  const baseline = async (runs: number) => {
    for (let index = 0; index < runs; index += 1) {
      const barcode = barcodes[((looked += 1) * 7_919) % barcodes.length]!;
      const started = performance.now();
      await db
        .selectFrom('copies')
        .select(['id', 'item_id', 'status'])
        .where(sql<string>`upper(barcode)`, '=', barcode.toUpperCase())
        .executeTakeFirstOrThrow();
      base.push(performance.now() - started);
    }
  };
  await baseline(300);

  // The events of the day, in time order (then in the order they were planned).
  const events: Event[] = [];
  let planned = 0;
  const plan = (when: number, run: (now: Date) => Promise<void>) => {
    const event = { at: when, order: (planned += 1), run };
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      const other = events[middle]!;
      if (other.at < when || (other.at === when && other.order < event.order)) low = middle + 1;
      else high = middle;
    }
    events.splice(low, 0, event);
  };

  const student = () => `bench-student-${1 + Math.floor(random() * STUDENTS)}`;
  const slotStarts = (date: string) =>
    RESERVATION_TIME_SLOTS.map((slot) => ({ slot, ...slotWindow(date, slot, timeZone) }));
  const totals = { checkOuts: 0, walkIns: 0, returns: 0, offersSeen: 0, offersTaken: 0 };
  /** The walk-ins' check-outs among them: the borrower found by e-mail. */
  const walkInTimes: number[] = [];
  const dayLoans: { barcode: string; itemId: string; at: number }[] = [];
  const openEarlier = new Map(earlier.map((row) => [row.id, row]));
  const seenOffers = new Set<string>();

  /** The desk takes a copy of `itemId` from the shelf and checks it out. */
  const deskCheckOut = async (
    now: Date,
    itemId: string,
    who: { reservationId: string } | { email: string },
  ) => {
    const copy = await db
      .selectFrom('copies')
      .select('barcode')
      .where('item_id', '=', itemId)
      .where('status', '=', 'available')
      .orderBy('barcode')
      .executeTakeFirst();
    if (!copy) {
      refusals.set(
        'check-out: no copy on the shelf',
        (refusals.get('check-out: no copy on the shelf') ?? 0) + 1,
      );
      return;
    }
    const loan = await timed('check-out', () =>
      checkOut(db, { barcode: copy.barcode, ...who, actor, terms, now }),
    );
    if (loan === undefined) return;
    totals.checkOuts += 1;
    if ('email' in who) walkInTimes.push(times.get('check-out')!.at(-1)!);
    shelf.set(itemId, (shelf.get(itemId) ?? 1) - 1);
    dayLoans.push({ barcode: copy.barcode, itemId, at: now.getTime() });
  };

  /** A reservation by `userId` of `itemId` for `slot` on `date`; its pickup planned unless a no-show. */
  const makeReservation = async (
    now: Date,
    userId: string,
    itemId: string,
    date: string,
    slot: TimeSlot,
  ): Promise<boolean> => {
    const reservation = await timed('reserve', () =>
      db
        .transaction()
        .execute((trx) => reserve(trx, { userId, itemId, date, slot, timeZone, now })),
    );
    if (!reservation) return false;
    if (random() >= NO_SHOW) {
      const window = slotWindow(date, slot, timeZone);
      const from = Math.max(window.startsAt.getTime(), now.getTime() + MINUTE);
      plan(between(new Date(from), window.endsAt), (later) =>
        deskCheckOut(later, itemId, { reservationId: reservation.id }),
      );
    }
    return true;
  };

  /** Offers made since the last look: most are taken as reservations, some declined. */
  const answerOffers = async (now: Date) => {
    const offers = await db
      .selectFrom('queued_holds')
      .select(['id', 'user_id', 'item_id'])
      .where('status', '=', 'offered')
      .orderBy('number')
      .execute();
    for (const offer of offers) {
      if (seenOffers.has(offer.id)) continue;
      seenOffers.add(offer.id);
      totals.offersSeen += 1;
      const choice = random();
      const when = now.getTime() + (5 + Math.floor(random() * 85)) * MINUTE;
      if (choice < 0.75) {
        plan(when, async (later) => {
          // The first slot not over yet, today's or tomorrow's.
          const slot = [...slotStarts(DAY), ...slotStarts(NEXT_DAY)].find(
            (window) => window.endsAt.getTime() > later.getTime(),
          );
          if (!slot) return;
          const date = slot.startsAt.getTime() < at(NEXT_DAY, 0).getTime() ? DAY : NEXT_DAY;
          if (await makeReservation(later, offer.user_id, offer.item_id, date, slot.slot)) {
            totals.offersTaken += 1;
          }
        });
      } else if (choice < 0.85) {
        plan(when, async (later) => {
          await timed('leave', () => leaveQueue(db, offer.user_id, offer.id, later));
          await answerOffers(later);
        });
      }
    }
  };

  // Reservations: most before the desk opens, the rest during the day for a later slot; a tenth
  // of all for tomorrow's morning slots.
  const reservable = Array.from({ length: BOOKS - 3_000 }, (_, index) => index + 3_001);
  for (let index = 0; index < RESERVATIONS; index += 1) {
    const early = index < RESERVATIONS * 0.8;
    const when = early ? between(at(DAY, 7), at(DAY, 8, 59)) : between(at(DAY, 9), at(DAY, 15));
    plan(when, async (now) => {
      const tomorrow = random() < 0.1;
      const open = tomorrow
        ? slotStarts(NEXT_DAY).slice(0, 3)
        : slotStarts(DAY).filter((window) => window.endsAt.getTime() > now.getTime());
      for (let attempt = 0; attempt < 5; attempt += 1) {
        // Some books are asked for far more than others.
        const book = reservable[Math.floor(random() ** 2 * reservable.length)]!;
        const itemId = itemOf.get(book)!;
        if ((shelf.get(itemId) ?? 0) <= 0) continue;
        const window = pick(open);
        if (await makeReservation(now, student(), itemId, tomorrow ? NEXT_DAY : DAY, window.slot))
          return;
      }
    });
  }
  // Walk-ins at the desk, by e-mail, for the five-copy books.
  for (let index = 0; index < WALK_INS; index += 1) {
    plan(between(at(DAY, 9), at(DAY, 15, 30)), async (now) => {
      const itemId = itemOf.get(6_001 + Math.floor(random() * 2_000))!;
      const who = student().replace('bench-student-', 'student');
      await deskCheckOut(now, itemId, { email: `${who}@bench.example` });
      totals.walkIns += 1;
    });
  }
  // Returns of earlier loans (more often of books someone waits for), then of the day's.
  const waitedFor = new Set<string>();
  const returnCopyAt = async (now: Date, barcode: string, itemId: string) => {
    const loan = await timed('return', () => returnCopy(db, { barcode, actor, now }));
    if (loan === undefined) return;
    totals.returns += 1;
    shelf.set(itemId, (shelf.get(itemId) ?? 0) + 1);
    await answerOffers(now);
  };
  for (let index = 0; index < RETURNS_OF_EARLIER_LOANS; index += 1) {
    plan(between(at(DAY, 9), at(DAY, 16)), async (now) => {
      const waiting = [...openEarlier.values()].filter((row) => waitedFor.has(row.item_id));
      const loan =
        waiting.length > 0 && random() < 0.4 ? pick(waiting) : pick([...openEarlier.values()]);
      openEarlier.delete(loan.id);
      await returnCopyAt(now, loan.barcode, loan.item_id);
    });
  }
  for (let index = 0; index < RETURNS_OF_THE_DAYS_LOANS; index += 1) {
    plan(between(at(DAY, 13), at(DAY, 16)), async (now) => {
      const candidates = dayLoans.filter((loan) => loan.at < now.getTime() - 60 * MINUTE);
      if (candidates.length === 0) return;
      const loan = candidates.splice(Math.floor(random() * candidates.length), 1)[0]!;
      dayLoans.splice(dayLoans.indexOf(loan), 1);
      await returnCopyAt(now, loan.barcode, loan.itemId);
    });
  }
  // Places in the waiting lists of books whose copies are all out: half join a list that has
  // people in it already.
  for (let index = 0; index < JOINS; index += 1) {
    plan(between(at(DAY, 7), at(DAY, 15)), async (now) => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const queued = [...waitedFor].filter((itemId) => (shelf.get(itemId) ?? 0) <= 0);
        const itemId =
          queued.length > 0 && random() < 0.5
            ? pick(queued)
            : itemOf.get(1 + Math.floor(random() * 3_000))!;
        if ((shelf.get(itemId) ?? 0) > 0) continue;
        const hold = await timed('join', () =>
          db.transaction().execute((trx) => joinQueue(trx, { userId: student(), itemId, now })),
        );
        if (hold) {
          waitedFor.add(itemId);
          return;
        }
      }
    });
  }
  for (let index = 0; index < LEAVES; index += 1) {
    plan(between(at(DAY, 9), at(DAY, 15, 30)), async (now) => {
      const queued = await db
        .selectFrom('queued_holds')
        .select(['id', 'user_id'])
        .where('status', '=', 'queued')
        .orderBy('number')
        .execute();
      if (queued.length === 0) return;
      const hold = pick(queued);
      await timed('leave', () => leaveQueue(db, hold.user_id, hold.id, now));
      await answerOffers(now);
    });
  }
  for (let index = 0; index < RENEWALS; index += 1) {
    plan(between(at(DAY, 9), at(DAY, 16)), async (now) => {
      // Now and then of a book someone waits for: refused, as it should be.
      const waiting = [...openEarlier.values()].filter((row) => waitedFor.has(row.item_id));
      const loan =
        waiting.length > 0 && random() < 0.2 ? pick(waiting) : pick([...openEarlier.values()]);
      await timed('renew', () =>
        renewLoan(db, { loanId: loan.id, borrowerId: null, actor, terms, now }),
      );
    });
  }
  // The sweeper every 10 minutes, and the invariants every hour, through the day and the next
  // morning (when yesterday's no-shows lapse and their copies pass to the waiting lists).
  const broken: string[] = [];
  let checks = 0;
  const check = async (now: Date) => {
    checks += 1;
    for (const failure of await brokenInvariants(db, now)) {
      broken.push(`${now.toISOString()}: ${failure}`);
    }
  };
  for (const [date, from, to] of [
    [DAY, 7, 16],
    [NEXT_DAY, 8, 12],
  ] as const) {
    for (let time = at(date, from).getTime(); time <= at(date, to).getTime(); time += 10 * MINUTE) {
      plan(time, async (now) => {
        await timed('sweep', () => sweep(handle, now));
        await answerOffers(now);
        await baseline(5);
      });
    }
    for (let hour = from; hour < to; hour += 1) plan(at(date, hour, 5).getTime(), check);
  }

  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const loadBefore = loadAverage();
  let last = 0;
  while (events.length > 0) {
    const event = events.shift()!;
    last = event.at;
    await event.run(new Date(event.at));
  }
  await check(new Date(last));
  const wall = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStarted);
  await baseline(300);

  const row = (action: Action) => {
    const list = times.get(action) ?? [];
    return `${action.padEnd(9)} ${String(list.length).padStart(5)}  p50 ${ms(percentile(list, 50)).padStart(7)}  p95 ${ms(percentile(list, 95)).padStart(7)}  p99 ${ms(percentile(list, 99)).padStart(7)}  max ${ms(Math.max(...list)).padStart(7)} ms`;
  };
  const checkOutP95 = percentile(times.get('check-out') ?? [], 95);
  const baseP95 = percentile(base, 95);
  console.log(
    `  the day ran in ${wall.toFixed(1)} s wall (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU of this process), load ${loadBefore} before, ${loadAverage()} after`,
  );
  console.log(
    `  totals: ${totals.checkOuts} check-outs (${totals.walkIns} walk-ins tried), ${totals.returns} returns, ${(times.get('reserve') ?? []).length} reservations (${totals.offersTaken} from ${totals.offersSeen} offers), ${(times.get('join') ?? []).length} joins, ${(times.get('leave') ?? []).length} left, ${(times.get('renew') ?? []).length} renewals, ${(times.get('sweep') ?? []).length} sweeps; ${checks} invariant checks`,
  );
  console.log(`  successful actions, ms:`);
  for (const action of [
    'check-out',
    'return',
    'reserve',
    'join',
    'leave',
    'renew',
    'sweep',
  ] as const) {
    console.log(`    ${row(action)}`);
  }
  console.log(
    `    (walk-ins ${String(walkInTimes.length).padStart(3)}  p50 ${ms(percentile(walkInTimes, 50)).padStart(7)}  p95 ${ms(percentile(walkInTimes, 95)).padStart(7)} ms, of the check-outs above)`,
  );
  console.log(
    `    baseline  ${String(base.length).padStart(5)}  p50 ${ms(percentile(base, 50)).padStart(7)}  p95 ${ms(baseP95).padStart(7)}  (a copy by barcode, indexed: before, during and after the day)`,
  );
  const refused = [...refusals].sort((a, b) => b[1] - a[1]);
  console.log(
    `  refusals (expected ones: a free copy, a queue, a limit): ${refused.length === 0 ? 'none' : ''}`,
  );
  for (const [reason, count] of refused)
    console.log(`    ${formatNumber(count).padStart(5)} × ${reason}`);
  console.log(
    `  ${name}: check-out p95 ${ms(checkOutP95)} ms = ${(checkOutP95 / baseP95).toFixed(1)} × the baseline's p95 (p50: ${(percentile(times.get('check-out') ?? [], 50) / percentile(base, 50)).toFixed(0)} ×); ` +
      `target < ${TARGET_P95_MS} ms: ${checkOutP95 < TARGET_P95_MS ? 'met' : 'MISSED'}`,
  );
  if (broken.length > 0) {
    console.log(`  INVARIANTS BROKEN:`);
    for (const failure of broken.slice(0, 20)) console.log(`    ${failure}`);
    return false;
  }
  console.log(`  every invariant held (${INVARIANTS.length} checked ${checks} times)`);
  return true;
}

console.log(machineLine());
const runStarted = performance.now();
let ok = true;
for (const { name, handle, dispose } of await benchDatabases({ engines })) {
  console.log(`${name}:`);
  try {
    ok = (await simulate(name, handle)) && ok;
  } finally {
    await dispose();
  }
}
console.log(
  `total ${((performance.now() - runStarted) / 1000).toFixed(1)} s; load average ${loadAverage()}`,
);
process.exit(ok ? 0 : 1);
