import { Readable } from 'node:stream';
import { catalogueExportQuerySchema } from '#contract/http/export.ts';
import { exportCatalogue } from '../../catalogue/export.ts';
import { parseInput } from '../../http/errors.ts';
import {
  catalogueCsvHeader,
  catalogueCsvLines,
  catalogueMarcXml,
  MARCXML_CLOSE,
  MARCXML_OPEN,
} from '../../presenters/catalogue-export.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, type DeclaringInstance } from '../declare-route.ts';

const FILTERS =
  'The filters of `GET /api/search` (q, type, author, year, category, withdrawn), all optional: none exports the whole catalogue. Streamed, 500 items a statement.';

/**
 * Exports for librarians (issue 20): the catalogue, or a search's matches, as CSV or MARCXML with
 * each item's copies. Not JSON, so no response schema: the reply streams the file as it is read.
 */
export async function exportRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;

  app.get(
    '/export/catalogue.csv',
    declareRoute({
      tag: 'export',
      summary: 'The catalogue as CSV (text/csv), with copies',
      description: FILTERS,
      access: ['librarian'],
      query: catalogueExportQuerySchema,
      download: {
        contentType: 'text/csv',
        description:
          'One line per item: id, type, title, authors, year, isbn, subjects, description, copies ("barcode | location | status", "; " between).',
      },
    }),
    async (request, reply) => {
      const query = parseInput(catalogueExportQuerySchema, request.query);
      async function* lines() {
        yield catalogueCsvHeader();
        for await (const batch of exportCatalogue(db, query)) yield catalogueCsvLines(batch);
      }
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="catalogue.csv"');
      return reply.send(Readable.from(lines()));
    },
  );

  app.get(
    '/export/catalogue.xml',
    declareRoute({
      tag: 'export',
      summary: 'The catalogue as MARCXML (application/marcxml+xml), with copies as Koha 952',
      description: FILTERS,
      access: ['librarian'],
      query: catalogueExportQuerySchema,
      download: {
        contentType: 'application/marcxml+xml',
        description:
          'A MARCXML collection: one MARC 21 record per item (001 its id), each copy a Koha 952.',
      },
    }),
    async (request, reply) => {
      const query = parseInput(catalogueExportQuerySchema, request.query);
      async function* records() {
        yield MARCXML_OPEN;
        for await (const batch of exportCatalogue(db, query)) yield catalogueMarcXml(batch);
        yield MARCXML_CLOSE;
      }
      reply
        .type('application/marcxml+xml; charset=utf-8')
        .header('content-disposition', 'attachment; filename="catalogue.xml"');
      return reply.send(Readable.from(records()));
    },
  );
}
