import { typoAllowance, typoDistance } from './typos.ts';

/**
 * PostgreSQL's English stop words (`english.stop`, which `to_tsvector('english', …)` and
 * `to_tsquery` drop): words that find nothing by themselves.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself ' +
    'she her hers herself it its itself they them their theirs themselves what which who whom ' +
    'this that these those am is are was were be been being have has had having do does did ' +
    'doing a an the and but if or because as until while of at by for with about against ' +
    'between into through during before after above below to from up down in out on off over ' +
    'under again further then once here there when where why how all any both each few more ' +
    'most other some such no nor not only own same so than too very s t can will just don ' +
    'should now'
  ).split(' '),
);

/**
 * The stop word a query word is a typing mistake of, within its {@link typoAllowance} ('otehr'
 * for 'other', 'yoru' for 'your'; a 4-letter word only by two neighbours swapped), or null. Such
 * a word stands for nothing searchable: a search that required it would find nothing.
 */
export function stopWordTypo(word: string): string | null {
  const allowance = typoAllowance(word);
  if (allowance === 0 || STOP_WORDS.has(word)) return null;
  const letters = [...word].length;
  let best: { stop: string; distance: number } | null = null;
  for (const stop of STOP_WORDS) {
    if (letters === 4 && [...stop].length !== 4) continue;
    const distance = typoDistance(word, stop, allowance);
    // A 4-letter word may only have had two neighbours swapped: same letters, distance 1.
    if (letters === 4 && [...stop].sort().join('') !== [...word].sort().join('')) continue;
    if (distance <= allowance && (best === null || distance < best.distance)) {
      best = { stop, distance };
    }
  }
  return best?.stop ?? null;
}
