/**
 * Step 4 of the chatbot's pipeline: which intent a question has, by a scored matcher trained on
 * the examples in server/chatbot/intent-examples.ts. Each intent's score is the best TF-IDF cosine
 * between the question's words and one of its examples, plus a boost per keyword of the intent the
 * question holds; the best intent wins when it reaches the threshold, and the question is
 * "unknown" otherwise. Plain arithmetic over a few hundred words: no model, deterministic, and a
 * new phrasing is taught by adding an example (decision 039).
 */
import {
  INTENT_EXAMPLES,
  INTENT_THRESHOLD,
  KEYWORD_BOOST,
  MATCHED_INTENTS,
  type IntentExamples,
  type MatchedIntent,
} from '../intent-examples.ts';
import { wordsOf } from './normalise.ts';

/** Words too common to tell intents apart. */
const STOP = new Set([
  'a',
  'an',
  'the',
  'to',
  'of',
  'and',
  'or',
  'in',
  'on',
  'at',
  'for',
  'is',
  'are',
  'be',
  'it',
  'me',
  'my',
  'i',
  'you',
  'your',
  'do',
  'does',
  'this',
  'that',
  'there',
  'with',
  'please',
  'so',
  'ok',
  'okay',
  'can',
  'could',
  'would',
  'will',
  'im',
  'any',
  'some',
]);

/** A word's stem, enough to make "reservations" meet "reservation" and "opening" meet "open". */
export function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  return word;
}

/** The stems a text's matching words are made of. */
export function termsOf(text: string): string[] {
  return wordsOf(text)
    .filter((word) => !STOP.has(word))
    .map(stem);
}

type Vector = Map<string, number>;

/** A trained matcher: the examples as weighted vectors. */
export interface Matcher {
  examples: { intent: MatchedIntent; vector: Vector }[];
  idf: Map<string, number>;
  keywords: Map<MatchedIntent, Set<string>>;
}

function vectorOf(terms: string[], idf: Map<string, number>): Vector {
  const vector: Vector = new Map();
  for (const term of terms) vector.set(term, (vector.get(term) ?? 0) + (idf.get(term) ?? 0));
  return vector;
}

function cosine(a: Vector, b: Vector): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (const [term, weight] of a) {
    normA += weight * weight;
    dot += weight * (b.get(term) ?? 0);
  }
  for (const weight of b.values()) normB += weight * weight;
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
}

/** Trains a matcher on examples (the file's by default). */
export function trainMatcher(
  examples: Record<MatchedIntent, IntentExamples> = INTENT_EXAMPLES,
): Matcher {
  const documents = MATCHED_INTENTS.flatMap((intent) =>
    examples[intent].examples.map((example) => ({ intent, terms: termsOf(example) })),
  );
  const frequency = new Map<string, number>();
  for (const { terms } of documents) {
    for (const term of new Set(terms)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const idf = new Map<string, number>();
  // Words never seen in an example still count a little: a question full of them is off-topic.
  for (const [term, count] of frequency) idf.set(term, Math.log(1 + documents.length / count));
  return {
    examples: documents.map(({ intent, terms }) => ({ intent, vector: vectorOf(terms, idf) })),
    idf,
    keywords: new Map(
      MATCHED_INTENTS.map((intent) => [
        intent,
        new Set((examples[intent].keywords ?? []).map(stem)),
      ]),
    ),
  };
}

/** The matcher's verdict: the best intent (or unknown) and every intent's score. */
export interface Classified {
  intent: MatchedIntent | 'unknown';
  score: number;
  scores: Record<MatchedIntent, number>;
}

const unseenWeight = (matcher: Matcher) => Math.log(1 + matcher.examples.length);

/** Step 4: scores every intent against the question and picks the best above the threshold. */
export function classify(text: string, matcher: Matcher = defaultMatcher()): Classified {
  const terms = termsOf(text);
  const vector: Vector = new Map();
  for (const term of terms) {
    vector.set(term, (vector.get(term) ?? 0) + (matcher.idf.get(term) ?? unseenWeight(matcher)));
  }
  const scores = Object.fromEntries(MATCHED_INTENTS.map((intent) => [intent, 0])) as Record<
    MatchedIntent,
    number
  >;
  for (const example of matcher.examples) {
    scores[example.intent] = Math.max(scores[example.intent], cosine(vector, example.vector));
  }
  const present = new Set(terms);
  for (const intent of MATCHED_INTENTS) {
    for (const keyword of matcher.keywords.get(intent) ?? []) {
      if (present.has(keyword)) scores[intent] += KEYWORD_BOOST;
    }
  }
  let best: MatchedIntent | 'unknown' = 'unknown';
  let score = 0;
  for (const intent of MATCHED_INTENTS) {
    if (scores[intent] > score) {
      best = intent;
      score = scores[intent];
    }
  }
  return { intent: score >= INTENT_THRESHOLD ? best : 'unknown', score, scores };
}

let trained: Matcher | undefined;
/** The matcher trained on intent-examples.ts, once. */
export function defaultMatcher(): Matcher {
  trained ??= trainMatcher();
  return trained;
}
