import type { Highlight, ReadingState } from '#contract/http/reading.ts';

/*
 * Test data for the reading components: a book, its reading state and highlights, as
 * `GET /api/items/:id/reading` answers them.
 */

/** The book the tests read. */
export const BOOK_ID = '11111111-1111-4111-8111-111111111111';

/** A page with a heading, emphasis and a list. */
export const PAGE_TEXT =
  '# Chapter 5\n\nIt was on a **dreary** night of *November* that I beheld the creature.\n\n- one\n- two';

/** A highlight, by default on page 3 over "Chapter". */
export function highlight(overrides: Partial<Highlight> = {}): Highlight {
  return {
    id: '22222222-2222-4222-8222-222222222222',
    page: 3,
    start: 0,
    end: 7,
    quote: 'Chapter',
    note: '',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

/** The reader's state in the book: nothing yet unless told. */
export function readingState(overrides: Partial<ReadingState> = {}): ReadingState {
  return {
    itemId: BOOK_ID,
    lastPage: null,
    lastReadAt: null,
    bookmarks: [],
    highlights: [],
    ...overrides,
  };
}
