import { z } from 'zod';

/**
 * Whether search by meaning (pgvector) works on this server's database; when it does not,
 * `reason` says why and what an administrator does about it.
 */
export const searchByMeaningStatusSchema = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
});

/** `GET /api/health`: answered after the server has checked its database. */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** Optional: servers before issue 23 do not say (the contract only grows). */
  searchByMeaning: searchByMeaningStatusSchema.optional(),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;
