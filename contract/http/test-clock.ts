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
