import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneMistakeAway, swapsOf, typoAllowance, typoDistance } from './typos.ts';

describe('typo tolerance', () => {
  it('allows no typo under 5 letters or with a digit, one from 5 letters, two from 9', () => {
    expect(['one', 'it', 'the'].map(typoAllowance)).toEqual([0, 0, 0]);
    // Four letters: one mistake, and only a swap of neighbours (see findCorrections).
    expect(['dune', 'emma'].map(typoAllowance)).toEqual([1, 1]);
    expect(swapsOf('wlak').sort()).toEqual(['lwak', 'walk', 'wlka']);
    expect(['poter', 'prejudice', 'frankenstien', 'harry'].map(typoAllowance)).toEqual([
      1, 2, 2, 1,
    ]);
    expect(['1984', '9780439023481', 'catch22'].map(typoAllowance)).toEqual([0, 0, 0]);
  });

  it('counts a swap of two neighbours as one mistake, like a letter left out, added or wrong', () => {
    expect(typoDistance('frankenstien', 'frankenstein')).toBe(1);
    expect(typoDistance('poter', 'potter')).toBe(1);
    expect(typoDistance('potters', 'potter')).toBe(1);
    expect(typoDistance('pottar', 'potter')).toBe(1);
    expect(typoDistance('hobbit', 'hobbit')).toBe(0);
    expect(typoDistance('kitten', 'sitting')).toBe(3);
    // Counting stops past the most that matters.
    expect(typoDistance('kitten', 'sitting', 1)).toBe(2);
    expect(typoDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('is a distance: zero only for the same word, symmetric, one per single edit', () => {
    const word = fc.stringMatching(/^[a-e]{0,8}$/);
    fc.assert(
      fc.property(word, word, (a, b) => {
        const distance = typoDistance(a, b);
        expect(distance === 0).toBe(a === b);
        expect(typoDistance(b, a)).toBe(distance);
        expect(distance).toBeLessThanOrEqual(Math.max(a.length, b.length));
      }),
    );
  });

  it('lists every word one mistake away, each at distance 1 and never the word itself', () => {
    const variants = oneMistakeAway('poter');
    expect(variants).toEqual(expect.arrayContaining(['potter', 'power', 'peter', 'opter', 'poer']));
    expect(variants).not.toContain('poter');
    expect(new Set(variants).size).toBe(variants.length);
    for (const variant of variants) expect(typoDistance('poter', variant)).toBe(1);
    // Letters outside a–z in the word are used too.
    expect(oneMistakeAway('façade')).toContain('façde');
  });
});
