import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './errors.ts';
import { loopbackAliases } from './origins.ts';

/** Methods that never change data; every other method is a state-changing call. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The one request body the API takes. */
const JSON_MEDIA_TYPE = 'application/json';

/** What a state-changing call with another kind of body is told (the same words as Fastify's 415). */
export const JSON_ONLY_MESSAGE = 'Send the request body as application/json.';

/** What a state-changing call from another site is told. */
export const FOREIGN_ORIGIN_MESSAGE = 'Requests from other sites are not allowed.';

/**
 * What a page opened at another spelling of this server's loopback address is told (outside
 * development, where it is served): the address to open instead, so the refusal is no mystery.
 */
export function wrongAddressMessage(publicUrl: string): string {
  return `This page was opened at another address of this server. Open ${new URL(publicUrl).origin} instead.`;
}

/** True when the request carries a body (announced by its length or by chunked encoding). */
function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length.trim() !== '0')
  );
}

/**
 * Refuses cross-site request forgery before any handler runs, for every state-changing call:
 *
 * - from a foreign `Origin` (403): browsers always send Origin on such calls; clients without one
 *   (curl, tests) are not browsers;
 * - to `/api` with a body that is not JSON (415), or a `Content-Type` other than JSON even on an
 *   empty body: an HTML form on another site can send text/plain, urlencoded or multipart bodies
 *   without the browser asking first, but only a script of our own origin can send
 *   `application/json`. The web app sends JSON or no body at all (`web/api/client.ts`), except
 *   to a route that declares an `upload` (a file, sent as its declared media type only).
 *
 * GET never changes data (`server/http/csrf.test.ts` calls every GET route to check it).
 */
export function installCsrfGuard(
  app: FastifyInstance,
  origins: ReadonlySet<string>,
  publicUrl: string,
): void {
  const aliases = new Set(loopbackAliases(publicUrl));
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined && !origins.has(origin)) {
      const message = aliases.has(origin) ? wrongAddressMessage(publicUrl) : FOREIGN_ORIGIN_MESSAGE;
      return reply.code(403).send(errorBody(message));
    }
    // The matched route, not the raw URL: the router also matches a percent-encoded path.
    if (!request.routeOptions.url?.startsWith('/api/')) return;
    const contentType = request.headers['content-type'];
    const mediaType = contentType?.split(';')[0]?.trim().toLowerCase();
    // A route taking a file (an import) declares its media type, which no form can send either.
    const upload = request.routeOptions.config.declaration?.upload?.contentType;
    // A call made by a mail program (a one-click unsubscribe) may send a form (declare-route.ts).
    const forms = request.routeOptions.config.declaration?.formBody;
    if (mediaType !== undefined && forms?.includes(mediaType)) return;
    if (upload !== undefined) {
      if (mediaType === upload || (contentType === undefined && !hasBody(request))) return;
      return reply.code(415).send(errorBody(`Send the file as ${upload}.`));
    }
    if (contentType !== undefined ? mediaType !== JSON_MEDIA_TYPE : hasBody(request)) {
      return reply.code(415).send(errorBody(JSON_ONLY_MESSAGE));
    }
  });
}
