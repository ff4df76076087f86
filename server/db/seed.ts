import type { Kysely } from 'kysely';
import { refreshSearchWords } from '../catalogue/words.ts';
import { DEMO_ITEMS, demoGuidePages } from './demo-data.ts';
import type { Database } from './schema.ts';

/** The `source` of every demo row, so demo data can be told apart from imports. */
export const DEMO_SOURCE = 'demo';

/**
 * Inserts the demo data that is missing and leaves everything else alone, so a second start
 * changes nothing and a librarian's edits to demo rows survive restarts. Returns rows inserted.
 */
export async function seedDemoData(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('items')
      .values(DEMO_ITEMS.map((item) => ({ ...item, source: DEMO_SOURCE })))
      .onConflict((conflict) => conflict.columns(['source', 'source_id']).doNothing())
      .returning(['id', 'source_id'])
      .execute();
    // Only newly inserted books get the reading guide: a later import of the full text (or a
    // librarian's edit) must never be overwritten by a restart.
    for (const row of inserted) {
      const item = DEMO_ITEMS.find((candidate) => candidate.source_id === row.source_id);
      const pages = item ? demoGuidePages(item) : [];
      if (pages.length === 0) continue;
      await trx
        .insertInto('item_pages')
        .values(
          pages.map((content, index) => ({ item_id: row.id, page_number: index + 1, content })),
        )
        .execute();
      await trx
        .updateTable('items')
        .set({ page_count: pages.length })
        .where('id', '=', row.id)
        .execute();
    }
    if (inserted.length > 0) await refreshSearchWords(trx);
    return inserted.length;
  });
}
