import { sql, type Kysely, type RawBuilder } from 'kysely';
import { DUE_SOON_DAYS } from '#contract/http/loans.ts';
import { reserveBookPath, ROUTES } from '#contract/routes.ts';
import type { Database } from '../db/schema.ts';
import { createNotices, type NewNotice } from './store.ts';

/** How long before its pickup slot starts a reservation's reminder is made. */
export const PICKUP_REMINDER_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Most notices one insert carries (each row is seven parameters; PostgreSQL takes 65,535). */
const INSERT_BATCH = 500;

/** What the wording of notices needs to know about the library. */
export interface SweepOptions {
  /** Times are written in the library's time zone. */
  timeZone: string;
  libraryName: string;
}

/**
 * An instant as a key part: ISO 8601 in UTC to the microsecond, made by the database. The key is
 * read back from the same expression that the "already made?" test uses, so the two never
 * disagree over rounding the way a JavaScript Date (milliseconds) and a timestamptz could.
 */
function isoKey(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** True when `userColumn`'s person already has a notice with the key `key`. */
function alreadyMade(userColumn: string, key: RawBuilder<string>): RawBuilder<boolean> {
  return sql<boolean>`EXISTS (SELECT 1 FROM notices n WHERE n.user_id = ${sql.ref(userColumn)} AND n.dedupe_key = ${key})`;
}

/** The home whose "My loans" a person of `role` sees. */
function loansPath(role: string): string {
  return role === 'student' ? ROUTES.studentHome : ROUTES.facultyHome;
}

/**
 * Makes the time-based notices due at `now`, each once whatever the number of sweeps or
 * processes (its key is unique per person; decision 031): a copy offered from a waiting list,
 * a pickup slot starting within the hour, a loan due within `DUE_SOON_DAYS` days, a loan
 * overdue. Derived from the tables rather than scheduled one by one, so nothing has to be
 * remembered between runs: a sweep after any gap (a server killed, a queue down) makes what is
 * due then, and only what is still true then (a lapsed offer, a past slot or a returned loan
 * gets nothing). Answers the people who got a new notice.
 */
export async function findDueNotices(
  db: Kysely<Database>,
  now: Date,
  { timeZone, libraryName }: SweepOptions,
): Promise<string[]> {
  const when = new Intl.DateTimeFormat('en-US', {
    timeZone,
    dateStyle: 'full',
    timeStyle: 'short',
  });
  const time = new Intl.DateTimeFormat('en-US', { timeZone, timeStyle: 'short' });
  const day = new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'full' });
  const notices: NewNotice[] = [];

  const offerKey = sql<string>`'hold-offered:' || h.id || ':' || ${isoKey('h.offered_at')}`;
  const offers = await db
    .selectFrom('queued_holds as h')
    .innerJoin('items as i', 'i.id', 'h.item_id')
    .select(['h.user_id', 'h.item_id', 'h.offer_expires_at', 'i.title', offerKey.as('key')])
    .where('h.status', '=', 'offered')
    .where('h.offered_at', 'is not', null)
    .where('h.offer_expires_at', '>', now)
    .where(({ not }) => not(alreadyMade('h.user_id', offerKey)))
    .execute();
  for (const row of offers) {
    notices.push({
      userId: row.user_id,
      kind: 'hold_offered',
      key: row.key,
      title: `A copy of “${row.title}” is ready for you`,
      body: `You were first in line for “${row.title}”. Choose a pickup slot before ${when.format(row.offer_expires_at!)}; after that the copy goes to the next person waiting.`,
      link: reserveBookPath(row.item_id),
      calendarAt: row.offer_expires_at!,
      now,
    });
  }

  const pickupKey = sql<string>`'pickup-reminder:' || r.id`;
  const pickups = await db
    .selectFrom('reservations as r')
    .innerJoin('items as i', 'i.id', 'r.item_id')
    .select([
      'r.user_id',
      'r.id',
      'r.time_slot',
      'r.slot_starts_at',
      'i.title',
      pickupKey.as('key'),
    ])
    .where('r.status', '=', 'active')
    .where('r.slot_starts_at', '>', now)
    .where('r.slot_starts_at', '<=', new Date(now.getTime() + PICKUP_REMINDER_MS))
    .where(({ not }) => not(alreadyMade('r.user_id', pickupKey)))
    .execute();
  for (const row of pickups) {
    notices.push({
      userId: row.user_id,
      kind: 'pickup_reminder',
      key: row.key,
      title: `Pickup at ${time.format(row.slot_starts_at)}: “${row.title}”`,
      body: `Your reservation ${row.id} of “${row.title}” is ready for pickup at ${libraryName}, ${row.time_slot} today. The copy is held for 24 hours from the start of the slot.`,
      link: ROUTES.reservation,
      now,
    });
  }

  const dueKey = (prefix: string) => sql<string>`${prefix} || l.id || ':' || ${isoKey('l.due_at')}`;
  const openLoans = (prefix: string) =>
    db
      .selectFrom('loans as l')
      .innerJoin('items as i', 'i.id', 'l.item_id')
      .innerJoin('users as u', 'u.id', 'l.user_id')
      .select(['u.id as user_id', 'u.role', 'l.due_at', 'i.title', dueKey(prefix).as('key')])
      .where('l.returned_at', 'is', null)
      .where(({ not }) => not(alreadyMade('l.user_id', dueKey(prefix))));
  const dueSoon = await openLoans('due-soon:')
    .where('l.due_at', '>', now)
    .where('l.due_at', '<=', new Date(now.getTime() + DUE_SOON_DAYS * DAY_MS))
    .execute();
  for (const row of dueSoon) {
    notices.push({
      userId: row.user_id,
      kind: 'due_soon',
      key: row.key,
      title: `“${row.title}” is due ${day.format(row.due_at)}`,
      body: `Your loan of “${row.title}” is due back by ${when.format(row.due_at)}. Renew it from your home page if you need it longer, or return it at the library desk.`,
      link: loansPath(row.role),
      calendarAt: row.due_at,
      now,
    });
  }
  const overdue = await openLoans('overdue:').where('l.due_at', '<=', now).execute();
  for (const row of overdue) {
    notices.push({
      userId: row.user_id,
      kind: 'overdue',
      key: row.key,
      title: `“${row.title}” is overdue`,
      body: `Your loan of “${row.title}” was due back by ${when.format(row.due_at)}. Please return it to the library desk as soon as you can; someone may be waiting for it.`,
      link: loansPath(row.role),
      now,
    });
  }

  const people = new Set<string>();
  for (let start = 0; start < notices.length; start += INSERT_BATCH) {
    for (const userId of await createNotices(db, notices.slice(start, start + INSERT_BATCH)))
      people.add(userId);
  }
  return [...people];
}
