import { ConfigError, loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { openDatabase } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { seedDemoData } from './db/seed.ts';

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

/** Process entry: configuration, database, migrations, demo data, listen, graceful shutdown. */
async function main(): Promise<void> {
  const config = readConfig();
  const database = await openDatabase(config);
  const applied = await migrate(database);
  const seeded = config.demoData ? await seedDemoData(database.db) : 0;

  const app = await buildApp({ config, database });
  app.log.info(
    { database: database.kind, migrationsApplied: applied, demoRowsInserted: seeded },
    'database ready',
  );

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

  try {
    await app.listen({ port: config.port, host: config.host });
    app.log.info(`Digi Library is running at ${config.publicUrl}`);
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
