import {
  advanceClockRequestSchema,
  advanceClockResponseSchema,
  simulateActivityRequestSchema,
  simulateActivityResponseSchema,
} from '#contract/http/test-clock.ts';
import { resolveAuthSecret } from '../../auth/secret.ts';
import { parseInput } from '../../http/errors.ts';
import { simulateLibraryMonth } from '../../insights/simulate.ts';
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

  app.post(
    '/test/simulate-activity',
    declareRoute({
      tag: 'test',
      summary: 'Write a month of library activity at once, backdated (TEST_CLOCK=on only)',
      description:
        'Searches and unanswered chatbot questions through the insights recorder, resource requests, reservations with pickups and no-shows, and loans, by simulated readers (server/insights/simulate.ts).',
      access: ['librarian'],
      body: simulateActivityRequestSchema,
      response: simulateActivityResponseSchema,
    }),
    async (request) => {
      const { prefix, days } = parseInput(simulateActivityRequestSchema, request.body);
      return simulateLibraryMonth(context.database.db, {
        now: context.now(),
        timeZone: context.config.library.timeZone,
        secret: resolveAuthSecret(context.config),
        prefix,
        days,
        loanDays: context.config.library.loanDays,
      });
    },
  );
}
