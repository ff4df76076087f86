import { stat } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { refreshSearchWords } from '../words.ts';
import { importArxiv } from './arxiv.ts';
import { importCourses } from './courses.ts';
import { ImportFileError } from './csv.ts';
import { importGoodbooks } from './goodbooks.ts';
import { importGutenberg } from './gutenberg.ts';
import { importHoldings } from './holdings.ts';
import { importMarc } from './marc.ts';
import type { ImportListener, ImportResult } from './writer.ts';

export { ImportFileError };

/** The kinds of file `npm run import` understands. */
export const IMPORT_KINDS = ['books', 'papers', 'courses', 'text', 'marc', 'holdings'] as const;
/** One of IMPORT_KINDS. */
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** Whether `value` names an import kind. */
export function isImportKind(value: string): value is ImportKind {
  return (IMPORT_KINDS as readonly string[]).includes(value);
}

const IMPORTERS: Record<
  ImportKind,
  (db: Kysely<Database>, file: string, listener: ImportListener) => Promise<ImportResult>
> = {
  books: importGoodbooks,
  papers: importArxiv,
  courses: importCourses,
  text: importGutenberg,
  marc: importMarc,
  holdings: importHoldings,
};

/** How a kind's bad rows are numbered: MARC files by record, the others by line. */
export function positionLabel(kind: ImportKind): 'record' | 'line' {
  return kind === 'marc' ? 'record' : 'line';
}

/** What one file's import did and how long it took. */
export interface ImportSummary extends ImportResult {
  kind: ImportKind;
  file: string;
  elapsedMs: number;
}

/** Throws ImportFileError unless `file` is a readable regular file. */
export async function assertImportFile(file: string): Promise<void> {
  try {
    if (!(await stat(file)).isFile()) throw new ImportFileError(`${file} is not a file`);
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportFileError(
      code === 'ENOENT'
        ? `No such file: ${file}`
        : `Cannot read ${file}: ${(error as Error).message}`,
    );
  }
}

/**
 * Imports one file of the given kind into the catalogue, then refreshes the "did you mean" words
 * and vacuums the catalogue. Throws ImportFileError when the file is missing or is not that kind
 * of file. Not inside a transaction: VACUUM cannot run in one.
 */
export async function importFile(
  db: Kysely<Database>,
  kind: ImportKind,
  file: string,
  listener: ImportListener = {},
): Promise<ImportSummary> {
  const started = performance.now();
  await assertImportFile(file);
  const result = await IMPORTERS[kind](db, file, listener);
  await refreshSearchWords(db);
  // A bulk insert leaves up to 4 MB in the pending lists of the full-text and trigram indexes
  // (GIN's fast update), which every search then reads in full, and the planner without
  // statistics. PostgreSQL's autovacuum soon merges the one and gathers the other; PGlite has no
  // autovacuum, so without this its searches cost about twice as much (bench/README.md, API).
  await sql`VACUUM (ANALYZE) items, search_words`.execute(db);
  return { ...result, kind, file, elapsedMs: performance.now() - started };
}
