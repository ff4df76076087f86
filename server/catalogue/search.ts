import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { ItemType, SearchQuery } from '../../contract/http/catalogue.ts';
import type { Database, ItemsTable } from '../db/schema.ts';

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
>;

/** What a search found: one page of rows, the total, counts per type and maybe a correction. */
export interface SearchResult {
  total: number;
  rows: SearchRow[];
  facets: Record<ItemType, number>;
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
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/**
 * Searches the catalogue: weighted full-text search with prefix matching, the spec's filters
 * (author and category as case-insensitive substrings, year exact) and the type, all in SQL so
 * totals and paging are right. When nothing matches, misspelt words are looked up in
 * `search_words` by trigram similarity to offer a corrected query.
 */
export async function searchCatalogue(
  db: Kysely<Database>,
  query: SearchQuery,
): Promise<SearchResult> {
  let words = queryWords(query.q);
  // A query of stop words alone ('the', 'of') means nothing to full-text search: it is dropped,
  // as the filters still apply.
  if (words.length > 0) {
    const { rows } = await sql<{
      nodes: number;
    }>`SELECT numnode(to_tsquery('english', ${tsqueryText(words)})) AS nodes`.execute(db);
    if (Number(rows[0]?.nodes ?? 0) === 0) words = [];
  }
  const tsquery = words.length > 0 ? sql`to_tsquery('english', ${tsqueryText(words)})` : null;

  const conditions: RawBuilder<unknown>[] = [];
  if (tsquery) conditions.push(sql`i.search @@ ${tsquery}`);
  else if (query.q !== '' && queryWords(query.q).length === 0) conditions.push(sql`false`);
  if (query.author) {
    // Over the joined names, so the trigram index serves it (a search is a name or part of one).
    conditions.push(sql`digi_join_words(i.authors) ILIKE ${containsPattern(query.author)}`);
  }
  if (query.year !== undefined) conditions.push(sql`i.year = ${query.year}`);
  if (query.category) {
    const pattern = containsPattern(query.category);
    conditions.push(
      sql`(digi_join_words(i.subjects) ILIKE ${pattern} OR i.genre ILIKE ${pattern})`,
    );
  }
  if (query.featured && conditions.length === 0) conditions.push(sql`i.source = 'demo'`);
  const where = conditions.length > 0 ? sql.join(conditions, sql` AND `) : sql`true`;

  const { rows: counts } = await sql<{ kind: ItemType; count: string }>`
    SELECT i.kind, count(*) AS count FROM items i WHERE ${where} GROUP BY i.kind
  `.execute(db);
  const facets: Record<ItemType, number> = { book: 0, paper: 0, course: 0 };
  for (const row of counts) facets[row.kind] = Number(row.count);
  const total = query.type ? facets[query.type] : facets.book + facets.paper + facets.course;

  let rows: SearchRow[] = [];
  if (total > 0 && (query.page - 1) * query.pageSize < total) {
    const typed = query.type ? sql`${where} AND i.kind = ${query.type}` : where;
    // A title that is exactly the query (ignoring stop words and stems) comes first; then rank,
    // normalised by length so a short, focused record beats a long one that mentions the words.
    const order = tsquery
      ? sql`strip(to_tsvector('english', i.title)) = strip(to_tsvector('english', ${query.q})) DESC,
            ts_rank(i.search, ${tsquery}, 1) DESC, i.year DESC NULLS LAST, i.title`
      : sql`lower(i.title), i.year DESC NULLS LAST`;
    rows = (
      await sql<SearchRow>`
        SELECT i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description, i.cover_url,
               i.drive_link, i.url, i.page_count
        FROM items i
        WHERE ${typed}
        ORDER BY ${order}, i.id
        LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}
      `.execute(db)
    ).rows;
  }

  const suggestion =
    total === 0 && words.length > 0 ? await suggestCorrection(db, words) : undefined;
  return suggestion ? { total, rows, facets, suggestion } : { total, rows, facets };
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
  const options = await Promise.all(
    words.map(async (word) => {
      if (word.length < 3 || /^\d+$/.test(word)) return [{ word, score: 1 }];
      const { rows } = await sql<{ word: string; score: number }>`
        SELECT w.word, similarity(w.word, ${word}) - 0.03 * abs(length(w.word) - ${word.length}) AS score
        FROM search_words w
        WHERE w.word % ${word}
        ORDER BY score DESC, w.word
        LIMIT 3
      `.execute(db);
      return rows.length > 0
        ? rows.map((row) => ({ word: row.word, score: Number(row.score) }))
        : [{ word, score: 0 }];
    }),
  );
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
      SELECT 1 FROM items WHERE search @@ to_tsquery('english', ${combination.words.join(' & ')}) LIMIT 1
    `.execute(db);
    if (rows.length > 0) return combination.words.join(' ');
  }
  return undefined;
}
