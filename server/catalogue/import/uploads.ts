import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import {
  NO_SUCH_IMPORT,
  UPLOAD_EMPTY_MESSAGE,
  UPLOAD_TOO_LARGE_MESSAGE,
  type CatalogueImport,
  type ImportReport,
  type UploadKind,
} from '#contract/http/imports.ts';
import { isUuid } from '../../db/ids.ts';
import type { Database } from '../../db/schema.ts';
import type { JobKind, JobSpec } from '../../jobs/queue.ts';
import { Refusal } from '../../refusal.ts';
import { ImportFileError, importFile } from './import-file.ts';

/** Size of the pieces an upload is kept in: small enough for one statement, few enough rows. */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;

/** Bad rows an import's report lists; the rest are counted. */
export const REPORTED_BAD_ROWS = 100;

/** How often, at most, a running import writes how far it has read. */
const PROGRESS_INTERVAL_MS = 500;

/**
 * Counts a file's rows as its bytes go by, so a progress bar has a total before the import reads
 * it: records for MARC (each ISO 2709 record ends with 0x1D; MARCXML's open with `<record` or a
 * prefixed `<marc:record`), lines after the header for a holdings CSV (a quoted line break would
 * count twice: the bar is an estimate, and the import's own count is the truth).
 */
export class RowCounter {
  #rows = 0;
  #format: 'iso2709' | 'xml' | 'csv' | undefined;
  #carry = '';

  constructor(kind: UploadKind) {
    if (kind === 'holdings') this.#format = 'csv';
  }

  push(chunk: Uint8Array): void {
    if (this.#format === undefined) {
      const text = Buffer.from(chunk)
        .toString('latin1')
        .replace(/^(\uFEFF|ï»¿|\s)+/u, '');
      if (text === '') return;
      this.#format = text.startsWith('<') ? 'xml' : 'iso2709';
    }
    if (this.#format === 'iso2709' || this.#format === 'csv') {
      const end = this.#format === 'iso2709' ? 0x1d : 0x0a;
      for (const byte of chunk) if (byte === end) this.#rows += 1;
      return;
    }
    // A tag split between two pieces is found whole in the carried tail plus the next piece;
    // one that ended inside the tail was counted with the piece before.
    const text = this.#carry + Buffer.from(chunk).toString('latin1');
    for (const match of text.matchAll(/<(?:[\w.-]+:)?record[\s>/]/gu)) {
      if (match.index + match[0].length > this.#carry.length) this.#rows += 1;
    }
    this.#carry = text.slice(-40);
  }

  /** Rows counted so far (a CSV's header line left out). */
  get rows(): number {
    return this.#format === 'csv' ? Math.max(0, this.#rows - 1) : this.#rows;
  }
}

/**
 * Keeps an uploaded file in the database, piece by piece as it arrives (memory stays at one
 * piece), and answers its import's id, queued. An empty file, or one larger than `maxBytes`, is
 * refused (400, 413) and nothing is kept. The row stays hidden (`uploading`) until the last piece
 * is in.
 */
export async function storeUpload(
  db: Kysely<Database>,
  upload: {
    kind: UploadKind;
    fileName: string;
    body: AsyncIterable<Uint8Array>;
    maxBytes: number;
    by: { id: string; name: string };
  },
): Promise<{ id: string; rowsExpected: number; sizeBytes: number }> {
  const { id } = await db
    .insertInto('catalogue_imports')
    .values({
      kind: upload.kind,
      file_name: upload.fileName,
      size_bytes: 0,
      created_by: upload.by.id,
      created_by_name: upload.by.name,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const counter = new RowCounter(upload.kind);
  let size = 0;
  let seq = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const flush = async () => {
    if (pendingBytes === 0) return;
    const data = Buffer.concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await db.insertInto('catalogue_import_chunks').values({ import_id: id, seq, data }).execute();
    seq += 1;
  };
  try {
    for await (const chunk of upload.body) {
      size += chunk.byteLength;
      if (size > upload.maxBytes) throw new Refusal(413, UPLOAD_TOO_LARGE_MESSAGE);
      counter.push(chunk);
      pending.push(chunk);
      pendingBytes += chunk.byteLength;
      if (pendingBytes >= UPLOAD_CHUNK_BYTES) await flush();
    }
    await flush();
    if (size === 0) throw new Refusal(400, UPLOAD_EMPTY_MESSAGE);
  } catch (error) {
    await db.deleteFrom('catalogue_imports').where('id', '=', id).execute();
    throw error;
  }
  await db
    .updateTable('catalogue_imports')
    .set({ size_bytes: size, rows_expected: counter.rows, state: 'queued' })
    .where('id', '=', id)
    .execute();
  return { id, rowsExpected: counter.rows, sizeBytes: size };
}

/** Forgets an upload cut off midway (a closed browser, a restarted server) after an hour. */
export async function pruneAbandonedUploads(db: Kysely<Database>, now: Date): Promise<void> {
  await db
    .deleteFrom('catalogue_imports')
    .where('state', '=', 'uploading')
    .where('created_at', '<', new Date(now.getTime() - 3_600_000))
    .execute();
}

/** What the job that imports an upload carries. */
export interface UploadJob {
  importId: string;
}

/**
 * Writes the upload's pieces to a file of its own in the system's temporary folder, one piece in
 * memory at a time, for the importers (which read files).
 */
async function writeUploadFile(db: Kysely<Database>, id: string, file: string): Promise<void> {
  const out = createWriteStream(file);
  try {
    for (let seq = 0; ; seq += 1) {
      const chunk = await db
        .selectFrom('catalogue_import_chunks')
        .select('data')
        .where('import_id', '=', id)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!chunk) break;
      if (!out.write(chunk.data))
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    out.end();
    await finished(out);
  }
}

/** Runs one upload's import: what the `catalogue-import` job does. */
export async function runUploadedImport(
  db: Kysely<Database>,
  id: string,
  stopping: () => boolean,
): Promise<void> {
  const row = await db
    .selectFrom('catalogue_imports')
    .select(['kind', 'state'])
    .where('id', '=', id)
    .executeTakeFirst();
  // Gone (deleted), or already finished by a run whose completion the queue did not record.
  if (!row || row.state === 'done' || row.state === 'failed') return;
  await db
    .updateTable('catalogue_imports')
    .set({ state: 'running', started_at: new Date(), rows_read: 0 })
    .where('id', '=', id)
    .execute();
  const file = path.join(os.tmpdir(), `digi-library-import-${id}`);
  let lastWrite = 0;
  try {
    await writeUploadFile(db, id, file);
    const summary = await importFile(db, row.kind, file, {
      onProgress: (counts) => {
        // Thrown from inside the importer: the job fails and, the server being back, runs again
        // (an import updates what an earlier run wrote, by ISBN or control number).
        if (stopping()) throw new Error('The server is stopping; the import runs again later.');
        const now = performance.now();
        if (now - lastWrite < PROGRESS_INTERVAL_MS) return;
        lastWrite = now;
        void db
          .updateTable('catalogue_imports')
          .set({ rows_read: counts.rows })
          .where('id', '=', id)
          .execute()
          .catch(() => {});
      },
    });
    const report: ImportReport = {
      counts: summary.counts,
      ...(summary.copies ? { copies: summary.copies } : {}),
      badRows: summary.badRows.slice(0, REPORTED_BAD_ROWS),
      moreBadRows: Math.max(0, summary.counts.skipped - REPORTED_BAD_ROWS),
      elapsedMs: Math.round(summary.elapsedMs),
    };
    await finish(db, id, { state: 'done', rows_read: summary.counts.rows, report });
  } catch (error) {
    if (stopping()) {
      await db
        .updateTable('catalogue_imports')
        .set({ state: 'queued' })
        .where('id', '=', id)
        .execute();
      throw error;
    }
    const message =
      error instanceof ImportFileError
        ? error.message.replace(file, 'The file')
        : 'The import stopped on an error the server has logged. Try the file again, or ask whoever runs the server.';
    await finish(db, id, { state: 'failed', error: message });
    if (!(error instanceof ImportFileError)) throw error;
  } finally {
    await rm(file, { force: true });
  }
}

/** Records how an import ended and drops its file's pieces. */
async function finish(
  db: Kysely<Database>,
  id: string,
  end: { state: 'done' | 'failed'; rows_read?: number; report?: ImportReport; error?: string },
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('catalogue_imports')
      .set({
        state: end.state,
        ...(end.rows_read !== undefined ? { rows_read: end.rows_read } : {}),
        report: end.report ? JSON.stringify(end.report) : null,
        error: end.error ?? null,
        finished_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    await trx.deleteFrom('catalogue_import_chunks').where('import_id', '=', id).execute();
  });
}

/** The kind of job that imports an upload. */
export const CATALOGUE_IMPORT_JOB: JobSpec<UploadJob> = {
  name: 'catalogue-import',
  // 100,000 records take under two minutes; a job still "running" after an hour died with its
  // server, and runs again.
  expireInSeconds: 3_600,
  retryLimit: 2,
};

/**
 * CATALOGUE_IMPORT_JOB with what runs it, on this database. `onImported` follows every import
 * that ended (done or failed: a failed one may have written items before its error), such as
 * queueing the embedding of the new items for search by meaning.
 */
export function catalogueImportJob(
  db: Kysely<Database>,
  options: { onImported?: () => void } = {},
): JobKind<UploadJob> {
  return {
    ...CATALOGUE_IMPORT_JOB,
    async run(data, stopping) {
      try {
        await runUploadedImport(db, data.importId, stopping);
      } finally {
        if (!stopping()) options.onImported?.();
      }
    },
  };
}

const importColumns = [
  'id',
  'kind',
  'file_name',
  'size_bytes',
  'state',
  'rows_read',
  'rows_expected',
  'report',
  'error',
  'created_by_name',
  'created_at',
  'finished_at',
] as const;

type ImportRow = {
  id: string;
  kind: UploadKind;
  file_name: string;
  size_bytes: string;
  state: 'uploading' | CatalogueImport['state'];
  rows_read: number;
  rows_expected: number;
  report: unknown;
  error: string | null;
  created_by_name: string;
  created_at: Date;
  finished_at: Date | null;
};

function presentImport(row: ImportRow): CatalogueImport {
  return {
    id: row.id,
    kind: row.kind,
    fileName: row.file_name,
    sizeBytes: Number(row.size_bytes),
    // Never 'uploading': those rows are not read.
    state: row.state === 'uploading' ? 'queued' : row.state,
    rowsRead: row.rows_read,
    rowsExpected: row.rows_expected,
    report: (row.report as ImportReport | null) ?? null,
    error: row.error,
    createdByName: row.created_by_name,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/** One import as the catalogue screen follows it; 404 when unknown or still arriving. */
export async function findImport(db: Kysely<Database>, id: string): Promise<CatalogueImport> {
  const row = isUuid(id)
    ? await db
        .selectFrom('catalogue_imports')
        .select(importColumns)
        .where('id', '=', id)
        .where('state', '<>', 'uploading')
        .executeTakeFirst()
    : undefined;
  if (!row) throw new Refusal(404, NO_SUCH_IMPORT);
  return presentImport(row);
}

/** The latest imports, newest first. */
export async function recentImports(db: Kysely<Database>, limit = 20): Promise<CatalogueImport[]> {
  const rows = await db
    .selectFrom('catalogue_imports')
    .select(importColumns)
    .where('state', '<>', 'uploading')
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(presentImport);
}
