import { z } from 'zod';
import { DATABASE_INTEGER_MAX } from '../limits.ts';
import { catalogueItemSchema } from './catalogue.ts';

/**
 * Reading a held text (issue 24): contents, search inside, where one left off, display
 * preferences, bookmarks and highlights with notes. Everything here is the caller's own: another
 * person (a librarian too) asking for someone's highlight gets the same 404 as for none.
 */

/** An item id in a path: a malformed one is a 400 that says so. */
const itemId = z.uuid({ message: 'id must be an item id (a UUID)' });
const pageNumber = z.coerce
  .number()
  .max(DATABASE_INTEGER_MAX, `page is at most ${DATABASE_INTEGER_MAX}`)
  .int('page must be a whole number')
  .min(1, 'page starts at 1');

/** `/api/items/:id/...` paths of reading routes. */
export const readingItemParamsSchema = z.object({ id: itemId });

// ---- Contents -------------------------------------------------------------------------------

/** One line of a book's contents: a heading line of its pages, and the page it is on. */
export const contentsEntrySchema = z.object({
  title: z.string(),
  level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  page: z.number().int().min(1),
});
export type ContentsEntry = z.infer<typeof contentsEntrySchema>;

/** `GET /api/items/:id/contents`: the book's headings in page order (empty when it has none). */
export const bookContentsSchema = z.object({
  itemId: z.string(),
  pageCount: z.number().int().nonnegative(),
  entries: z.array(contentsEntrySchema),
});
export type BookContents = z.infer<typeof bookContentsSchema>;

// ---- Search inside ---------------------------------------------------------------------------

/** Longest query `GET /api/items/:id/search-inside` takes. */
export const SEARCH_INSIDE_QUERY_MAX = 200;
/** Most hits one answer lists (the total says how many pages matched). */
export const SEARCH_INSIDE_HITS_MAX = 200;

/** `GET /api/items/:id/search-inside?q=`: the words to find in the book's pages. */
export const searchInsideQuerySchema = z.object({
  q: z
    .string({ message: 'q is required' })
    .trim()
    .min(1, 'Type a word to search for in this book.')
    .max(SEARCH_INSIDE_QUERY_MAX, `q is at most ${SEARCH_INSIDE_QUERY_MAX} characters`),
});
export type SearchInsideQuery = z.output<typeof searchInsideQuerySchema>;

/** A piece of a snippet: `match` when it is one of the words found. Text only, never HTML. */
export const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

/** One page that holds the words, with a short passage around them. */
export const searchInsideHitSchema = z.object({
  page: z.number().int().min(1),
  snippet: z.array(snippetPartSchema),
});
export type SearchInsideHit = z.infer<typeof searchInsideHitSchema>;

/**
 * The pages that hold every word of the query (the catalogue's English text search: "creatures"
 * finds "creature"), in page order; `words` are the forms found, for marking them on the page.
 */
export const searchInsideResponseSchema = z.object({
  query: z.string(),
  total: z.number().int().nonnegative(),
  hits: z.array(searchInsideHitSchema).max(SEARCH_INSIDE_HITS_MAX),
  words: z.array(z.string()),
});
export type SearchInsideResponse = z.infer<typeof searchInsideResponseSchema>;

// ---- Preferences -----------------------------------------------------------------------------

export const READING_THEMES = ['light', 'sepia', 'dark'] as const;
export const READING_TEXT_SIZES = ['small', 'medium', 'large', 'x-large'] as const;
export const READING_LINE_WIDTHS = ['narrow', 'medium', 'wide'] as const;

/** How one person likes pages shown, on every device they sign in on. */
export const readingPreferencesSchema = z.object({
  theme: z.enum(READING_THEMES),
  textSize: z.enum(READING_TEXT_SIZES),
  lineWidth: z.enum(READING_LINE_WIDTHS),
});
export type ReadingPreferences = z.infer<typeof readingPreferencesSchema>;

/** What a person has not chosen yet. */
export const DEFAULT_READING_PREFERENCES: ReadingPreferences = {
  theme: 'light',
  textSize: 'medium',
  lineWidth: 'medium',
};

/** `PUT /api/reading/preferences`: any of the three; the others stay. */
export const readingPreferencesUpdateSchema = readingPreferencesSchema.partial().strict();

// ---- Progress, bookmarks, highlights ---------------------------------------------------------

/** Longest note on a highlight. */
export const HIGHLIGHT_NOTE_MAX = 2000;
/** Longest highlighted passage. */
export const HIGHLIGHT_QUOTE_MAX = 2000;
/** Most highlights one person keeps in one book. */
export const HIGHLIGHTS_PER_BOOK_MAX = 1000;

/** `PUT /api/items/:id/progress`: the page the reader is on. */
export const progressUpdateSchema = z.object({ page: pageNumber });

/** `PUT /api/items/:id/progress`'s answer: the page now kept as the caller's last, and when. */
export const progressSchema = z.object({
  itemId: z.string(),
  page: z.number().int().min(1),
  readAt: z.string(),
});
export type Progress = z.infer<typeof progressSchema>;

/** What `DELETE` of a bookmark or a highlight answers once it is gone. */
export const readingDeletedSchema = z.object({ success: z.literal(true) });

/** `PUT|DELETE /api/items/:id/bookmarks/:page`. */
export const bookmarkParamsSchema = z.object({ id: itemId, page: pageNumber });

export const bookmarkSchema = z.object({ page: z.number().int().min(1), createdAt: z.string() });
export type Bookmark = z.infer<typeof bookmarkSchema>;

/**
 * A highlight: a passage of one page, anchored by offsets into the page's plain text
 * (`pagePlainText` of `contract/page-text.ts`), with the passage itself kept, and a note.
 */
export const highlightSchema = z.object({
  id: z.string(),
  page: z.number().int().min(1),
  start: z.number().int().nonnegative(),
  end: z.number().int().positive(),
  quote: z.string(),
  note: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Highlight = z.infer<typeof highlightSchema>;

/**
 * `POST /api/items/:id/highlights`. The server checks that `quote` is exactly the page's plain
 * text from `start` to `end` (422 otherwise: the page changed or the selection was not on it).
 */
export const highlightCreateSchema = z
  .object({
    page: pageNumber,
    start: z
      .number()
      .int()
      .nonnegative()
      .max(DATABASE_INTEGER_MAX, 'start is past the end of any page'),
    end: z.number().int().positive().max(DATABASE_INTEGER_MAX, 'end is past the end of any page'),
    quote: z
      .string()
      .min(1, 'Select some text to highlight.')
      .max(HIGHLIGHT_QUOTE_MAX, `A highlight is at most ${HIGHLIGHT_QUOTE_MAX} characters.`),
    note: z
      .string()
      .max(HIGHLIGHT_NOTE_MAX, `A note is at most ${HIGHLIGHT_NOTE_MAX} characters.`)
      .default(''),
  })
  .refine((value) => value.end > value.start, {
    message: 'end must be after start',
    path: ['end'],
  });
export type HighlightCreate = z.output<typeof highlightCreateSchema>;

/** `PATCH|DELETE /api/highlights/:highlightId`. */
export const highlightParamsSchema = z.object({
  highlightId: z.uuid({ message: 'highlightId must be a highlight id (a UUID)' }),
});

/** `PATCH /api/highlights/:highlightId`: a new note (empty clears it). */
export const highlightUpdateSchema = z.object({
  note: z.string().max(HIGHLIGHT_NOTE_MAX, `A note is at most ${HIGHLIGHT_NOTE_MAX} characters.`),
});

/**
 * `GET /api/items/:id/reading`: the caller's own state in one book, to open it where they left
 * off: the last page read (null the first time), bookmarks and highlights by page.
 */
export const readingStateSchema = z.object({
  itemId: z.string(),
  lastPage: z.number().int().min(1).nullable(),
  lastReadAt: z.string().nullable(),
  bookmarks: z.array(bookmarkSchema),
  highlights: z.array(highlightSchema),
});
export type ReadingState = z.infer<typeof readingStateSchema>;

/** Most books "Continue reading" lists. */
export const RECENT_READING_MAX = 6;

/** `GET /api/reading/recent`: the caller's books, most recently read first. */
export const recentReadingSchema = z.object({
  books: z
    .array(
      z.object({
        item: catalogueItemSchema,
        page: z.number().int().min(1),
        pageCount: z.number().int().nonnegative(),
        readAt: z.string(),
      }),
    )
    .max(RECENT_READING_MAX),
});
export type RecentReading = z.infer<typeof recentReadingSchema>;

/** `GET /api/items/:id/citation?format=`: the book as one BibTeX or RIS entry. */
export const CITATION_FORMATS = ['bibtex', 'ris'] as const;
export const citationQuerySchema = z.object({
  format: z.enum(CITATION_FORMATS, { message: 'format must be bibtex or ris' }).default('bibtex'),
});
