import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { searchCatalogue } from '../search.ts';
import {
  coverUrl,
  GOODBOOKS_SOURCE,
  importGoodbooks,
  padIsbn,
  parseGoodbooksRow,
  ratingsCount,
  splitSeries,
} from './goodbooks.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'goodbooks-sample.csv');

const row = (overrides: Record<string, string> = {}) => ({
  goodreads_book_id: '42',
  isbn: '439023483',
  authors: 'Ada Quill',
  original_publication_year: '2008.0',
  original_title: 'The Salt Road',
  title: 'The Salt Road',
  language_code: 'eng',
  image_url: 'https://images.example.org/42m.jpg',
  ratings_count: '4780653',
  ...overrides,
});

describe('goodbooks rows', () => {
  it('left-pads ISBNs that lost their leading zeros to 10 characters, keeping the X', () => {
    expect(padIsbn('439023483')).toEqual({ isbn: '0439023483' });
    expect(padIsbn('80442957x')).toEqual({ isbn: '080442957X' });
    expect(padIsbn('31601584')).toEqual({ isbn: '0031601584' });
    expect(padIsbn('0123456789')).toEqual({ isbn: '0123456789' });
    expect(padIsbn(' ')).toEqual({ isbn: null });
    expect(padIsbn('12-AB').error).toBe('the ISBN "12-AB" is not an ISBN-10');
    expect(padIsbn('12345678901').error).toMatch(/not an ISBN-10/);
  });

  it('moves the series note out of the title', () => {
    expect(splitSeries('The Hunger Games (The Hunger Games, #1)')).toEqual({
      title: 'The Hunger Games',
      series: 'The Hunger Games #1',
    });
    expect(splitSeries('Angels & Demons (Robert Langdon #1-2)').title).toBe('Angels & Demons');
    expect(splitSeries('The Firm (Penguin Readers, Level 5)')).toEqual({
      title: 'The Firm (Penguin Readers, Level 5)',
      series: null,
    });
  });

  it('keeps the ratings count as popularity, or none when the cell is not a count', () => {
    expect(ratingsCount('4780653')).toBe(4780653);
    expect(ratingsCount('0')).toBe(0);
    for (const bad of ['', ' ', '-3', '12.5', 'many', '99999999999']) {
      expect(ratingsCount(bad), bad).toBeNull();
    }
    expect(parseGoodbooksRow(row({ ratings_count: 'n/a' })).item?.ratings_count).toBeNull();
  });

  it('drops the generic "nophoto" cover', () => {
    expect(coverUrl('https://s.gr-assets.com/assets/nophoto/book/111x148-bcc.png')).toBeNull();
    expect(coverUrl('https://images.gr-assets.com/books/1447303603m/2767052.jpg')).toBe(
      'https://images.gr-assets.com/books/1447303603m/2767052.jpg',
    );
  });

  it('makes a book: authors split, float year, language, cover, ISBN as its identifier', () => {
    const { item } = parseGoodbooksRow(
      row({ authors: 'J.K. Rowling, Mary GrandPré', title: 'The Salt Road (Coastlines, #1)' }),
    );
    expect(item).toEqual({
      kind: 'book',
      source_id: '9780439023481',
      title: 'The Salt Road',
      authors: ['J.K. Rowling', 'Mary GrandPré'],
      year: 2008,
      description: 'Series: Coastlines #1',
      isbn: '9780439023481',
      language: 'eng',
      cover_url: 'https://images.example.org/42m.jpg',
      ratings_count: 4780653,
    });
  });

  it('takes negative (BC) and empty years, and falls back to the Goodreads id without an ISBN', () => {
    expect(parseGoodbooksRow(row({ original_publication_year: '-380.0' })).item?.year).toBe(-380);
    expect(parseGoodbooksRow(row({ original_publication_year: '' })).item?.year).toBeNull();
    const { item } = parseGoodbooksRow(row({ isbn: '' }));
    expect(item?.isbn).toBeNull();
    expect(item?.source_id).toBe('goodreads:42');
  });

  it('stores the ISBN-13 of the ISBN-10, and keeps a book whose ISBN is wrong without it', () => {
    expect(parseGoodbooksRow(row({ isbn: '80442957x' })).item).toMatchObject({
      isbn: '9780804429573',
      source_id: '9780804429573',
    });
    expect(parseGoodbooksRow(row({ isbn: '439023484' })).item).toMatchObject({
      isbn: null,
      source_id: '0439023484',
    });
  });

  it('explains what is wrong with a bad row', () => {
    expect(parseGoodbooksRow(row({ title: ' ', original_title: '' })).error).toBe('no title');
    expect(parseGoodbooksRow(row({ original_publication_year: '1999.5' })).error).toBe(
      'the year 1999.5 is not a whole year',
    );
    expect(parseGoodbooksRow(row({ original_publication_year: 'soon' })).error).toMatch(
      /is not a number/,
    );
    expect(parseGoodbooksRow(row({ original_publication_year: '-5000.0' })).error).toMatch(
      /outside/,
    );
  });
});

describe.each(testDatabaseKinds())('importing a goodbooks file on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await handle?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    handle = undefined;
    folder = undefined;
  });

  it('imports good rows, reports bad ones by line, and a re-run changes nothing', async () => {
    handle = await openTestDatabase(kind);
    const bad: { line: number; reason: string }[] = [];
    const first = await importGoodbooks(handle.db, FIXTURE, { onBadRow: (row) => bad.push(row) });
    expect(first.counts).toEqual({ rows: 9, inserted: 5, updated: 0, unchanged: 0, skipped: 4 });
    expect(bad).toEqual([
      { line: 7, reason: 'the ISBN "12-AB" is not an ISBN-10' },
      { line: 8, reason: 'has 9 fields where the header has 23' },
      { line: 9, reason: 'the year 1999.5 is not a whole year' },
      {
        line: 10,
        reason: 'repeats the ISBN 9780804429573 of line 2; the first one is kept',
      },
    ]);
    expect(first.badRows).toEqual(bad);

    const books = await handle.db
      .selectFrom('items')
      .select(['title', 'authors', 'year', 'isbn', 'cover_url', 'language', 'source'])
      .orderBy('title')
      .execute();
    expect(books).toEqual([
      {
        title: 'Dialogues on the Harbour',
        authors: ['Cora Lind'],
        year: -380,
        isbn: null,
        cover_url: null,
        language: null,
        source: GOODBOOKS_SOURCE,
      },
      expect.objectContaining({ title: 'Notes from the Tide Pool', isbn: '9780123456786' }),
      expect.objectContaining({
        title: 'The "Quiet" Lighthouse, Revisited',
        isbn: '9780031601582',
        year: null,
      }),
      expect.objectContaining({
        title: 'The Salt Road',
        authors: ['Ada Quill', 'Ben Ortiz'],
        year: 2008,
        isbn: '9780804429573',
      }),
      expect.objectContaining({ title: 'Winter Ledger', language: 'en-US' }),
    ]);

    const again = await importGoodbooks(handle.db, FIXTURE);
    expect(again.counts).toEqual({ rows: 9, inserted: 0, updated: 0, unchanged: 5, skipped: 4 });
    const count = await handle.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(5);
  });

  it('takes a book the catalogue has under its ISBN-13 for the same book as its ISBN-10', async () => {
    handle = await openTestDatabase(kind);
    const typed = await handle.db
      .insertInto('items')
      .values({
        kind: 'book',
        title: 'Salt Road',
        authors: ['A. Quill'],
        isbn: '9780804429573',
        source: 'catalogue',
        source_id: 'typed-1',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const result = await importGoodbooks(handle.db, FIXTURE);
    expect(result.counts).toMatchObject({ inserted: 4, updated: 1 });
    const salt = await handle.db
      .selectFrom('items')
      .select(['id', 'title', 'authors', 'isbn', 'source'])
      .where('title', 'like', '%Salt Road%')
      .execute();
    expect(salt).toEqual([
      {
        id: typed.id,
        title: 'The Salt Road',
        authors: ['Ada Quill', 'Ben Ortiz'],
        isbn: '9780804429573',
        source: 'catalogue',
      },
    ]);

    // Either form, hyphenated or not, finds the one book.
    for (const q of ['080442957X', '0-8044-2957-x', '978-0-8044-2957-3', '9780804429573']) {
      const found = await searchCatalogue(handle.db, { q, page: 1, pageSize: 20, featured: false });
      expect(
        found.rows.map((row) => row.id),
        q,
      ).toEqual([typed.id]);
    }
    const wrongDigit = { q: '080442957-1', page: 1, pageSize: 20, featured: false };
    expect((await searchCatalogue(handle.db, wrongDigit)).total).toBe(0);
  });

  it('updates the fields that changed when the file changes', async () => {
    handle = await openTestDatabase(kind);
    await importGoodbooks(handle.db, FIXTURE);
    folder = await mkdtemp(path.join(tmpdir(), 'digi-goodbooks-'));
    const changed = path.join(folder, 'books.csv');
    const text = await readFile(FIXTURE, 'utf8');
    await writeFile(changed, text.replace('Winter Ledger,en-US', 'Winter Ledger (Revised),eng'));

    const result = await importGoodbooks(handle.db, changed);
    expect(result.counts).toMatchObject({ inserted: 0, updated: 1, unchanged: 4 });
    const book = await handle.db
      .selectFrom('items')
      .select(['title', 'language'])
      .where('isbn', '=', '9781234567897')
      .executeTakeFirstOrThrow();
    expect(book).toEqual({ title: 'Winter Ledger (Revised)', language: 'eng' });
  });
});
