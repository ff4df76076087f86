import { libraryInfoSchema } from '#contract/http/library.ts';
import { presentLibraryInfo } from '../../presenters/library.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';

/** `GET /api/library`: the library's name, address, contacts, hours and social links. */
export async function libraryRoutes(
  app: DeclaringInstance,
  { config }: RouteContext,
): Promise<void> {
  const info = presentLibraryInfo(config.library);
  app.get(
    '/library',
    declareRoute({
      tag: 'service',
      summary: "The library's public identity",
      access: 'guest',
      response: libraryInfoSchema,
    }),
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return info;
    },
  );
}
