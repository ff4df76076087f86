import type { ItemCard } from '#contract/http/item-cards.ts';
import type { ItemCardRow } from '../catalogue/item-cards.ts';

/** One chat card of an item (decision 045). */
export function presentItemCard(row: ItemCardRow): ItemCard {
  return {
    id: row.id,
    type: row.kind,
    title: row.title,
    authors: row.authors,
    ...(row.cover_url ? { coverUrl: row.cover_url } : {}),
    availability: row.availability,
  };
}
