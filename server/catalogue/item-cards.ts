import { sql, type Kysely } from 'kysely';
import type { ItemAvailability } from '#contract/http/item-cards.ts';
import type { Database } from '../db/schema.ts';
import { readAvailability } from '../reservations/availability.ts';

/** What a chat card shows of an item (decision 045). */
export interface ItemCardRow {
  id: string;
  kind: 'book' | 'paper' | 'course';
  title: string;
  authors: string[];
  cover_url: string | null;
  availability: ItemAvailability;
}

/**
 * The cards of `itemIds` in two statements whatever their number (the rows, then their
 * availability), in the order asked; unknown and withdrawn items are left out.
 */
export async function itemCards(
  db: Kysely<Database>,
  itemIds: readonly string[],
  now: Date,
): Promise<ItemCardRow[]> {
  if (itemIds.length === 0) return [];
  const [rows, availability] = await Promise.all([
    db
      .selectFrom('items')
      .select(['id', 'kind', 'title', 'authors', 'cover_url'])
      .where(sql<boolean>`id = ANY (${[...itemIds]}::uuid[])`)
      .where('withdrawn_at', 'is', null)
      .execute(),
    readAvailability(db, itemIds, now),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return itemIds.flatMap((id) => {
    const row = byId.get(id);
    const counts = availability.get(id);
    return row && counts ? [{ ...row, availability: counts }] : [];
  });
}
