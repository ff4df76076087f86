/**
 * Applies the migrations and the demo data to the end-to-end template database in DATA_DIR, as
 * the server's own start would (`e2e/data-template.ts` runs it). Done ahead, the server's first
 * start on a copy finds nothing to do and listens at once.
 */
import { loadConfig } from '#server/config.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seedDemoData } from '#server/db/seed.ts';

const config = loadConfig();
const database = await openDatabase(config);
try {
  await migrate(database);
  await seedDemoData(database.db);
} finally {
  await database.close();
}
