import { expressionBuilder, sql, type Kysely, type RawBuilder } from 'kysely';
import {
  SEARCH_COUNT_LIMIT,
  SUBJECT_FACETS_SHOWN,
  type FacetCounts,
  type SearchSort,
} from '#contract/http/catalogue.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Database, ItemsTable } from '../db/schema.ts';
import { heldCopies } from '../reservations/holds.ts';

/** The facet parameters of a search: a year range, one subject, copies free now. */
export interface FacetQuery {
  yearFrom?: number | undefined;
  yearTo?: number | undefined;
  subject?: string | undefined;
  available?: boolean | undefined;
}

/**
 * SQL over items `i`: a copy of the item is free to reserve at `now`, as `summariseShelves`
 * counts `available` (on the shelf, less those held, offered or waited for). The claims are read
 * only for items with copies on the shelf.
 */
export function freeNow(now: Date): RawBuilder<boolean> {
  const held = heldCopies(expressionBuilder<Database & { i: ItemsTable }, 'i'>(), now).rawBuilder;
  return sql<boolean>`(CASE WHEN i.copies > i.copies_unavailable
    THEN i.copies - i.copies_unavailable - ${held} > 0 ELSE false END)`;
}

/**
 * The WHERE clauses of the facet parameters over items `i`. A subject is matched exactly; the
 * substring test before it lets the subjects' trigram index serve a search by subject alone.
 */
export function facetFilters(query: FacetQuery, now: Date): RawBuilder<unknown>[] {
  const filters: RawBuilder<unknown>[] = [];
  if (query.yearFrom !== undefined) filters.push(sql`i.year >= ${query.yearFrom}`);
  if (query.yearTo !== undefined) filters.push(sql`i.year <= ${query.yearTo}`);
  if (query.subject) {
    const pattern = `%${query.subject.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
    filters.push(
      sql`(digi_join_words(i.subjects) ILIKE ${pattern} AND ${query.subject} = ANY(i.subjects))`,
    );
  }
  // `copies > 0` on its own lets the index of books with copies serve a search by it alone.
  if (query.available) filters.push(sql`(i.copies > 0 AND ${freeNow(now)})`);
  return filters;
}

/**
 * The first sort keys of a result order over the rows `alias` (with `year` and `title`), before
 * the order of relevance: newest first, or by title. Relevance adds none.
 */
export function sortFirst(sort: SearchSort | undefined, alias: string): RawBuilder<unknown> {
  const row = sql.raw(alias);
  if (sort === 'year') return sql`${row}.year DESC NULLS LAST, lower(${row}.title),`;
  if (sort === 'title') return sql`lower(${row}.title), ${row}.year DESC NULLS LAST,`;
  return sql``;
}

/** Where a year range ends: before 1800, the 1800s, 1900–1949, 1950–1969, then decades. */
const RANGE_STARTS = [1800, 1900, 1950, 1970, 1980, 1990, 2000, 2010, 2020];

/**
 * Counts per publication year as a few ranges, oldest first, only those with matches: the
 * earliest starts at its oldest year, the latest ends at the end of its decade.
 */
export function yearRanges(
  counts: readonly { year: number; count: number }[],
): FacetCounts['years'] {
  const ranges = new Map<number, { from: number; to: number; count: number }>();
  for (const { year, count } of counts) {
    const index = RANGE_STARTS.findLastIndex((start) => start <= year);
    const start = index === -1 ? Number.NEGATIVE_INFINITY : RANGE_STARTS[index]!;
    const next = RANGE_STARTS[index + 1];
    const range = ranges.get(start) ?? {
      from: index === -1 ? year : start,
      to: next === undefined ? Math.max(start + 9, year) : next - 1,
      count: 0,
    };
    range.from = Math.min(range.from, index === -1 ? year : start);
    range.to = next === undefined ? Math.max(range.to, year) : range.to;
    range.count += count;
    ranges.set(start, range);
  }
  return [...ranges.values()].sort((a, b) => a.from - b.from);
}

/** What {@link facetAggregates} answers, as the drivers read it. */
export interface FacetRow {
  facet_matched: string | number;
  facet_available: string | number;
  facet_subjects: [string, string | number][] | string | null;
  facet_years: [number, string | number][] | string | null;
}

/**
 * The facet counts as select-list items over `source`, a CTE of the matches (at most
 * {@link SEARCH_COUNT_LIMIT} plus one) with their `year`, `subjects` and `free` (`freeNow`):
 * how many, how many with a copy free, the most frequent subjects, the count per year. A word
 * search computes them in its own statement from the matches it has read anyway.
 */
export function facetAggregates(source: string): RawBuilder<unknown> {
  const m = sql.raw(source);
  return sql`(SELECT count(*) FROM ${m}) AS facet_matched,
    (SELECT count(*) FROM ${m} WHERE free) AS facet_available,
    (SELECT json_agg(json_build_array(s.value, s.n) ORDER BY s.n DESC, s.value) FROM (
      SELECT subject AS value, count(*) AS n FROM ${m}, unnest(${m}.subjects) AS subject
      GROUP BY subject ORDER BY n DESC, subject LIMIT ${SUBJECT_FACETS_SHOWN}
    ) s) AS facet_subjects,
    (SELECT json_agg(json_build_array(y.year, y.n)) FROM (
      SELECT year, count(*) AS n FROM ${m} WHERE year IS NOT NULL GROUP BY year
    ) y) AS facet_years`;
}

/**
 * Two CTEs (a WITH list's entries) for the first `limit` rows of `matches`: `<name>_matches`,
 * all of them, and `<name>`, read from it as far as the limit. A CTE is planned to be read to the
 * end, so the matches are found by their index whatever the limit; a LIMIT planned in place lets
 * the planner read the table, or a whole b-tree, in its order until enough rows turn up (50–120
 * ms for a prefix such as 'quant' at 1,000,000 rows), and a generic plan does not even know the
 * limit (decision 047). The reading still stops at the limit.
 */
export function limitedMatches(
  name: string,
  matches: RawBuilder<unknown>,
  limit: number,
): RawBuilder<unknown> {
  const all = sql.raw(`${name}_matches`);
  return sql`${all} AS MATERIALIZED (${matches}),
    ${sql.raw(name)} AS MATERIALIZED (SELECT * FROM ${all} LIMIT ${limit})`;
}

/** The facet counts of a row of {@link facetAggregates}, bounded by the limit, capped if over. */
export function facetCountsOf(row: FacetRow): FacetCounts {
  const limit = SEARCH_COUNT_LIMIT;
  const json = <T>(value: T | string | null): T | [] =>
    value === null ? [] : typeof value === 'string' ? (JSON.parse(value) as T) : value;
  // The one match beyond the limit only tells that there are more; it is not counted.
  const bounded = (count: string | number) => Math.min(Number(count), limit);
  const counts: FacetCounts = {
    subjects: json(row.facet_subjects).map(([value, count]) => ({
      value,
      count: bounded(count),
    })),
    years: yearRanges(
      json(row.facet_years).map(([year, count]) => ({ year, count: Number(count) })),
    ).map((range) => ({ ...range, count: bounded(range.count) })),
    available: bounded(row.facet_available),
  };
  if (Number(row.facet_matched) > limit) counts.capped = true;
  return counts;
}

/**
 * The facet counts of a search: subjects (the most frequent), year ranges and copies free at
 * `now`, over the items `i` that `where` matches. Like the search's counts they are counted
 * among the first {@link SEARCH_COUNT_LIMIT} matches (plus one, to know there are more), which
 * the answer then says (`capped`). One statement; a free copy is worked out only for items with
 * copies on the shelf. The matches are read as far as the limit ({@link limitedMatches}).
 */
export async function countFacets(
  db: Kysely<Database>,
  where: readonly RawBuilder<unknown>[],
  now: Date,
): Promise<FacetCounts> {
  const limit = SEARCH_COUNT_LIMIT;
  const condition = where.length > 0 ? sql.join([...where], sql` AND `) : sql`true`;
  const { rows } = await sql<FacetRow>`${PREPARED}
    WITH ${limitedMatches(
      'm',
      sql`SELECT i.year, i.subjects, ${freeNow(now)} AS free FROM items i WHERE ${condition}`,
      limit + 1,
    )}
    SELECT ${facetAggregates('m')}
  `.execute(db);
  return facetCountsOf(rows[0]!);
}
