import { sql, type Kysely, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import {
  ITEM_TYPES,
  SEARCH_COUNT_LIMIT,
  type FacetCounts,
  type ItemType,
  type SearchQuery,
} from '#contract/http/catalogue.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import {
  countFacets,
  facetAggregates,
  facetCountsOf,
  facetFilters,
  freeNow,
  limitedMatches,
  sortFirst,
  type FacetRow,
} from './facets.ts';
import { PREPARED } from '../db/prepared.ts';
import {
  nearestToVector,
  SEARCH_PLANNER_SETTINGS,
  topicText,
  type QueryMeaning,
} from './meaning.ts';
import { normaliseIsbn } from './isbn.ts';
import { STOP_WORDS, stopWordTypo } from './stop-words.ts';
import { findCorrections, typoAllowance } from './typos.ts';

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

/**
 * A row of a search's page: a {@link SearchRow} and how many copies the library holds, so the
 * route reads the shelves of those items alone.
 */
export type SearchHit = SearchRow & Pick<Selectable<ItemsTable>, 'copies'>;

/** What a search found: one page of rows, the total, counts per type and maybe a correction. */
export interface SearchResult {
  total: number;
  rows: SearchHit[];
  facets: Record<ItemType, number>;
  /** More than {@link SEARCH_COUNT_LIMIT} matched: `total` is the limit (a lower bound). */
  totalCapped?: boolean;
  /** The counts per type are lower bounds, counted among the first matches of any type. */
  facetsCapped?: boolean;
  /** Subjects, year ranges and copies free now among the same matches (`countFacets`). */
  facetCounts?: FacetCounts;
  suggestion?: string;
  /**
   * The words the first result was found for, when some of the words as typed found nothing and
   * their corrections did ("Showing results for …").
   */
  correctedQuery?: string;
  /** No item held every word: these hold most of them (the rarest kept longest). */
  partialMatch?: boolean;
  /** Items found by meaning alone, not by the words, are among these. */
  byMeaning?: boolean;
}

/** How a search runs, beyond what was asked. */
export interface SearchOptions {
  /** Withdrawn items too (a librarian's desk). */
  withdrawn?: boolean;
  now?: Date;
  /**
   * Embeds the query for search by meaning (hybrid ranking); without it, or where the database
   * has no vector index, the search ranks by words alone.
   */
  meaning?: QueryMeaning;
}

/**
 * The words of a query, lower-cased, letters (with their accents) and digits only: safe to hand
 * to `to_tsquery`. Apostrophes join a word ("Who's" is 'whos'), as `digi_title_text` reads titles.
 */
export function queryWords(q: string): string[] {
  return (
    q
      .toLowerCase()
      .replace(/['’ʼ‘`´]/g, '')
      .match(/[\p{L}\p{M}\p{N}]+/gu) ?? []
  ).slice(0, 12);
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

/**
 * `text` parsed as an English tsquery once per statement: a scalar subquery, which PostgreSQL
 * runs once (an InitPlan) and an index scan still takes as its key. `to_tsquery` is stable, not
 * immutable, so written bare in a row's test it parses and stems the words again for every row
 * tested: a third of a broad search's time (200 candidates, seven tests each).
 */
function parsedQuery(text: string): RawBuilder<unknown> {
  return sql`(SELECT to_tsquery('english', ${text}))`;
}

/** Each of `texts` as a {@link parsedQuery}, in order, as a tsquery array (null stays null). */
function parsedQueries(texts: readonly (string | null)[]): RawBuilder<unknown> {
  return sql`ARRAY(SELECT to_tsquery('english', t)
    FROM unnest(${[...texts]}::text[]) WITH ORDINALITY AS u (t, n) ORDER BY n)`;
}

/**
 * A word query (a {@link parsedQuery}) restricted to one type, through the type lexeme of
 * {@link searchDocument}; combined once per statement too.
 */
function ofType(tsquery: RawBuilder<unknown>, type: ItemType | undefined): RawBuilder<unknown> {
  return type ? sql`(SELECT ${tsquery} && ${`kind_${type}`}::tsquery)` : tsquery;
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
  { withdrawn = false, now = new Date(), meaning }: SearchOptions = {},
): Promise<SearchResult> {
  // A query that is an ISBN, either form, looks up the book stored under its ISBN-13 instead; an
  // arXiv identifier, its paper.
  const isbn = normaliseIsbn(query.q);
  const arxiv = isbn ? null : arxivIdOf(query.q);
  const words = isbn || arxiv ? [] : queryWords(query.q);

  const filters: RawBuilder<unknown>[] = [];
  if (isbn) filters.push(sql`i.isbn = ${isbn}`);
  if (arxiv) filters.push(sql`i.arxiv_id = ${arxiv}`);
  if (!isbn && !arxiv && query.q !== '' && words.length === 0) filters.push(sql`false`);
  filters.push(...fieldFilters(query), ...facetFilters(query, now));
  if (query.featured && filters.length === 0 && words.length === 0) {
    filters.push(sql`i.source = 'demo'`);
  }
  // Withdrawn items are hidden from everyone searching, unless a librarian's desk asks for them.
  if (!withdrawn) filters.push(sql`i.withdrawn_at IS NULL`);

  let searched = words.length > 0 ? await searchWords(db, query, words, filters, now) : null;
  const wordsTotal = searched?.total;
  if (searched && meaning && hybridRanking(query, searched)) {
    searched = await searchByMeaning(db, query, searched, filters, now, meaning);
  }
  const found = searched ?? (await searchFilters(db, query, filters));
  const matched = searched?.matched ?? (query.type ? sql`i.kind = ${query.type}` : sql`true`);
  // A ranked word search counted its facets in its own statement.
  const facetCounts = found.facetCounts ?? (await countFacets(db, [matched, ...filters], now));
  const {
    matched: _matched,
    terms: _terms,
    level: _level,
    pinned: _pinned,
    ...result
  } = {
    matched: undefined,
    terms: undefined,
    level: undefined,
    pinned: undefined,
    ...found,
    facetCounts,
  };
  // A correction is offered when no item holds every word, even if some hold most of them or
  // their meaning found some.
  const suggestion =
    (wordsTotal === 0 || searched?.partialMatch) && words.length > 0
      ? await suggestCorrection(db, words)
      : undefined;
  return suggestion ? { ...result, suggestion } : result;
}

/** An arXiv identifier (`2101.00001`, `arXiv:2101.00001v2`, `hep-th/9901001`) without its version. */
export function arxivIdOf(q: string): string | null {
  const match =
    /^\s*(?:arxiv:\s*)?(\d{4}\.\d{4,5}|[a-z-]+(?:\.[a-z]{2})?\/\d{7})(?:v\d+)?\s*$/i.exec(q);
  return match ? match[1]!.toLowerCase() : null;
}

const SEARCH_COLUMNS = sql`i.id, i.kind, i.title, i.authors, i.year, i.subjects, i.description,
  i.cover_url, i.drive_link, i.url, i.page_count, i.withdrawn_at, i.copies`;

type Counts = Record<ItemType, number | string> & { hits: number | string };

/**
 * The key of a text's words as `items.title_key` is made (migration
 * 20261201100000_known-item-titles.sql): its lexemes, marks read as `digi_title_text` reads
 * them, as one md5.
 */
function titleKey(text: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`md5(strip(to_tsvector('english', digi_title_text(${text})))::text)`;
}

/** How popular an item is, for ties: the source's ratings and its circulation here. */
const popularity = (alias: string) =>
  sql`(coalesce(${sql.raw(alias)}.ratings_count, 0) + ${sql.raw(alias)}.circulation)`;

/**
 * Items whose titles and authors hold every word that are ranked: enough for a known title or
 * an author's book among many, few enough to rank in a few milliseconds.
 */
const TITLE_CANDIDATES = 300;

/**
 * Of the matches anywhere (up to {@link SEARCH_COUNT_LIMIT}, counted), how many are ranked beside
 * the title and author matches when the page may need them: ranking costs a few microseconds a
 * row (`ts_rank` reads the whole record's words), and a match outside the title and authors ranks
 * below every such match anyway.
 */
const RANKED_HITS = 200;

/**
 * Reciprocal rank fusion's constant: an item's score is the sum over the lists of
 * 1 / (RRF_K + its place), so the first places differ little and an item high in both lists wins
 * (60, as Cormack, Clarke and Büttcher proposed it and most hybrid search engines use it).
 */
const RRF_K = 60;

/**
 * Matches of any word ranked beside the probes when ranking by BM25: fewer than
 * {@link RANKED_HITS}, as BM25 reads each one's words, and the first found are no better than any.
 */
const GRADED_HITS = 100;

/** Most titles a corrected query is taken to stand for (as typed, and corrected a few ways). */
const MEANT_TITLES = 10;

/** One query word and what it may stand for. */
export interface QueryTerm {
  /** As typed, lower-cased. */
  word: string;
  /** As `to_tsquery` takes it: the last word as a prefix. */
  typed: string;
  /** Catalogue words it may be a typo of, closest first: searched beside it. */
  alternatives: string[];
  /** How many of the alternatives (the first ones) are one mistake away; the rest are two. */
  near?: number;
  /**
   * The stop word it is a typo of ('otehr' for 'other'): it is then not required, as the stop
   * word it stands for would not be.
   */
  dropped?: string;
}

/** Items holding some of the words: the tsquery text of a level and each term's weight. */
export interface MatchLevel {
  match: string;
  weights: number[];
  /**
   * Where candidates are looked for besides the first matches found (each a tsquery text and how
   * many it gives): a level of any word matches too many items to rank them all, and the first
   * found are no better than any other, so the items holding the words together are asked for.
   */
  probes?: { match: string; limit: number }[];
  /**
   * Ranked by BM25 (the weights are each word's inverse document frequency): how often the item
   * holds a word counts, saturating, and a long record less; otherwise a word held counts its
   * weight once.
   */
  graded?: boolean;
}

/** A word search's answer, with what a ranking by meaning needs to rank it again. */
interface WordSearch extends SearchResult {
  /** What the words matched, for the facets. */
  matched: RawBuilder<unknown>;
  /** The terms searched (with their corrections); none for a title of stop words alone. */
  terms?: QueryTerm[];
  /** No item held every word: the level of "most words" that found these. */
  level?: MatchLevel;
  /** A known item (an exact title, a title and author) was among the candidates. */
  pinned?: boolean;
  /** Per word: a stop word (no lexeme), and how many items' titles, authors or subjects hold it. */
  stop?: boolean[];
  documents?: number[];
}

/** A term's part of a tsquery: the word as typed or any of its corrections. */
function termQuery(term: QueryTerm): string {
  return term.alternatives.length === 0
    ? term.typed
    : `(${[term.typed, ...term.alternatives].join(' | ')})`;
}

/** The tsquery text of the terms: every term that is not dropped. */
function termsQuery(terms: readonly QueryTerm[]): string {
  return terms
    .filter((term) => term.dropped === undefined)
    .map(termQuery)
    .join(' & ');
}

/** The query as it most likely was meant: each word's closest correction, or itself. */
function likeliestText(terms: readonly QueryTerm[]): string {
  return terms.map((term) => term.dropped ?? term.alternatives[0] ?? term.word).join(' ');
}

/**
 * A word search, forgiving typos: each word is searched as typed and, when the catalogue's
 * vocabulary does not hold it, as its corrections too (`findCorrections`); when that finds
 * nothing, every word that can be corrected is. Hits with fewer corrections rank first, then an
 * exact title, a title and author, rank, year. Answers the tsquery it searched with (for the
 * facets) and, when the first result needed corrections, the query it stands for.
 */
async function searchWords(
  db: Kysely<Database>,
  query: SearchQuery,
  words: string[],
  filters: RawBuilder<unknown>[],
  now: Date,
): Promise<WordSearch | null> {
  return db.transaction().execute(async (trx) => {
    // The planner, told that a LIMIT stops early, may prefer reading the table in order until it
    // has enough matches; when the matches sit late in the table, that reads all of it. The
    // indexes always answer a word search, so the table is never scanned here (nor is JIT worth
    // it); search_words is small enough that the planner would rather scan it than probe it.
    // A stop word ('the', 'of') means nothing to full-text search; a query of them alone is
    // dropped, as the filters still apply. The settings (`SEARCH_PLANNER_SETTINGS`) go in the
    // same statement: each statement has a fixed cost, most of all on PGlite.
    // The statements after it are prepared (decision 035) and run with their generic plan: left to
    // choose, PostgreSQL kept planning some shapes anew on every run (2-3 ms each on PGlite), as
    // their generic plan's estimate looked dearer than their custom plans', though it ran no
    // slower on any of the bench's queries.
    // Whether the vocabulary knows each word goes in the same statement: only a word it does not
    // know (the last one, being typed, not even as the start of a word) has its corrections
    // looked up; a search of known words (most) sends no other statement before its own.
    const { rows } = await sql<{
      nodes: number[];
      known: boolean[];
      documents: number[];
    }>`${PREPARED}
      SELECT ${SEARCH_PLANNER_SETTINGS},
             (SELECT array_agg(numnode(to_tsquery('english', w)) ORDER BY n)
              FROM unnest(${words}::text[]) WITH ORDINALITY AS t (w, n)) AS nodes,
             (SELECT array_agg(coalesce((SELECT s.documents FROM search_words s WHERE s.word = w), 0)
                ORDER BY n)
              FROM unnest(${words}::text[]) WITH ORDINALITY AS t (w, n)) AS documents,
             (SELECT array_agg(EXISTS (SELECT FROM search_words s WHERE s.word = w) OR (
                n = ${words.length} AND
                (SELECT starts_with(s.word, w) FROM search_words s WHERE s.word >= w
                 ORDER BY s.word LIMIT 1)) ORDER BY n)
              FROM unnest(${words}::text[]) WITH ORDINALITY AS t (w, n)) AS known`.execute(trx);
    const stop = (rows[0]?.nodes ?? []).map((nodes) => Number(nodes) === 0);
    const documents = (rows[0]?.documents ?? []).map(Number);
    const known = (rows[0]?.known ?? []).map((value) => value === true);
    const terms: QueryTerm[] = words.map((word, index) => ({
      word,
      typed: index === words.length - 1 ? `${word}:*` : word,
      alternatives: [],
    }));
    const correctable = (index: number, all: boolean) =>
      !query.exact && !stop[index] && (all || !known[index]) && typoAllowance(words[index]!) > 0;
    let found: Awaited<ReturnType<typeof findCorrections>> | null = null;
    const lookUp = async (all: boolean) => {
      const asked = words.map((word, index) => (correctable(index, all) ? word : null));
      if (asked.every((word) => word === null)) return;
      const more = await findCorrections(trx, asked);
      if (!found) found = more;
      else
        found.corrections = found.corrections.map((list, index) =>
          list.length > 0 ? list : more.corrections[index]!,
        );
    };
    await lookUp(false);
    const correct = (all: boolean): QueryTerm[] =>
      terms.map((term, index) => {
        if (!found || !correctable(index, all)) return term;
        // A slip of a stop word stands for it: requiring it would find nothing.
        const slip = stopWordTypo(term.word);
        if (slip !== null) return { ...term, dropped: slip };
        const corrections = found.corrections[index]!.filter(({ word }) => !STOP_WORDS.has(word));
        return {
          ...term,
          alternatives: corrections.map((correction) => correction.word),
          near: corrections.filter((correction) => correction.distance <= 1).length,
        };
      });
    const searchable = (candidate: QueryTerm[]) =>
      candidate.some((term, index) => !stop[index] && term.dropped === undefined);

    let used = correct(false);
    if (!searchable(used)) {
      // Nothing but stop words ("It", "Me Before You", "nOce"): a title of exactly those words.
      // Its statements were not written for generic plans (decision 047): from here on
      // PostgreSQL chooses between custom and generic plans again.
      await sql`SELECT set_config('plan_cache_mode', 'auto', true)`.execute(trx);
      const byTitle = await searchTitleWords(trx, query, used, filters);
      if (byTitle) return byTitle;
      // Words that were dropped as slips of stop words may still be corrected otherwise.
      used = used.map((term, index) =>
        term.dropped === undefined || !found
          ? term
          : {
              word: term.word,
              typed: term.typed,
              alternatives: found.corrections[index]!.map((correction) => correction.word),
              near: found.corrections[index]!.filter((correction) => correction.distance <= 1)
                .length,
            },
      );
      if (!searchable(used)) return null;
    }
    let result = await rankedSearch(trx, query, used, filters, now);
    if (result.total === 0 && words.some((_, index) => correctable(index, true))) {
      await lookUp(true);
    }
    const more = correct(true);
    if (
      result.total === 0 &&
      searchable(more) &&
      more.some(
        (term, index) =>
          term.alternatives.length > used[index]!.alternatives.length ||
          (term.dropped !== undefined && used[index]!.dropped === undefined),
      )
    ) {
      used = more;
      result = await rankedSearch(trx, query, used, filters, now);
    }
    // No item holds every word: those holding most of them, the rarest words kept longest.
    let level: MatchLevel | undefined;
    if (result.total === 0) {
      for (const candidate of matchLevels(used, stop, documents)) {
        const partial = await rankedSearch(trx, query, used, filters, now, { level: candidate });
        if (partial.total > 0) {
          level = candidate;
          result = { ...partial, partialMatch: true };
          break;
        }
      }
    }
    const tsquery = parsedQuery(level?.match ?? termsQuery(used));
    return {
      ...result,
      matched: sql`${searchDocument} @@ ${ofType(tsquery, query.type)}`,
      terms: used,
      stop,
      documents,
      ...(level ? { level } : {}),
    };
  });
}

/** Most choices of words a level of "most words" asks for in one tsquery. */
const MOST_LEVELS_ASKED = 20;

/**
 * When no item holds every word of a query, the levels tried, each a tsquery text and the
 * words' weights: items holding all but one word, then all but two, and so on down to one word.
 * A level is every choice of that many words while there are at most {@link MOST_LEVELS_ASKED}
 * choices (so all items holding that many are found, whichever words they miss); beyond, only
 * the rarest words (fewest items in the vocabulary), as Meilisearch's "frequency" matching
 * strategy drops the commonest first. Stop words and slips of them count for nothing; a query of
 * one word has no levels.
 */
export function matchLevels(
  terms: readonly QueryTerm[],
  stop: readonly boolean[],
  documents: readonly number[],
): MatchLevel[] {
  const content = contentWords(terms, stop);
  const weights = wordWeights(terms, content, documents);
  const rarestFirst = [...content].sort(
    (a, b) => (documents[a] ?? 0) - (documents[b] ?? 0) || a - b,
  );
  const levels: MatchLevel[] = [];
  for (let size = content.length - 1; size >= 1; size -= 1) {
    // A choice of numbers alone is no topic: "080442957-1" (a mistyped ISBN) does not find every
    // item with a 1 in it.
    const choices = (
      choose(content.length, size) <= MOST_LEVELS_ASKED
        ? subsets(content, size)
        : [rarestFirst.slice(0, size).sort((a, b) => a - b)]
    ).filter((choice) => choice.some((index) => !NUMBER.test(terms[index]!.word)));
    if (choices.length === 0) continue;
    const match = choices
      .map((choice) => `(${choice.map((index) => termQuery(terms[index]!)).join(' & ')})`)
      .join(' | ');
    levels.push({ match, weights });
  }
  return levels;
}

/** A word of digits alone. */
const NUMBER = /^\p{N}+$/u;

/** The words of a query that count: not stop words, not slips of them. */
function contentWords(terms: readonly QueryTerm[], stop: readonly boolean[]): number[] {
  return terms
    .map((_, index) => index)
    .filter((index) => !stop[index] && terms[index]!.dropped === undefined);
}

/** Each word's weight: a rare word weighs more, ln of how much rarer than one every item holds. */
function wordWeights(
  terms: readonly QueryTerm[],
  content: readonly number[],
  documents: readonly number[],
): number[] {
  return terms.map((_, index) =>
    content.includes(index) ? Math.log(1 + 1_000_000 / (1 + (documents[index] ?? 0))) : 0,
  );
}

/**
 * A term as a level of any word asks for it: as `termQuery`, but a short last word is not taken
 * as the start of a longer one ("books about AI" is not about air; typing a description, the last
 * word is most often whole).
 */
function levelWord(term: QueryTerm): string {
  return termQuery(term.word.length < 4 ? { ...term, typed: term.word } : term);
}

/**
 * How many items hold each of the `content` words anywhere, as the planner's statistics of the
 * items' words tell it (`pg_stats.most_common_elems` of `items.search`, kept by ANALYZE): a word
 * among the most common has its measured share, any other less than the least common of them.
 * One look at the catalogue's statistics, where counting the items holding each word took a second
 * at 100,000 items (bench:hybrid). Without statistics yet, the vocabulary's counts (titles,
 * authors and subjects) stand in. `total` is the planner's count of items.
 */
async function documentFrequencies(
  trx: Transaction<Database>,
  terms: readonly QueryTerm[],
  content: readonly number[],
  vocabulary: readonly number[],
): Promise<{ documents: number[]; total: number }> {
  const words = content.map((index) =>
    [terms[index]!.word, ...terms[index]!.alternatives].join(' '),
  );
  const { rows } = await sql<{ shares: (number | string | null)[] | null; total: number | string }>`
    SELECT c.reltuples AS total,
           (SELECT array_agg((
              SELECT max(f.share) FROM unnest(s.elems, s.freqs) AS f (lexeme, share)
               WHERE f.lexeme = ANY (tsvector_to_array(to_tsvector('english', w)))
            ) ORDER BY n) FROM unnest(${words}::text[]) WITH ORDINALITY AS t (w, n)) AS shares,
           s.freqs[array_length(s.elems, 1) + 1] AS least
      FROM pg_class c
      LEFT JOIN (SELECT most_common_elems::text::text[] AS elems, most_common_elem_freqs AS freqs
                   FROM pg_stats
                  WHERE schemaname = current_schema() AND tablename = 'items' AND attname = 'search') s
        ON true
     WHERE c.oid = 'items'::regclass`.execute(trx);
  const row = rows[0] as
    | {
        shares: (number | string | null)[] | null;
        total: number | string;
        least?: number | string | null;
      }
    | undefined;
  const total = Math.max(1_000, Number(row?.total ?? 0));
  if (!row?.shares || row.least === null || row.least === undefined) {
    return { documents: [...vocabulary], total };
  }
  const least = Number(row.least);
  const documents = terms.map(() => 0);
  content.forEach((index, at) => {
    const share = row.shares![at];
    documents[index] = Math.round(
      total * (share === null || share === undefined ? least / 2 : Number(share)),
    );
  });
  return { documents, total };
}

/** Pairs of words a level of any word asks for together, at most. */
const PAIRS_ASKED = 15;

/**
 * The words' side of a ranking by words and meaning: any word may match, as a BM25 ranking's
 * would, the items holding more of them, and rarer ones, first (`held`). Candidates are those
 * holding every word, each pair of words, and each word, so the best are among them whatever the
 * table's order. Undefined when no word counts.
 */
export function anyWordLevel(
  terms: readonly QueryTerm[],
  stop: readonly boolean[],
  { documents, total }: { documents: readonly number[]; total: number },
): MatchLevel | undefined {
  const content = contentWords(terms, stop);
  if (content.length === 0) return undefined;
  const word = (index: number) => levelWord(terms[index]!);
  const together = (choice: readonly number[]) => choice.map(word).join(' & ');
  // Of two words, the pair is every word.
  const pairs =
    content.length > 2 && choose(content.length, 2) <= PAIRS_ASKED ? subsets(content, 2) : [];
  return {
    match: content.map((index) => `(${word(index)})`).join(' | '),
    // BM25's inverse document frequency (`documentFrequencies`).
    weights: terms.map((_, index) => {
      if (!content.includes(index)) return 0;
      const held = Math.min(documents[index] ?? 0, total);
      return Math.log(1 + (total - held + 0.5) / (held + 0.5));
    }),
    graded: true,
    // Each word alone is not probed: the matches of any word are candidates already, and a probe
    // of one common word took the planner to a scan in title order (bench:hybrid).
    probes:
      content.length > 1
        ? [
            { match: together(content), limit: 200 },
            ...pairs.map((pair) => ({ match: together(pair), limit: 60 })),
          ]
        : [],
  };
}

/** n choose k. */
function choose(n: number, k: number): number {
  let result = 1;
  for (let index = 1; index <= k; index += 1) result = (result * (n - k + index)) / index;
  return Math.round(result);
}

/** Every choice of `size` of `items`, each in the items' order. */
function subsets(items: readonly number[], size: number): number[][] {
  if (size === 0) return [[]];
  if (items.length < size) return [];
  const [first, ...rest] = items;
  return [...subsets(rest, size - 1).map((choice) => [first!, ...choice]), ...subsets(rest, size)];
}

/**
 * Whether a word search is ranked again with the items nearest its meaning: ranked by relevance,
 * of words (not a title of stop words alone), and no candidate is a known item (a title exactly,
 * or a title and its author): a search for a book by name costs nothing more, and keeps it on top.
 */
function hybridRanking(query: SearchQuery, searched: WordSearch): boolean {
  return (
    searched.terms !== undefined &&
    !searched.pinned &&
    (query.sort === undefined || query.sort === 'relevance') &&
    // Words nobody wrote ("asdf", "xqzzy plomb") still have nearest items, as near as a real
    // topic's (bench/README.md, "Topics"): what no word of the query finds and no word of the
    // catalogue's vocabulary names is not offered by meaning either.
    (searched.total > 0 || (searched.documents ?? []).some((documents) => documents > 0)) &&
    // Numbers alone (a mistyped ISBN, a year) mean nothing to the model.
    searched.terms.some((term) => !NUMBER.test(term.word)) &&
    // A description takes words: one word ("gothic", "time") is a subject or a name, which the
    // words answer exactly, and its count of results stays that of the items holding it.
    contentWords(searched.terms, searched.stop ?? []).length >= 2
  );
}

/**
 * A word search ranked again with the items nearest to the query's meaning (HNSW index), fused
 * by reciprocal rank (`rankedSearch`). The query is embedded outside any transaction (a
 * transaction holds PGlite's one connection). When the embedding fails (the thread died) or no
 * item is near enough, the word search stands: its failure is logged where it is embedded.
 */
async function searchByMeaning(
  db: Kysely<Database>,
  query: SearchQuery,
  searched: WordSearch,
  filters: RawBuilder<unknown>[],
  now: Date,
  meaning: QueryMeaning,
): Promise<WordSearch> {
  let vector: Float32Array;
  try {
    vector = await meaning.embed(query.q);
  } catch {
    return searched;
  }
  return db.transaction().execute(async (trx) => {
    const near = await nearestToVector(trx, vector, meaning.model);
    if (near.length === 0) return searched;
    const terms = searched.terms!;
    // The words saying what kind of item is wanted ("books about", "research on") count as stop
    // words here, as they are not embedded either: "books about AI" is about AI.
    const topic = new Set(queryWords(topicText(query.q)));
    const stop = terms.map(
      (term, index) =>
        (searched.stop ?? [])[index] === true || (topic.size > 0 && !topic.has(term.word)),
    );
    const level =
      anyWordLevel(
        terms,
        stop,
        await documentFrequencies(trx, terms, contentWords(terms, stop), searched.documents ?? []),
      ) ?? searched.level;
    const fused = await rankedSearch(trx, query, searched.terms!, filters, now, {
      ...(level ? { level } : {}),
      near,
    });
    const { pinned: _pinned, ...result } = fused;
    return { ...searched, ...result };
  });
}

/**
 * A query of stop words alone ("It", "Once", "Me Before You"; or slips of them, "nOce") has no
 * lexeme to search by: it finds the titles of exactly those words, by their main title's words
 * (`items_main_title_words_idx`), the title as typed first, then the most popular. Null when none
 * has that title.
 */
async function searchTitleWords(
  trx: Transaction<Database>,
  query: SearchQuery,
  terms: QueryTerm[],
  filters: RawBuilder<unknown>[],
): Promise<WordSearch | null> {
  const text = likeliestText(terms);
  const byTitle = sql`digi_main_title_words(i.title) = digi_title_words(${text}::text)`;
  const result = await searchFilters(
    trx,
    query,
    [...filters, byTitle],
    sql`(digi_title_words(i.title) = digi_title_words(${text}::text)) DESC, ${popularity('i')} DESC,
      char_length(i.title),`,
  );
  if (result.total === 0) return null;
  const matched = query.type ? sql`${byTitle} AND i.kind = ${query.type}` : byTitle;
  const dropped = terms.some((term) => term.dropped !== undefined);
  return { ...result, matched, ...(dropped && query.page === 1 ? { correctedQuery: text } : {}) };
}

/**
 * What a hit that needed corrections was found for: each term's first choice (the word as typed,
 * then its corrections in order) that `found` (one flag per choice of the corrected terms, in
 * order) says the hit holds; a dropped slip of a stop word as the stop word; a term that was not
 * corrected as typed.
 */
export function matchedText(terms: readonly QueryTerm[], found: readonly boolean[]): string {
  const words: string[] = [];
  let at = 0;
  for (const term of terms) {
    if (term.dropped !== undefined) words.push(term.dropped);
    else if (term.alternatives.length === 0) words.push(term.word);
    else {
      const choices = [term.typed, ...term.alternatives];
      const index = choices.findIndex((_, offset) => found[at + offset] === true);
      at += choices.length;
      if (index === 0) words.push(term.word);
      else if (index > 0) words.push(choices[index]!);
    }
  }
  return words.join(' ');
}

/**
 * The ranked page of a word search, in one statement. Candidates are chosen by relevance, not by
 * the table's order: every item whose title is exactly the query (an index on the title's words
 * finds them at any size), the first {@link TITLE_CANDIDATES} whose titles and authors together
 * hold every word (an index on those words), and, when the page may reach past those, the first
 * {@link RANKED_HITS} matching anywhere. Those are ranked: fewest corrections, then an exact title,
 * then the title and the author together exactly, then `ts_rank` (normalised by length, so a
 * short, focused record beats a long one that mentions the words), then newer, then by title. The
 * total and the counts per type are those of the matches anywhere, up to the limit.
 */
async function rankedSearch(
  trx: Transaction<Database>,
  query: SearchQuery,
  terms: QueryTerm[],
  filters: RawBuilder<unknown>[],
  now: Date,
  {
    level,
    near = [],
  }: {
    /** Not every word: items holding some of them (`matchLevels`), most weight first. */
    level?: MatchLevel;
    /** Ids of the items nearest the query's meaning, nearest first: fused by reciprocal rank. */
    near?: readonly string[];
  } = {},
): Promise<SearchResult & { pinned: boolean }> {
  const limit = SEARCH_COUNT_LIMIT;
  const filtered = filters.length > 0 ? sql`AND ${sql.join(filters, sql` AND `)}` : sql``;
  const offset = (query.page - 1) * query.pageSize;
  const pageRows = Math.max(0, Math.min(query.pageSize, limit - offset));
  const tsquery = parsedQuery(level?.match ?? termsQuery(terms));
  // Every word, whatever the level: an exact title, or a title and its author, holds them all.
  const allWords = level ? parsedQuery(termsQuery(terms)) : tsquery;
  // The same with the last word whole, not as a prefix: 'life' finds 'Run for Your Life' before
  // 'Lifeguard'.
  const last = terms.at(-1)!;
  const whole = level
    ? tsquery
    : parsedQuery(termsQuery([...terms.slice(0, -1), { ...last, typed: last.word }]));
  // Of some of the words, the weight of those held: all levels' items hold as many, this says
  // which (the rarer the better).
  const weighed = level
    ? terms.flatMap((term, index) => {
        const weight = level.weights[index] ?? 0;
        return weight > 0 ? [{ term, weight }] : [];
      })
    : [];
  const held =
    level && !level.graded
      ? sql.join(
          weighed.map(
            ({ term, weight }) =>
              sql`${weight}::float8 * (i.search @@ ${parsedQuery(termQuery(term))})::int`,
          ),
          sql` + `,
        )
      : sql`0`;
  // BM25 (k1 1.2, b 0.75): how often the item holds each word (any of its corrections), and its
  // length, read in one pass over its words; the average length is the candidates'. Each word's
  // lexemes are worked out once per statement (a scalar subquery), not for every word read.
  const wordCounts = level?.graded
    ? sql`(SELECT ARRAY[${sql.join(
        weighed.map(
          ({ term }) =>
            sql`coalesce(sum(u.n) FILTER (WHERE u.lexeme = ANY ((SELECT tsvector_to_array(to_tsvector('english', ${[term.word, ...term.alternatives].join(' ')})))::text[])), 0)`,
        ),
        sql`, `,
      )}, sum(u.n)]
        FROM (SELECT t.lexeme, coalesce(array_length(t.positions, 1), 1) AS n FROM unnest(i.search) t) u)`
    : sql`NULL::numeric[]`;
  const bm25 = level?.graded
    ? sql.join(
        weighed.map(
          ({ weight }, at) =>
            sql`${weight}::float8 * t.counts[${at + 1}] * 2.2 / (t.counts[${at + 1}] + 1.2 * (0.25 + 0.75 * t.counts[${weighed.length + 1}] / greatest(avg(t.counts[${weighed.length + 1}]) OVER (), 1)))`,
        ),
        sql` + `,
      )
    : sql`t.held`;
  const meant = near.length > 0;
  const anyWord = parsedQuery(
    terms
      .filter((term) => term.dropped === undefined)
      .map(termQuery)
      .join(' | '),
  );
  // Each probe of the level, by the index, of the type and filters searched.
  const probes = level?.probes ?? [];
  const probeMatches = sql.join(
    probes.map(
      (probe, index) =>
        sql`, ${limitedMatches(
          `probe_${index}`,
          sql`SELECT i.id FROM items i
            WHERE ${searchDocument} @@ ${ofType(parsedQuery(probe.match), query.type)} ${filtered}`,
          probe.limit,
        )}`,
    ),
    sql``,
  );
  const probed = sql.join(
    probes.map((_, index) => sql`UNION SELECT id FROM ${sql.raw(`probe_${index}`)}`),
    sql` `,
  );
  const nearIds = sql`${[...near]}::uuid[]`;
  // Title and authors: the words that name an item (`items_title_author_search_idx`).
  const titleOrAuthor = sql`ts_filter(i.search, '{a,b}')`;
  // Every word and correction, as lexemes: a title holding none but these is an exact one.
  const everyWord = terms
    .flatMap((term) => [term.word, ...term.alternatives, ...(term.dropped ? [term.dropped] : [])])
    .join(' ');
  // The titles the query may stand for: as typed, its likeliest correction, and that with each
  // other correction of a word (so 'Rumuor Has It' finds 'Rumour Has It' exactly, though 'rumor'
  // is the commoner word). Their keys find exact titles; their words, titles exactly as typed.
  const likeliest = likeliestText(terms);
  const titles = [query.q, likeliest];
  terms.forEach((term, index) => {
    for (const alternative of term.alternatives.slice(1)) {
      if (titles.length >= MEANT_TITLES) break;
      titles.push(
        likeliestText(
          terms.map((other, at) =>
            at === index ? { ...other, alternatives: [alternative] } : other,
          ),
        ),
      );
    }
  });
  const corrected = terms.filter(
    (term) => term.alternatives.length > 0 || term.dropped !== undefined,
  );
  // Fewest mistakes first: a word as typed costs nothing, a correction one mistake away one, two
  // away two (a dropped slip of a stop word, one). Each corrected term is a row of three arrays
  // (the word as typed, its corrections one mistake away or none, what a candidate holding
  // neither costs), parsed once in `query_words`: the statement's text is then the same however
  // many words were corrected, and is kept prepared like any other.
  const costs = corrected.map((term) => {
    const near = term.near ?? term.alternatives.length;
    if (term.dropped !== undefined || near === term.alternatives.length) {
      return { typed: term.typed, near: null, miss: 1 };
    }
    if (near === 0) return { typed: term.typed, near: null, miss: 2 };
    return { typed: term.typed, near: term.alternatives.slice(0, near).join(' | '), miss: 2 };
  });
  const corrections =
    corrected.length === 0
      ? sql`0`
      : sql`(SELECT coalesce(sum(CASE WHEN i.search @@ c.typed THEN 0
            WHEN c.near IS NOT NULL AND i.search @@ c.near THEN 1 ELSE c.miss END), 0)::int
          FROM unnest(q.typed_queries, q.near_queries, q.misses) AS c (typed, near, miss))`;
  // For the first row, which of each corrected term's choices (as typed, then its corrections)
  // it holds: `matchedText` says what it was found for.
  const choices = terms.flatMap((term) =>
    term.dropped === undefined && term.alternatives.length > 0
      ? [term.typed, ...term.alternatives]
      : [],
  );
  const ofKind = query.type ? sql`AND i.kind = ${query.type}` : sql``;
  // Sorted by year or title, every counted match is in the order, so every one is ranked.
  const ordered = query.sort === 'year' || query.sort === 'title';
  const rankedHits = ordered ? limit + 1 : level?.graded ? GRADED_HITS : RANKED_HITS;
  // The first matches found anywhere are ranked beside the candidates only when the page may
  // reach past the items named by their title and authors. When all of those are candidates,
  // every one comes before every other match (the tiers of `order`), so if they fill the page,
  // ranking others changes nothing it shows, nor the order of any other page. When there are
  // more of them than candidates, others are never ranked, on any page: some among the first
  // matches would be of that tier and move it, and every page must be cut from one order. Not
  // so when fewer corrections, a level's weights or the meaning's fusion may lift another match
  // above them, nor in an order by year or title.
  const firstHits =
    ordered || level || meant || corrected.length > 0
      ? sql`${rankedHits}`
      : sql`CASE WHEN (SELECT count(*) FROM title_hits) >= ${Math.min(offset + pageRows, TITLE_CANDIDATES)}
          THEN 0 ELSE ${rankedHits} END`;
  const anyType = query.type
    ? sql`, ${limitedMatches(
        'any_type',
        sql`SELECT i.kind FROM items i WHERE ${searchDocument} @@ ${tsquery} ${filtered}`,
        limit + 1,
      )}`
    : sql``;
  const counted = query.type ? sql`any_type` : sql`hits`;
  // Items near the query's meaning that the words did not find: of any type (for the counts per
  // type), and of the type searched (the results). An item the words found beyond the limit is
  // neither, as it is not counted among the words' either.
  const nearHits = meant
    ? sql`, near_any AS MATERIALIZED (
        SELECT i.id, i.kind, i.year, i.subjects, ${freeNow(now)} AS free FROM items i
        WHERE i.id = ANY (${nearIds}) AND NOT (${searchDocument} @@ ${tsquery}) ${filtered}
      ),
      near_hits AS MATERIALIZED (SELECT * FROM near_any ${query.type ? sql`WHERE kind = ${query.type}` : sql``})`
    : sql`, near_any AS (SELECT NULL::uuid AS id, NULL::text AS kind WHERE false),
      near_hits AS (SELECT NULL::uuid AS id WHERE false)`;
  const allHits = meant
    ? sql`, all_hits AS MATERIALIZED (SELECT id, kind, year, subjects, free FROM hits
           UNION ALL SELECT id, kind, year, subjects, free FROM near_hits)`
    : sql``;
  const order = (alias: string) => {
    const a = sql.raw(alias);
    // Relevance comes in tiers: fewest corrections; the title exactly as typed; the title's words
    // exactly; the main title's; the title and the author; every word in the title or the
    // authors. Within a tier the more popular comes first ('Legend' by Marie Lu or by David
    // Gemmell; 'christie death'), then, of two exact titles, the shorter, nearer what was typed
    // ('Tales of the City' before 'More Tales of the City': 'more' is a stop word), then rank.
    if (level) {
      // Some of the words: the known-item tiers still first, then the weight of the words held,
      // then rank (length-normalised, titles weighing most), as a BM25 ranking orders.
      return sql`${sortFirst(query.sort, alias)} ${a}.corrections, ${a}.verbatim DESC, ${a}.exact DESC,
        ${a}.exact_main DESC, ${a}.exact_with_author DESC, ${a}.held DESC, ${a}.rank DESC,
        ${a}.year DESC NULLS LAST, ${a}.title, ${a}.id`;
    }
    return sql`${sortFirst(query.sort, alias)} ${a}.corrections, ${a}.verbatim DESC, ${a}.exact DESC,
      ${a}.exact_main DESC, ${a}.exact_with_author DESC, ${a}.in_title_or_author DESC,
      ${a}.whole_words DESC,
      CASE WHEN ${a}.in_title_or_author THEN ${a}.popularity END DESC NULLS LAST,
      CASE WHEN ${a}.exact OR ${a}.exact_main THEN char_length(${a}.title) END NULLS LAST,
      ${a}.rank DESC, ${a}.year DESC NULLS LAST, ${a}.title, ${a}.id`;
  };
  const statement = sql<
    SearchHit &
      Counts &
      FacetRow & {
        typed: number | string;
        meant: number | string;
        pinned: boolean;
        corrections: number | null;
        found_choices: boolean[] | null;
      }
  >`${
    // Planned once per shape (decisions 035, 047).
    PREPARED
  }
    WITH query_words AS MATERIALIZED (
      SELECT tsvector_to_array(to_tsvector('english', ${everyWord})) AS lexemes,
             ARRAY(SELECT ${titleKey(sql`t`)} FROM unnest(${titles}::text[]) AS t) AS keys,
             ARRAY(SELECT digi_title_words(t) FROM unnest(${titles}::text[]) AS t) AS verbatim,
             ${parsedQueries(costs.map((cost) => cost.typed))} AS typed_queries,
             ${parsedQueries(costs.map((cost) => cost.near))} AS near_queries,
             ${costs.map((cost) => cost.miss)}::int[] AS misses,
             ${parsedQueries(choices)} AS choice_queries
    ),
    -- Every set of matches is read only as far as its limit, through limitedMatches.
    ${limitedMatches(
      'hits',
      sql`SELECT i.id, i.kind, i.year, i.subjects, ${freeNow(now)} AS free FROM items i
        WHERE ${searchDocument} @@ ${ofType(tsquery, query.type)} ${filtered}`,
      limit + 1,
    )} ${anyType} ${nearHits} ${allHits},
    ${limitedMatches(
      'title_hits',
      sql`SELECT i.id FROM items i WHERE ${titleOrAuthor} @@ ${tsquery} ${ofKind} ${filtered}`,
      level?.graded ? 0 : TITLE_CANDIDATES,
    )} ${probeMatches},
    exact_hits AS MATERIALIZED (
      SELECT i.id FROM items i, query_words q
      WHERE (i.title_key = ANY (q.keys) OR i.main_title_key = ANY (q.keys))
        AND i.search @@ ${allWords} ${ofKind} ${filtered}
      LIMIT ${limit + 1}
    ),
    ranked AS MATERIALIZED (
      SELECT t.id, t.title, t.year, t.corrections, t.exact, t.exact_main, t.verbatim,
             t.popularity, t.rank, ${bm25} AS held, t.near_place, t.by_words,
             t.title_or_author @@ ${tsquery} AS in_title_or_author,
             t.title_or_author @@ ${whole} AS whole_words,
             -- A word of the query names an author ("feist king"): with the others in the title,
             -- a known item, as a title and its author typed together.
             ts_filter(t.title_or_author, '{b}') @@ ${anyWord} AS by_author,
             ts_filter(t.title_or_author, '{a}') @@ ${allWords} AS all_in_title,
             -- The cheap test first: most candidates fail it, and skip the array.
             CASE WHEN t.title_or_author @@ ${allWords}
               THEN ARRAY(SELECT l FROM unnest(tsvector_to_array(ts_filter(t.title_or_author, '{a}'))) AS l
                          WHERE position('-' IN l) = 0) <@ t.lexemes
               ELSE false END AS exact_with_author
      FROM (
        -- A record's words are read (and decompressed, when long) once for the rank and once for
        -- its title and authors, whose tests above share them: OFFSET 0 keeps this subquery
        -- whole, so the expressions are not copied into each use.
        SELECT i.id, i.title, i.year, q.lexemes, ts_filter(i.search, '{a,b}') AS title_or_author,
               ${corrections} AS corrections,
               i.title_key = ANY (q.keys) AS exact,
               i.main_title_key = ANY (q.keys) AS exact_main,
               i.title_key = ANY (q.keys) AND digi_title_words(i.title) = ANY (q.verbatim)
                 OR i.main_title_key = ANY (q.keys) AND digi_main_title_words(i.title) = ANY (q.verbatim)
                 AS verbatim,
               ${popularity('i')} AS popularity,
               ts_rank(i.search, ${tsquery}, 1) AS rank,
               ${held} AS held,
               ${wordCounts} AS counts,
               array_position(${nearIds}, i.id) AS near_place,
               NOT EXISTS (SELECT FROM near_hits n WHERE n.id = i.id) AS by_words
        FROM (SELECT id FROM (SELECT id FROM hits LIMIT ${firstHits}) h
              UNION SELECT id FROM title_hits UNION SELECT id FROM exact_hits
              UNION SELECT id FROM near_hits ${probed}) c
        JOIN items i ON i.id = c.id
        CROSS JOIN query_words q
        OFFSET 0
      ) t
    ),
    counts AS (
      SELECT (SELECT count(*) FROM hits) AS typed, (SELECT count(*) FROM near_hits) AS meant,
             count(*) FILTER (WHERE NOT near) AS hits,
             count(*) FILTER (WHERE kind = 'book') AS book,
             count(*) FILTER (WHERE kind = 'paper') AS paper,
             count(*) FILTER (WHERE kind = 'course') AS course,
             (SELECT coalesce(bool_or(r.verbatim OR r.exact OR r.exact_main OR r.exact_with_author
                       OR r.in_title_or_author AND r.by_author), false)
                FROM ranked r WHERE r.by_words) AS pinned
      FROM (SELECT kind, false AS near FROM ${counted}
            UNION ALL SELECT kind, true FROM near_any) k
    ),
    facet_counts AS (SELECT ${facetAggregates(meant ? 'all_hits' : 'hits')}),
    -- The ranked candidates in order, then any other match counted, in the order found: every
    -- page is cut from the same order, so paging shows each match once.
    page AS (
      SELECT * FROM (
        ${
          meant
            ? // Reciprocal rank fusion: each list gives 1 / (60 + place); the words' place is
              // among the items they found. The words' first stays first when its title holds
              // every word (corrected, "Funny in Faris"): the meaning of a mistyped title is not
              // what was meant.
              sql`SELECT h.id, 0 AS part, row_number() OVER (ORDER BY
                     (h.words_place = 1 AND h.all_in_title) DESC NULLS LAST,
                     coalesce(1.0 / (${RRF_K} + h.words_place), 0) +
                     coalesce(1.0 / (${RRF_K} + h.near_place), 0) DESC,
                     h.words_place NULLS LAST, h.near_place, h.id) AS place,
                   CASE WHEN h.by_words THEN h.corrections END AS corrections
                 FROM (SELECT r.*, CASE WHEN r.by_words THEN
                         row_number() OVER (PARTITION BY r.by_words ORDER BY ${order('r')}) END AS words_place
                       FROM ranked r) h`
            : sql`SELECT h.id, 0 AS part, row_number() OVER (ORDER BY ${order('h')}) AS place,
                   h.corrections
                 FROM ranked h`
        }
        UNION ALL
        SELECT x.id, 1, x.found, NULL::int FROM (
          SELECT hits.id, row_number() OVER () AS found FROM hits
          WHERE NOT EXISTS (SELECT FROM ranked r WHERE r.id = hits.id)
        ) x
        -- Read only when the ranked ones do not fill the page.
        WHERE (SELECT count(*) FROM ranked) < ${offset + pageRows}
      ) o
      ORDER BY part, place LIMIT ${pageRows} OFFSET ${offset}
    )
    SELECT c.*, f.*, p.corrections, ${SEARCH_COLUMNS},
           CASE WHEN p.corrections > 0 THEN ARRAY(
             SELECT i.search @@ u.choice FROM unnest(w.choice_queries) WITH ORDINALITY AS u (choice, n)
             ORDER BY u.n) END AS found_choices
    FROM counts c
    CROSS JOIN facet_counts f
    CROSS JOIN query_words w
    LEFT JOIN (page p JOIN items i ON i.id = p.id) ON true
    ORDER BY p.part, p.place
  `;
  const rows = (await statement.execute(trx)).rows;
  const counts = rows[0]!;
  const typed = Number(counts.typed);
  const meantCount = Number(counts.meant);
  const facetsCapped = Number(counts.hits) > limit;
  const facets: Record<ItemType, number> = {
    book: Number(counts.book),
    paper: Number(counts.paper),
    course: Number(counts.course),
  };
  // The typed hits counted the searched type exactly (up to the limit).
  if (query.type) facets[query.type] = Math.min(typed, limit) + meantCount;
  else for (const type of ITEM_TYPES) facets[type] = Math.min(facets[type], limit);
  const page = rows.filter((row) => row.id !== null);
  const result: SearchResult & { pinned: boolean } = {
    pinned: counts.pinned === true,
    total: Math.min(typed, limit) + meantCount,
    rows: page.map((row) => ({
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
      copies: row.copies,
    })),
    facets,
    facetCounts: facetCountsOf(counts),
  };
  if (typed > limit) result.totalCapped = true;
  if (meantCount > 0) result.byMeaning = true;
  if (facetsCapped) result.facetsCapped = true;
  // The first result needed corrections: say what it was found for.
  const first = page[0];
  if (query.page === 1 && first?.found_choices) {
    result.correctedQuery = matchedText(terms, first.found_choices);
  }
  return result;
}

/** A search by filters alone: exact counts, ordered by title (after `first`, if given). */
async function searchFilters(
  db: Kysely<Database>,
  query: SearchQuery,
  filters: RawBuilder<unknown>[],
  first: RawBuilder<unknown> = sql``,
): Promise<SearchResult> {
  const where = filters.length > 0 ? sql.join(filters, sql` AND `) : sql`true`;
  const { rows: counts } = await sql<{ kind: ItemType; count: string }>`${PREPARED}
    SELECT i.kind, count(*) AS count FROM items i WHERE ${where} GROUP BY i.kind
  `.execute(db);
  const facets: Record<ItemType, number> = { book: 0, paper: 0, course: 0 };
  for (const row of counts) facets[row.kind] = Number(row.count);
  const total = query.type ? facets[query.type] : facets.book + facets.paper + facets.course;

  let rows: SearchHit[] = [];
  if (total > 0 && (query.page - 1) * query.pageSize < total) {
    const typed = query.type ? sql`${where} AND i.kind = ${query.type}` : where;
    rows = (
      await sql<SearchHit>`${PREPARED}
        SELECT ${SEARCH_COLUMNS}
        FROM items i
        WHERE ${typed}
        ORDER BY ${sortFirst(query.sort, 'i')} ${first} lower(i.title), i.year DESC NULLS LAST, i.id
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
      WHERE ${searchDocument} @@ ${parsedQuery(combination.words.join(' & '))}
        AND i.withdrawn_at IS NULL
      LIMIT 1
    `.execute(db);
    if (rows.length > 0) return combination.words.join(' ');
  }
  return undefined;
}
