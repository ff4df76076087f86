import { z } from 'zod';
import { ITEM_TYPES } from './catalogue.ts';

/** Fewest characters a suggestion is asked for: one letter matches too much to help. */
export const SUGGEST_QUERY_MIN = 2;
/** Longest text a suggestion is asked for. */
export const SUGGEST_QUERY_MAX = 100;
/** Most suggestions one answer may hold. */
export const SUGGEST_LIMIT_MAX = 10;

/**
 * `GET /api/search/suggest?q=&limit=`: as-you-type suggestions (issue 22). A `q` shorter than
 * {@link SUGGEST_QUERY_MIN} characters (after trimming) is refused with a 400, so a client that
 * asks too early is told so instead of getting an empty list it could mistake for "no match".
 */
export const suggestQuerySchema = z.object({
  q: z
    .string({ message: `Type at least ${SUGGEST_QUERY_MIN} characters` })
    .trim()
    .min(SUGGEST_QUERY_MIN, `Type at least ${SUGGEST_QUERY_MIN} characters`)
    .max(SUGGEST_QUERY_MAX, `The text is too long (${SUGGEST_QUERY_MAX} characters at most)`),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit is at least 1')
    .max(SUGGEST_LIMIT_MAX, `limit is at most ${SUGGEST_LIMIT_MAX}`)
    .default(8),
});
export type SuggestQuery = z.output<typeof suggestQuerySchema>;

/**
 * One suggestion. A title names its item (`itemId`, `itemType`) and opens it; an author runs a
 * search by that author. `matched` holds the `[start, end)` character ranges of `text` that the
 * typed words matched, for highlighting.
 */
export const suggestionSchema = z.object({
  kind: z.enum(['title', 'author']),
  text: z.string(),
  itemId: z.string().optional(),
  itemType: z.enum(ITEM_TYPES).optional(),
  /** A title's first author and year, to tell editions and namesakes apart. */
  detail: z.string().optional(),
  // Pairs as two-element arrays rather than tuples: the same JSON, and a JSON Schema (minItems and
  // maxItems, no prefixItems) that every reader of the API document understands.
  matched: z.array(z.array(z.number().int().nonnegative()).length(2)),
});
export type Suggestion = z.infer<typeof suggestionSchema>;

/** `GET /api/search/suggest` answer: titles first, then authors, best first within each. */
export const suggestResponseSchema = z.object({
  suggestions: z.array(suggestionSchema),
});
export type SuggestResponse = z.infer<typeof suggestResponseSchema>;
