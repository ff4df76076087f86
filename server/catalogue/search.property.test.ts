import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString } from '../test/json-schema-arbitrary.ts';
import { containsPattern, queryWords, tsqueryText } from './search.ts';

/*
 * The search's handling of what people type before it reaches SQL: the words handed to
 * `to_tsquery` are letters and digits only (no operator a person could inject), and the
 * author and category filters' ILIKE patterns match the typed text literally, `%`, `_` and `\`
 * included.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

/** Text with tsquery's and LIKE's special characters mixed in. */
const typed = fc.oneof(
  hostileString,
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom(
          '&',
          '|',
          '!',
          '(',
          ')',
          ':',
          '*',
          '<->',
          "'",
          '\\',
          '%',
          '_',
          ' ',
          'İ',
          'ß',
          '²',
        ),
        fc.string({ maxLength: 4 }),
      ),
      {
        maxLength: 12,
      },
    )
    .map((parts) => parts.join('')),
);

/** PostgreSQL's LIKE (case-sensitive, `\` the escape), as a regular expression over code points. */
function like(pattern: string, text: string): boolean {
  let source = '';
  const chars = [...pattern];
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index]!;
    if (char === '\\') source += (chars[++index] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (char === '%') source += '.*';
    else if (char === '_') source += '.';
    else source += char.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'su').test(text);
}

describe('search text handling (fast-check)', () => {
  it('hands to_tsquery words of letters (with their marks) and digits only, at most twelve, joined by & with a prefix match', () => {
    fc.assert(
      fc.property(typed, (q) => {
        const words = queryWords(q);
        expect(words.length).toBeLessThanOrEqual(12);
        for (const word of words) {
          expect(word).toMatch(/^[\p{L}\p{M}\p{N}]+$/u);
          // Apostrophes join a word: "who's" is 'whos'.
          expect(q.toLowerCase().replace(/['’ʼ‘`´]/g, '')).toContain(word);
        }
        expect(tsqueryText(words)).toMatch(
          /^(?:[\p{L}\p{M}\p{N}]+(?: & [\p{L}\p{M}\p{N}]+)*:\*)?$/u,
        );
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('makes ILIKE patterns that match the typed text literally, wherever it stands', () => {
    // As the filters take it: at most 100 characters (the query schema's limit), well-formed (as
    // parseInput lets through: half a surrogate pair cannot be stored).
    const stored = typed.map((text) => text.slice(0, 100).replace(/[\uD800-\uDFFF]/gu, '\uFFFD'));
    fc.assert(
      fc.property(stored, stored, stored, stored, (text, before, after, other) => {
        const pattern = containsPattern(text);
        expect(like(pattern, `${before}${text}${after}`)).toBe(true);
        expect(like(pattern, other)).toBe(other.includes(text));
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
