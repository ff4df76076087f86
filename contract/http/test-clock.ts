import { z } from 'zod';

/** `POST /api/test/clock` (only with `TEST_CLOCK=on`): move the server's clock forward. */
export const advanceClockRequestSchema = z.object({
  hours: z
    .number({ message: 'hours must be a number' })
    .positive('hours must be more than 0')
    .max(24 * 400, 'hours is at most 9600 (400 days)'),
});

export const advanceClockResponseSchema = z.object({
  /** The server's time now, ISO 8601. */
  now: z.string(),
});

/**
 * `POST /api/test/simulate-activity` (only with `TEST_CLOCK=on`): a month of library activity
 * written at once, backdated (server/insights/simulate.ts), for the insights screen.
 */
export const simulateActivityRequestSchema = z.object({
  /** Names this run's words, so that runs never count each other's. */
  prefix: z
    .string({ message: 'prefix must be text' })
    .regex(/^[a-z0-9]{1,20}$/u, 'prefix is 1 to 20 lower-case letters and digits'),
  days: z
    .number({ message: 'days must be a number' })
    .int('days must be a whole number')
    .min(1, 'days must be at least 1')
    .max(60, 'days is at most 60')
    .default(30),
});

export const simulateActivityResponseSchema = z.object({
  terms: z.object({
    wanted: z.array(z.string()).length(2),
    rare: z.string(),
    popular: z.string(),
    question: z.array(z.string()).length(3),
    rareQuestion: z.string(),
  }),
  requests: z.number().int(),
  reservations: z.number().int(),
  noShows: z.number().int(),
  loans: z.number().int(),
});
