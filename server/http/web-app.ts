import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { screenOf, type RouteName } from '#contract/routes.ts';
import { errorBody } from './errors.ts';

/** What the build writes beside index.html (vite.config.ts, `screenPreloads`). */
const SCREEN_PRELOADS_FILE = 'screen-preloads.json';

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
  const pages = screenPages(webRoot);
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
    const screen = screenOf(pathname);
    const known = screen !== undefined;
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
    const html = pages.html(screen);
    if (html === undefined) return reply.code(known ? 200 : 404).sendFile('index.html');
    return reply
      .code(known ? 200 : 404)
      .type('text/html; charset=utf-8')
      .send(html);
  });
}

/**
 * `index.html` for each screen, naming the files of that screen's code (`screen-preloads.json`)
 * as `modulepreload` and `preload` links: the browser fetches them with the app's own files
 * instead of one round trip after the app has started and asked for them. Read again when the
 * build changes, like the static files.
 */
function screenPages(webRoot: string) {
  let builtAt = -1;
  let index: string | undefined;
  let preloads: Partial<Record<RouteName, { js: string[]; css: string[] }>> = {};
  const pages = new Map<RouteName | undefined, string>();
  const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return {
    /** The page for `screen`, or undefined when the build has no preload list (an older build). */
    html(screen: RouteName | undefined): string | undefined {
      const indexFile = path.join(webRoot, 'index.html');
      const preloadFile = path.join(webRoot, SCREEN_PRELOADS_FILE);
      const mtime = existsSync(preloadFile) ? statSync(preloadFile).mtimeMs : 0;
      if (mtime !== builtAt) {
        builtAt = mtime;
        pages.clear();
        index = mtime ? readFileSync(indexFile, 'utf8') : undefined;
        preloads = mtime ? (JSON.parse(readFileSync(preloadFile, 'utf8')) as typeof preloads) : {};
      }
      if (index === undefined) return undefined;
      let page = pages.get(screen);
      if (page === undefined) {
        const files = (screen && preloads[screen]) || { js: [], css: [] };
        const links = [
          ...files.js.map(
            (file) => `<link rel="modulepreload" crossorigin href="${attribute(file)}">`,
          ),
          ...files.css.map(
            (file) => `<link rel="preload" as="style" crossorigin href="${attribute(file)}">`,
          ),
        ].join('');
        page = index.replace('</head>', `${links}</head>`);
        pages.set(screen, page);
      }
      return page;
    },
  };
}
