/**
 * Step 5 of the chatbot's pipeline: the things a question names besides its intent. A day
 * (Monday…Sunday, today, tomorrow, the weekend, holidays), an ISBN, an arXiv id, a type of item,
 * an ordinal ("the second one"). Titles, authors and topics are read by the framing step and the
 * catalogue readers of catalogue-question.ts.
 */
import type { ItemType } from '#contract/http/catalogue.ts';
import { normaliseIsbn } from '../../catalogue/isbn.ts';

/** A day a question asks about. */
export type Day =
  | 'monday'
  | 'tuesday'
  | 'wednesday'
  | 'thursday'
  | 'friday'
  | 'saturday'
  | 'sunday'
  | 'today'
  | 'tomorrow'
  | 'weekend'
  | 'weekdays'
  | 'holidays';

const DAYS: [RegExp, Day][] = [
  [/\b(christmas|xmas|easter|holidays?|bank holidays?|new year'?s?|thanksgiving)\b/, 'holidays'],
  [/\bmon(day)?s?\b/, 'monday'],
  [/\btue(s|sday)?s?\b/, 'tuesday'],
  [/\bwed(nesday)?s?\b/, 'wednesday'],
  [/\bthu(rs|rsday)?s?\b/, 'thursday'],
  [/\bfri(day)?s?\b/, 'friday'],
  [/\bsat(urday)?s?\b/, 'saturday'],
  [/\bsun(day)?s?\b/, 'sunday'],
  [/\b(weekends?|week-ends?)\b/, 'weekend'],
  [/\b(weekdays?|week days?|during the week)\b/, 'weekdays'],
  [/\b(today|tonight|this (morning|afternoon|evening)|now)\b/, 'today'],
  [/\btomorrow\b/, 'tomorrow'],
];

/** The day a question names, if any (a holiday before the weekday it falls on). */
export function dayOf(text: string): Day | undefined {
  return DAYS.find(([pattern]) => pattern.test(text))?.[1];
}

/** An ISBN-10 or ISBN-13 in a question, as ISBN-13; undefined when there is none. */
export function isbnOf(text: string): string | undefined {
  for (const candidate of text.match(/\b(?:97[89][-\s]?)?(?:\d[-\s]?){9}[\dx]\b/gi) ?? []) {
    const isbn = normaliseIsbn(candidate);
    if (isbn) return isbn;
  }
  // Labelled but not valid: still an ISBN question, answered "not found".
  const labelled = text.match(/\bisbn(?:-?1[03])?:?\s*([\d-]{10,17})/i);
  return labelled ? labelled[1]!.replace(/-/g, '') : undefined;
}

/** A new-style arXiv identifier (`1706.03762`, from a bare id or an arxiv.org link), unversioned. */
export function arxivIdOf(text: string): string | undefined {
  return text.match(/(?:^|[\s/:])(\d{4}\.\d{4,5})(?:v\d+)?\b/)?.[1];
}

/** The type of item a question names anywhere ("papers instead", "any courses"), if any. */
export function typeIn(text: string): ItemType | undefined {
  if (/\b(papers?|articles?|research|publications?|preprints?)\b/.test(text)) return 'paper';
  if (/\b(courses?|tutorials?|lectures?|classes)\b/.test(text)) return 'course';
  if (/\b(books?|novels?|textbooks?)\b/.test(text)) return 'book';
  return undefined;
}

const ORDINALS: Record<string, number> = {
  first: 0,
  '1st': 0,
  second: 1,
  '2nd': 1,
  third: 2,
  '3rd': 2,
  fourth: 3,
  '4th': 3,
  fifth: 4,
  '5th': 4,
};

/** "the second one" → 1; "the last one" → -1; undefined without an ordinal. */
export function ordinalOf(text: string): number | undefined {
  const match = text.match(
    /\b(first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|last)\b(?: one| book| title| item)?/,
  );
  if (!match) return undefined;
  return match[1] === 'last' ? -1 : ORDINALS[match[1]!];
}
