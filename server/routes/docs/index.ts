import { readFileSync } from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import accepts from 'accepts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiDocumentSchema, type ApiDocument } from '#contract/http/docs.ts';
import type { Config } from '../../config.ts';
import { apiDocumentOptions } from '../../presenters/api-document.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';

const { version } = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
) as { version: string };

/** Our style sheet and script for the reference page (`reference/`). */
const referenceFile = (name: string) =>
  readFileSync(path.join(import.meta.dirname, 'reference', name), 'utf8');

/** Where people read the API: the interactive reference (Swagger UI, served from this server). */
export const API_REFERENCE_PATH = '/api/docs/reference/';

/**
 * Registers the OpenAPI document and the reference page; call it before any route is registered,
 * so that @fastify/swagger sees them all. The document is built once, on first use, from the
 * routes' declarations (`declareRoute`); the reference page's own routes are hidden from it.
 */
export async function installApiDocument(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(
    swagger,
    apiDocumentOptions(() => app.declaredRoutes, {
      serverUrl: config.publicUrl,
      version,
      // better-auth's cookie name (cookiePrefix 'digi'), with the secure prefix over https.
      sessionCookie: `${config.publicUrl.startsWith('https:') ? '__Secure-' : ''}digi.session_token`,
    }),
  );
  // Its scripts and styles are files of its own package and ours, served from here: the page runs
  // under the app's Content-Security-Policy (no inline script, nothing from another site).
  await app.register(swaggerUi, {
    routePrefix: API_REFERENCE_PATH.slice(0, -1),
    theme: {
      title: 'Digi Library API',
      css: [{ filename: 'reference.css', content: referenceFile('reference.css') }],
      js: [{ filename: 'reference.js', content: referenceFile('reference.js') }],
    },
    uiConfig: {
      // No top bar (its address box loads other documents); operation paths as text, not links
      // inside the buttons that open them (axe: nested-interactive).
      layout: 'BaseLayout',
      deepLinking: false,
      docExpansion: 'list',
      defaultModelsExpandDepth: 0,
    },
  });
}

/** A browser (which prefers HTML to JSON) asking for the document is sent to the reference. */
async function sendBrowsersToReference(request: FastifyRequest, reply: FastifyReply) {
  reply.header('vary', 'accept');
  if (accepts(request.raw).type(['json', 'html']) === 'html')
    return reply.redirect(API_REFERENCE_PATH);
}

/**
 * `GET /api/docs`: the OpenAPI 3.1 description of the API as JSON, as it has always been; a browser
 * is sent on to the reference page. `GET /api/docs/openapi.json`: the same JSON, whoever asks.
 */
export async function docsRoutes(app: DeclaringInstance): Promise<void> {
  const document = (request: FastifyRequest, reply: FastifyReply) => {
    reply.header('cache-control', 'public, max-age=300');
    return request.server.swagger() as ApiDocument;
  };
  app.get(
    '/docs',
    {
      ...declareRoute({
        tag: 'service',
        summary: 'This OpenAPI description',
        description: `JSON unless the caller prefers HTML (a browser), who is sent to the interactive reference at \`${API_REFERENCE_PATH}\`.`,
        access: 'guest',
        response: apiDocumentSchema,
        redirect: 'A caller that prefers HTML is sent to the interactive reference.',
      }),
      preHandler: sendBrowsersToReference,
    },
    async (request, reply) => document(request, reply),
  );
  app.get(
    '/docs/openapi.json',
    declareRoute({
      tag: 'service',
      summary: 'This OpenAPI description, as JSON to anyone',
      access: 'guest',
      response: apiDocumentSchema,
    }),
    async (request, reply) => document(request, reply),
  );
}
