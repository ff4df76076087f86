import type { Readable } from 'node:stream';
import {
  catalogueImportListSchema,
  catalogueImportSchema,
  importUploadQuerySchema,
  UPLOAD_CONTENT_TYPE,
  UPLOAD_EMPTY_MESSAGE,
  UPLOAD_MAX_BYTES,
  UPLOAD_TOO_LARGE_MESSAGE,
} from '#contract/http/imports.ts';
import { editorOf } from '../../catalogue/editing.ts';
import {
  CATALOGUE_IMPORT_JOB,
  findImport,
  recentImports,
  storeUpload,
} from '../../catalogue/import/uploads.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  signedInCaller,
  uuidParams,
  type DeclaringInstance,
} from '../declare-route.ts';

/**
 * Imports for librarians from the catalogue screen (issue 20): a MARC file or a holdings CSV is
 * uploaded as it is, kept in the database, and imported by the job queue off the request path;
 * the screen follows its progress and reads its report.
 */
export async function importRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  // The file's bytes reach the handler as the stream they arrive as (this plugin's routes only).
  app.addContentTypeParser(UPLOAD_CONTENT_TYPE, (_request, payload, done) => done(null, payload));

  app.post(
    '/imports',
    declareRoute({
      tag: 'imports',
      summary: 'Upload a MARC file or a holdings CSV to import',
      description: `The body is the file as it is (\`${UPLOAD_CONTENT_TYPE}\`), at most ${UPLOAD_MAX_BYTES / 1024 / 1024} MB. Answers at once with the import queued; \`GET /api/imports/:id\` follows it.`,
      access: ['librarian'],
      query: importUploadQuerySchema,
      upload: {
        contentType: UPLOAD_CONTENT_TYPE,
        description: 'A MARC 21 file (ISO 2709 or MARCXML) or a holdings CSV.',
      },
      response: catalogueImportSchema,
      created: true,
      errors: { 400: UPLOAD_EMPTY_MESSAGE, 413: UPLOAD_TOO_LARGE_MESSAGE },
    }),
    async (request, reply) => {
      const caller = signedInCaller(request);
      const query = parseInput(importUploadQuerySchema, request.query);
      const announced = Number(request.headers['content-length'] ?? Number.NaN);
      if (announced > UPLOAD_MAX_BYTES) throw new Refusal(413, UPLOAD_TOO_LARGE_MESSAGE);
      const body = request.body as Readable | undefined;
      if (!body || announced === 0) throw new Refusal(400, UPLOAD_EMPTY_MESSAGE);
      const editor = editorOf(caller);
      const { id } = await storeUpload(db, {
        kind: query.kind,
        fileName: query.name,
        body,
        maxBytes: UPLOAD_MAX_BYTES,
        by: { id: editor.id, name: editor.name },
      });
      await context.jobs.send(CATALOGUE_IMPORT_JOB, { importId: id });
      reply.code(201);
      return findImport(db, id);
    },
  );

  app.get(
    '/imports',
    declareRoute({
      tag: 'imports',
      summary: 'The latest imports, newest first',
      access: ['librarian'],
      response: catalogueImportListSchema,
    }),
    async () => ({ imports: await recentImports(db) }),
  );

  app.get(
    '/imports/:id',
    declareRoute({
      tag: 'imports',
      summary: "One import's state, progress and report",
      access: ['librarian'],
      params: uuidParams('import'),
      response: catalogueImportSchema,
    }),
    async (request) => findImport(db, request.params.id),
  );
}
