import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { JobKind, JobQueue, JobSpec } from '../jobs/queue.ts';

/**
 * Recounts `items.circulation`, the library's own share of an item's popularity (which breaks
 * ties in search beside the source's ratings): its reservations, and its loans made without one
 * (walk-ins), ever. One statement; it writes only the items whose count changed, so a quiet hour
 * writes nothing. Answers how many items it changed.
 */
export async function recountCirculation(db: Kysely<Database>): Promise<number> {
  const result = await sql`
    UPDATE items i SET circulation = c.uses
    FROM (
      SELECT item_id, count(*)::int AS uses FROM (
        SELECT item_id FROM reservations
        UNION ALL
        SELECT item_id FROM loans WHERE reservation_id IS NULL
      ) AS used
      GROUP BY item_id
    ) AS c
    WHERE i.id = c.item_id AND i.circulation <> c.uses
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** The kind of job that recounts circulation; it carries nothing. */
export const POPULARITY_JOB: JobSpec<Record<string, never>> = {
  name: 'popularity',
  expireInSeconds: 600,
  retryLimit: 1,
};

/** How often circulation is recounted: search ties need a rough count, not a live one. */
export const POPULARITY_INTERVAL_SECONDS = 3600;

/**
 * Queues a recount unless one was queued within the hour: the sweeper of every process calls it
 * each minute, and the singleton key lets one in per window, whatever the number of processes.
 */
export async function queueHourlyPopularity(jobs: JobQueue): Promise<void> {
  await jobs.send(
    POPULARITY_JOB,
    {},
    { singletonKey: 'hour', singletonSeconds: POPULARITY_INTERVAL_SECONDS },
  );
}

/** POPULARITY_JOB with what runs it. */
export function popularityJob(db: Kysely<Database>): JobKind<Record<string, never>> {
  return {
    ...POPULARITY_JOB,
    async run() {
      await recountCirculation(db);
    },
  };
}
