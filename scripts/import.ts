/**
 * `npm run import -- <books|papers|courses|text|marc|holdings> <file> [more files of the same kind]`
 *
 * Imports catalogue data into the configured database (PGlite in DATA_DIR, or PostgreSQL when
 * DATABASE_URL is set), migrating it first. Bad rows are reported with their line and skipped;
 * the exit code is 0 whenever the files could be read, 1 for a missing file, an unknown kind, a
 * file of the wrong kind or a bad configuration. When it added or changed items, it has the
 * server embed them for search by meaning. On PostgreSQL it tells the running servers which
 * items' availability it changed (copies of a holdings or MARC file), so open pages showing them
 * update live (decision 045); on PGlite no server can run beside it (one process per data folder),
 * and pages read the new counts once a server starts.
 */
import path from 'node:path';
import {
  assertImportFile,
  importFile,
  IMPORT_KINDS,
  ImportFileError,
  isImportKind,
  positionLabel,
  type ImportSummary,
} from '#server/catalogue/import/import-file.ts';
import type { ImportCounts } from '#server/catalogue/import/writer.ts';
import { ConfigError, loadConfig } from '#server/config.ts';
import { openDatabase, type DatabaseHandle } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import {
  EMBED_ITEMS_INTERVAL_SECONDS,
  queueItemEmbedding,
} from '#server/embeddings/embed-items.ts';
import { JobQueueMissingError, openJobSender } from '#server/jobs/queue.ts';
import { forwardImportedAvailability } from '#server/realtime/import-availability.ts';

const USAGE = `Usage: npm run import -- <${IMPORT_KINDS.join('|')}> <file> [more files]`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const number = (value: number) => value.toLocaleString('en-US');

/** The progress line: rewritten in place on a terminal, a plain line every few thousand rows otherwise. */
function progressReporter(kind: string) {
  const tty = process.stderr.isTTY === true;
  let shown = 0;
  let lineOpen = false;
  return {
    update(counts: Readonly<ImportCounts>) {
      if (tty) {
        process.stderr.write(`\r\x1b[2K${kind}: ${number(counts.rows)} rows…`);
        lineOpen = true;
      } else if (Math.floor(counts.rows / 2_000) > Math.floor(shown / 2_000)) {
        process.stderr.write(`${kind}: ${number(counts.rows)} rows…\n`);
        shown = counts.rows;
      }
    },
    /** Ends the rewritten line so the next message starts on a line of its own. */
    clear() {
      if (lineOpen) process.stderr.write('\r\x1b[2K');
      lineOpen = false;
    },
  };
}

function summary({ kind, file, counts, elapsedMs, pages, copies }: ImportSummary): string {
  const rows: [string, number][] = [
    ['rows read', counts.rows],
    ['inserted', counts.inserted],
    ['updated', counts.updated],
    ['unchanged', counts.unchanged],
    ['skipped (bad)', counts.skipped],
  ];
  if (pages !== undefined) rows.push(['pages', pages]);
  if (copies !== undefined) {
    rows.push(['copies added', copies.inserted], ['copies edited', copies.updated]);
  }
  const width = Math.max(...rows.map(([, value]) => number(value).length));
  return [
    `Imported ${kind} from ${path.basename(file)} in ${(elapsedMs / 1000).toFixed(1)} s`,
    ...rows.map(([label, value]) => `  ${label.padEnd(14)}${number(value).padStart(width)}`),
  ].join('\n');
}

const AT_NEXT_START = 'Search by meaning: the server embeds the new items when it next starts.';

/**
 * Queues the embedding job, as the server does after an upload, so that a server running on the
 * same PostgreSQL embeds the new items now rather than at its sweeper's next round. Answers the
 * line to print, none where search by meaning is off; never throws: the import is done.
 */
async function queueEmbedding(
  database: DatabaseHandle,
  semanticSearch: boolean,
): Promise<string | undefined> {
  // SEMANTIC_SEARCH=false, or a PostgreSQL without pgvector (its server says so as it starts).
  if (!semanticSearch || !database.searchByMeaning.available) return undefined;
  // PGlite's data folder is this process's alone, so no server runs beside it; a server's start
  // queues the job (server/index.ts, after `listen`), and the job embeds every item lacking it.
  if (database.kind === 'pglite') return AT_NEXT_START;
  const jobs = openJobSender(database);
  try {
    await queueItemEmbedding({ jobs, database });
    return 'Search by meaning: the embedding of the new items is queued for the server.';
  } catch (error) {
    // No server has ever started on this database: the first one queues the job as it starts.
    if (error instanceof JobQueueMissingError) return AT_NEXT_START;
    return (
      `Search by meaning: the embedding job was not queued (${(error as Error).message}); a ` +
      `running server queues it within ${EMBED_ITEMS_INTERVAL_SECONDS / 60} minutes.`
    );
  } finally {
    await jobs.stop().catch(() => {});
  }
}

const [kind, ...files] = process.argv.slice(2);
if (!kind || !isImportKind(kind)) {
  fail(kind ? `Unknown kind "${kind}": use one of ${IMPORT_KINDS.join(', ')}.\n${USAGE}` : USAGE);
}
if (files.length === 0) fail(`Give the file to import.\n${USAGE}`);
for (const file of files) {
  await assertImportFile(file).catch((error: Error) => fail(error.message));
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  fail(error instanceof ConfigError ? error.message : String(error));
}

const database = await openDatabase(config).catch((error: Error) => fail(error.message));
// Before any import: an import gathers the items it touched only where something listens.
const liveAvailability = forwardImportedAvailability(database);
let exitCode = 0;
// Whether any file added or changed items (a holdings file's counts are of copies).
let itemsChanged = false;
try {
  await migrate(database);
  for (const file of files) {
    const progress = progressReporter(kind);
    try {
      const result = await importFile(database.db, kind, file, {
        onProgress: (counts) => progress.update(counts),
        onBadRow: ({ line, reason }) => {
          progress.clear();
          console.error(
            `${path.basename(file)}, ${positionLabel(kind)} ${line}: ${reason} (skipped)`,
          );
        },
      });
      progress.clear();
      console.log(summary(result));
      if (kind !== 'holdings' && result.counts.inserted + result.counts.updated > 0) {
        itemsChanged = true;
      }
    } catch (error) {
      progress.clear();
      if (!(error instanceof ImportFileError)) throw error;
      console.error(error.message);
      exitCode = 1;
    }
  }
  if (itemsChanged) {
    const line = await queueEmbedding(database, config.semanticSearch);
    if (line) console.log(line);
  }
} catch (error) {
  console.error(`Import failed: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  // Whatever committed, even before a failure, is sent; a failure to send fails nothing.
  const live = await liveAvailability.finish();
  if (live.failed) {
    console.error(
      `Live availability: the running servers were not told (${live.failed.message}); ` +
        'open pages catch up when they next load.',
    );
  } else if (live.items > 0) {
    console.log(
      `Live availability: the running servers were told of ${number(live.items)} ` +
        `${live.items === 1 ? 'item' : 'items'} whose copies changed.`,
    );
  }
  await database.close();
}
process.exit(exitCode);
