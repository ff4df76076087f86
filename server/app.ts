import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { createAuth } from './auth/auth.ts';
import { resolveAuthSecret } from './auth/secret.ts';
import { requireIdentity, requireUser } from './auth/session.ts';
import type { SocketBudgets } from './chat/event-budget.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { SEARCH_BY_MEANING_TURNED_OFF } from './db/vector.ts';
import { answerFrameworkError, installErrorHandler } from './http/errors.ts';
import { RequestLog } from './http/request-log.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { installCsrfGuard } from './http/csrf.ts';
import { createMailer } from './mail/mailer.ts';
import { allowedOrigins } from './http/origins.ts';
import { serveWebApp } from './http/web-app.ts';
import { mountRealtime, userRoom } from './realtime/index.ts';
import { watchGrants } from './users/grants.ts';
import { catalogueImportJob } from './catalogue/import/uploads.ts';
import { startJobQueue, type JobQueue } from './jobs/queue.ts';
import { embedItemsJob, queueItemEmbedding, wakeItemEmbedding } from './embeddings/embed-items.ts';
import { sharedEmbedder, type Embedder } from './embeddings/embedder.ts';
import type { RouteContext } from './routes/context.ts';
import { authRoutes } from './routes/auth/index.ts';
import { catalogueRoutes } from './routes/catalogue/index.ts';
import { copyRoutes } from './routes/copies/index.ts';
import { exportRoutes } from './routes/export/index.ts';
import { holdRoutes } from './routes/holds/index.ts';
import { noticeRoutes } from './routes/notices/index.ts';
import { moderationRoutes } from './routes/moderation/index.ts';
import { readingRoutes } from './routes/reading/index.ts';
import { shelfRoutes } from './routes/shelf/index.ts';
import { noticesJob } from './notices/job.ts';
import { popularityJob } from './catalogue/popularity.ts';
import { insightsJob } from './insights/job.ts';
import { createInsightRecorder, type InsightRecorder } from './insights/recorder.ts';
import { insightRoutes } from './routes/insights/index.ts';
import { announceUnread } from './realtime/notices.ts';
import { loanRoutes } from './routes/loans/index.ts';
import { shiftableClock, testClockRoutes } from './routes/test-clock/index.ts';
import { itemRoutes } from './routes/items/index.ts';
import { itemCardRoutes } from './routes/item-cards/index.ts';
import { importRoutes } from './routes/imports/index.ts';
import { adminUserRoutes } from './routes/admin-users/index.ts';
import { guardDeclaredRoutes, installRouteDeclarations } from './routes/declare-route.ts';
import { docsRoutes, installApiDocument } from './routes/docs/index.ts';
import { healthRoutes } from './routes/health/index.ts';
import { libraryRoutes } from './routes/library/index.ts';
import { loadModerationWords } from './chat/moderation-words.ts';
import { chatRoutes } from './routes/chat/index.ts';
import { chatbotRoutes } from './routes/chatbot/index.ts';
import { startSweeper } from './sweeper.ts';
import { requestRoutes } from './routes/requests/index.ts';
import { reservationRoutes } from './routes/reservations/index.ts';
import { userRoutes } from './routes/users/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * `METHOD /api/path` of every API route, in registration order; not the reference page's files
     * (hidden from the document: `/api/docs/reference/*`).
     */
    apiRoutes: readonly string[];
    /** The job queue: the process entry queues the start-up work on it (server/index.ts). */
    jobs: JobQueue;
    /** Library insights' recorder: tests and the bench write its batch with `flush()`. */
    insights: InsightRecorder;
  }
}

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
  /** The clock; tests set it to try rules that depend on the time of day. */
  now?: () => Date;
  /** The socket event budgets: the contract's, unless a test of other rules lifts them. */
  socketBudgets?: SocketBudgets;
  /**
   * What turns texts into vectors for search by meaning: the process's shared model unless given
   * (tests give a small deterministic one, server/test/embedder.ts).
   */
  embedder?: Embedder;
  /** False gathers no insight counts (the bench compares searches with and without). */
  insightsRecording?: boolean;
  /**
   * False starts no minute sweeper (hold expiry and the jobs it queues: notices, popularity,
   * embedding): a test that compares the database before and after its calls must see only what
   * the calls did, however long a loaded machine makes it take.
   */
  sweeper?: boolean;
}

/**
 * Builds the whole server (API, Socket.IO, web app) without listening, so tests can `inject`
 * requests or listen on a free port themselves.
 */
export async function buildApp({
  config,
  database,
  webRoot = DEFAULT_WEB_ROOT,
  now: givenNow,
  socketBudgets,
  embedder: givenEmbedder,
  insightsRecording = true,
  sweeper = true,
}: AppOptions): Promise<FastifyInstance> {
  // With TEST_CLOCK=on (end-to-end tests only) a librarian can move the clock forward.
  const clock = config.testClock && !givenNow ? shiftableClock() : undefined;
  const now = givenNow ?? clock?.now ?? (() => new Date());
  const https = config.publicUrl.startsWith('https:');
  const app = Fastify({
    // Start-up waits on the database (migrations ran before; this is the first queries). On a
    // loaded two-core machine Fastify's default of 10 s has proved too tight.
    pluginTimeout: 30_000,
    logger: {
      level: config.logLevel,
      // Readable lines for a person at a terminal while developing; JSON lines everywhere else
      // (production, tests, a log collector). `npm run dev` runs the server under concurrently,
      // whose pipe is no TTY; concurrently sets FORCE_COLOR when its own output is a colour
      // terminal, so that counts as a person watching too.
      ...(config.env === 'development' &&
      (process.stdout.isTTY || !['0', 'false', undefined].includes(process.env.FORCE_COLOR))
        ? {
            // Written at once in this thread, not by a transport's worker: `tsx watch` kills the
            // server outright on a second Ctrl+C, and a worker's last lines would be lost.
            stream: (await import('pino-pretty')).default({
              translateTime: 'HH:MM:ss',
              ignore: 'pid,hostname',
              sync: true,
            }),
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
    // Rate limits count per client address: behind a proxy that is X-Forwarded-For's.
    trustProxy: config.trustProxy,
    return503OnClosing: true,
    // A path the router cannot read (a broken %-escape, an overlong id) answers the error shape too.
    frameworkErrors: answerFrameworkError,
    // One line per request, at its end (server/http/request-log.ts).
    logController: new RequestLog(),
  });

  installErrorHandler(app);
  installRouteDeclarations(app);

  // The one place SEMANTIC_SEARCH is read: everything that embeds, queues the embedding job or
  // asks for neighbours already stops when the database cannot search by meaning, so the flag
  // only has to say it cannot, with a reason health and the start-up warning pass on. The model
  // loads on the first `embed`, which then never comes.
  if (!config.semanticSearch) database.searchByMeaning = SEARCH_BY_MEANING_TURNED_OFF;
  const embedder = givenEmbedder ?? sharedEmbedder({ log: app.log });

  await installSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        // The reader embeds Google Drive's document preview.
        frameSrc: ["'self'", 'https://drive.google.com'],
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

  // A state-changing call from another site's page, or with a body a form could send, is refused
  // before any handler runs (CSRF).
  installCsrfGuard(app, allowedOrigins(config), config.publicUrl);

  const mailer = createMailer(config, app.log);
  const secret = resolveAuthSecret(config);
  const auth = createAuth({
    config,
    database,
    secret,
    trustedOrigins: allowedOrigins(config),
    mailer,
    logger: app.log,
    // The account's sockets go with the sessions a reset ends.
    onPasswordReset: (userId) => app.io.in(userRoom(userId)).disconnectSockets(true),
  });
  const moderationWords = await loadModerationWords(config);
  mountRealtime(app, { config, auth, database, moderationWords, now, socketBudgets });
  // Work too long for a request (an uploaded import) runs here, from jobs kept in the database.
  // Notices: the time-based ones made and every pending e-mail sent, queued each minute by the
  // sweeper and after a change that makes one; the bells of their people updated over sockets.
  const notices = noticesJob({
    db: database.db,
    config,
    mailer,
    secret,
    now,
    onNewNotices: (userIds) =>
      announceUnread(app.io, database.db, userIds).catch((error: unknown) =>
        app.log.warn({ err: error }, 'the bells could not be updated'),
      ),
  });
  // Search by meaning's vectors, made in the background after anything adds or changes items.
  // The closures read `jobs` only when a job runs, after it exists.
  const embedding = embedItemsJob({
    database,
    log: app.log,
    embedder,
    requeue: () => queueItemEmbedding({ jobs, database }),
  });
  const imports = catalogueImportJob(database.db, {
    onImported: () => wakeItemEmbedding({ jobs, database }, app.log),
  });
  // Library insights (issue 27): counts gathered per process, written every few seconds; old raw
  // events reduced to daily counts by a job.
  const insights = createInsightRecorder({
    db: database.db,
    secret,
    now,
    timeZone: config.library.timeZone,
    enabled: insightsRecording,
    log: app.log,
  });
  app.decorate('insights', insights);
  app.addHook('onClose', async () => insights.close());
  const reduceInsights = insightsJob({
    db: database.db,
    now,
    retentionDays: config.library.insightsRetentionDays,
    timeZone: config.library.timeZone,
  });
  const jobs = startJobQueue(
    database,
    [imports, notices, popularityJob(database.db), embedding, reduceInsights],
    app.log,
  );
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => jobs.stop());
  const context: RouteContext = {
    config,
    database,
    auth,
    mailer,
    jobs,
    now,
    moderationWords,
    embedder,
    insights,
  };
  guardDeclaredRoutes(app, (request, reply, access) => {
    if (access === 'identity') return requireIdentity(request, reply, context);
    return requireUser(request, reply, context, access === 'signed-in' ? [] : access);
  });
  if (sweeper) startSweeper(app, context);
  // The embedded database is this process's alone: `npm run user:create` leaves staff grants in
  // the data folder for it to apply (server/users/grants.ts). PostgreSQL it opens itself.
  if (database.kind === 'pglite') {
    const stopGrants = await watchGrants(database.db, auth, config.dataDir, app.log);
    app.addHook('onClose', async () => stopGrants());
  }
  // Every API route, for the role-matrix test that checks docs/role-matrix.md lists them all.
  const apiRoutes: string[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api') || route.schema?.hide) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') apiRoutes.push(`${method} ${route.url}`);
  });
  await installApiDocument(app, config);
  await app.register(
    async (api) => {
      await api.register(healthRoutes, context);
      await api.register(libraryRoutes, context);
      await api.register(docsRoutes, context);
      await api.register(authRoutes, context);
      await api.register(userRoutes, context);
      await api.register(catalogueRoutes, context);
      await api.register(copyRoutes, context);
      await api.register(exportRoutes, context);
      await api.register(importRoutes, context);
      await api.register(itemRoutes, context);
      await api.register(adminUserRoutes, context);
      await api.register(requestRoutes, context);
      await api.register(reservationRoutes, context);
      await api.register(holdRoutes, context);
      await api.register(noticeRoutes, context);
      await api.register(readingRoutes, context);
      await api.register(shelfRoutes, context);
      await api.register(loanRoutes, context);
      await api.register(chatRoutes, context);
      await api.register(itemCardRoutes, context);
      await api.register(moderationRoutes, context);
      await api.register(chatbotRoutes, context);
      await api.register(insightRoutes, context);
      if (clock) await api.register(testClockRoutes, { ...context, clock });
    },
    { prefix: '/api' },
  );

  await serveWebApp(app, webRoot);
  return app;
}
