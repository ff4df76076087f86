import { sql, type Kysely } from 'kysely';
import type { ItemType } from '#contract/http/catalogue.ts';
import type { Database } from '../db/schema.ts';

/** Typed characters (of the key) before later title words and authors are searched too. */
export const SUGGEST_WORDS_FROM = 3;

/**
 * Matches read per kind before ranking: each is read in index order or as the trigram index
 * finds them, so a bounded number keeps every answer inside the budget (decision 033).
 */
const CANDIDATES = 50;
/** Item rows read to find authors: names repeat across items, so more than the titles. */
const AUTHOR_ROWS = 300;

/** A suggested title: its item's columns the suggestion shows. */
export interface SuggestedTitle {
  tier: number;
  id: string;
  kind: ItemType;
  title: string;
  author: string | null;
  year: number | null;
}

/** What {@link suggest} found, best first, and the typed words (as keyed) that found it. */
export interface Suggested {
  typed: string[];
  titles: SuggestedTitle[];
  authors: string[];
}

interface AuthorRow {
  name: string;
  surname: boolean;
  items: number;
}

/**
 * As-you-type suggestions for `q` (issue 22): titles that start with the typed words first, then
 * titles with a later word that does (from {@link SUGGEST_WORDS_FROM} characters), shorter titles
 * first within each; then authors with a name word that starts so, surnames first, then those
 * with more items. Withdrawn items are never suggested. At most `limit`, authors at most a third
 * of them when titles fill the rest. Up to four statements: the key, whole titles, later words
 * (only when whole titles are too few) and authors.
 */
export async function suggest(db: Kysely<Database>, q: string, limit: number): Promise<Suggested> {
  // The key comes from the database's own function, so typed text and titles fold alike.
  const { rows: keys } = await sql<{
    key: string;
  }>`SELECT digi_suggest_key(${q}) AS key`.execute(db);
  const key = keys[0]?.key ?? '';
  if (key.length < 2) return { typed: [], titles: [], authors: [] };
  const words = key.length >= SUGGEST_WORDS_FROM;
  // The longest typed word finds candidate authors; from three letters, so a prefix is selective.
  const longest = key.split(' ').reduce((a, b) => (b.length > a.length ? b : a), '');
  const authors = words && longest.length >= 3;

  // The key is letters, digits and single spaces: nothing in it means anything to LIKE or a
  // regular expression. The planner sees the values, so it reads the prefix's range from the
  // btree index, in the index's order: the first rows are the first in key order.
  const whole = await sql<SuggestedTitle>`
    SELECT 0 AS tier, id, kind, title, authors[1] AS author, year
      FROM items
     WHERE digi_suggest_key(title) COLLATE "C" LIKE ${`${key}%`} AND withdrawn_at IS NULL
     ORDER BY digi_suggest_key(title) COLLATE "C"
     LIMIT ${CANDIDATES}
  `.execute(db);
  // Later words rank after every whole-title match, so they are read only when those are too few
  // to fill the list: a very common start ('the') never asks the trigram index for half the table.
  const later =
    words && rankTitles(whole.rows).length < limit
      ? sql<SuggestedTitle>`
          SELECT 1 AS tier, id, kind, title, authors[1] AS author, year
            FROM items
           WHERE digi_suggest_key(title) LIKE ${`% ${key}%`} AND withdrawn_at IS NULL
           LIMIT ${CANDIDATES}
        `.execute(db)
      : undefined;
  // A name word that starts with the typed text's longest word, from the index of the names'
  // words: the candidates read are already word-start matches.
  const found = authors
    ? sql<AuthorRow>`
        SELECT name,
               digi_suggest_key(name) ~ ${`(^| )${key}[^ ]*$`} AS surname,
               count(*)::int AS items
          FROM (SELECT authors FROM items
                 WHERE to_tsvector('simple', digi_join_words(authors))
                       @@ to_tsquery('simple', ${`${longest}:*`})
                   AND withdrawn_at IS NULL
                 LIMIT ${AUTHOR_ROWS}) AS found,
               unnest(found.authors) AS name
         WHERE digi_suggest_key(name) ~ ${`(^| )${key}`}
         GROUP BY name
         ORDER BY surname DESC, items DESC, length(name), name
         LIMIT ${limit}
      `.execute(db)
    : undefined;
  const [laterRows, authorRows] = await Promise.all([
    later?.then((result) => result.rows) ?? [],
    found?.then((result) => result.rows) ?? [],
  ]);
  const rows = [...whole.rows, ...laterRows];

  const titles = rankTitles(rows);
  const authorCount = Math.min(
    authorRows.length,
    Math.max(limit - titles.length, Math.ceil(limit / 3)),
  );
  return {
    typed: key.split(' '),
    titles: titles.slice(0, limit - authorCount),
    authors: authorRows.slice(0, authorCount).map((row) => row.name),
  };
}

/** Whole-title matches first, then later-word ones; shorter titles first; one per title and author. */
function rankTitles(rows: SuggestedTitle[]): SuggestedTitle[] {
  const ranked = [...rows].sort(
    (a, b) =>
      a.tier - b.tier ||
      a.title.length - b.title.length ||
      a.title.localeCompare(b.title) ||
      a.id.localeCompare(b.id),
  );
  const seen = new Set<string>();
  return ranked.filter((row) => {
    // The same item from both reads, or the same title by the same author (editions): once.
    const identity = `${row.title.toLowerCase()}\u0000${row.author ?? ''}`;
    if (seen.has(row.id) || seen.has(identity)) return false;
    seen.add(row.id);
    seen.add(identity);
    return true;
  });
}
