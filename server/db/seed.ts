import type { Kysely } from 'kysely';
import { DEMO_ITEMS } from './demo-data.ts';
import type { Database } from './schema.ts';

/** The `source` of every demo row, so demo data can be told apart from imports. */
export const DEMO_SOURCE = 'demo';

/**
 * Inserts the demo data that is missing and leaves everything else alone, so a second start
 * changes nothing and a librarian's edits to demo rows survive restarts. Returns rows inserted.
 */
export async function seedDemoData(db: Kysely<Database>): Promise<number> {
  const result = await db
    .insertInto('items')
    .values(DEMO_ITEMS.map((item) => ({ ...item, source: DEMO_SOURCE })))
    .onConflict((conflict) => conflict.columns(['source', 'source_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n);
}
