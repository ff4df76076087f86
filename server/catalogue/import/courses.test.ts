import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import {
  courseAuthors,
  courseSubjects,
  importCourses,
  parseCourseRow,
  unmarkdown,
} from './courses.ts';
import type { BadRow } from './writer.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'courses-sample.csv');

describe('course rows', () => {
  it('undoes Markdown escapes, emphasis and emoji codes', () => {
    expect(unmarkdown('C\\#')).toBe('C#');
    expect(unmarkdown('edX; :card_file_box: *archived*')).toBe('edX; archived');
    expect(unmarkdown('**FREE FOR A LIMITED TIME**')).toBe('FREE FOR A LIMITED TIME');
  });

  it('takes subjects from the section and each subsection level', () => {
    expect(courseSubjects('JavaScript', 'React > Hooks')).toEqual(['JavaScript', 'React', 'Hooks']);
    expect(courseSubjects('0 - MOOC', '')).toEqual(['MOOC']);
    expect(courseSubjects('Angular', 'Angular > AngularJS')).toEqual(['Angular', 'AngularJS']);
  });

  it('splits authors, finds the institution after "@", and spots a description', () => {
    expect(courseAuthors('David L. Poole, Alan K. Mackworth @ Cambridge University Press')).toEqual(
      {
        authors: ['David L. Poole', 'Alan K. Mackworth'],
        institution: 'Cambridge University Press',
        description: null,
      },
    );
    expect(courseAuthors('Russ Cox, Frans Kaashoek and Robert Morris').authors).toEqual([
      'Russ Cox',
      'Frans Kaashoek',
      'Robert Morris',
    ]);
    expect(
      courseAuthors(
        'Atariarchives.org makes books, information, and software for Atari and other classic computers available on the Web.',
      ),
    ).toMatchObject({ authors: [], description: expect.stringMatching(/^Atariarchives/) });
  });

  it('makes a course with its URL as identifier and link', () => {
    const { item } = parseCourseRow({
      section: 'C\\#',
      subsection: '',
      title: 'Intro to C\\#',
      url: ' https://courses.example.org/csharp ',
      authors: 'Cora Lind',
      notes: 'edX',
      archived: 'yes',
    });
    expect(item).toEqual({
      kind: 'course',
      source_id: 'https://courses.example.org/csharp',
      url: 'https://courses.example.org/csharp',
      title: 'Intro to C#',
      authors: ['Cora Lind'],
      year: null,
      subjects: ['C#'],
      description: 'edX — archived',
      institution: null,
    });
  });

  it('refuses a row without a title or a web link', () => {
    const row = { section: 'X', subsection: '', authors: '', notes: '', archived: '' };
    expect(parseCourseRow({ ...row, title: '', url: 'https://a.example' }).error).toBe('no title');
    expect(parseCourseRow({ ...row, title: 'T', url: 'not a url' }).error).toBe(
      '"not a url" is not a URL',
    );
    expect(parseCourseRow({ ...row, title: 'T', url: 'ftp://a.example/x' }).error).toMatch(
      /not an http\(s\) URL/,
    );
  });
});

describe.each(testDatabaseKinds())('importing a course list on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('imports courses by URL, reports repeats and bad rows by line, re-runs change nothing', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    const result = await importCourses(handle.db, FIXTURE, { onBadRow: (row) => bad.push(row) });
    expect(result.counts).toEqual({ rows: 7, inserted: 5, updated: 0, unchanged: 0, skipped: 2 });
    expect(bad).toEqual([
      {
        line: 5,
        reason:
          'repeats the URL https://courses.example.org/sorting of line 2; the first one is kept',
      },
      { line: 6, reason: '"not a url" is not a URL' },
    ]);
    const courses = await handle.db
      .selectFrom('items')
      .select(['title', 'url', 'authors', 'subjects', 'institution', 'description', 'kind'])
      .orderBy('url')
      .execute();
    expect(courses).toEqual([
      {
        title: 'Intro to C#',
        url: 'https://courses.example.org/csharp',
        authors: ['Cora Lind'],
        subjects: ['C#'],
        institution: null,
        description: 'edX; archived',
        kind: 'course',
      },
      expect.objectContaining({
        title: 'Open Harbour Course',
        subjects: ['MOOC'],
        authors: ['Example Open University'],
      }),
      expect.objectContaining({
        title: 'Hooks in Depth',
        subjects: ['JavaScript', 'React', 'Hooks'],
      }),
      expect.objectContaining({
        title: 'A "quoted" title',
        authors: [],
        description:
          'A tutorial site that explains everything about Python programming in depth. — PDF; HTML',
      }),
      expect.objectContaining({
        title: 'Sorting, Visualised',
        authors: ['Ada Quill', 'Ben Ortiz'],
        institution: 'Example University',
        subjects: ['Algorithms & Data Structures'],
      }),
    ]);

    const again = await importCourses(handle.db, FIXTURE);
    expect(again.counts).toEqual({ rows: 7, inserted: 0, updated: 0, unchanged: 5, skipped: 2 });
  });
});
