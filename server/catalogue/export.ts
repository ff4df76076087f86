import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { CatalogueExportQuery } from '#contract/http/export.ts';
import type { CopiesTable, Database, ItemsTable } from '../db/schema.ts';
import { normaliseIsbn } from './isbn.ts';
import { fieldFilters, queryWords, tsqueryText } from './search.ts';

/** An item as an export writes it, with its copies. */
export type ExportItem = Pick<
  Selectable<ItemsTable>,
  'id' | 'kind' | 'title' | 'authors' | 'year' | 'subjects' | 'description' | 'isbn' | 'language'
> & { copies: Pick<Selectable<CopiesTable>, 'barcode' | 'location' | 'status' | 'note'>[] };

/** Items per statement of an export. */
export const EXPORT_BATCH = 500;

/** The WHERE clauses of GET /api/search's filters, as an export applies them to every match. */
function exportFilters(query: CatalogueExportQuery): RawBuilder<unknown>[] {
  const filters: RawBuilder<unknown>[] = [];
  const isbn = normaliseIsbn(query.q);
  if (isbn) filters.push(sql`i.isbn = ${isbn}`);
  else if (query.q !== '') {
    const words = queryWords(query.q);
    filters.push(
      words.length > 0 ? sql`i.search @@ to_tsquery('english', ${tsqueryText(words)})` : sql`false`,
    );
  }
  if (query.type) filters.push(sql`i.kind = ${query.type}`);
  filters.push(...fieldFilters(query));
  if (!query.withdrawn) filters.push(sql`i.withdrawn_at IS NULL`);
  return filters;
}

/**
 * The items matching `query` (the whole catalogue when it filters nothing) with their copies, in
 * batches of EXPORT_BATCH read one after the other by id: memory holds one batch, however large
 * the catalogue.
 */
export async function* exportCatalogue(
  db: Kysely<Database>,
  query: CatalogueExportQuery,
  batchSize = EXPORT_BATCH,
): AsyncGenerator<ExportItem[]> {
  const filters = exportFilters(query);
  let after: string | null = null;
  for (;;) {
    const where: RawBuilder<unknown> = sql.join(
      [...filters, after === null ? sql`true` : sql`i.id > ${after}::uuid`],
      sql` AND `,
    );
    const { rows: items }: { rows: Omit<ExportItem, 'copies'>[] } = await sql<
      Omit<ExportItem, 'copies'>
    >`
      SELECT i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description, i.isbn, i.language
      FROM items i WHERE ${where} ORDER BY i.id LIMIT ${batchSize}
    `.execute(db);
    if (items.length === 0) return;
    const copies = await db
      .selectFrom('copies')
      .select(['item_id', 'barcode', 'location', 'status', 'note'])
      .where(
        'item_id',
        'in',
        items.map((item) => item.id),
      )
      .orderBy('barcode')
      .execute();
    const byItem = new Map<string, ExportItem['copies']>();
    for (const { item_id: itemId, ...copy } of copies) {
      const list = byItem.get(itemId) ?? [];
      list.push(copy);
      byItem.set(itemId, list);
    }
    yield items.map((item) => ({ ...item, copies: byItem.get(item.id) ?? [] }));
    after = items.at(-1)?.id ?? null;
    if (items.length < batchSize) return;
  }
}
