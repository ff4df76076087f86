import type { FastifyInstance } from 'fastify';
import { pruneAbandonedUploads } from './catalogue/import/uploads.ts';
import { queueHourlyPopularity } from './catalogue/popularity.ts';
import type { DatabaseHandle } from './db/client.ts';
import { MAINTENANCE_INTERVAL_MS, maintainTables } from './db/maintenance.ts';
import { queueItemEmbedding } from './embeddings/embed-items.ts';
import { pruneIdempotencyKeys } from './http/idempotency.ts';
import { pruneRateLimits } from './http/rate-limit.ts';
import { queueInsightsReduction } from './insights/job.ts';
import type { JobQueue } from './jobs/queue.ts';
import { queueMinuteNotices } from './notices/job.ts';
import { expireHolds } from './reservations/holds.ts';
import { settleQueues } from './reservations/queue.ts';

/**
 * How often lapsed holds and offers are expired, freed copies offered, and old idempotency answers
 * and rate counters forgotten.
 */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * One sweep at `now`: expires lapsed holds, passes lapsed offers and freed copies on to the next
 * in each waiting list, forgets old `Idempotency-Key` answers, deletes rate-limit counters whose
 * window has passed and uploads cut off midway. Returns the number of holds expired.
 */
export async function sweep(database: DatabaseHandle, now: Date): Promise<number> {
  const expired = await expireHolds(database.db, now);
  await settleQueues(database.db, now);
  await pruneIdempotencyKeys(database.db, now);
  await pruneRateLimits(database.db, now);
  await pruneAbandonedUploads(database.db, now);
  return expired;
}

/**
 * Sweeps once a minute while the server runs. Reads never depend on it (each query checks the
 * time itself); it keeps statuses truthful for the desk, the tables small, and the e-mail and IP
 * addresses in rate-limit keys no longer than their window. It also queues the minute's notices
 * job (decision 031): once per minute whatever the number of processes, by a singleton key; the
 * hourly recount of circulation, for search's ties, the same way; and every few minutes the
 * embedding of items for search by meaning. On PGlite, every MAINTENANCE_INTERVAL_MS, it also
 * analyzes and vacuums the tables that need it, as PostgreSQL's autovacuum would
 * (`maintainTables`).
 */
export function startSweeper(
  app: FastifyInstance,
  context: {
    database: DatabaseHandle;
    now: () => Date;
    jobs?: JobQueue;
    /** Tests check the maintenance's wiring sooner than every MAINTENANCE_INTERVAL_MS. */
    maintenanceIntervalMs?: number;
  },
) {
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    try {
      const expired = await sweep(context.database, context.now());
      if (expired > 0) app.log.info({ expired }, 'reservation holds expired');
    } catch (error) {
      app.log.warn({ err: error }, 'the sweep failed; it runs again in a minute');
    }
    // After the sweep, so the notices see the offers it has just passed on.
    if (context.jobs) {
      await queueMinuteNotices(context.jobs).catch((error: unknown) =>
        app.log.warn({ err: error }, 'the notices job was not queued; it is again in a minute'),
      );
      await queueHourlyPopularity(context.jobs).catch((error: unknown) =>
        app.log.warn({ err: error }, 'the popularity recount was not queued; it is again soon'),
      );
      // Library insights: raw events past INSIGHTS_RETENTION_DAYS reduced to daily counts.
      await queueInsightsReduction(context.jobs).catch((error: unknown) =>
        app.log.warn({ err: error }, 'the insights reduction was not queued; it is again soon'),
      );
      // A safety net: edits and imports (`npm run import` too) queue the embedding themselves,
      // but a command-line import may fail to, and a crash cuts a run short.
      await queueItemEmbedding(
        { jobs: context.jobs, database: context.database },
        { periodic: true },
      ).catch((error: unknown) =>
        app.log.warn({ err: error }, 'the embedding job was not queued; it is again soon'),
      );
    }
  };
  // On PGlite, what autovacuum does elsewhere: planner statistics and dead rows (decision 046).
  let maintenanceTimer: NodeJS.Timeout | undefined;
  let maintaining = false;
  const maintain = async () => {
    if (maintaining) return;
    maintaining = true;
    try {
      const done = await maintainTables(context.database);
      if (done.length > 0) app.log.debug({ tables: done }, 'tables analyzed or vacuumed');
    } catch (error) {
      app.log.warn({ err: error }, 'tables were not analyzed; they are again in a moment');
    } finally {
      maintaining = false;
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void run(), SWEEP_INTERVAL_MS);
    timer.unref();
    if (context.database.kind === 'pglite') {
      const every = context.maintenanceIntervalMs ?? MAINTENANCE_INTERVAL_MS;
      maintenanceTimer = setInterval(() => void maintain(), every);
      maintenanceTimer.unref();
    }
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearInterval(maintenanceTimer);
  });
}
