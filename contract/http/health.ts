import { z } from 'zod';

/** `GET /api/health`: answered after the server has checked its database. */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;
