import type { FastifyInstance } from 'fastify';
import { Refusal } from '../../refusal.ts';
import { presentHealth } from '../../presenters/health.ts';
import type { RouteContext } from '../context.ts';

/** `GET /api/health`: ok only after the database has answered. */
export async function healthRoutes(
  app: FastifyInstance,
  { database }: RouteContext,
): Promise<void> {
  app.get('/health', async (request, reply) => {
    try {
      await database.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'health check: database did not answer');
      throw new Refusal(503, 'The database is not answering. Please try again shortly.');
    }
    reply.header('cache-control', 'no-store');
    return presentHealth(database.kind);
  });
}
