/**
 * `npm run db:migrate`: applies pending migrations to the configured database (PGlite in
 * DATA_DIR, or PostgreSQL when DATABASE_URL is set) and says what it did.
 */
import { ConfigError, loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';

try {
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const applied = await migrate(database);
    console.log(
      applied.length === 0
        ? `Database (${database.kind}) is up to date.`
        : `Applied ${applied.length} migration(s) to ${database.kind}:\n${applied.map((name) => `  ${name}`).join('\n')}`,
    );
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(
    error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`,
  );
  process.exit(1);
}
