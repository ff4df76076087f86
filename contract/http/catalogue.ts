import { z } from 'zod';
import { DATABASE_INTEGER_MAX } from '../limits.ts';
import { copyLocationSchema } from './copies.ts';

/** The three kinds of catalogue item. */
export const ITEM_TYPES = ['book', 'paper', 'course'] as const;
export type ItemType = (typeof ITEM_TYPES)[number];

/** Most results one search page may ask for. */
export const SEARCH_PAGE_SIZE_MAX = 50;

/**
 * Most matches of a word search that are counted and ranked. When more match, `total` is this
 * number with `totalCapped` set ("1,000+ results"), and the pages stop there.
 */
export const SEARCH_COUNT_LIMIT = 1000;

/** A blank value (`?author=`, a whitespace-only field) means "not given", not an invalid one. */
export const blankToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

/** The orders of `GET /api/search`'s results: relevance first, newest first, or by title. */
export const SEARCH_SORTS = ['relevance', 'year', 'title'] as const;
export type SearchSort = (typeof SEARCH_SORTS)[number];

/** Subjects a search's facet counts list, most frequent first. */
export const SUBJECT_FACETS_SHOWN = 10;

/** A year bound of the search, named in its messages. */
const searchYear = (name: string) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ message: `${name} must be a number` })
      .int(`${name} must be a whole number`)
      .min(-3000, `${name} is -3000 at the earliest`)
      .max(3000, `${name} is 3000 at the latest`)
      .optional(),
  );

/** `GET /api/search` query string. */
export const searchQuerySchema = z
  .object({
    q: z.string().trim().max(200, 'The search is too long (200 characters at most)').default(''),
    type: z.preprocess(
      blankToUndefined,
      z.enum(ITEM_TYPES, { message: 'type must be book, paper or course' }).optional(),
    ),
    author: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
    year: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ message: 'year must be a number' })
        .int('year must be a whole number')
        .min(-3000)
        .max(3000)
        .optional(),
    ),
    category: z.preprocess(blankToUndefined, z.string().trim().max(100).optional()),
    /** Publication years from and to, inclusive (a year-range facet). */
    yearFrom: searchYear('yearFrom'),
    yearTo: searchYear('yearTo'),
    /** One subject, exactly as a subject facet names it. */
    subject: z.preprocess(blankToUndefined, z.string().trim().max(200).optional()),
    /** `true`: only items with a copy free to reserve now. */
    available: z.preprocess(
      (value) => (value === 'true' ? true : value === 'false' ? false : blankToUndefined(value)),
      z.boolean({ message: 'available must be true or false' }).optional(),
    ),
    /** The order of the results: relevance (the default), year (newest first) or title. */
    sort: z.preprocess(
      blankToUndefined,
      z.enum(SEARCH_SORTS, { message: 'sort must be relevance, year or title' }).optional(),
    ),
    page: z.coerce.number().int().min(1, 'page starts at 1').max(10_000).default(1),
    /**
     * `true`: search the words exactly as typed, without correcting typos (the "Search instead
     * for" link after "Showing results for").
     */
    exact: z.preprocess(
      (value) => (value === undefined ? undefined : value === 'true' || value === true),
      z.boolean().optional(),
    ),
    /** Librarians only (ignored for anyone else): list withdrawn items too, marked so. */
    withdrawn: z.preprocess(
      (value) => (value === undefined ? undefined : value === 'true' || value === true),
      z.boolean().optional(),
    ),
    /** With no query and no filter: the library's built-in sample items instead of a refusal. */
    featured: z
      .preprocess((value) => value === 'true' || value === true, z.boolean())
      .default(false),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(SEARCH_PAGE_SIZE_MAX, `pageSize is at most ${SEARCH_PAGE_SIZE_MAX}`)
      .default(20),
  })
  .refine(
    (query) =>
      query.featured ||
      query.q !== '' ||
      query.author ||
      query.year !== undefined ||
      query.category ||
      query.yearFrom !== undefined ||
      query.yearTo !== undefined ||
      query.subject ||
      query.available,
    {
      message: 'Type something to search for, or choose a filter.',
      path: ['q'],
    },
  )
  .refine(
    (query) =>
      query.yearFrom === undefined || query.yearTo === undefined || query.yearFrom <= query.yearTo,
    { message: 'yearFrom must not be after yearTo', path: ['yearFrom'] },
  );
export type SearchQuery = z.output<typeof searchQuerySchema>;

/**
 * An item's physical copies as a result card and the detail view show them (issue 21): how many
 * the library holds, how many can be reserved now, and where they stand.
 */
export const shelfSchema = z.object({
  // Examples for the API reference, whose made-up answer would otherwise show 2^53 - 1.
  total: z.number().int().nonnegative().meta({ example: 3 }),
  available: z.number().int().nonnegative().meta({ example: 2 }),
  locations: z.array(copyLocationSchema),
});
export type Shelf = z.infer<typeof shelfSchema>;

/** One result card. */
export const catalogueItemSchema = z.object({
  id: z.string(),
  type: z.enum(ITEM_TYPES),
  title: z.string(),
  authors: z.array(z.string()),
  year: z.number().nullable(),
  subjects: z.array(z.string()),
  description: z.string().optional(),
  coverUrl: z.string().optional(),
  driveLink: z.string().optional(),
  url: z.string().optional(),
  hasContent: z.boolean(),
  /** Set on results from an outside source (Open Library, a books API): they link out. */
  external: z.string().optional(),
  /** Withdrawn by a librarian: only librarians' searches with `withdrawn=true` list it. */
  withdrawn: z.boolean().optional(),
  /** Set when the library holds physical copies of it: they can be reserved. */
  shelf: shelfSchema.optional(),
});
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;

/** A search's counts for its facets beside the counts per type. */
export const facetCountsSchema = z.object({
  subjects: z.array(z.object({ value: z.string(), count: z.number() })),
  /** Ranges of publication years, oldest first, both ends inclusive; only those with matches. */
  years: z.array(z.object({ from: z.number(), to: z.number(), count: z.number() })),
  /** Matches with a copy free to reserve now. */
  available: z.number(),
  capped: z.boolean().optional(),
});
export type FacetCounts = z.infer<typeof facetCountsSchema>;

/** `GET /api/search` answer: one page of results, the total, counts per type and maybe a correction. */
export const searchResponseSchema = z.object({
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
  items: z.array(catalogueItemSchema),
  facets: z.object({ type: z.object({ book: z.number(), paper: z.number(), course: z.number() }) }),
  /**
   * Set when more than {@link SEARCH_COUNT_LIMIT} items matched: `total` is then that limit, a
   * lower bound, and the results are the best of the first matches found.
   */
  totalCapped: z.boolean().optional(),
  /**
   * Set when the counts per type are lower bounds: counted among the first
   * {@link SEARCH_COUNT_LIMIT} matches of any type (the searched type's own count is exact up to
   * the limit).
   */
  facetsCapped: z.boolean().optional(),
  /**
   * Counts of the matched items by subject (the most frequent), publication years and copies free
   * now, over the same matches as `total`; `capped` when they were counted among the first
   * {@link SEARCH_COUNT_LIMIT} matches only.
   */
  facetCounts: facetCountsSchema.optional(),
  /** A corrected query when the words look misspelt ("did you mean"). */
  suggestion: z.string().optional(),
  /**
   * The words the results were found for when some words as typed found nothing and their
   * corrections did: "Showing results for {correctedQuery}. Search instead for {q}" (`exact`).
   */
  correctedQuery: z.string().optional(),
  /**
   * No item holds every word: the results hold most of them, the rarest words kept longest
   * ("No item has every word; showing items with most of them").
   */
  partialMatch: z.boolean().optional(),
  /**
   * Some results were found by their meaning (search by meaning), not by the words: the list
   * mixes both, ranked together.
   */
  byMeaning: z.boolean().optional(),
  /** Quiet notes, e.g. an outside source that did not answer. */
  notes: z.array(z.string()).optional(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

/** `GET /api/items/:id`: everything the detail view shows. */
export const itemDetailSchema = catalogueItemSchema.extend({
  isbn: z.string().optional(),
  arxivId: z.string().optional(),
  language: z.string().optional(),
  institution: z.string().optional(),
  genre: z.string().optional(),
  publishedDate: z.string().optional(),
  pageCount: z.number(),
  copies: z.number(),
});
export type ItemDetail = z.infer<typeof itemDetailSchema>;

/** Most items `GET /api/items/:id/related` lists. */
export const RELATED_ITEMS_MAX = 6;

/**
 * Why an item is listed as related, as a person reads it: it shares an author (ignoring case), it
 * shares a subject, or its embedding is near (a paper's abstract, another item's description).
 */
export const RELATED_REASONS = [
  'Same author',
  'Similar subject',
  'Similar abstract',
  'Similar description',
] as const;
export type RelatedReason = (typeof RELATED_REASONS)[number];

/** `GET /api/items/:id/related` path: a malformed id is a 400, not a 404. */
export const relatedItemsParamsSchema = z.object({
  id: z.uuid({ message: 'id must be an item id (a UUID)' }),
});

/** One related item: a result card with why it is listed. */
export const relatedItemSchema = catalogueItemSchema.extend({ reason: z.enum(RELATED_REASONS) });
export type RelatedItem = z.infer<typeof relatedItemSchema>;

/**
 * `GET /api/items/:id/related` ("More like this"): up to {@link RELATED_ITEMS_MAX} items, most
 * related first; `byMeaning` says whether nearness by embedding was used (when it was not, only
 * shared authors and subjects were).
 */
export const relatedItemsSchema = z.object({
  items: z.array(relatedItemSchema).max(RELATED_ITEMS_MAX),
  byMeaning: z.boolean(),
});
export type RelatedItems = z.infer<typeof relatedItemsSchema>;

/** `GET /api/items/:id/pages?page=N`: one page of a held text (pages count from 1). */
export const itemPageQuerySchema = z.object({
  // The bound first, so that a page of twenty digits is told so before zod's own whole-number
  // check says it is beyond a safe integer.
  page: z.coerce
    .number()
    .max(DATABASE_INTEGER_MAX, `page is at most ${DATABASE_INTEGER_MAX}`)
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .default(1),
});
export const itemPageSchema = z.object({
  itemId: z.string(),
  page: z.number(),
  pageCount: z.number(),
  content: z.string(),
});
export type ItemPage = z.infer<typeof itemPageSchema>;

/** A course material as the spec's client knows it. */
export const courseMaterialSchema = z.object({
  _id: z.string(),
  title: z.string(),
  author: z.string(),
  publishedDate: z.string(),
  driveLink: z.string(),
  instituteName: z.string(),
  genre: z.string(),
});
export type CourseMaterial = z.infer<typeof courseMaterialSchema>;

/** `GET /api/users/get-books`: course materials, newest first. */
export const getBooksResponseSchema = z.object({ payload: z.array(courseMaterialSchema) });

const isRealDate = (value: string) => {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** `POST /api/faculty/post-book`: all six fields required. */
export const postBookRequestSchema = z.object({
  title: z.string({ message: 'Title is required' }).trim().min(1, 'Title is required').max(300),
  author: z.string({ message: 'Author is required' }).trim().min(1, 'Author is required').max(200),
  publishedDate: z
    .string({ message: 'Publication date is required' })
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Publication date must be a date (YYYY-MM-DD)')
    .refine(isRealDate, 'Publication date must be a real date'),
  driveLink: z
    .string({ message: 'Drive link is required' })
    .trim()
    .min(1, 'Drive link is required')
    .max(2000)
    .pipe(
      z.url({ protocol: /^https?$/, message: 'Drive link must be an http:// or https:// URL' }),
    ),
  instituteName: z
    .string({ message: 'Institute name is required' })
    .trim()
    .min(1, 'Institute name is required')
    .max(200),
  genre: z.string({ message: 'Genre is required' }).trim().min(1, 'Genre is required').max(100),
});
export type PostBookRequest = z.infer<typeof postBookRequestSchema>;
export const postBookResponseSchema = z.object({
  success: z.literal(true),
  payload: courseMaterialSchema,
});

/** The library search's category filter (spec section 2). */
export const CATEGORIES = ['fiction', 'non-fiction', 'science', 'history'] as const;
