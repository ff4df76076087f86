import type {
  Bookmark,
  Highlight,
  Progress,
  ReadingState,
  RecentReading,
} from '#contract/http/reading.ts';
import type { Shelf } from '#contract/http/catalogue.ts';
import type { BookmarkRow, HighlightRow, RecentRow } from '../reading/store.ts';
import { presentCatalogueItem } from './catalogue.ts';
import { isoInstant } from './instant.ts';

/** A bookmark as its owner sees it. */
export function presentBookmark(row: BookmarkRow): Bookmark {
  return { page: row.page, createdAt: isoInstant(row.created_at) };
}

/** A highlight as its owner sees it: offsets into the page's plain text, the quote, the note. */
export function presentHighlight(row: HighlightRow): Highlight {
  return {
    id: row.id,
    page: row.page,
    start: row.start_offset,
    end: row.end_offset,
    quote: row.quote,
    note: row.note,
    createdAt: isoInstant(row.created_at),
    updatedAt: isoInstant(row.updated_at),
  };
}

/** The caller's state in one book. */
export function presentReadingState(state: {
  item: { id: string };
  progress: { page: number; updated_at: Date } | null;
  bookmarks: BookmarkRow[];
  highlights: HighlightRow[];
}): ReadingState {
  return {
    itemId: state.item.id,
    lastPage: state.progress?.page ?? null,
    lastReadAt: state.progress ? isoInstant(state.progress.updated_at) : null,
    bookmarks: state.bookmarks.map(presentBookmark),
    highlights: state.highlights.map(presentHighlight),
  };
}

/** The page kept as the caller's last. */
export function presentProgress(saved: {
  itemId: string;
  page: number;
  updatedAt: Date;
}): Progress {
  return { itemId: saved.itemId, page: saved.page, readAt: isoInstant(saved.updatedAt) };
}

/** "Continue reading": each book as a search result's card, with where the caller is in it. */
export function presentRecentReading(
  rows: readonly RecentRow[],
  shelves: ReadonlyMap<string, Shelf>,
): RecentReading {
  return {
    books: rows.map((row) => ({
      item: presentCatalogueItem(row, shelves.get(row.id)),
      page: row.page,
      pageCount: row.page_count,
      readAt: isoInstant(row.read_at),
    })),
  };
}
