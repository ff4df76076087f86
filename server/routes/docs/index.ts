import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { presentApiDocument } from '../../presenters/api-document.ts';
import type { RouteContext } from '../context.ts';
import { API_OPERATIONS } from './operations.ts';

const { version } = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'),
) as { version: string };

/** `GET /api/docs`: the OpenAPI 3.1 description of the API, built once from the contract. */
export async function docsRoutes(app: FastifyInstance, { config }: RouteContext): Promise<void> {
  const document = presentApiDocument(API_OPERATIONS, {
    serverUrl: config.publicUrl,
    version,
    // better-auth's cookie name (cookiePrefix 'digi'), with the secure prefix over https.
    sessionCookie: `${config.publicUrl.startsWith('https:') ? '__Secure-' : ''}digi.session_token`,
  });
  app.get('/docs', async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return document;
  });
}
