import { z } from 'zod';
import {
  holdRequestSchema,
  holdResponseSchema,
  myHoldsResponseSchema,
} from '#contract/http/holds.ts';
import { parseInput } from '../../http/errors.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import { wakeNotices } from '../../notices/job.ts';
import { presentHold } from '../../presenters/holds.ts';
import { joinQueue, leaveQueue, ownHolds } from '../../reservations/queue.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/** Waiting lists one person may join in ten minutes: plenty for people, a wall for scripts. */
const JOIN_RATE = { limit: 60, windowSeconds: 600 };

/** A hold's id, as `holdId` shows it. */
const holdParams = z.object({
  id: z
    .string()
    .regex(/^HOLD-\d+$/)
    .describe('The hold id, `HOLD-` and digits; any other text is a 404.'),
});

/**
 * The holds queue (decision 029): one's places in books' waiting lists, joining one when no copy
 * is free, and leaving it. Offers are made by `offerFreedCopies`; taking one is a reservation.
 */
export async function holdRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;
  const loanDays = context.config.library.loanDays;

  app.get(
    '/users/holds',
    declareRoute({
      tag: 'holds',
      summary: "The caller's places in waiting lists, and their offers",
      description:
        'Offers first (reserve a slot before `offerExpiresAt`), then places in queues with `position` and `estimatedDays`, then past holds newest first.',
      access: 'signed-in',
      response: myHoldsResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const rows = await ownHolds(db, user.id, context.now());
      return { payload: rows.map((row) => presentHold(row, loanDays)) };
    },
  );

  app.post(
    '/users/holds',
    declareRoute({
      tag: 'holds',
      summary: "Join a book's waiting list when no copy is free",
      description:
        'The holder is the caller. Joining again answers the open hold. When a copy comes back, the first in line is offered it for 48 hours and reserves it with `POST /api/users/reservation`.',
      access: 'signed-in',
      body: holdRequestSchema,
      response: holdResponseSchema,
      rateLimited: true,
      verifiedEmail: true,
      errors: {
        404: 'No such book with physical copies.',
        409: 'A copy is free now (reserve it instead), the caller holds a copy already, or waits for the most books.',
      },
    }),
    async (request) => {
      const user = signedInCaller(request);
      await enforceRateLimits(db, [{ key: `hold:user:${user.id}`, ...JOIN_RATE }]);
      const body = parseInput(holdRequestSchema, request.body);
      const now = context.now();
      const row = await db
        .transaction()
        .execute((trx) => joinQueue(trx, { userId: user.id, itemId: body.bookId, now }));
      return { success: true as const, hold: presentHold(row, loanDays) };
    },
  );

  app.delete(
    '/users/holds/:id',
    declareRoute({
      tag: 'holds',
      summary: "Leave a waiting list, or decline one's offer",
      description:
        "An offered copy passes to the next in line at once. Anyone else's hold is a 404.",
      access: 'signed-in',
      params: holdParams,
      response: holdResponseSchema,
      errors: { 409: 'The hold is no longer open.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const row = await leaveQueue(db, user.id, request.params.id, context.now());
      wakeNotices(context.jobs, request.log);
      return { success: true as const, hold: presentHold(row, loanDays) };
    },
  );
}
