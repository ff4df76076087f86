import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { backfillNameSkeletons } from './commands/backfill-name-skeletons.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { maintainTables } from './db/maintenance.ts';
import { seedDemoData } from './db/seed.ts';
import { isDatabaseUnavailable } from './db/unavailable.ts';
import { searchByMeaningWarning } from './db/vector.ts';
import { queueItemEmbedding } from './embeddings/embed-items.ts';
import { closeSharedEmbedder } from './embeddings/embedder.ts';

const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * What Fastify logs for each address it listens on: the one address to open (PUBLIC_URL), once.
 * Fastify's own line names the socket's address (`http://127.0.0.1:3000`), where pages load but
 * forms are refused as another site's unless PUBLIC_URL is that address; printed first, it was
 * the one people opened. Listening on every interface (HOST=0.0.0.0) gives more lines, which say
 * to open PUBLIC_URL too.
 */
export function listeningText(publicUrl: string): (address: string) => string {
  let first = true;
  return (address) => {
    if (!first) return `Also listening on ${address}; open ${publicUrl}`;
    first = false;
    return `Digi Library is running at ${publicUrl}`;
  };
}

/** Process entry: configuration, database, migrations, demo data, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = readConfig();
  const database = await openDatabase(config);
  const applied = await migrate(database);
  // Before the demo rooms, which must not take a name that an existing room already looks like.
  const names = await backfillNameSkeletons(database.db, config.library.name);
  const seeded = config.demoData ? await seedDemoData(database.db) : 0;
  // On PGlite, statistics for the tables never analyzed (a new or seeded database) before the
  // first request rather than in a burst under load; the sweeper's timer keeps them (decision 046).
  const analyzed = await maintainTables(database);

  const app = await buildApp({ config, database });
  app.log.info(
    {
      database: database.kind,
      migrationsApplied: applied,
      demoRowsInserted: seeded,
      tablesAnalyzed: analyzed.length,
    },
    'database ready',
  );
  // Everything else works without pgvector; whoever runs the server should still know it is off.
  const vectorWarning = searchByMeaningWarning(database.searchByMeaning);
  if (vectorWarning) app.log.warn(vectorWarning);
  if (config.testClock) {
    app.log.warn('TEST_CLOCK is on: a librarian can move this server’s clock. Tests only.');
  }
  if (names.usernamesCleared + names.roomsUnclaimed > 0) {
    // Usernames today's rules refuse, and rooms that look like older ones (decision 021).
    app.log.warn(names, 'names made before the naming rules: usernames removed, rooms kept');
  }

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    try {
      await app.close();
      // After the app, whose requests may still be waiting for a query's vector.
      await closeSharedEmbedder();
      await database.close();
      app.log.info('shutdown complete');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // pg-boss marks a job done or failed without waiting for the statement (its manager's
  // `complete`/`fail`), so a job that ends while the database is down rejects where nobody
  // listens, and Node would end the server. The server stays up through an outage (the job is
  // retried once its expiry passes); anything else unhandled still ends it, as before.
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      app.log.warn({ err: reason }, 'background work failed: the database is unavailable');
      return;
    }
    app.log.fatal({ err: reason }, 'unhandled rejection');
    process.exit(1);
  });

  try {
    await app.listen({
      port: config.port,
      host: config.host,
      listenTextResolver: listeningText(config.publicUrl),
    });
    // The demo library, or items imported while the server was down, get their vectors for
    // search by meaning in the background while the server answers.
    void queueItemEmbedding({ jobs: app.jobs, database }).catch((error: unknown) =>
      app.log.warn({ err: error }, 'the embedding job was not queued; the sweeper queues it soon'),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      app.log.fatal(
        `Port ${config.port} is already in use: stop the other server or set PORT to a free port.`,
      );
    } else {
      app.log.fatal({ err: error }, 'could not start listening');
    }
    await database.close();
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
