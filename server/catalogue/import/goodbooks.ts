import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { normaliseIsbn } from '../isbn.ts';
import { matchKey, splitList, squash, titleProblem, yearProblem } from './text.ts';
import {
  writeRows,
  type ImportListener,
  type ImportResult,
  parsedCsvRows,
  type ParsedRow,
} from './writer.ts';

/** The importer's name, stored in `items.source`. */
export const GOODBOOKS_SOURCE = 'goodbooks';

/** Columns of goodbooks-10k `books.csv` the importer reads; the others are ignored. */
export const GOODBOOKS_COLUMNS = [
  'goodreads_book_id',
  'isbn',
  'authors',
  'original_publication_year',
  'original_title',
  'title',
  'language_code',
  'image_url',
  'ratings_count',
] as const;

/**
 * The ISBN-10 of a goodbooks `isbn` cell: the file stored it as a number, so leading zeros were
 * lost ("439023483" is 0439023483). Returns null for an empty cell, an error for anything else.
 */
export function padIsbn(raw: string): { isbn: string | null; error?: string } {
  const value = raw.trim().toUpperCase();
  if (value === '') return { isbn: null };
  if (!/^[0-9]{1,9}[0-9X]$/.test(value)) {
    return { isbn: null, error: `the ISBN "${raw.trim()}" is not an ISBN-10` };
  }
  return { isbn: value.padStart(10, '0') };
}

// Goodreads appends the series to the title: "The Hunger Games (The Hunger Games, #1)".
const SERIES_SUFFIX = /^(.*\S)\s*\(([^()]*?),?\s*#\s*([^()]+)\)$/;

/** Splits a Goodreads title into the title proper and its series note, if it has one. */
export function splitSeries(title: string): { title: string; series: string | null } {
  const match = SERIES_SUFFIX.exec(title);
  if (!match) return { title, series: null };
  const [, main = '', name = '', number = ''] = match;
  return { title: main, series: name.trim() ? `${name.trim()} #${number.trim()}` : null };
}

/** A cover image URL, or null for Goodreads' generic "nophoto" placeholder. */
export function coverUrl(imageUrl: string): string | null {
  const url = imageUrl.trim();
  return url === '' || /\/nophoto\//.test(url) ? null : url;
}

/** Goodreads' count of ratings (popularity, which breaks ties in search), or null if unreadable. */
export function ratingsCount(raw: string): number | null {
  const value = Number(raw.trim());
  return raw.trim() !== '' && Number.isSafeInteger(value) && value >= 0 && value <= 2 ** 31 - 1
    ? value
    : null;
}

/** Turns one goodbooks row (by column name) into a catalogue book, or says why it cannot. */
export function parseGoodbooksRow(row: Readonly<Record<string, string>>): ParsedRow {
  const { title, series } = splitSeries(squash(row.title ?? ''));
  const finalTitle = title || squash(row.original_title ?? '');
  const problem = titleProblem(finalTitle);
  if (problem) return { error: problem };

  const { isbn: isbn10, error } = padIsbn(row.isbn ?? '');
  if (error) return { error };
  // Stored as the ISBN-13, the one form of every ISBN in the catalogue. A number that is not a
  // valid ISBN (a wrong check digit, an unassigned range: 24 of goodbooks' 10,000) names no book,
  // so the book is kept without it rather than lost; the number still tells its rows apart on a
  // re-run (as it did when it was stored, so rows imported before match).
  const isbn = isbn10 === null ? null : normaliseIsbn(isbn10);

  const authors = splitList(row.authors ?? '', ',');
  const yearText = (row.original_publication_year ?? '').trim();
  let year: number | null = null;
  if (yearText !== '') {
    year = Number(yearText);
    if (Number.isNaN(year))
      return { error: `original_publication_year "${yearText}" is not a number` };
    const yearError = yearProblem(year);
    if (yearError) return { error: yearError };
  }

  const goodreadsId = (row.goodreads_book_id ?? '').trim();
  // The ISBN identifies a book across sources; without one, Goodreads' own id, then title + author.
  const sourceId =
    isbn ??
    isbn10 ??
    (/^\d+$/.test(goodreadsId)
      ? `goodreads:${goodreadsId}`
      : `title:${matchKey(finalTitle)}|${matchKey(authors[0] ?? '')}`);

  return {
    item: {
      kind: 'book',
      source_id: sourceId,
      title: finalTitle,
      authors,
      year,
      description: series ? `Series: ${series}` : null,
      isbn,
      language: (row.language_code ?? '').trim() || null,
      cover_url: coverUrl(row.image_url ?? ''),
      ratings_count: ratingsCount(row.ratings_count ?? ''),
    },
  };
}

/**
 * Imports goodbooks-10k `books.csv`, streaming it; books are matched by ISBN-13 on re-runs, so one
 * already in the catalogue under its ISBN-10 or ISBN-13 (another source, a librarian) is updated.
 */
export function importGoodbooks(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  return writeRows(db, parsedCsvRows(file, GOODBOOKS_COLUMNS, parseGoodbooksRow), {
    source: GOODBOOKS_SOURCE,
    ...listener,
  });
}
