import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../routes/context.ts';
import { pruneIdempotencyKeys } from '../http/idempotency.ts';
import { expireHolds } from './holds.ts';

/** How often lapsed holds are expired and old idempotency answers forgotten. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * Expires holds whose 24 hours are over and forgets old `Idempotency-Key` answers, once a minute
 * while the server runs. Reads never depend on it (each query checks the time itself); it keeps
 * statuses truthful for the desk and the tables small.
 */
export function startSweeper(
  app: FastifyInstance,
  context: Pick<RouteContext, 'database' | 'now'>,
) {
  let timer: NodeJS.Timeout | undefined;
  const sweep = async () => {
    try {
      const now = context.now();
      const expired = await expireHolds(context.database.db, now);
      await pruneIdempotencyKeys(context.database.db, now);
      if (expired > 0) app.log.info({ expired }, 'reservation holds expired');
    } catch (error) {
      app.log.warn({ err: error }, 'the reservation sweep failed; it runs again in a minute');
    }
  };
  app.addHook('onReady', async () => {
    timer = setInterval(() => void sweep(), SWEEP_INTERVAL_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
