import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import {
  writeRows,
  type BadRow,
  type ImportCounts,
  type ImportItem,
  type LineRow,
} from './writer.ts';

const book = (isbn: string | null, title: string, sourceId = isbn ?? title): ImportItem => ({
  kind: 'book',
  source_id: sourceId,
  title,
  authors: ['Ada Quill'],
  year: 2001,
  isbn,
});

const rows = (...items: (ImportItem | string)[]): LineRow[] =>
  items.map((item, index) => ({
    line: index + 2,
    parsed: typeof item === 'string' ? { error: item } : { item },
  }));

describe.each(testDatabaseKinds())('the batched writer on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('writes in batches, keeps the first of repeated identifiers across batches, reports in line order', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    const progress: number[] = [];
    const result = await writeRows(
      handle.db,
      rows(
        book('9780000000019', 'One'),
        book('9780000000026', 'Two'),
        'broken row',
        book('9780000000019', 'One again'),
        book(null, 'No ISBN', 'key-a'),
        book(null, 'No ISBN again', 'key-a'),
        book('9780000000033', 'Three'),
      ),
      {
        source: 'test',
        batchSize: 2,
        onBadRow: (row) => bad.push(row),
        onProgress: (counts) => progress.push(counts.rows),
      },
    );
    expect(result.counts).toEqual<ImportCounts>({
      rows: 7,
      inserted: 4,
      updated: 0,
      unchanged: 0,
      skipped: 3,
    });
    expect(bad).toEqual([
      { line: 4, reason: 'broken row' },
      {
        line: 5,
        reason: 'repeats the ISBN 9780000000019 of an earlier row; the first one is kept',
      },
      {
        line: 7,
        reason: 'repeats the identifier key-a of an earlier row; the first one is kept',
      },
    ]);
    expect(progress.at(-1)).toBe(7);
    const titles = await handle.db.selectFrom('items').select('title').orderBy('title').execute();
    expect(titles.map((row) => row.title)).toEqual(['No ISBN', 'One', 'Three', 'Two']);
  });

  it('skips only the row the database refuses, not its whole batch', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    // The parsers never produce these; the database's CHECK constraints are the last line.
    const result = await writeRows(
      handle.db,
      rows(book('9780000000019', 'Good'), book('BAD-ISBN!!', 'Bad ISBN'), {
        ...book('9780000000026', 'Old'),
        year: 9999,
      }),
      { source: 'test', onBadRow: (row) => bad.push(row) },
    );
    expect(result.counts).toMatchObject({ inserted: 1, skipped: 2 });
    expect(bad.map((row) => row.line)).toEqual([3, 4]);
    expect(bad[0]?.reason).toMatch(/^the database refused it: .*check constraint/);
  });

  it('updates a row matched by ISBN that another source created, leaving its source alone', async () => {
    handle = await openTestDatabase(kind);
    await handle.db
      .insertInto('items')
      .values({
        ...book('9780000000019', 'Typed by a librarian'),
        source: 'librarian',
        source_id: 'x1',
      })
      .execute();
    const result = await writeRows(handle.db, rows(book('9780000000019', 'The Real Title')), {
      source: 'test',
    });
    expect(result.counts).toMatchObject({ inserted: 0, updated: 1 });
    const row = await handle.db
      .selectFrom('items')
      .select(['title', 'source', 'source_id'])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ title: 'The Real Title', source: 'librarian', source_id: 'x1' });
  });
});
