import {
  advanceClockRequestSchema,
  advanceClockResponseSchema,
} from '#contract/http/test-clock.ts';
import { parseInput } from '../../http/errors.ts';
import { NOTICES_JOB } from '../../notices/job.ts';
import { sweep } from '../../sweeper.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';

/** A clock that reads the real time plus an offset that only grows. */
export interface ShiftableClock {
  now: () => Date;
  advance(hours: number): Date;
}

/** The real clock, movable forward: the server's `now` when `TEST_CLOCK=on`. */
export function shiftableClock(): ShiftableClock {
  let offsetMs = 0;
  const now = () => new Date(Date.now() + offsetMs);
  return {
    now,
    advance(hours) {
      offsetMs += hours * 3_600_000;
      return now();
    },
  };
}

/**
 * `POST /api/test/clock`, registered only with `TEST_CLOCK=on` (end-to-end tests): a librarian
 * moves the clock forward, and what the minute's sweep and notices job would do at the new time
 * runs at once, so a test sees an offer lapse or a loan fall due without waiting.
 */
export async function testClockRoutes(
  app: DeclaringInstance,
  context: RouteContext & { clock: ShiftableClock },
): Promise<void> {
  app.post(
    '/test/clock',
    declareRoute({
      tag: 'test',
      summary: "Move the server's clock forward (TEST_CLOCK=on only)",
      access: ['librarian'],
      body: advanceClockRequestSchema,
      response: advanceClockResponseSchema,
    }),
    async (request) => {
      const { hours } = parseInput(advanceClockRequestSchema, request.body);
      const now = context.clock.advance(hours);
      request.log.warn({ now }, 'the test clock was moved forward');
      await sweep(context.database, now);
      await context.jobs.send(NOTICES_JOB, {});
      return { now: now.toISOString() };
    },
  );
}
