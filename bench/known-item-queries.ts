/**
 * The known-item search bench's sample and queries (issue 22), as pure functions so they can be
 * tested apart from the search: a seeded random generator, a uniform sample, and the four ways
 * people type a book they already know (its short title; the same in lower case without
 * punctuation; the author's surname and one title word; the short title with two adjacent letters
 * swapped). `bench/known-item.ts` runs them through the search.
 */
import { STOP_WORDS } from '../server/catalogue/stop-words.ts';

/** A whole number in [0, below). */
export function randomIndex(random: () => number, below: number): number {
  return Math.min(below - 1, Math.floor(random() * below));
}

/**
 * `size` distinct indexes drawn uniformly from [0, count) (a partial Fisher–Yates shuffle), in
 * the order drawn; all of them, shuffled, when `size` ≥ `count`.
 */
export function sampleIndexes(count: number, size: number, random: () => number): number[] {
  const indexes = Array.from({ length: count }, (_, index) => index);
  const taken = Math.min(size, count);
  for (let index = 0; index < taken; index += 1) {
    const other = index + randomIndex(random, count - index);
    [indexes[index], indexes[other]] = [indexes[other]!, indexes[index]!];
  }
  return indexes.slice(0, taken);
}

/**
 * The title as people remember it: before any subtitle (':') or series note ('('), so
 * "The Hunger Games (The Hunger Games, #1)" is "The Hunger Games" and "Sapiens: A Brief History
 * of Humankind" is "Sapiens". A title that starts with either keeps its words without them.
 */
export function shortTitle(title: string): string {
  const before = title.split(/[:(]/)[0]?.trim() ?? '';
  if (before !== '') return before;
  return title.replace(/[:()]/g, ' ').replace(/\s+/g, ' ').trim();
}

/**
 * Lower case without punctuation, as typed into a search box: apostrophes dropped within a word
 * ("Sorcerer's" is "sorcerers"), every other mark a space; accents kept.
 */
export function plainLowerCase(text: string): string {
  return text
    .toLowerCase()
    .replace(/['’ʼ`]/g, '')
    .replace(/[^\p{L}\p{M}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Suffixes after a surname ("Martin Luther King Jr.", "Andre Dubus III"). */
const NAME_SUFFIX = /^(?:jr|sr|ii|iii|iv|phd|md)\.?,?$/i;
/** Particles that belong to the surname ("Ursula K. Le Guin", "Daphne du Maurier"). */
const SURNAME_PARTICLES = new Set([
  'de',
  'da',
  'di',
  'du',
  'del',
  'della',
  'der',
  'den',
  'van',
  'von',
  'le',
  'la',
  'los',
  'ten',
  'ter',
]);

/**
 * The surname of an author's name as written in the file ("J.R.R. Tolkien" → "Tolkien"), with
 * its particles ("Le Guin", "du Maurier") and without a suffix ("Vonnegut" of "Kurt Vonnegut
 * Jr."); the whole name when it is one word.
 */
export function surname(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  while (parts.length > 1 && NAME_SUFFIX.test(parts.at(-1)!)) parts.pop();
  let start = parts.length - 1;
  while (start > 1 && SURNAME_PARTICLES.has(parts[start - 1]!.toLowerCase())) start -= 1;
  return parts.slice(Math.max(0, start)).join(' ');
}

/** The first author of the file's `authors` cell (comma-separated names). */
export function firstAuthor(authors: string): string {
  return authors.split(',')[0]?.trim() ?? '';
}

/** The words of a title in lower case, as {@link plainLowerCase} writes them. */
export function titleWords(title: string): string[] {
  return plainLowerCase(title).split(' ').filter(Boolean);
}

/**
 * The author's surname and one word of the short title, picked at random among its words that are
 * not stop words (among all its words when every one is: "It" by Stephen King is "king it").
 */
export function surnameAndWord(title: string, authors: string, random: () => number): string {
  const words = titleWords(shortTitle(title));
  const meaningful = words.filter((word) => !STOP_WORDS.has(word));
  const pool = meaningful.length > 0 ? meaningful : words;
  const word = pool.length > 0 ? pool[randomIndex(random, pool.length)] : undefined;
  return [plainLowerCase(surname(firstAuthor(authors))), word].filter(Boolean).join(' ');
}

/**
 * The text with two adjacent, different letters of one word swapped ("Hunger" → "Hungre"): a
 * word of 5 or more letters picked at random, or of 4 when there is none, and a pair within it
 * at random. Undefined when no word has 4 letters ("It", "Y").
 */
export function transposeTypo(text: string, random: () => number): string | undefined {
  const words = [...text.matchAll(/\p{L}+/gu)].map((match) => ({
    start: match.index,
    letters: [...match[0]],
  }));
  // Pairs whose swap changes the word, by position in the word.
  const swappable = (letters: string[]) =>
    letters
      .slice(0, -1)
      .map((letter, index) => index)
      .filter((index) => letters[index]!.toLowerCase() !== letters[index + 1]!.toLowerCase());
  for (const minimum of [5, 4]) {
    const eligible = words.filter(
      (word) => word.letters.length >= minimum && swappable(word.letters).length > 0,
    );
    if (eligible.length === 0) continue;
    const word = eligible[randomIndex(random, eligible.length)]!;
    const pairs = swappable(word.letters);
    const at = pairs[randomIndex(random, pairs.length)]!;
    const letters = [...word.letters];
    [letters[at], letters[at + 1]] = [letters[at + 1]!, letters[at]!];
    // Letters outside the BMP are one letter but two UTF-16 units: measure the word in units.
    const length = word.letters.join('').length;
    return text.slice(0, word.start) + letters.join('') + text.slice(word.start + length);
  }
  return undefined;
}

/** The four ways of typing, in the order the bench reports them. */
export const WAYS = ['short title', 'lower case', 'surname + word', 'one typo'] as const;
export type Way = (typeof WAYS)[number];

/** A book of the file as the queries need it: its `title` and `authors` cells. */
export interface SampledBook {
  title: string;
  authors: string;
}

/**
 * The four queries for one book; `one typo` is missing when the short title has no word of 4
 * letters. Draws from `random` in a fixed order (the title word, then the typo).
 */
export function knownItemQueries(
  book: SampledBook,
  random: () => number,
): Partial<Record<Way, string>> {
  const short = shortTitle(book.title);
  const queries: Partial<Record<Way, string>> = {
    'short title': short,
    'lower case': plainLowerCase(short),
    'surname + word': surnameAndWord(book.title, book.authors, random),
  };
  const typo = transposeTypo(short, random);
  if (typo !== undefined) queries['one typo'] = typo;
  return queries;
}

/**
 * The key two catalogue rows share when they are editions of one book: title and first author,
 * ignoring case, accents, spacing and punctuation (but not words in parentheses, so the search
 * bench's multiplied "Emma (Revised 3)" is not "Emma").
 */
export function editionKey(row: { title: string; authors: readonly string[] }): string {
  const flat = (text: string) =>
    text
      .normalize('NFKD')
      .replace(/\p{M}/gu, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '');
  return `${flat(row.title)}|${flat(row.authors[0] ?? '')}`;
}

/**
 * How many different books of `books` (told apart by {@link editionKey}) a query names exactly as
 * well as the book it was written for, by the way it was typed: the same short title (short
 * title, lower case, one typo), or the same first-author surname with the word among the short
 * title's words (surname + word). 1 when the query names its book alone. A ranking has nothing to
 * tell k such books apart by, so it puts the right one first once in k on average: the best top-1
 * to expect of a sample is the mean of 1 / k.
 */
export function booksNamedAlike(
  book: SampledBook,
  way: Way,
  query: string,
  books: readonly SampledBook[],
): number {
  const keys = new Set<string>();
  const edition = (other: SampledBook) =>
    editionKey({ title: shortTitle(other.title), authors: [firstAuthor(other.authors)] });
  if (way === 'surname + word') {
    const [name, ...rest] = query.split(' ');
    const word = rest.at(-1);
    for (const other of books) {
      const otherName = plainLowerCase(surname(firstAuthor(other.authors)));
      if (otherName !== [name, ...rest.slice(0, -1)].join(' ')) continue;
      if (word !== undefined && !titleWords(shortTitle(other.title)).includes(word)) continue;
      keys.add(edition(other));
    }
  } else {
    const title = plainLowerCase(shortTitle(book.title));
    for (const other of books) {
      if (plainLowerCase(shortTitle(other.title)) === title) keys.add(edition(other));
    }
  }
  return Math.max(1, keys.size);
}
