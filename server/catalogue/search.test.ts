import { describe, expect, it } from 'vitest';
import { anyWordLevel, matchedText, matchLevels, type QueryTerm } from './search.ts';

const term = (word: string, extra: Partial<QueryTerm> = {}): QueryTerm => ({
  word,
  typed: word,
  alternatives: [],
  ...extra,
});

describe('matchLevels (items holding most of the words)', () => {
  it('asks for every choice of one word fewer, then two fewer, down to one word', () => {
    const terms = [term('neural'), term('network'), term('research')];
    const levels = matchLevels(terms, [false, false, false], [10, 50, 900]);
    expect(levels.map((level) => level.match)).toEqual([
      '(neural & network) | (neural & research) | (network & research)',
      '(neural) | (network) | (research)',
    ]);
  });

  it('weighs a rare word above a common one, and stop words and slips of them at nothing', () => {
    const terms = [term('books'), term('about'), term('ai'), term('otehr', { dropped: 'other' })];
    const [level] = matchLevels(terms, [false, true, false, false], [4_000, 0, 12, 0]);
    expect(level!.match).toBe('(books) | (ai)');
    expect(level!.weights[1]).toBe(0);
    expect(level!.weights[3]).toBe(0);
    expect(level!.weights[2]).toBeGreaterThan(level!.weights[0]!);
  });

  it('keeps the rarest words when the choices would be too many', () => {
    const words = ['a1', 'b2', 'c3', 'd4', 'e5', 'f6', 'g7', 'h8'];
    const documents = [80, 70, 60, 50, 40, 30, 20, 10];
    const levels = matchLevels(
      words.map((word) => term(word)),
      words.map(() => false),
      documents,
    );
    expect(levels).toHaveLength(7);
    // 8 choose 7 is 8 choices: all asked.
    expect(levels[0]!.match.split(' | ')).toHaveLength(8);
    // 8 choose 4 is 70: only the four rarest, in the query's order.
    expect(levels[3]!.match).toBe('(e5 & f6 & g7 & h8)');
  });

  it('asks for no choice of numbers alone', () => {
    const levels = matchLevels([term('080442957'), term('1')], [false, false], [0, 40]);
    expect(levels).toEqual([]);
    const catch23 = matchLevels([term('catch'), term('23')], [false, false], [3, 1]);
    expect(catch23.map((level) => level.match)).toEqual(['(catch)']);
  });

  it('has no levels for a query of one word, or one word and stop words', () => {
    expect(matchLevels([term('dune')], [false], [3])).toEqual([]);
    expect(matchLevels([term('the'), term('dune')], [true, false], [0, 3])).toEqual([]);
  });

  it('keeps each word with its corrections', () => {
    const terms = [
      term('nueral', { alternatives: ['neural'] }),
      term('netwrk', { typed: 'netwrk:*', alternatives: ['network'] }),
    ];
    const [level] = matchLevels(terms, [false, false], [0, 0]);
    expect(level!.match).toBe('((nueral | neural)) | ((netwrk:* | network))');
  });
});

describe('anyWordLevel (the words’ side of a ranking with meaning)', () => {
  it('matches any word, weighs rare words most, and probes all the words and each pair', () => {
    const terms = [term('neural'), term('about'), term('networks')];
    const level = anyWordLevel(terms, [false, true, false], {
      documents: [10, 0, 900],
      total: 1000,
    });
    expect(level!.match).toBe('(neural) | (networks)');
    expect(level!.weights[1]).toBe(0);
    expect(level!.weights[0]).toBeGreaterThan(level!.weights[2]!);
    expect(level!.probes!.map((probe) => probe.match)).toEqual(['neural & networks']);
    const three = anyWordLevel([term('a1'), term('b2'), term('c3')], [false, false, false], {
      documents: [1, 2, 3],
      total: 10,
    });
    expect(three!.probes!.map((probe) => probe.match)).toEqual([
      'a1 & b2 & c3',
      'a1 & b2',
      'a1 & c3',
      'b2 & c3',
    ]);
  });

  it('asks for the one word there is, and for nothing when no word counts', () => {
    const one = anyWordLevel([term('dune')], [false], { documents: [3], total: 10 });
    expect(one!.match).toBe('(dune)');
    // Its matches are the candidates: no probe.
    expect(one!.probes).toEqual([]);
    expect(anyWordLevel([term('the')], [true], { documents: [0], total: 10 })).toBeUndefined();
  });
});

describe('matchedText (what a corrected hit was found for)', () => {
  it("takes each corrected word's first choice the hit holds, the others as typed", () => {
    const terms = [
      term('harry'),
      term('poter', { alternatives: ['potter', 'poster'] }),
      term('otehr', { dropped: 'other' }),
      term('ston', { typed: 'ston:*', alternatives: ['stone'] }),
    ];
    // Choices in order: poter, potter, poster; ston:*, stone.
    expect(matchedText(terms, [false, true, true, false, true])).toBe('harry potter other stone');
    // The word as typed, when the hit holds it, is said as typed (not its prefix form).
    expect(matchedText(terms, [true, false, false, true, false])).toBe('harry poter other ston');
  });

  it('leaves out a corrected word the hit holds no choice of', () => {
    const terms = [term('frankenstien', { alternatives: ['frankenstein'] }), term('mary')];
    expect(matchedText(terms, [false, false])).toBe('mary');
  });
});
