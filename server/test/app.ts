import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { SOCKET_BUDGETS } from '#contract/socket/chat.ts';
import { buildApp } from '../app.ts';
import type { SocketBudgets } from '../chat/event-budget.ts';
import { loadConfig, type Config } from '../config.ts';
import type { DatabaseHandle, DatabaseKind } from '../db/client.ts';
import type { Embedder } from '../embeddings/embedder.ts';
import { openTestDatabase } from './databases.ts';
import { createTestEmbedder } from './embedder.ts';

/** The auth secret tests run with (never used outside tests). */
export const TEST_AUTH_SECRET = 'test-only-secret-0123456789abcdefghijklmnop';

/** A configuration for tests: silent logs, test mode, and any variables the test sets. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: path.join(tmpdir(), `digi-test-data-${process.pid}`),
    AUTH_SECRET: TEST_AUTH_SECRET,
    // The test accounts' domain (server/test/factories.ts): faculty sign-ups are faculty at once.
    FACULTY_EMAIL_DOMAINS: 'uni.example',
    ...env,
  });
}

/**
 * The socket budgets with room creation lifted, for tests of other rules whose people create rooms
 * far faster than anyone would; the budgets themselves are tested in server/realtime/budgets.test.ts.
 */
export const ROOMS_BUDGET_LIFTED: SocketBudgets = {
  ...SOCKET_BUDGETS,
  rooms: {
    socket: { burst: 1_000, refillMs: 1 },
    person: { burst: 1_000, refillMs: 1 },
    staffFactor: 1,
  },
};

/** `ROOMS_BUDGET_LIFTED` with the `moderation` group lifted too: tests that report and moderate. */
export const MODERATION_BUDGET_LIFTED: SocketBudgets = {
  ...ROOMS_BUDGET_LIFTED,
  moderation: {
    socket: { burst: 1_000, refillMs: 1 },
    person: { burst: 1_000, refillMs: 1 },
    staffFactor: 1,
  },
};

/** A built (not listening) app on a fresh database; `close()` tears both down. */
export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  /** The app's embedder: the test one (server/test/embedder.ts) unless the test gave its own. */
  embedder: Embedder;
  close(): Promise<void>;
}

/** Builds the whole app on a fresh database of `kind`, ready for `app.inject`. */
export async function createTestApp(
  kind: DatabaseKind,
  options: {
    env?: Record<string, string>;
    webRoot?: string;
    beforeReady?: (app: FastifyInstance) => void;
    now?: () => Date;
    /** An already open database (a restart test builds a second app on the first one's). */
    database?: DatabaseHandle;
    /** Socket event budgets other than the contract's, for tests of other rules. */
    socketBudgets?: SocketBudgets;
    /**
     * The embedder; a fresh test embedder unless given. Only a test of meaning itself needs the
     * real model, which takes a thread, seconds and a couple of hundred megabytes.
     */
    embedder?: Embedder;
    /**
     * False for a test that compares the whole database before and after its calls: no sweeper
     * (server/sweeper.ts) and no insight counts, the two things a timer writes while calls run.
     */
    background?: boolean;
  } = {},
): Promise<TestApp> {
  const config = testConfig(options.env);
  const database = options.database ?? (await openTestDatabase(kind));
  const embedder = options.embedder ?? createTestEmbedder();
  const app = await buildApp({
    config,
    database,
    webRoot: options.webRoot ?? '/nonexistent-web-root',
    embedder,
    ...(options.now ? { now: options.now } : {}),
    ...(options.socketBudgets ? { socketBudgets: options.socketBudgets } : {}),
    ...(options.background === false ? { sweeper: false, insightsRecording: false } : {}),
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    config,
    embedder,
    async close() {
      await app.close();
      await database.close();
    },
  };
}
