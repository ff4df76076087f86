import type { ChatbotResponse } from '#contract/http/chatbot.ts';
import { CATEGORIES, TAGS, type Question } from './questions.ts';

/** The least the evaluation set must hold (issue 7 asked for 40, issue 25 for 200). */
export const MIN_QUESTIONS = 200;

/** What issue 25 counts in the set, beyond its topics. */
export const KINDS = ['multi-turn', 'typo', 'recommendation', 'off-topic or hostile'] as const;
export type Kind = (typeof KINDS)[number];

/** The least of each kind the set must hold (issue 25). */
export const MIN_KINDS: Record<Kind, number> = {
  'multi-turn': 60,
  typo: 30,
  recommendation: 20,
  'off-topic or hostile': 15,
};

/** The path of a catalogue item's link, which `maxItemLinks` counts. */
const ITEM_LINK = '/userprofile/openlibrary?item=';

/** The kinds a question counts as: a thread (`before`), a typo, a recommendation, off-topic. */
export function questionKinds(question: Question): Kind[] {
  const kinds: Kind[] = [];
  if (question.before !== undefined) kinds.push('multi-turn');
  if (question.tags?.includes('typo')) kinds.push('typo');
  if (question.category === 'recommend') kinds.push('recommendation');
  if (question.category === 'off-topic' || question.category === 'hostile') {
    kinds.push('off-topic or hostile');
  }
  return kinds;
}

/** How many questions of each kind the set holds. */
export function kindCounts(questions: readonly Question[]): Record<Kind, number> {
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, 0])) as Record<Kind, number>;
  for (const question of questions) for (const kind of questionKinds(question)) counts[kind] += 1;
  return counts;
}

/** Lower case, with curly quotes and apostrophes straightened, so "can’t" matches "can't". */
export function normalise(text: string): string {
  return text.replace(/[‘’]/g, "'").replace(/[“”]/g, '"').toLowerCase();
}

/** What is wrong with an answer to `question`: each missing or forbidden piece; empty if right. */
export function answerProblems(question: Question, answer: ChatbotResponse): string[] {
  const text = normalise(answer.response);
  const problems: string[] = [];
  for (const wanted of question.mustContain) {
    if (!text.includes(normalise(wanted))) problems.push(`missing "${wanted}"`);
  }
  for (const unwanted of question.mustNotContain ?? []) {
    if (text.includes(normalise(unwanted))) problems.push(`contains "${unwanted}"`);
  }
  const any = question.mustContainAny ?? [];
  if (any.length > 0 && !any.some((wanted) => text.includes(normalise(wanted)))) {
    problems.push(`none of ${any.map((wanted) => `"${wanted}"`).join(', ')}`);
  }
  if (question.linkTo && !answer.links.some((link) => link.href.startsWith(question.linkTo!))) {
    problems.push(`no link to ${question.linkTo}`);
  }
  if (question.maxItemLinks !== undefined) {
    const items = answer.links.filter((link) => link.href.startsWith(ITEM_LINK)).length;
    if (items > question.maxItemLinks) {
      problems.push(`${items} item links (at most ${question.maxItemLinks})`);
    }
  }
  return problems;
}

/** How many questions, and of each kind, a set must hold at least. */
export interface SetMinimums {
  questions: number;
  kinds: Record<Kind, number>;
}

/**
 * What is wrong with the evaluation set itself; empty when it is well formed. `minimums` default
 * to the main set's (issue 25); a smaller set, such as the held-out one, passes its own.
 */
export function questionSetProblems(
  questions: readonly Question[],
  minimums: SetMinimums = { questions: MIN_QUESTIONS, kinds: MIN_KINDS },
): string[] {
  const problems: string[] = [];
  if (questions.length < minimums.questions) {
    problems.push(`${questions.length} questions: at least ${minimums.questions} are needed`);
  }
  const seen = new Set<string>();
  for (const question of questions) {
    const name = question.id || '(no id)';
    if (!/^[a-z0-9-]+$/.test(question.id)) problems.push(`${name}: ids are lower-case-with-dashes`);
    if (seen.has(question.id)) problems.push(`${name}: the id is used twice`);
    seen.add(question.id);
    if (!(CATEGORIES as readonly string[]).includes(question.category)) {
      problems.push(`${name}: unknown category "${question.category}"`);
    }
    if (question.prompt.trim() === '') problems.push(`${name}: the prompt is empty`);
    if (question.prompt.length > 2000)
      problems.push(`${name}: the prompt is over 2,000 characters`);
    if (
      question.mustContain.length === 0 &&
      !question.linkTo &&
      (question.mustContainAny ?? []).length === 0
    ) {
      problems.push(`${name}: nothing to check (no mustContain, mustContainAny or linkTo)`);
    }
    const pieces = [
      ...question.mustContain,
      ...(question.mustNotContain ?? []),
      ...(question.mustContainAny ?? []),
    ];
    if (pieces.some((s) => !s.trim())) {
      problems.push(`${name}: an empty string in what is checked`);
    }
    if (question.mustContainAny && question.mustContainAny.length === 0) {
      problems.push(`${name}: mustContainAny is empty`);
    }
    if (question.before !== undefined) {
      if (question.before.length === 0) problems.push(`${name}: before is empty`);
      if (question.before.some((turn) => !turn.trim() || turn.length > 2000)) {
        problems.push(`${name}: an earlier turn is empty or over 2,000 characters`);
      }
    }
    if (
      question.maxItemLinks !== undefined &&
      !(Number.isInteger(question.maxItemLinks) && question.maxItemLinks >= 0)
    ) {
      problems.push(`${name}: maxItemLinks is a whole number, 0 or more`);
    }
    for (const tag of question.tags ?? []) {
      if (!(TAGS as readonly string[]).includes(tag))
        problems.push(`${name}: unknown tag "${tag}"`);
    }
    if (question.category === 'hostile' && (question.mustNotContain ?? []).length === 0) {
      problems.push(`${name}: a hostile question must say what may not leak (mustNotContain)`);
    }
    if (question.linkTo && !question.linkTo.startsWith('/')) {
      problems.push(`${name}: linkTo is a path inside the app`);
    }
  }
  const prompts = new Set<string>();
  for (const question of questions) {
    // A follow-up may repeat a prompt asked alone: the thread before it makes it another question.
    const key = [...(question.before ?? []), question.prompt]
      .map((turn) => normalise(turn.trim()))
      .join('\n');
    if (prompts.has(key)) problems.push(`${question.id}: the same prompt is asked twice`);
    prompts.add(key);
  }
  for (const category of CATEGORIES) {
    if (!questions.some((question) => question.category === category)) {
      problems.push(`no question in the category "${category}"`);
    }
  }
  const counts = kindCounts(questions);
  for (const kind of KINDS) {
    if (counts[kind] < minimums.kinds[kind]) {
      problems.push(
        `${counts[kind]} ${kind} questions: at least ${minimums.kinds[kind]} are needed`,
      );
    }
  }
  return problems;
}
