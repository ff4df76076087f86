import { describe, expect, it } from 'vitest';
import {
  bm25Index,
  hitWithin,
  precisionAt,
  scoreRanker,
  type Bm25Document,
} from './topic-scoring.ts';

const document = (id: string, words: string): Bm25Document => {
  const terms = new Map<string, number>();
  for (const word of words.split(' ')) terms.set(word, (terms.get(word) ?? 0) + 1);
  return { id, terms };
};

describe('the topic bench scoring', () => {
  it('counts precision over five places, missing results as not accepted', () => {
    expect(precisionAt([true, false, true, false, false])).toBe(0.4);
    expect(precisionAt([true, true])).toBe(0.4);
    expect(precisionAt([])).toBe(0);
    expect(precisionAt([false, true, true, true, true, true, true])).toBe(0.8);
  });

  it('answers a query when an accepted result is among the first three', () => {
    expect(hitWithin([false, false, true])).toBe(true);
    expect(hitWithin([false, false, false, true])).toBe(false);
    expect(hitWithin([])).toBe(false);
  });

  it('averages a ranker over its queries and counts those that found nothing', () => {
    expect(scoreRanker([[true, true, true, true, true], [false, false, false, true], []])).toEqual({
      precision: (1 + 0.2 + 0) / 3,
      topHits: 1 / 3,
      empty: 1,
      queries: 3,
    });
    expect(scoreRanker([])).toEqual({ precision: 0, topHits: 0, empty: 0, queries: 0 });
  });
});

describe('BM25 over lexeme counts', () => {
  const corpus = [
    document('cats', 'cat cat cat sleep'),
    document('dogs', 'dog bark dog'),
    document('pets', 'cat dog pet'),
    document('long', 'cat fish fish fish fish fish fish fish fish fish'),
    document('none', 'quantum field theory'),
  ];
  const index = bm25Index(corpus);

  it('ranks documents holding any word of the query, never the others', () => {
    expect(index.rank(['dog'], 10)).toEqual(['dogs', 'pets']);
    // "dog" is the rarer word (2 documents against 3), so two of it outweigh three "cat".
    expect(index.rank(['cat', 'dog'], 10)).toEqual(['pets', 'dogs', 'cats', 'long']);
    expect(index.rank(['unicorn'], 10)).toEqual([]);
    expect(index.rank(['cat', 'dog'], 2)).toEqual(['pets', 'dogs']);
  });

  it('matches the formula with k1 1.2 and b 0.75', () => {
    // "dog" is in 2 of 5 documents; "dogs" has length 3, the mean length is (4+3+3+10+3)/5.
    const idf = Math.log(1 + (5 - 2 + 0.5) / (2 + 0.5));
    const expected = (idf * 2 * 2.2) / (2 + 1.2 * (1 - 0.75 + (0.75 * 3) / (23 / 5)));
    expect(index.score('dogs', ['dog'])).toBeCloseTo(expected, 12);
    expect(index.score('dogs', ['dog', 'dog'])).toBeCloseTo(expected, 12);
    expect(index.score('none', ['dog'])).toBe(0);
    expect(index.score('missing', ['dog'])).toBe(0);
  });

  it('saturates repeated words and favours short documents', () => {
    // More "cat" in a document of the same length scores higher, but not three times higher.
    const once = bm25Index([document('a', 'cat x x x'), document('b', 'y')]).score('a', ['cat']);
    const thrice = bm25Index([document('a', 'cat cat cat x'), document('b', 'y')]).score('a', [
      'cat',
    ]);
    expect(thrice).toBeGreaterThan(once);
    expect(thrice).toBeLessThan(3 * once);
    // The same single "cat" counts less in the long document than in the short one.
    expect(index.score('pets', ['cat'])).toBeGreaterThan(index.score('long', ['cat']));
  });

  it('keeps an empty corpus and an empty query quiet', () => {
    expect(bm25Index([]).rank(['cat'], 5)).toEqual([]);
    expect(index.rank([], 5)).toEqual([]);
  });
});
