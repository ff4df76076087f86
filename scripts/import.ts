/**
 * `npm run import -- <books|papers|courses|text|marc|holdings> <file> [more files of the same kind]`
 *
 * Imports catalogue data into the configured database (PGlite in DATA_DIR, or PostgreSQL when
 * DATABASE_URL is set), migrating it first. Bad rows are reported with their line and skipped;
 * the exit code is 0 whenever the files could be read, 1 for a missing file, an unknown kind, a
 * file of the wrong kind or a bad configuration.
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
import { openDatabase } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';

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
let exitCode = 0;
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
    } catch (error) {
      progress.clear();
      if (!(error instanceof ImportFileError)) throw error;
      console.error(error.message);
      exitCode = 1;
    }
  }
} catch (error) {
  console.error(`Import failed: ${(error as Error).message}`);
  exitCode = 1;
} finally {
  await database.close();
}
process.exit(exitCode);
