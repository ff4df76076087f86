import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { splitList, squash, titleProblem } from './text.ts';
import {
  writeRows,
  type ImportListener,
  type ImportResult,
  parsedCsvRows,
  type ParsedRow,
} from './writer.ts';

/** The importer's name, stored in `items.source`. */
export const COURSES_SOURCE = 'courses';

/** Columns of the course lists derived from free-programming-books. */
export const COURSE_COLUMNS = [
  'section',
  'subsection',
  'title',
  'url',
  'authors',
  'notes',
  'archived',
] as const;

/** Undoes Markdown escapes and emphasis the lists were written in: `C\#` -> `C#`, `*x*` -> `x`. */
export function unmarkdown(text: string): string {
  return squash(
    text
      .replace(/:[a-z0-9_+-]+:/g, ' ')
      .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1')
      .replace(/(\*\*|\*|__|_)(\S(?:.*?\S)?)\1/g, '$2'),
  );
}

/** Subjects of a row: the section ("0 - MOOC" -> "MOOC") and each level of "A > B" subsections. */
export function courseSubjects(section: string, subsection: string): string[] {
  const levels = [
    unmarkdown(section).replace(/^\d+\s*-\s*/, ''),
    ...subsection.split('>').map(unmarkdown),
  ];
  return [...new Set(levels.filter(Boolean))];
}

/**
 * Splits the `authors` cell. "A, B @ Some University" names the institution after the `@`; a cell
 * that reads like a sentence is a description the list's parser put there, not a list of names.
 */
export function courseAuthors(cell: string): {
  authors: string[];
  institution: string | null;
  description: string | null;
} {
  const text = unmarkdown(cell);
  if (text === '') return { authors: [], institution: null, description: null };
  const words = text.split(' ').length;
  const longestPart = Math.max(...text.split(',').map((part) => squash(part).split(' ').length));
  if ((text.endsWith('.') && words >= 6) || longestPart >= 8) {
    return { authors: [], institution: null, description: text };
  }
  const [names = '', institution = ''] = text.split(/\s+@\s+/, 2);
  return {
    authors: splitList(names, /\s*,\s*(?:and\s+)?|\s+and\s+/),
    institution: squash(institution) || null,
    description: null,
  };
}

/** Turns one course-list row (by column name) into a course item, or says why it cannot. */
export function parseCourseRow(row: Readonly<Record<string, string>>): ParsedRow {
  const title = unmarkdown(row.title ?? '');
  const problem = titleProblem(title);
  if (problem) return { error: problem };
  const url = (row.url ?? '').trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { error: url ? `"${url}" is not a URL` : 'no url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { error: `"${url}" is not an http(s) URL` };
  }
  const { authors, institution, description } = courseAuthors(row.authors ?? '');
  const notes = unmarkdown((row.notes ?? '').split(';').map(squash).filter(Boolean).join('; '));
  const archived = /^(yes|true|1)$/i.test((row.archived ?? '').trim());
  const remarks = [
    description,
    notes || null,
    archived && !/archived/i.test(notes) ? 'archived' : null,
  ].filter(Boolean);
  return {
    item: {
      kind: 'course',
      // The URL is the course's identity: the same link listed twice is one course.
      source_id: url,
      url,
      title,
      authors,
      year: null,
      subjects: courseSubjects(row.section ?? '', row.subsection ?? ''),
      description: remarks.length > 0 ? remarks.join(' — ') : null,
      institution,
    },
  };
}

/** Imports a course-list CSV (`courses/*.csv`), streaming it; courses are matched by URL. */
export function importCourses(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  return writeRows(db, parsedCsvRows(file, COURSE_COLUMNS, parseCourseRow), {
    source: COURSES_SOURCE,
    identifier: 'URL',
    ...listener,
  });
}
