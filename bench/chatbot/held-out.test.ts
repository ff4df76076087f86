import { describe, expect, it } from 'vitest';
import { kindCounts, KINDS, normalise, questionSetProblems } from './check.ts';
import { HELD_OUT, HELD_OUT_MINIMUMS } from './held-out.ts';
import { QUESTIONS, type Question } from './questions.ts';

/** A question's whole thread, normalised: what makes two questions the same question. */
function thread(question: Question): string {
  return [...(question.before ?? []), question.prompt]
    .map((turn) => normalise(turn.trim()))
    .join('\n');
}

describe('the held-out Digi Chatbot question set', () => {
  it('is well formed by the main set’s checker, with its own minimums', () => {
    expect(questionSetProblems(HELD_OUT, HELD_OUT_MINIMUMS)).toEqual([]);
    expect(HELD_OUT).toHaveLength(HELD_OUT_MINIMUMS.questions);
    const counts = kindCounts(HELD_OUT);
    for (const kind of KINDS) {
      expect(counts[kind], kind).toBeGreaterThanOrEqual(HELD_OUT_MINIMUMS.kinds[kind]);
    }
  });

  it('is held out: no id and no question of the main set', () => {
    const ids = new Set(QUESTIONS.map(({ id }) => id));
    expect(HELD_OUT.filter(({ id }) => ids.has(id)).map(({ id }) => id)).toEqual([]);
    const threads = new Set(QUESTIONS.map(thread));
    expect(
      HELD_OUT.filter((question) => threads.has(thread(question))).map(({ id }) => id),
    ).toEqual([]);
    // A question asked alone is not one the main set asks anywhere, alone or in a thread.
    const turns = new Set(
      QUESTIONS.flatMap(({ before, prompt }) => [...(before ?? []), prompt]).map((turn) =>
        normalise(turn.trim()),
      ),
    );
    expect(
      HELD_OUT.filter(({ before, prompt }) => !before && turns.has(normalise(prompt.trim()))).map(
        ({ id }) => id,
      ),
    ).toEqual([]);
  });

  it('still holds the main set to the main minimums', () => {
    expect(questionSetProblems(HELD_OUT)).toContain(
      `${HELD_OUT.length} questions: at least 200 are needed`,
    );
  });
});
