/**
 * The pure parts of the topic bench (`bench/topics.ts`, issue 23): precision@5 and the top-3 rate
 * of a ranking judged by `accepted`, and a words-only BM25 ranking over lexeme counts, the
 * baseline where any word of the query may match.
 */

/** How many results precision is counted over. */
export const PRECISION_AT = 5;

/** A query counts as answered when an accepted item is among this many first results. */
export const TOP_HITS = 3;

/**
 * Accepted results among the first `k`, divided by `k`: a ranking that returns fewer than `k`
 * results is counted as if the missing ones were not accepted.
 */
export function precisionAt(acceptedInOrder: readonly boolean[], k = PRECISION_AT): number {
  return acceptedInOrder.slice(0, k).filter(Boolean).length / k;
}

/** Whether an accepted result is among the first `k`. */
export function hitWithin(acceptedInOrder: readonly boolean[], k = TOP_HITS): boolean {
  return acceptedInOrder.slice(0, k).some(Boolean);
}

/** A ranker's figures over a query set, as fractions (0–1). */
export interface RankerScore {
  /** Mean precision@5 over the queries. */
  precision: number;
  /** Share of the queries with an accepted result in the first three. */
  topHits: number;
  /** Queries that found nothing at all. */
  empty: number;
  queries: number;
}

/** Scores one ranker: `rankings` holds, per query, whether each of its results (in order) is accepted. */
export function scoreRanker(rankings: readonly (readonly boolean[])[]): RankerScore {
  const queries = rankings.length;
  if (queries === 0) return { precision: 0, topHits: 0, empty: 0, queries };
  return {
    precision: rankings.reduce((sum, ranking) => sum + precisionAt(ranking), 0) / queries,
    topHits: rankings.filter((ranking) => hitWithin(ranking)).length / queries,
    empty: rankings.filter((ranking) => ranking.length === 0).length,
    queries,
  };
}

/** BM25's parameters: term-frequency saturation and length normalisation. */
export interface Bm25Parameters {
  k1: number;
  b: number;
}

/** The usual values (Robertson's; Lucene's and Elasticsearch's defaults). */
export const BM25_DEFAULTS: Bm25Parameters = { k1: 1.2, b: 0.75 };

/** The words of one item: each lexeme with how often it occurs there. */
export interface Bm25Document {
  id: string;
  terms: ReadonlyMap<string, number>;
}

/** An index over a fixed set of documents, ranking them by BM25 for any query's lexemes. */
export interface Bm25Index {
  /** Ids of the `limit` best documents holding at least one of `lexemes`, best first. */
  rank(lexemes: readonly string[], limit: number): string[];
  /** The BM25 score of one document for `lexemes` (0 when it holds none of them). */
  score(id: string, lexemes: readonly string[]): number;
}

/**
 * BM25 over `documents`: a document's length is the sum of its lexemes' counts, a term's weight
 * its inverse document frequency ln(1 + (N − n + 0.5) / (n + 0.5)), which stays positive for
 * terms in most documents (Lucene's form). A query's repeated lexemes count once; any one of them
 * is enough for a document to be ranked. Ties keep the documents' order as given.
 */
export function bm25Index(
  documents: readonly Bm25Document[],
  { k1, b }: Bm25Parameters = BM25_DEFAULTS,
): Bm25Index {
  const postings = new Map<string, { index: number; count: number }[]>();
  const lengths = documents.map((document) => {
    let length = 0;
    for (const count of document.terms.values()) length += count;
    return length;
  });
  documents.forEach((document, index) => {
    for (const [term, count] of document.terms) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push({ index, count });
    }
  });
  const total = documents.length;
  const averageLength = total === 0 ? 0 : lengths.reduce((sum, length) => sum + length, 0) / total;
  const idf = (term: string) => {
    const n = postings.get(term)?.length ?? 0;
    return Math.log(1 + (total - n + 0.5) / (n + 0.5));
  };
  const termScore = (count: number, length: number, weight: number) =>
    (weight * count * (k1 + 1)) / (count + k1 * (1 - b + (b * length) / (averageLength || 1)));
  const positions = new Map(documents.map((document, index) => [document.id, index]));

  return {
    rank(lexemes, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(lexemes)) {
        const weight = idf(term);
        for (const { index, count } of postings.get(term) ?? []) {
          scores.set(index, (scores.get(index) ?? 0) + termScore(count, lengths[index]!, weight));
        }
      }
      return [...scores]
        .sort(([indexA, scoreA], [indexB, scoreB]) => scoreB - scoreA || indexA - indexB)
        .slice(0, limit)
        .map(([index]) => documents[index]!.id);
    },
    score(id, lexemes) {
      const index = positions.get(id);
      if (index === undefined) return 0;
      const terms = documents[index]!.terms;
      let score = 0;
      for (const term of new Set(lexemes)) {
        const count = terms.get(term);
        if (count) score += termScore(count, lengths[index]!, idf(term));
      }
      return score;
    },
  };
}
