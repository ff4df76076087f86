/** The longest title `items.title` accepts (its CHECK constraint). */
export const TITLE_MAX_LENGTH = 500;

/** The earliest year `items.year` accepts (its CHECK constraint). */
export const YEAR_MIN = -3000;
/** The latest year `items.year` accepts. */
export const YEAR_MAX = 3000;

/** Collapses every run of whitespace, line breaks included, to one space and trims the ends. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A comparison key that ignores case, accents, punctuation, spacing and parenthesised asides, so
 * "The Strange Case Of Dr. Jekyll" matches "the strange case of Dr Jekyll" and
 * "Mary Wollstonecraft (Godwin) Shelley" matches "Mary Wollstonecraft Shelley".
 */
export function matchKey(text: string): string {
  return text
    .replace(/\([^()]*\)/g, ' ')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Why a title cannot be stored, or undefined when it can. */
export function titleProblem(title: string): string | undefined {
  if (title === '') return 'no title';
  if (title.length > TITLE_MAX_LENGTH)
    return `the title is longer than ${TITLE_MAX_LENGTH} characters`;
  return undefined;
}

/** Why a year cannot be stored, or undefined when it can. */
export function yearProblem(year: number): string | undefined {
  if (!Number.isInteger(year)) return `the year ${year} is not a whole year`;
  if (year < YEAR_MIN || year > YEAR_MAX)
    return `the year ${year} is outside ${YEAR_MIN}..${YEAR_MAX}`;
  return undefined;
}

/** Splits a list on `separator`, trimming each entry and dropping empty ones and repeats. */
export function splitList(text: string, separator: string | RegExp): string[] {
  const seen = new Set<string>();
  for (const part of text.split(separator)) {
    const value = squash(part);
    if (value) seen.add(value);
  }
  return [...seen];
}
