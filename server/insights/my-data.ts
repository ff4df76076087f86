import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { addDays, localDate } from '../reservations/calendar.ts';
import { personKey } from './recorder.ts';

/** What finding one person's own insight events needs. */
export interface OwnInsightsOptions {
  secret: string;
  timeZone: string;
  retentionDays: number;
}

/**
 * One person's own raw insight events, for "Download my data": their keys are recomputed for
 * each day of the retention window (the HMAC of their id with the secret and the day), so the
 * export shows what is kept under them. Searches made signed out are keyed by the address and
 * cannot be told apart from anyone else's there; reduced days keep no key at all.
 */
export async function ownInsightEvents(
  db: Kysely<Database>,
  userId: string,
  now: Date,
  options: OwnInsightsOptions,
) {
  const today = localDate(now, options.timeZone);
  const keys = Array.from({ length: options.retentionDays + 1 }, (_, back) => {
    const day = addDays(today, -back);
    return personKey(options.secret, day, `user:${userId}`);
  });
  const rows = await db
    .selectFrom('insight_events')
    .select(['day', 'kind', 'scope', 'subject', 'count'])
    .where('person', 'in', keys)
    .orderBy('day')
    .orderBy('kind')
    .orderBy('subject')
    .execute();
  return {
    note: `Searches, item views, course materials opened and questions the chatbot could not answer, as counted for the library's insights. Kept for ${options.retentionDays} days under a daily code made from your account that cannot be traced back to you without the server's secret, then reduced to daily totals that keep nothing about you.`,
    events: rows.map((row) => ({
      day: row.day,
      what: row.kind,
      ...(row.scope ? { tab: row.scope } : {}),
      subject: row.subject,
      times: row.count,
    })),
  };
}
