import type { ItemType } from '#contract/http/catalogue.ts';
import type { CopyStatus } from '#contract/http/copies.ts';
import type { StatusTone } from '../../components/records/status-badge.tsx';

/** Each kind of item as a librarian reads it. */
export const ITEM_TYPE_LABELS: Record<ItemType, string> = {
  book: 'Book',
  paper: 'Research paper',
  course: 'Course material',
};

/** The tone of each copy status; the word says it too. */
export const COPY_STATUS_TONES: Record<CopyStatus, StatusTone> = {
  available: 'positive',
  on_loan: 'progress',
  in_repair: 'neutral',
  missing: 'negative',
  withdrawn: 'neutral',
};

/** The fields of an item and of a copy, as the form labels and the history name them. */
export const FIELD_LABELS: Record<string, string> = {
  type: 'Type',
  title: 'Title',
  authors: 'Authors',
  year: 'Year',
  isbn: 'ISBN',
  subjects: 'Subjects',
  description: 'Description',
  coverUrl: 'Cover URL',
  url: 'Link',
  language: 'Language',
  institution: 'Institution',
  genre: 'Genre',
  publishedDate: 'Publication date',
  driveLink: 'Drive link',
  barcode: 'Barcode',
  location: 'Location',
  status: 'Status',
  note: 'Note',
};

/** "a", "a and b", "a, b and c". */
export function listInWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
