import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import {
  ITEM_TYPES,
  SEARCH_COUNT_LIMIT,
  type ItemType,
  type SearchQuery,
} from '#contract/http/catalogue.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import { normaliseIsbn } from './isbn.ts';

/** A result row: the item's columns the result cards need. */
export type SearchRow = Pick<
  Selectable<ItemsTable>,
  | 'id'
  | 'kind'
  | 'title'
  | 'authors'
  | 'year'
  | 'subjects'
  | 'description'
  | 'cover_url'
  | 'drive_link'
  | 'url'
  | 'page_count'
  | 'withdrawn_at'
>;

/** What a search found: one page of rows, the total, counts per type and maybe a correction. */
export interface SearchResult {
  total: number;
  rows: SearchRow[];
  facets: Record<ItemType, number>;
  /** More than {@link SEARCH_COUNT_LIMIT} matched: `total` is the limit (a lower bound). */
  totalCapped?: boolean;
  /** The counts per type are lower bounds, counted among the first matches of any type. */
  facetsCapped?: boolean;
  suggestion?: string;
}

/** The words of a query, lower-cased, letters and digits only: safe to hand to `to_tsquery`. */
export function queryWords(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 12);
}

/** Every word must match; the last one as a prefix, so results follow typing. */
export function tsqueryText(words: string[]): string {
  return words.map((word, index) => (index === words.length - 1 ? `${word}:*` : word)).join(' & ');
}

/** `%text%` for ILIKE, with the pattern characters of the text escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * What `items_search_kind_idx` indexes: the item's weighted words plus its type as the lexeme
 * `kind_<type>`. Word searches must use exactly this expression for the index to serve them.
 */
const searchDocument = sql`(i.search || array_to_tsvector(ARRAY['kind_' || i.kind]))`;

/**
 * The WHERE clauses of the spec's filters over items `i`: author and category as case-insensitive
 * substrings, year exact. The search and the librarians' export apply the same ones.
 */
export function fieldFilters(query: {
  author?: string | undefined;
  year?: number | undefined;
  category?: string | undefined;
}): RawBuilder<unknown>[] {
  const filters: RawBuilder<unknown>[] = [];
  if (query.author) {
    // Over the joined names, so the trigram index serves it (a search is a name or part of one).
    filters.push(sql`digi_join_words(i.authors) ILIKE ${containsPattern(query.author)}`);
  }
  if (query.year !== undefined) filters.push(sql`i.year = ${query.year}`);
  if (query.category) {
    const pattern = containsPattern(query.category);
    filters.push(sql`(digi_join_words(i.subjects) ILIKE ${pattern} OR i.genre ILIKE ${pattern})`);
  }
  return filters;
}

/** A word query restricted to one type, through the type lexeme of {@link searchDocument}. */
function ofType(tsquery: RawBuilder<unknown>, type: ItemType | undefined): RawBuilder<unknown> {
  return type ? sql`(${tsquery} && ${`kind_${type}`}::tsquery)` : tsquery;
}

/**
 * Searches the catalogue: weighted full-text search with prefix matching, the spec's filters
 * (author and category as case-insensitive substrings, year exact) and the type, all in SQL so
 * totals and paging are right. When nothing matches, misspelt words are looked up in
 * `search_words` by trigram similarity to offer a corrected query.
 *
 * A word search counts and ranks at most the first {@link SEARCH_COUNT_LIMIT} matches (plus one,
 * to know there are more) instead of every match: a broad prefix such as 'quant' matches tens of
 * thousands of items in a large catalogue, and reading and ranking them all costs far more than
 * the page shows. Above the limit the total is reported as capped.
 */
export async function searchCatalogue(
  db: Kysely<Database>,
  query: SearchQuery,
  { withdrawn = false }: { withdrawn?: boolean } = {},
): Promise<SearchResult> {
  // A query that is an ISBN, either form, looks up the book stored under its ISBN-13 instead.
  const isbn = normaliseIsbn(query.q);
  let words = isbn ? [] : queryWords(query.q);
  // A query of stop words alone ('the', 'of') means nothing to full-text search: it is dropped,
  // as the filters still apply.
  if (words.length > 0) {
    const { rows } = await sql<{
      nodes: number;
    }>`SELECT numnode(to_tsquery('english', ${tsqueryText(words)})) AS nodes`.execute(db);
    if (Number(rows[0]?.nodes ?? 0) === 0) words = [];
  }
  const tsquery = words.length > 0 ? sql`to_tsquery('english', ${tsqueryText(words)})` : null;

  const filters: RawBuilder<unknown>[] = [];
  if (isbn) filters.push(sql`i.isbn = ${isbn}`);
  if (tsquery === null && query.q !== '' && queryWords(query.q).length === 0)
    filters.push(sql`false`);
  filters.push(...fieldFilters(query));
  if (query.featured && filters.length === 0 && !tsquery) filters.push(sql`i.source = 'demo'`);
  // Withdrawn items are hidden from everyone searching, unless a librarian's desk asks for them.
  if (!withdrawn) filters.push(sql`i.withdrawn_at IS NULL`);

  const result = tsquery
    ? await searchWords(db, query, tsquery, filters)
    : await searchFilters(db, query, filters);
  const suggestion =
    result.total === 0 && words.length > 0 ? await suggestCorrection(db, words) : undefined;
  return suggestion ? { ...result, suggestion } : result;
}

const SEARCH_COLUMNS = sql`i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description,
  i.cover_url, i.drive_link, i.url, i.page_count, i.withdrawn_at`;

type Counts = Record<ItemType, number | string> & { hits: number | string };

/**
 * A word search in one statement: the first matches (at most the limit plus one) of the searched
 * type, ranked; for a typed search also the first matches of any type, for the counts per type.
 * Each is one bitmap scan of the full-text index that stops reading the table at the limit.
 */
async function searchWords(
  db: Kysely<Database>,
  query: SearchQuery,
  tsquery: RawBuilder<unknown>,
  filters: RawBuilder<unknown>[],
): Promise<SearchResult> {
  const limit = SEARCH_COUNT_LIMIT;
  const filtered = filters.length > 0 ? sql`AND ${sql.join(filters, sql` AND `)}` : sql``;
  const offset = (query.page - 1) * query.pageSize;
  const pageRows = Math.max(0, Math.min(query.pageSize, limit - offset));
  // Of the hits, a title that is exactly the query (ignoring stop words and stems) comes first;
  // then rank, normalised by length so a short, focused record beats a long one that mentions
  // the words. The title's words are the weight-A part of `search` (migration
  // 20261122020000_catalogue-search.sql): reading them there instead of parsing and stemming
  // every hit's title again halves the cost of a broad query.
  const hits = sql`
    SELECT i.id, i.kind, i.title, i.year,
           strip(ts_filter(i.search, '{a}')) = strip(to_tsvector('english', ${query.q})) AS exact,
           ts_rank(i.search, ${tsquery}, 1) AS rank
    FROM items i
    WHERE ${searchDocument} @@ ${ofType(tsquery, query.type)} ${filtered}
    LIMIT ${limit + 1}`;
  const anyType = query.type
    ? sql`, any_type AS MATERIALIZED (
        SELECT i.kind FROM items i WHERE ${searchDocument} @@ ${tsquery} ${filtered} LIMIT ${limit + 1}
      )`
    : sql``;
  const counted = query.type ? sql`any_type` : sql`hits`;
  const statement = sql<SearchRow & Counts & { typed: number | string }>`
    WITH hits AS MATERIALIZED (${hits}) ${anyType},
    counts AS (
      SELECT (SELECT count(*) FROM hits) AS typed, count(*) AS hits,
             count(*) FILTER (WHERE kind = 'book') AS book,
             count(*) FILTER (WHERE kind = 'paper') AS paper,
             count(*) FILTER (WHERE kind = 'course') AS course
      FROM ${counted}
    ),
    page AS (
      SELECT h.* FROM hits h
      ORDER BY h.exact DESC, h.rank DESC, h.year DESC NULLS LAST, h.title, h.id
      LIMIT ${pageRows} OFFSET ${offset}
    )
    SELECT c.*, ${SEARCH_COLUMNS}
    FROM counts c
    LEFT JOIN (page p JOIN items i ON i.id = p.id) ON true
    ORDER BY p.exact DESC, p.rank DESC, p.year DESC NULLS LAST, p.title, p.id
  `;
  // The planner, told that a LIMIT stops early, may prefer reading the table in order until it
  // has enough matches; when the matches sit late in the table, that reads all of it. The index
  // always answers a word search, so the table is never scanned here (nor is JIT worth it).
  const rows = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL jit = off`.execute(trx);
    return (await statement.execute(trx)).rows;
  });
  const counts = rows[0]!;
  const typed = Number(counts.typed);
  const facetsCapped = Number(counts.hits) > limit;
  const facets: Record<ItemType, number> = {
    book: Number(counts.book),
    paper: Number(counts.paper),
    course: Number(counts.course),
  };
  // The typed hits counted the searched type exactly (up to the limit).
  if (query.type) facets[query.type] = Math.min(typed, limit);
  else for (const type of ITEM_TYPES) facets[type] = Math.min(facets[type], limit);
  const result: SearchResult = {
    total: Math.min(typed, limit),
    rows: rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: row.id,
        kind: row.kind,
        title: row.title,
        authors: row.authors,
        year: row.year,
        subjects: row.subjects,
        description: row.description,
        cover_url: row.cover_url,
        drive_link: row.drive_link,
        url: row.url,
        page_count: row.page_count,
        withdrawn_at: row.withdrawn_at,
      })),
    facets,
  };
  if (typed > limit) result.totalCapped = true;
  if (facetsCapped) result.facetsCapped = true;
  return result;
}

/** A search by filters alone: exact counts, ordered by title. */
async function searchFilters(
  db: Kysely<Database>,
  query: SearchQuery,
  filters: RawBuilder<unknown>[],
): Promise<SearchResult> {
  const where = filters.length > 0 ? sql.join(filters, sql` AND `) : sql`true`;
  const { rows: counts } = await sql<{ kind: ItemType; count: string }>`
    SELECT i.kind, count(*) AS count FROM items i WHERE ${where} GROUP BY i.kind
  `.execute(db);
  const facets: Record<ItemType, number> = { book: 0, paper: 0, course: 0 };
  for (const row of counts) facets[row.kind] = Number(row.count);
  const total = query.type ? facets[query.type] : facets.book + facets.paper + facets.course;

  let rows: SearchRow[] = [];
  if (total > 0 && (query.page - 1) * query.pageSize < total) {
    const typed = query.type ? sql`${where} AND i.kind = ${query.type}` : where;
    rows = (
      await sql<SearchRow>`
        SELECT ${SEARCH_COLUMNS}
        FROM items i
        WHERE ${typed}
        ORDER BY lower(i.title), i.year DESC NULLS LAST, i.id
        LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
      `.execute(db)
    ).rows;
  }
  return { total, rows, facets };
}

/**
 * A corrected query that finds something: each word gets its closest catalogue words (by trigram
 * similarity, less a little for each letter of difference in length, so 'frankenstien' finds
 * 'frankenstein' rather than 'franken'), and the most similar combination that matches at least
 * one item wins. Checking
 * the combination, not each word alone, picks 'hunger games' over 'hungry games'.
 */
async function suggestCorrection(
  db: Kysely<Database>,
  words: string[],
): Promise<string | undefined> {
  // search_words is small, so the planner may prefer computing the similarity of every word to
  // the trigram index; on PGlite (WebAssembly) that costs a hundred milliseconds or more.
  const options = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    return Promise.all(
      words.map(async (word) => {
        if (word.length < 3 || /^\d+$/.test(word)) return [{ word, score: 1 }];
        const { rows } = await sql<{ word: string; score: number }>`
        SELECT w.word, similarity(w.word, ${word}) - 0.03 * abs(length(w.word) - ${word.length}) AS score
        FROM search_words w
        WHERE w.word % ${word}
        ORDER BY score DESC, w.word
        LIMIT 3
      `.execute(trx);
        return rows.length > 0
          ? rows.map((row) => ({ word: row.word, score: Number(row.score) }))
          : [{ word, score: 0 }];
      }),
    );
  });
  let combinations: { words: string[]; score: number }[] = [{ words: [], score: 0 }];
  for (const choices of options) {
    combinations = combinations.flatMap((combination) =>
      choices.map((choice) => ({
        words: [...combination.words, choice.word],
        score: combination.score + choice.score,
      })),
    );
  }
  combinations.sort((a, b) => b.score - a.score);
  for (const combination of combinations.slice(0, 27)) {
    if (combination.words.every((word, index) => word === words[index])) continue;
    const { rows } = await sql`
      SELECT 1 FROM items i
      WHERE ${searchDocument} @@ to_tsquery('english', ${combination.words.join(' & ')})
        AND i.withdrawn_at IS NULL
      LIMIT 1
    `.execute(db);
    if (rows.length > 0) return combination.words.join(' ');
  }
  return undefined;
}
