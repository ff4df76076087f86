import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createModerator, parseWordList } from '#contract/moderation.ts';
import { MESSAGE_MAX } from '#contract/socket/chat.ts';
import { hostileString } from '../test/json-schema-arbitrary.ts';

/*
 * The chat's abuse check (contract/moderation.ts), which the server runs on every message before
 * storing it (server/realtime/chat/messages.ts) and the library configures with its own words:
 * - any message at all, however odd, is judged without throwing, and `isAbusive` agrees with
 *   `matches`;
 * - any word list the configuration may hold builds a matcher;
 * - a configured word is caught in any sentence and in the obfuscations the module documents
 *   (capitals, spaced or dotted letters, punctuation inside, stretched letters), which the
 *   server refuses with CHAT_TEXT.abuseWarning;
 * - sentences of ordinary academic words that contain listed words ('assessment', 'Scunthorpe')
 *   pass, in any order.
 * (This lives in server/ because contract/'s tests may import only vitest and Node's built-ins.)
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

/** Made-up words, so a random sentence around them cannot hide or fake them. */
const EXTRA_WORDS = ['blorp', 'zingbat', 'quaxel', 'frobnik', 'glumph'];

const moderator = createModerator(EXTRA_WORDS);

/** Messages of every kind: hostile strings, random code units and graphemes, long ones. */
const message = fc.oneof(
  { weight: 3, arbitrary: hostileString.map((text) => text.slice(0, MESSAGE_MAX * 2)) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 200 }) },
  {
    weight: 2,
    // Leet speak, separators and pattern syntax, where the matchers' own rules apply.
    arbitrary: fc
      .array(
        fc.oneof(
          fc.constantFrom('f', 'u', 'c', 'k', 's', 'h', 'i', 't', 'a', '$', '@', '!', '|', '('),
          fc.constantFrom('1', '3', '4', '0', '5', '7', '9', ' ', '.', '-', '_', '*', '/', "'"),
          fc.constantFrom('[', ']', '?', '\\', '🖕', 'ｆ', 'ß', 'İ', '\u0301', '\u200B', '\u202E'),
        ),
        { maxLength: 60 },
      )
      .map((parts) => parts.join('')),
  },
  { weight: 1, arbitrary: fc.string({ minLength: MESSAGE_MAX - 10, maxLength: MESSAGE_MAX }) },
);

/** A lower-case word of `min` to `max` ASCII letters. */
const word = (min: number, max: number) => fc.stringMatching(new RegExp(`^[a-z]{${min},${max}}$`));

/** Ordinary words around a word, a sentence's worth each side. */
const context = fc.array(word(1, 8), { maxLength: 4 }).map((words) => words.join(' '));

/**
 * The same without one-letter words: next to spaced letters ('b l o r p') they would join the run
 * ('a b l o r p' reads as 'ablorp'), which is how spaced letters are read, not a miss.
 */
const wordsContext = fc.array(word(2, 8), { maxLength: 4 }).map((words) => words.join(' '));

/** Words an academic library's readers write that contain listed words (a few of contract/moderation.test.ts's). */
const ORDINARY = [
  'assessment',
  'classic',
  'analysis',
  'Scunthorpe',
  'cockpit',
  'therapist',
  'Pissarro',
  'shiitake',
  'Dickinson',
  'button',
  'Nigeria',
  'arsenic',
  'Pakistan',
  'homogeneous',
  'retardant',
  'seminar',
  'Saturday',
  'cumin',
  'grapefruit',
  'bibliography',
];

describe('the chat abuse check (fast-check)', () => {
  it('judges any message without throwing, and isAbusive agrees with matches', () => {
    for (const check of [moderator, createModerator()]) {
      fc.assert(
        fc.property(message, (text) => {
          const abusive = check.isAbusive(text);
          const found = check.matches(text);
          expect(typeof abusive).toBe('boolean');
          expect(found).toEqual([...new Set(found)].sort());
          expect(abusive, JSON.stringify({ text, found })).toBe(found.length > 0);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    }
  });

  it('builds a matcher from any word list the configuration may hold', () => {
    const entry = fc.oneof(
      hostileString.map((text) => text.slice(0, 200)),
      fc.string({ unit: 'binary', maxLength: 20 }),
      fc.constantFrom('', ' ', "'", '-', '?', '[', ']', '|', '\\', '[x]?', "don't", 'a b c', '🖕🏽'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(entry, word(3, 10)), { maxLength: 8 }),
        fc.array(message, { maxLength: 3 }),
        (words, texts) => {
          const custom = createModerator(words);
          for (const text of texts)
            expect(custom.isAbusive(text)).toBe(custom.matches(text).length > 0);
          // A plain configured word is caught in a sentence.
          for (const listed of words.filter((item) => /^[a-z]{3,10}$/.test(item)))
            expect(custom.isAbusive(`I said ${listed} today`), listed).toBe(true);
          // A word list file holds the same entries, one a line (trimmed; blanks and #comments dropped).
          const lines = words.map((line) => line.replace(/[\r\n]/g, ' '));
          expect(parseWordList(lines.join('\n'))).toEqual(
            lines.map((line) => line.trim()).filter((line) => line !== '' && !line.startsWith('#')),
          );
        },
      ),
      { numRuns: Math.ceil(RUNS / 10), seed: SEED },
    );
  });

  it('catches a configured word anywhere in a sentence', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...EXTRA_WORDS),
        context,
        context,
        fc.boolean(),
        (listed, before, after, shout) => {
          const text = `${before} ${shout ? listed.toUpperCase() : listed} ${after}.`;
          expect(moderator.isAbusive(text), text).toBe(true);
          expect(moderator.matches(text)).toContain(listed);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('catches the documented obfuscations of a configured word', () => {
    const obfuscate = fc.oneof(
      // Spaced or dotted letters: 'b l o r p', 'b.l.o.r.p', mixed separators.
      fc
        .array(fc.constantFrom(' ', '.', '-', '_', '*'), { minLength: 10, maxLength: 10 })
        .map(
          (separators) => (text: string) =>
            [...text]
              .map((char, index) => (index === 0 ? char : separators[index]! + char))
              .join(''),
        ),
      // Punctuation inside the word: 'bl.orp', 'blo**rp', 'b_lorp'.
      fc
        .tuple(fc.nat(), fc.constantFrom('.', '*', '_', '..', '**'))
        .map(([at, mark]) => (text: string) => {
          const index = 1 + (at % (text.length - 1));
          return text.slice(0, index) + mark + text.slice(index);
        }),
      // Stretched letters: each letter three times or more ('bbblllooorrrppp').
      fc
        .integer({ min: 3, max: 6 })
        .map((times) => (text: string) => [...text].map((char) => char.repeat(times)).join('')),
    );
    fc.assert(
      fc.property(
        fc.constantFrom(...EXTRA_WORDS),
        obfuscate,
        wordsContext,
        fc.boolean(),
        (listed, disguise, before, shout) => {
          const disguised = disguise(shout ? listed.toUpperCase() : listed);
          const text = `${before} ${disguised} !`;
          expect(moderator.isAbusive(text), text).toBe(true);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('passes the links the library makes, whatever their ids and tokens', () => {
    // A catalogue link's UUID was read as l33t ('…-455c-…': 'ass'): sharing that book to a room
    // restricted the room. Reading-list links carry a random base64url token.
    const origin = fc.constantFrom('http://localhost:3000', 'https://library.uni.example');
    const item = fc.uuid().map((id) => `/userprofile/openlibrary?item=${id}`);
    // Without fast-check's bias to small values, which makes tokens no random generator makes.
    const list = fc
      .noBias(fc.uint8Array({ minLength: 24, maxLength: 24 }))
      .map((bytes) => `/lists/shared/${Buffer.from(bytes).toString('base64url')}`);
    fc.assert(
      fc.property(origin, fc.oneof(item, list), fc.boolean(), (host, path, comment) => {
        const text = comment ? `Shall we read this one next?\n${host}${path}` : host + path;
        expect(moderator.matches(text), text).toEqual([]);
      }),
      { numRuns: Math.max(RUNS, 2_000), seed: SEED },
    );
    // A bare id too; a link's readable words still count.
    expect(moderator.isAbusive('37052b0d-8df4-455c-beb5-6e1e5ff1c2af')).toBe(false);
    expect(moderator.isAbusive('https://example.com/fuck-this')).toBe(true);
    expect(moderator.isAbusive('https://example.com/?q=blorp')).toBe(true);
    expect(moderator.isAbusive('https://example.com/wiki/Fuckin_Perfect')).toBe(true);
  });

  it('passes sentences of ordinary words that merely contain listed ones, in any order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...ORDINARY), { minLength: 1, maxLength: 8 }),
        fc.array(fc.constantFrom(' ', ', ', '; ', ' and ', ' or '), { minLength: 8, maxLength: 8 }),
        fc.boolean(),
        (words, separators, shout) => {
          const text = words
            .map((item, index) => (index === 0 ? item : separators[index]! + item))
            .join('');
          const said = shout ? text.toUpperCase() : text;
          expect(moderator.isAbusive(said), said).toBe(false);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
