import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { isScreenPath } from '../../contract/routes.ts';
import { errorBody } from './errors.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built web app and answers everything no route matched. Hashed files under
 * `/assets/` are cached for a year; `index.html` is revalidated on every visit so a deploy shows
 * at once. A browser that accepts brotli or gzip gets the `.br` or `.gz` copy the build wrote
 * beside a file (vite.config.ts), when there is one. A screen path (a deep link or a reload) gets
 * the app; an unknown path gets the app with status 404 so it can show its not-found page;
 * `/api/*` and non-GET calls get JSON.
 */
export async function serveWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const built = existsSync(path.join(webRoot, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // Looked up per request, so a rebuild is served without a restart.
      wildcard: true,
      cacheControl: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        const relative = path.relative(webRoot, filePath);
        res.setHeader(
          'cache-control',
          relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : 'no-cache',
        );
        // The answer depends on Accept-Encoding: caches must keep one per encoding.
        res.setHeader('vary', 'accept-encoding');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) {
      return reply
        .code(404)
        .send(errorBody(`There is no API endpoint ${request.method} ${pathname}.`));
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send(errorBody(`Nothing answers ${request.method} ${pathname}.`));
    }
    const known = isScreenPath(pathname);
    // A missing file (an old hashed asset, a typo) is a plain 404, never the app's HTML.
    if (!known && (pathname.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(pathname))) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    }
    if (!built) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send('The web app has not been built yet: run "npm run build", then reload.');
    }
    reply.header('cache-control', 'no-cache');
    return reply.code(known ? 200 : 404).sendFile('index.html');
  });
}
