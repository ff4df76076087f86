import type { Suggestion } from '#contract/http/suggestions.ts';
import type { Suggested, SuggestedTitle } from '../catalogue/suggest.ts';

/** What `suggest` found as the answer's list: titles (opening their item), then authors. */
export function presentSuggestions({ typed, titles, authors }: Suggested): Suggestion[] {
  return [
    ...titles.map((row): Suggestion => {
      const detail = detailOf(row);
      return {
        kind: 'title',
        text: row.title,
        itemId: row.id,
        itemType: row.kind,
        ...(detail ? { detail } : {}),
        matched: matchedRanges(row.title, typed),
      };
    }),
    ...authors.map((name): Suggestion => ({
      kind: 'author',
      text: name,
      matched: matchedRanges(name, typed),
    })),
  ];
}

/** A title's first author and year, to tell editions and namesakes apart. */
function detailOf(row: SuggestedTitle): string | undefined {
  const parts = [row.author, row.year === null ? null : String(row.year)].filter(
    (part): part is string => part !== null && part !== '',
  );
  return parts.length > 0 ? parts.join(', ') : undefined;
}

/**
 * The `[start, end)` ranges of `text` that the typed words match: consecutive words of `text`
 * where every typed word but the last is a whole word and the last one starts a word. The first
 * such run counts; none when there is none (then nothing is highlighted).
 */
export function matchedRanges(text: string, typed: string[]): [number, number][] {
  if (typed.length === 0) return [];
  const words = [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((match) => ({
    start: match.index,
    word: match[0].toLowerCase(),
  }));
  for (let first = 0; first + typed.length <= words.length; first += 1) {
    const run: [number, number][] = [];
    for (const [offset, want] of typed.entries()) {
      const found = words[first + offset];
      const last = offset === typed.length - 1;
      if (!found || !(last ? found.word.startsWith(want) : found.word === want)) break;
      run.push([found.start, found.start + want.length]);
    }
    if (run.length === typed.length) return run;
  }
  return [];
}
