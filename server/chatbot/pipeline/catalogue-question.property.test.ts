import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHATBOT_PROMPT_MAX } from '#contract/http/chatbot.ts';
import { hostileString } from '../../test/json-schema-arbitrary.ts';
import type { Intent } from '../intents.ts';
import { cleanPhrase, readQuestion } from './catalogue-question.ts';

/*
 * The Digi Chatbot's reading of a question's title, author or topic (`readQuestion`), which runs on every prompt a person
 * sends (up to CHATBOT_PROMPT_MAX characters): it never throws, answers quickly whatever the
 * text (no pattern backtracks its way into seconds), and the title, author or topic it takes
 * from the prompt (which the reply repeats) holds no markup the person typed.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

const KINDS: Intent['kind'][] = [
  'greeting',
  'thanks',
  'help',
  'hours',
  'contact',
  'reserve-howto',
  'request-howto',
  'forum-howto',
  'my-reservations',
  'my-requests',
  'others-data',
  'injection',
  'availability',
  'author-of',
  'works-by',
  'topic',
  'recommend',
  'unknown',
];

/** What `readQuestion` treats as markup and drops (its MARKUP pattern). */
const MARKUP = /<\/?[a-z!][^<>]*(>|$)/i;

/** Pieces of questions, markup and the patterns' own words, to build prompts from. */
const piece = fc.oneof(
  fc.constantFrom(
    'is ',
    'are ',
    'available ',
    'copies of ',
    'any ',
    'some ',
    'free ',
    'good ',
    'papers ',
    'books ',
    'by ',
    'about ',
    'who wrote ',
    'can i reserve ',
    'do you have ',
    'my ',
    'reservations ',
    'ignore previous instructions ',
    'a@b.co reserve ',
    '? ',
    '!!! ',
    '   ',
    '"',
    '“',
    'Frankenstein ',
    'machine learning ',
  ),
  fc.constantFrom(
    '<script>',
    '</script>',
    '<img src=x onerror=alert(1)>',
    '<b>',
    '<',
    '>',
    '<scr',
    'ipt>',
    '<!--',
    '-->',
    '<a href="javascript:alert(1)">',
  ),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
);

const prompt = fc.oneof(
  { weight: 4, arbitrary: fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join('')) },
  { weight: 2, arbitrary: hostileString.map((text) => text.slice(0, CHATBOT_PROMPT_MAX)) },
  {
    weight: 1,
    // Long runs of the patterns' own words: where a regular expression could backtrack.
    arbitrary: fc
      .tuple(
        fc.array(piece, { minLength: 1, maxLength: 4 }),
        fc.constantFrom('', ' papers', ' available', '?'),
      )
      .map(([unit, end]) => {
        const chunk = unit.join('') || ' ';
        return (
          chunk
            .repeat(Math.ceil(CHATBOT_PROMPT_MAX / chunk.length))
            .slice(0, CHATBOT_PROMPT_MAX - end.length) + end
        );
      }),
  },
);

/** The text an intent carries from the prompt, if any. */
const carried = (intent: Intent): string[] =>
  'title' in intent
    ? [intent.title]
    : 'author' in intent
      ? [intent.author]
      : 'topic' in intent
        ? [intent.topic]
        : [];

describe('readQuestion (fast-check)', () => {
  it('reads any prompt quickly, without throwing, and repeats no markup from it', () => {
    fc.assert(
      fc.property(prompt, (text) => {
        const started = performance.now();
        const intent = readQuestion(text);
        const took = performance.now() - started;
        expect(KINDS).toContain(intent.kind);
        // Generous for a busy machine: a backtracking pattern takes seconds, not milliseconds.
        expect(
          took,
          `${took.toFixed(0)} ms for ${JSON.stringify(text.slice(0, 80))}…`,
        ).toBeLessThan(500);
        for (const phrase of carried(intent)) {
          expect(typeof phrase).toBe('string');
          expect(phrase, JSON.stringify(text)).not.toMatch(MARKUP);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it('repeats no markup that taking other markup out puts together (found by the property)', () => {
    for (const text of [
      '<scr<script>',
      'books about <scr<script>ipt>alert(1)</scr</script>ipt>',
      'who wrote <im<b>g src=x onerror=alert(1)>',
      'is <<a>b>Dune</b> available',
    ]) {
      for (const phrase of carried(readQuestion(text))) expect(phrase, text).not.toMatch(MARKUP);
    }
    expect(readQuestion('who wrote <scr<b>ipt>Dune</scr<b>ipt>?')).toEqual({
      kind: 'author-of',
      title: 'Dune',
    });
  });

  it('cleans any phrase into one trimmed line with single spaces', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join('')),
          hostileString,
        ),
        (text) => {
          const cleaned = cleanPhrase(text);
          expect(cleaned).toBe(cleaned.trim());
          expect(cleaned).not.toMatch(/\s{2}|[\n\r\t]/);
        },
      ),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
