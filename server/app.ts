import path from 'node:path';
import { fileURLToPath } from 'node:url';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { installErrorHandler } from './http/errors.ts';
import { serveWebApp } from './http/web-app.ts';
import { mountRealtime } from './realtime/index.ts';
import type { RouteContext } from './routes/context.ts';
import { healthRoutes } from './routes/health/index.ts';
import { libraryRoutes } from './routes/library/index.ts';

/** Where `vite build` puts the web app. */
export const DEFAULT_WEB_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'dist',
  'web',
);

/** What `buildApp` needs; tests pass their own database and, when they serve files, web root. */
export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  webRoot?: string;
}

/**
 * Builds the whole server (API, Socket.IO, web app) without listening, so tests can `inject`
 * requests or listen on a free port themselves.
 */
export async function buildApp({
  config,
  database,
  webRoot = DEFAULT_WEB_ROOT,
}: AppOptions): Promise<FastifyInstance> {
  const https = config.publicUrl.startsWith('https:');
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // Readable lines for a person at a terminal while developing; JSON lines everywhere else.
      ...(config.env === 'development' && process.stdout.isTTY
        ? {
            transport: {
              target: 'pino-pretty',
              options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
            },
          }
        : {}),
      // Never log credentials, even if a later route logs a body or headers.
      redact: {
        paths: ['req.headers.cookie', 'req.headers.authorization', '*.password', 'body.password'],
        censor: '[redacted]',
      },
    },
    // Closes idle keep-alive connections on shutdown so a SIGTERM does not wait on browsers.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });

  installErrorHandler(app);

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });

  mountRealtime(app, config);

  const context: RouteContext = { config, database };
  await app.register(
    async (api) => {
      await api.register(healthRoutes, context);
      await api.register(libraryRoutes, context);
    },
    { prefix: '/api' },
  );

  await serveWebApp(app, webRoot);
  return app;
}
