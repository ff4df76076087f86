import { parse } from 'isbn3';

/** Longer input is not an ISBN, however it is spaced: not worth parsing. */
const MAX_INPUT_LENGTH = 40;

// "ISBN 0-306-40615-2", "ISBN-13: 978-…" as people copy them from a book or a record.
const LABEL = /^isbn(?:-?1[03])?:?\s*/i;

/**
 * The ISBN-13 (13 digits) of an ISBN-10 or ISBN-13 written with or without hyphens and spaces, so
 * that both forms of one book are one key; null when it is not a valid ISBN (a wrong check digit,
 * or a number outside the ranges the ISBN agency has assigned, as isbn3 knows them).
 */
export function normaliseIsbn(input: string): string | null {
  const text = input.trim().replace(LABEL, '');
  if (text === '' || text.length > MAX_INPUT_LENGTH || !/^[0-9Xx\s-]+$/.test(text)) return null;
  return parse(text)?.isbn13 ?? null;
}
