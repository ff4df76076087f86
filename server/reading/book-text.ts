import { sql, type Kysely } from 'kysely';
import {
  SEARCH_INSIDE_HITS_MAX,
  type ContentsEntry,
  type SnippetPart,
} from '#contract/http/reading.ts';
import { pageHeadings, pagePlainText } from '#contract/page-text.ts';
import { queryWords } from '../catalogue/search.ts';
import { STOP_WORDS } from '../catalogue/stop-words.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { readableItem } from './store.ts';

/**
 * A held text's contents and search inside it (issue 24), read from `item_pages`: the contents
 * are the pages' heading lines (Gutenberg imports make each chapter a `#` line), and a search
 * tests each page's stored `search` vector with the catalogue's text configuration (english).
 */

/** Item `itemId`'s heading lines, in page order, each with its page. */
export async function bookContents(
  db: Kysely<Database>,
  itemId: string,
): Promise<{ itemId: string; pageCount: number; entries: ContentsEntry[] }> {
  const item = await readableItem(db, itemId);
  const rows =
    item.page_count === 0
      ? []
      : await db
          .selectFrom('item_pages')
          .select(['page_number', 'headings'])
          .where('item_id', '=', item.id)
          // Only the lines starting with `#` (a generated column): `pageHeadings` decides which
          // are headings, reading the markup as the browser does.
          .where('headings', '<>', '')
          .orderBy('page_number')
          .execute();
  const entries = rows.flatMap((row) =>
    pageHeadings(row.headings)
      .filter((heading) => heading.title !== '')
      .map((heading) => ({ title: heading.title, level: heading.level, page: row.page_number })),
  );
  return { itemId: item.id, pageCount: item.page_count, entries };
}

/** Words of a snippet before the first match, and in all. */
const SNIPPET_BEFORE = 10;
const SNIPPET_WORDS = 26;

/** What search inside found: pages in order, up to the cap, and the total. */
export interface SearchInsideResult {
  total: number;
  hits: { page: number; snippet: SnippetPart[] }[];
  words: string[];
}

/** A word of a page's plain text and where it is. */
interface Token {
  text: string;
  lower: string;
  start: number;
  end: number;
}

/** A word: letters and digits, as the english parser splits text. */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;
/** The rest of a word from a given place. */
const WORD_REST = /[\p{L}\p{M}\p{N}]*/uy;
/** Whether a character is part of a word. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;

/** The words of `text` from `offset` to `end`, with their places in `text`. */
function tokens(text: string, offset = 0, end = text.length): Token[] {
  return [...text.slice(offset, end).matchAll(WORD)].map((match) => ({
    text: match[0],
    lower: match[0].toLowerCase(),
    start: offset + match.index,
    end: offset + match.index + match[0].length,
  }));
}

/**
 * What a word that stems to `lexeme` starts with. The English Snowball stem of a word starts with
 * the word minus at most its last letter ("happy" → "happi", "creatures" → "creatur"), but for
 * three words ("dying" → "die", "lying", "tying"), looked for as they are.
 */
function stemPrefixes(lexeme: string): string[] {
  const prefix = lexeme.slice(0, Math.max(2, lexeme.length - 1));
  return /^[dlt]ie$/.test(lexeme) ? [prefix, `${lexeme[0]}ying`] : [prefix];
}

/**
 * The words of a page that could be forms of the lexemes, each with its first place: found by
 * looking for their beginnings rather than by splitting the page into words, which cost most of
 * a search of a common word. `lower` must be `plain` lower-cased, of the same length.
 */
function candidateWords(lower: string, prefixes: readonly string[]): Map<string, number> {
  const found = new Map<string, number>();
  for (const prefix of prefixes) {
    for (let at = lower.indexOf(prefix); at !== -1; at = lower.indexOf(prefix, at + 1)) {
      if (at > 0 && WORD_CHAR.test(lower[at - 1]!)) continue;
      WORD_REST.lastIndex = at + prefix.length;
      const word = lower.slice(at, at + prefix.length + WORD_REST.exec(lower)![0].length);
      if (!found.has(word)) found.set(word, at);
    }
  }
  return found;
}

/**
 * The snippet of a page: about {@link SNIPPET_WORDS} words around `at` (its first matching
 * word; 0 when none), the words of `words` marked. Only the text around `at` is split into words.
 */
function snippetOf(plain: string, at: number, words: ReadonlySet<string>): SnippetPart[] {
  // Enough characters for the words either side (splitting the whole page cost a quarter of a search).
  const windowStart = Math.max(0, at - 150);
  const windowEnd = Math.min(plain.length, at + 300);
  let all = tokens(plain, windowStart, windowEnd);
  // A word cut by the window's edges is not a word of the page.
  if (windowStart > 0) all = all.slice(1);
  const cutAtEnd = windowEnd < plain.length;
  if (cutAtEnd) all = all.slice(0, -1);
  if (all.length === 0) return [];
  const first = Math.max(
    0,
    all.findIndex((token) => token.start >= at),
  );
  const from = Math.max(0, Math.min(first - SNIPPET_BEFORE, all.length - SNIPPET_WORDS));
  const to = Math.min(all.length, from + SNIPPET_WORDS);
  const startsPage = windowStart === 0 && from === 0;
  const endsPage = !cutAtEnd && to === all.length;
  const parts: SnippetPart[] = [];
  const push = (text: string, match: boolean) => {
    if (text === '') return;
    const last = parts.at(-1);
    if (last && !last.match && !match) last.text += text;
    else parts.push({ text, match });
  };
  let cursor = startsPage ? 0 : all[from]!.start;
  push(startsPage ? '' : '…', false);
  for (const token of all.slice(from, to)) {
    if (!words.has(token.lower)) continue;
    push(plain.slice(cursor, token.start), false);
    push(token.text, true);
    cursor = token.end;
  }
  push(plain.slice(cursor, endsPage ? plain.length : all[to - 1]!.end), false);
  push(endsPage ? '' : '…', false);
  // Lines of the page become spaces: a snippet is one line.
  return parts.map((part) => ({ ...part, text: part.text.replace(/\s+/g, ' ') }));
}

/**
 * The pages of item `itemId` that hold every word of `q` (PostgreSQL's web search syntax: quotes
 * for a phrase, `-word` for without, `or`), in page order: the total and the first
 * `SEARCH_INSIDE_HITS_MAX`, each with a snippet of its plain text around its first match, and the
 * forms of the words found on those pages, for the browser to mark. A query of stop words only
 * ("the", "of") finds nothing: it answers a total of 0 without asking the database.
 */
export async function searchInside(
  db: Kysely<Database>,
  itemId: string,
  q: string,
): Promise<SearchInsideResult> {
  const item = await readableItem(db, itemId);
  const nothing = { total: 0, hits: [], words: [] };
  if (item.page_count === 0 || queryWords(q).every((word) => STOP_WORDS.has(word))) return nothing;
  // The words asked for, stemmed: `-word` asks for its absence, so it is never marked.
  const positive = q.replace(/(^|\s)-\S+/g, ' ');
  const { rows } = await sql<{
    page_number: number;
    content: string;
    total: string | number;
    lexemes: string[];
  }>`${PREPARED} SELECT page_number, content, count(*) OVER () AS total,
            tsvector_to_array(to_tsvector('english', ${positive})) AS lexemes
       FROM item_pages
      WHERE item_id = ${item.id} AND search @@ websearch_to_tsquery('english', ${q})
      ORDER BY page_number
      LIMIT ${SEARCH_INSIDE_HITS_MAX}`.execute(db);
  if (rows.length === 0) return nothing;
  const prefixes = rows[0]!.lexemes.flatMap(stemPrefixes);
  const pages = rows.map((row) => {
    const plain = pagePlainText(row.content);
    const lower = plain.toLowerCase();
    // Lower-casing keeps the length but for a few letters ("İ"): then the page is split.
    const candidates =
      lower.length === plain.length
        ? candidateWords(lower, prefixes)
        : new Map(
            tokens(plain)
              .reverse()
              .map((token) => [token.lower, token.start]),
          );
    return { page: row.page_number, plain, candidates };
  });
  // The database's own stemmer says which candidates are forms of the words: "creatures" and
  // "creature's" for "creature", never a look-alike ("create").
  const asked = [...new Set(pages.flatMap((page) => [...page.candidates.keys()]))];
  const matched =
    asked.length === 0
      ? []
      : (
          await sql<{ word: string }>`${PREPARED} SELECT w AS word
              FROM unnest(${asked}::text[]) AS w
             WHERE tsvector_to_array(to_tsvector('english', w)) && ${rows[0]!.lexemes}::text[]
             ORDER BY w`.execute(db)
        ).rows.map((row) => row.word);
  const words = new Set(matched);
  return {
    total: Number(rows[0]!.total),
    hits: pages.map(({ page, plain, candidates }) => {
      const places = [...candidates].filter(([word]) => words.has(word)).map(([, at]) => at);
      return {
        page,
        snippet: snippetOf(plain, places.length > 0 ? Math.min(...places) : 0, words),
      };
    }),
    words: matched,
  };
}
