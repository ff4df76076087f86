import { z } from 'zod';

/**
 * `GET /api/docs/openapi.json` (and `GET /api/docs` for a caller that does not prefer HTML): the
 * OpenAPI 3.1 description of the HTTP API, built from these contract schemas. Only its outline is
 * checked here; the rest is plain JSON Schema and OpenAPI objects.
 */
export const apiDocumentSchema = z
  .object({
    openapi: z.string().startsWith('3.1'),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()).optional(),
  })
  .loose();
export type ApiDocument = z.infer<typeof apiDocumentSchema>;
