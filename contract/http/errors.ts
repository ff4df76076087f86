import { z } from 'zod';

/** One problem with one field of a request body or query. */
export const fieldErrorSchema = z.object({
  path: z.string(),
  message: z.string(),
});

/** The one shape every failed `/api` call answers with. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  message: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
  /** Why, for the few refusals a client acts on (`EMAIL_NOT_VERIFIED_CODE` in users.ts). */
  code: z.string().optional(),
});

export type FieldError = z.infer<typeof fieldErrorSchema>;
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** What better-auth's own endpoints under `/api/auth/*` answer when they fail (not ours). */
export const betterAuthErrorSchema = z.object({
  message: z.string(),
  code: z.string().optional(),
});
