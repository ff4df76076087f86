import type { Shelf } from '#contract/http/catalogue.ts';
import type {
  ReadingList,
  ReadingListSummary,
  SavedItem,
  SharedReadingList,
} from '#contract/http/shelf.ts';
import type {
  ReadingListRow,
  ReadingListWithItems,
  SavedItemRow,
  SharedListView,
} from '../shelf/store.ts';
import { presentCatalogueItem } from './catalogue.ts';
import { isoInstant } from './instant.ts';

/** The copies of each item that has some (`summariseShelves`), by item id. */
type Shelves = ReadonlyMap<string, Shelf>;

/** A saved item: the search's result card and when it was saved. */
export function presentSavedItem(row: SavedItemRow, shelves: Shelves): SavedItem {
  return { ...presentCatalogueItem(row, shelves.get(row.id)), savedAt: isoInstant(row.saved_at) };
}

/** A reading list in its owner's overview. */
export function presentReadingListSummary(row: ReadingListRow): ReadingListSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    shared: row.share_token !== null,
    shareToken: row.share_token,
    itemCount: row.item_count,
    createdAt: isoInstant(row.created_at),
    updatedAt: isoInstant(row.updated_at),
  };
}

/** A reading list as its owner sees it, items in order. */
export function presentReadingList(row: ReadingListWithItems, shelves: Shelves): ReadingList {
  return {
    ...presentReadingListSummary(row),
    items: row.items.map((item) => ({
      ...presentCatalogueItem(item, shelves.get(item.id)),
      addedAt: isoInstant(item.added_at),
    })),
  };
}

/** A shared list as others read it: no id, no token, the owner by name only. */
export function presentSharedList(
  view: SharedListView,
  shelves: Shelves,
  callerId: string,
): SharedReadingList {
  return {
    name: view.list.name,
    description: view.list.description,
    ownerName: view.ownerName,
    mine: view.list.user_id === callerId,
    items: view.items.map((item) => presentCatalogueItem(item, shelves.get(item.id))),
  };
}
