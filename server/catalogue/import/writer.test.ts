import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { sql } from 'kysely';
import {
  writeRows,
  type BadRow,
  type ImportCopy,
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

const copy = (barcode: string, status: ImportCopy['status'] = 'available'): ImportCopy => ({
  barcode,
  location: 'Main',
  status,
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

  it('gives new items the counts of the copies they get, repeated and moved barcodes included', async () => {
    handle = await openTestDatabase(kind);
    const { db } = handle;
    const [old] = await db
      .insertInto('items')
      .values([
        { ...book('9780000000040', 'Held here'), source: 'librarian', source_id: 'h1' },
        { ...book(null, 'Moved from'), source: 'librarian', source_id: 'm1' },
      ])
      .returning('id')
      .execute();
    const moved = await db
      .selectFrom('items')
      .select('id')
      .where('source_id', '=', 'm1')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('copies')
      .values([
        { item_id: old!.id, barcode: 'KEEP1', location: 'Main' },
        { item_id: moved.id, barcode: 'MOVE1', location: 'Main', status: 'on_loan' },
      ])
      .execute();
    const withCopies = (item: ImportItem, ...copies: ImportCopy[]): LineRow['parsed'] => ({
      item,
      copies,
    });
    const result = await writeRows(
      db,
      [
        // Its own repeat (in another case) and a withdrawn copy do not count twice or at all.
        withCopies(
          book('9780000000019', 'One'),
          copy('A1'),
          copy('a1', 'missing'),
          copy('A2', 'withdrawn'),
          copy('A3', 'on_loan'),
          copy('SHARED'),
        ),
        // A later row of the batch with the same barcode takes that copy.
        withCopies(book(null, 'Two', 'two'), copy('SHARED', 'in_repair')),
        // A repeated row is skipped with its copies.
        withCopies(book('9780000000019', 'One again'), copy('R1')),
        // An item already there keeps the copies it has and gains these.
        withCopies(book('9780000000040', 'Held here'), copy('H2', 'on_loan')),
        // A barcode on another item moves here.
        withCopies(book(null, 'Three', 'three'), copy('MOVE1')),
      ].map((parsed, index) => ({ line: index + 2, parsed })),
      { source: 'test' },
    );
    expect(result.counts).toMatchObject({ inserted: 3, unchanged: 1, skipped: 1 });
    const items = await db
      .selectFrom('items')
      .select(['title', 'copies', 'copies_unavailable'])
      .select(
        sql<number>`(SELECT count(*)::int FROM copies c WHERE c.item_id = items.id AND c.status <> 'withdrawn')`.as(
          'held',
        ),
      )
      .select(
        sql<number>`(SELECT count(*)::int FROM copies c WHERE c.item_id = items.id AND c.status IN ('on_loan', 'in_repair', 'missing'))`.as(
          'unavailable',
        ),
      )
      .orderBy('title')
      .execute();
    expect(items).toEqual([
      { title: 'Held here', copies: 2, copies_unavailable: 1, held: 2, unavailable: 1 },
      { title: 'Moved from', copies: 0, copies_unavailable: 0, held: 0, unavailable: 0 },
      { title: 'One', copies: 2, copies_unavailable: 2, held: 2, unavailable: 2 },
      { title: 'Three', copies: 1, copies_unavailable: 0, held: 1, unavailable: 0 },
      { title: 'Two', copies: 1, copies_unavailable: 1, held: 1, unavailable: 1 },
    ]);
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
