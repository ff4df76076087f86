import { normaliseTerm } from './recorder.ts';

/**
 * Words that carry no meaning of their own in a question to the chatbot: articles, pronouns,
 * auxiliaries, question words and politeness. "Can you tell me when the library opens on
 * holidays, please?" and "library opening holidays" are the same question to a librarian.
 */
const STOP_WORDS = new Set(
  `a about above after again all am an and any are as at be been being below between both but by
  can could did do does doing down during each few for from further had has have having he her
  here hers him his how i if in into is it its itself just me might more most must my no nor not
  now of off on once only or other our ours out over own please pls same shall she should so some
  such than thank thanks that the their theirs them then there these they this those through to
  too under until up very was we were what when where which while who whom why will with would
  you your yours yourself hi hello hey tell know want wanna like need get give show find let ok
  okay`.split(/\s+/u),
);

/** The longest grouping key kept (a scope column value). */
const MAX_KEY_LENGTH = 200;

/**
 * A word cut to its stem by a few English suffix rules (a light stemmer, not Porter's): enough
 * that "holidays", "opening" and "hours" meet "holiday", "open" and "hour"; never below three
 * letters, so short words stay as they are.
 */
export function stem(word: string): string {
  const rules: [RegExp, string][] = [
    [/ies$/u, 'y'],
    [/(ss)es$/u, '$1'],
    [/(ch|sh|x)es$/u, '$1'],
    [/ing$/u, ''],
    [/ed$/u, ''],
    [/ly$/u, ''],
    [/([^s])s$/u, '$1'],
  ];
  for (const [suffix, replacement] of rules) {
    if (!suffix.test(word)) continue;
    const cut = word.replace(suffix, replacement);
    return cut.length >= 3 ? cut : word;
  }
  return word;
}

/**
 * The grouping key of a question the chatbot could not answer (decision 041): its normalised
 * words without stop words, each stemmed, once each, sorted. Wordings with the same key are one
 * group on the insights screen. A question of stop words only is its own key (its normalised
 * text), so "what?" is not grouped with "who?".
 */
export function questionKey(question: string): string {
  const text = normaliseTerm(question);
  const words = text
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '' && !STOP_WORDS.has(word))
    .map(stem);
  const key = [...new Set(words)].sort().join(' ');
  return (key === '' ? text : key).slice(0, MAX_KEY_LENGTH);
}
