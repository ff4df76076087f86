import { z } from 'zod';

/** What a librarian may upload: MARC 21 records, or a holdings CSV of copies. */
export const UPLOAD_KINDS = ['marc', 'holdings'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** The largest file the catalogue screen takes: about 200,000 MARC records. */
export const UPLOAD_MAX_BYTES = 200 * 1024 * 1024;

/** The media type of an upload's body: the file's bytes as they are. */
export const UPLOAD_CONTENT_TYPE = 'application/octet-stream';

/** Refusals a person reads on the catalogue screen. */
export const UPLOAD_TOO_LARGE_MESSAGE = `Files of up to ${UPLOAD_MAX_BYTES / 1024 / 1024} MB can be imported here; import a larger one with npm run import on the server.`;
export const UPLOAD_EMPTY_MESSAGE = 'The file is empty: choose a MARC file or a holdings CSV.';
export const NO_SUCH_IMPORT = 'No import has that id.';

/** `POST /api/imports` query: what the file is, and its name as the librarian chose it. */
export const importUploadQuerySchema = z.object({
  kind: z.enum(UPLOAD_KINDS, { message: 'Say whether the file is MARC records or holdings' }),
  name: z
    .string({ message: 'Give the file name' })
    .trim()
    .min(1, 'Give the file name')
    .max(255, 'File names are at most 255 characters'),
});
export type ImportUploadQuery = z.output<typeof importUploadQuerySchema>;

/** Where an import is: waiting for the queue, running, or finished either way. */
export const IMPORT_STATES = ['queued', 'running', 'done', 'failed'] as const;

const counts = z.object({
  rows: z.number().int(),
  inserted: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
});

/** What a finished import did: totals, copies written, and the first bad rows with why. */
export const importReportSchema = z.object({
  counts,
  copies: z
    .object({ inserted: z.number().int(), updated: z.number().int(), unchanged: z.number().int() })
    .optional(),
  /** Records (MARC) or lines (CSV) skipped, each with its position in the file. */
  badRows: z.array(z.object({ line: z.number().int(), reason: z.string() })),
  /** Bad rows beyond those listed. */
  moreBadRows: z.number().int(),
  elapsedMs: z.number(),
});
export type ImportReport = z.output<typeof importReportSchema>;

/** An upload and its import, as the catalogue screen follows it. */
export const catalogueImportSchema = z.object({
  id: z.uuid(),
  kind: z.enum(UPLOAD_KINDS),
  fileName: z.string(),
  sizeBytes: z.number().int(),
  state: z.enum(IMPORT_STATES),
  /** Rows (records or lines) read so far, of about `rowsExpected` counted on arrival. */
  rowsRead: z.number().int(),
  rowsExpected: z.number().int(),
  report: importReportSchema.nullable(),
  /** Why a failed import failed, in words. */
  error: z.string().nullable(),
  createdByName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type CatalogueImport = z.output<typeof catalogueImportSchema>;

/** `GET /api/imports`: the latest uploads, newest first. */
export const catalogueImportListSchema = z.object({ imports: z.array(catalogueImportSchema) });
