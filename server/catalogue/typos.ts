import { sql, type Kysely } from 'kysely';
import { PREPARED } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';

/** Most corrections one query word may bring into a search. */
export const CORRECTIONS_PER_WORD = 8;

/**
 * How many typing mistakes a query word may hold and still find what was meant, as Typesense and
 * Meilisearch allow: none in words under 4 letters (too many other words are that close) or with
 * a digit (numbers, ISBNs and years are typed as they are), 1 from 5 letters, 2 from 9. A word of
 * 4 letters may hold one mistake of one kind only, two neighbours swapped ('wlak' for 'walk'):
 * the commonest slip, and one that rarely turns a word into another.
 */
export function typoAllowance(word: string): 0 | 1 | 2 {
  if (/\p{N}/u.test(word)) return 0;
  const letters = [...word].length;
  if (letters >= 9) return 2;
  if (letters >= 4) return 1;
  return 0;
}

/** Words of this many letters may only have two neighbours swapped. */
const SWAPS_ONLY = 4;

/** Every word made by swapping two neighbouring letters of `word`. */
export function swapsOf(word: string): string[] {
  const letters = [...word];
  const variants = new Set<string>();
  for (let i = 0; i + 1 < letters.length; i++) {
    const swapped = [...letters];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
    variants.add(swapped.join(''));
  }
  variants.delete(word);
  return [...variants];
}

/**
 * The optimal string alignment distance of `a` and `b` (Damerau–Levenshtein without moving a
 * letter twice): an insertion, a deletion, a substitution or a swap of two neighbours each count
 * one, so 'frankenstien' is one mistake from 'frankenstein', not two. Stops counting past `max`
 * and answers `max + 1`.
 */
export function typoDistance(a: string, b: string, max = Infinity): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      current.push(value);
      best = Math.min(best, value);
    }
    if (best > max) return max + 1;
    before = previous;
    previous = current;
  }
  const distance = previous[y.length]!;
  return distance > max ? max + 1 : distance;
}

const ALPHABET = [...'abcdefghijklmnopqrstuvwxyz'];

/**
 * Every word one mistake away from `word` (a letter left out, swapped with its neighbour, typed
 * wrong or typed extra), over the Latin letters and the word's own: what the vocabulary is asked
 * for, by its primary key, to correct a word of 5 to 8 letters.
 */
export function oneMistakeAway(word: string): string[] {
  const letters = [...word];
  const alphabet = [...new Set([...ALPHABET, ...letters])];
  const variants = new Set<string>();
  for (let i = 0; i <= letters.length; i++) {
    const head = letters.slice(0, i).join('');
    const tail = letters.slice(i);
    if (tail.length > 0) {
      variants.add(head + tail.slice(1).join(''));
      for (const letter of alphabet) variants.add(head + letter + tail.slice(1).join(''));
    }
    if (tail.length > 1) variants.add(head + tail[1] + tail[0] + tail.slice(2).join(''));
    for (const letter of alphabet) variants.add(head + letter + tail.join(''));
  }
  variants.delete(word);
  return [...variants];
}

/** A catalogue word that may be what a query word meant, and how far it is from it. */
export interface Correction {
  word: string;
  distance: number;
  /** How many items hold it. */
  documents: number;
}

/**
 * For each query word, whether the catalogue's vocabulary (`search_words`) holds it as typed, and
 * its likely corrections: the vocabulary's words within the word's {@link typoAllowance}, fewest
 * mistakes first and then the commonest, at most {@link CORRECTIONS_PER_WORD} (none for a null
 * word, not asked about). Words of 5 to 8 letters are looked up as
 * every word one mistake away (exact, by the primary key); longer ones by trigram similarity,
 * then measured. One statement for the whole query.
 */
export async function findCorrections(
  db: Kysely<Database>,
  words: readonly (string | null)[],
): Promise<{ known: boolean[]; corrections: Correction[][] }> {
  const exact: string[] = [];
  const exactOf: number[] = [];
  const fuzzy: string[] = [];
  const fuzzyOf: number[] = [];
  words.forEach((word, index) => {
    // A word left out (null) is not looked up: it is known, or not to be corrected.
    if (word === null) return;
    exact.push(word);
    exactOf.push(index);
    const allowance = typoAllowance(word);
    if (allowance === 1) {
      const variants = [...word].length === SWAPS_ONLY ? swapsOf(word) : oneMistakeAway(word);
      for (const variant of variants) {
        exact.push(variant);
        exactOf.push(index);
      }
    } else if (allowance === 2) {
      fuzzy.push(word);
      fuzzyOf.push(index);
    }
  });
  const { rows } = await sql<{ word: string; of: number; documents: number }>`${PREPARED}
    SELECT w.word, q.of, w.documents FROM unnest(${exact}::text[], ${exactOf}::int[]) AS q (word, of)
    JOIN search_words w ON w.word = q.word
    UNION ALL
    SELECT m.word, f.of, m.documents FROM unnest(${fuzzy}::text[], ${fuzzyOf}::int[]) AS f (word, of)
    CROSS JOIN LATERAL (
      SELECT w.word, w.documents FROM search_words w
      WHERE w.word % f.word
      ORDER BY similarity(w.word, f.word) DESC, w.word
      LIMIT 20
    ) AS m
  `.execute(db);
  const known = words.map(() => false);
  const found = words.map(() => new Map<string, Correction>());
  for (const row of rows) {
    const word = words[row.of]!;
    if (row.word === word) {
      known[row.of] = true;
      continue;
    }
    const allowance = typoAllowance(word);
    const distance = typoDistance(word, row.word, allowance);
    if (distance <= allowance) {
      found[row.of]!.set(row.word, { word: row.word, distance, documents: Number(row.documents) });
    }
  }
  const corrections = found.map((candidates) =>
    [...candidates.values()]
      .sort(
        (a, b) =>
          a.distance - b.distance || b.documents - a.documents || a.word.localeCompare(b.word),
      )
      .slice(0, CORRECTIONS_PER_WORD),
  );
  return { known, corrections };
}
