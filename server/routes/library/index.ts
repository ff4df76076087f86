import type { FastifyInstance } from 'fastify';
import { presentLibraryInfo } from '../../presenters/library.ts';
import type { RouteContext } from '../context.ts';

/** `GET /api/library`: the library's name, address, contacts, hours and social links. */
export async function libraryRoutes(app: FastifyInstance, { config }: RouteContext): Promise<void> {
  const info = presentLibraryInfo(config.library);
  app.get('/library', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return info;
  });
}
