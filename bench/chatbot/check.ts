import type { ChatbotResponse } from '#contract/http/chatbot.ts';
import { CATEGORIES, type Question } from './questions.ts';

/** The least the evaluation set must hold (issue 7 asks for at least 40). */
export const MIN_QUESTIONS = 40;

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
  if (question.linkTo && !answer.links.some((link) => link.href.startsWith(question.linkTo!))) {
    problems.push(`no link to ${question.linkTo}`);
  }
  return problems;
}

/** What is wrong with the evaluation set itself; empty when it is well formed. */
export function questionSetProblems(questions: readonly Question[]): string[] {
  const problems: string[] = [];
  if (questions.length < MIN_QUESTIONS) {
    problems.push(`${questions.length} questions: at least ${MIN_QUESTIONS} are needed`);
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
    if (question.mustContain.length === 0 && !question.linkTo) {
      problems.push(`${name}: nothing to check (no mustContain, no linkTo)`);
    }
    if ([...question.mustContain, ...(question.mustNotContain ?? [])].some((s) => !s.trim())) {
      problems.push(`${name}: an empty string in mustContain or mustNotContain`);
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
    const key = normalise(question.prompt.trim());
    if (prompts.has(key)) problems.push(`${question.id}: the same prompt is asked twice`);
    prompts.add(key);
  }
  for (const category of CATEGORIES) {
    if (!questions.some((question) => question.category === category)) {
      problems.push(`no question in the category "${category}"`);
    }
  }
  return problems;
}
