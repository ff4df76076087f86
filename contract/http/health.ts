import { z } from 'zod';

/**
 * Whether search by meaning (pgvector) works on this server's database; when it does not,
 * `reason` says why and what an administrator does about it.
 */
export const searchByMeaningStatusSchema = z.object({
  available: z.boolean(),
  reason: z.string().optional(),
  /**
   * While it is on: items whose meaning is stored (searchable by meaning), of `total` items. The
   * server embeds them in the background; optional, as older servers do not say.
   */
  embedded: z.number().int().nonnegative().optional(),
  total: z.number().int().nonnegative().optional(),
});

/** `GET /api/health`: answered after the server has checked its database. */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  /** Optional: servers before issue 23 do not say (the contract only grows). */
  searchByMeaning: searchByMeaningStatusSchema.optional(),
});

export type HealthResponse = z.infer<typeof healthResponseSchema>;
