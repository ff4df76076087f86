import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../context.ts';
import { forwardCookies, toFetchHeaders } from '../../auth/session.ts';

/**
 * `/api/auth/*`: better-auth's own endpoints (OAuth redirects and callbacks, password reset,
 * session listing), handed the request as a Fetch `Request` and answered with its `Response`.
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, config }: RouteContext,
): Promise<void> {
  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    async handler(request, reply) {
      const url = new URL(request.url, config.publicUrl);
      const hasBody = request.method !== 'GET' && request.body !== undefined;
      const response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers: toFetchHeaders(request),
          ...(hasBody
            ? {
                body:
                  typeof request.body === 'string' ? request.body : JSON.stringify(request.body),
              }
            : {}),
        }),
      );
      reply.code(response.status);
      forwardCookies(response.headers, reply);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie' && name !== 'content-length') reply.header(name, value);
      });
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
