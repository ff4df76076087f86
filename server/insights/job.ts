import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { JobKind, JobQueue, JobSpec } from '../jobs/queue.ts';
import { addDays, localDate } from '../reservations/calendar.ts';

/**
 * Reduces the raw insight events of days older than `retentionDays` (the library's days) to
 * daily counts, each day's distinct people kept as a number, and deletes them, in one
 * transaction: a day is either still raw or reduced, never both nor lost. Answers how many raw
 * rows it reduced.
 */
export async function reduceInsightEvents(
  db: Kysely<Database>,
  now: Date,
  options: { retentionDays: number; timeZone: string },
): Promise<number> {
  // Days before this one are past the retention.
  const cutoff = addDays(localDate(now, options.timeZone), 1 - options.retentionDays);
  return db.transaction().execute(async (trx) => {
    await sql`
      INSERT INTO insight_daily (day, kind, scope, subject, count, people)
      SELECT day, kind, scope, subject, sum(count)::int, count(*)::int
      FROM insight_events
      WHERE day < ${cutoff}
      GROUP BY day, kind, scope, subject
      ON CONFLICT (day, kind, scope, subject) DO UPDATE
        SET count = insight_daily.count + excluded.count,
            people = insight_daily.people + excluded.people
    `.execute(trx);
    const deleted = await trx
      .deleteFrom('insight_events')
      .where('day', '<', cutoff)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}

/** The kind of job that reduces old insight events; it carries nothing. */
export const INSIGHTS_JOB: JobSpec<Record<string, never>> = {
  name: 'insights-reduce',
  expireInSeconds: 600,
  retryLimit: 1,
};

/** How often the reduction is queued: a day passes the retention once a day, an hour is ample. */
export const INSIGHTS_REDUCE_SECONDS = 3600;

/** Queues a reduction unless one was queued this hour, whatever the number of processes. */
export async function queueInsightsReduction(jobs: JobQueue): Promise<void> {
  await jobs.send(
    INSIGHTS_JOB,
    {},
    { singletonKey: 'hour', singletonSeconds: INSIGHTS_REDUCE_SECONDS },
  );
}

/** INSIGHTS_JOB with what runs it. */
export function insightsJob(context: {
  db: Kysely<Database>;
  now: () => Date;
  retentionDays: number;
  timeZone: string;
}): JobKind<Record<string, never>> {
  return {
    ...INSIGHTS_JOB,
    async run() {
      await reduceInsightEvents(context.db, context.now(), context);
    },
  };
}
