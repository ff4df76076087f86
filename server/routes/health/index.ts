import { healthResponseSchema } from '#contract/http/health.ts';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../db/unavailable.ts';
import { cachedEmbeddingProgress } from '../../embeddings/embed-items.ts';
import { Refusal } from '../../refusal.ts';
import { presentHealth } from '../../presenters/health.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';

/**
 * `GET /api/health`: ok only after the database has answered; also says whether search by
 * meaning is on, from what start-up found, and when it is, how far the items are embedded.
 */
export async function healthRoutes(
  app: DeclaringInstance,
  { database, embedder }: RouteContext,
): Promise<void> {
  // Two counts, at most every few seconds whoever asks (monitors, every librarian's desk).
  const embeddingProgress = cachedEmbeddingProgress(database.db, embedder.model);
  app.get(
    '/health',
    declareRoute({
      tag: 'service',
      summary: 'Health check',
      description:
        'Answers once the database has answered. `searchByMeaning` says whether search by meaning ' +
        '(pgvector) works on this database and, when it does not, why and what an administrator does; ' +
        'when it does, how many items are ready for it (`embedded`) of how many (`total`), counted ' +
        'at most every few seconds.',
      access: 'guest',
      response: healthResponseSchema,
      errors: { 503: 'The database is not answering: try again after `Retry-After` seconds.' },
    }),
    async (request, reply) => {
      try {
        await database.ping();
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database did not answer');
        // A load balancer or a monitor waits this long before asking again (issue 19).
        throw Object.assign(
          new Refusal(503, 'The database is not answering. Please try again shortly.'),
          { retryAfterSeconds: DATABASE_RETRY_AFTER_SECONDS },
        );
      }
      reply.header('cache-control', 'no-store');
      if (!database.searchByMeaning.available) {
        return presentHealth(database.kind, database.searchByMeaning);
      }
      return presentHealth(database.kind, database.searchByMeaning, await embeddingProgress());
    },
  );
}
