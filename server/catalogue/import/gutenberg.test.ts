import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import { ImportFileError } from './csv.ts';
import {
  headingKind,
  importGutenberg,
  PAGE_MAX_LENGTH,
  PAGE_MIN_LENGTH,
  Pager,
  parseGutenberg,
  sameBook,
  splitParagraph,
} from './gutenberg.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures', 'gutenberg-sample.txt');

/** A Gutenberg-shaped text around `body`, with CRLF line ends and a BOM like the real files. */
function gutenbergText(body: string, title = 'A Test Book', author = 'Ada Quill'): string {
  return `\uFEFFThe Project Gutenberg EBook of ${title}\n\nTitle: ${title}\n\nAuthor: ${author}\n\n*** START OF THIS PROJECT GUTENBERG EBOOK ${title.toUpperCase()} ***\n\n${body}\n\n*** END OF THIS PROJECT GUTENBERG EBOOK ${title.toUpperCase()} ***\n\nThe Project Gutenberg licence.\n`.replace(
    /\n/g,
    '\r\n',
  );
}

/** A paragraph of `length` characters over hard-wrapped lines, numbered so each is unique. */
function paragraph(number: number, length: number): string {
  const words = [`P${number}`];
  while (words.join(' ').length < length) words.push('word');
  return words
    .join(' ')
    .slice(0, length)
    .replace(/(.{1,70})( |$)/g, '$1\n')
    .trim();
}

describe('Gutenberg headings', () => {
  it('recognises the chapter headings of the six classics', () => {
    for (const line of [
      'CHAPTER I. Down the Rabbit-Hole',
      'Chapter 1',
      'Letter 4',
      'STAVE I:  MARLEY’S GHOST',
      'STAVE ONE.',
      'Stave Three',
      'Epilogue',
      'STORY OF THE DOOR',
      'DR. LANYON’S NARRATIVE',
    ]) {
      expect(headingKind(line), line).toBe('heading');
    }
    expect(headingKind(' XIV')).toBe('numeral');
    expect(headingKind('I.')).toBe('numeral');
  });

  it('leaves speech, signatures and ordinary lines alone', () => {
    for (const line of [
      '‘SHE CAN’T!’',
      'CHORUS.',
      'R.W.',
      'The harbour was quiet in winter.',
      'chapter 1',
      'Chapter and verse were quoted at him.',
      'Book Dim',
      'CIVIL',
      'VIVID.',
    ]) {
      expect(headingKind(line), line).toBeNull();
    }
  });
});

describe('pages', () => {
  it('splits an over-long paragraph at line breaks, then sentences, then spaces', () => {
    expect(splitParagraph('short', 10)).toEqual(['short']);
    expect(splitParagraph('aaaa\nbbbb\ncccc', 10)).toEqual(['aaaa\nbbbb', 'cccc']);
    expect(splitParagraph('One two. Three four. Five.', 12)).toEqual([
      'One two.',
      'Three four.',
      'Five.',
    ]);
    expect(splitParagraph('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
  });

  it('fills pages to 2,500-3,500 characters at paragraph ends, never ending one on a heading', () => {
    const pager = new Pager();
    const pages: string[] = [];
    const paragraphs: string[] = [];
    for (let index = 0; index < 60; index += 1) {
      if (index % 10 === 0) pages.push(...pager.add(`# Chapter ${index / 10 + 1}`, true));
      const text = paragraph(index, 300 + ((index * 137) % 900));
      paragraphs.push(text);
      pages.push(...pager.add(text));
    }
    pages.push(...pager.end());
    expect(pages.length).toBeGreaterThan(5);
    for (const page of pages.slice(0, -1)) {
      expect(page.length).toBeGreaterThanOrEqual(PAGE_MIN_LENGTH - 1_200);
      expect(page.length).toBeLessThanOrEqual(PAGE_MAX_LENGTH);
      expect(page.trimEnd().split('\n\n').at(-1)).not.toMatch(/^# /);
    }
    // Every paragraph is on one page, whole.
    for (const text of paragraphs)
      expect(pages.filter((page) => page.includes(text))).toHaveLength(1);
  });

  it('splits a paragraph only when it alone is longer than a page', () => {
    const long = paragraph(1, 8_000);
    const { pages } = parseGutenberg(
      gutenbergText(`${paragraph(0, 500)}\n\n${long}\n\n${paragraph(2, 500)}`),
    );
    expect(pages.every((page) => page.length <= PAGE_MAX_LENGTH)).toBe(true);
    expect(pages.join('\n\n').replace(/\s+/g, ' ')).toContain(long.replace(/\s+/g, ' '));
  });

  it('lets a tiny last paragraph join the page before', () => {
    const body = [paragraph(1, 1_500), paragraph(2, 1_500), 'THE END'].join('\n\n');
    const { pages } = parseGutenberg(gutenbergText(body));
    expect(pages).toHaveLength(1);
    expect(pages[0]?.endsWith('THE END')).toBe(true);
  });
});

describe('a Gutenberg text', () => {
  const { header, pages, complete } = parseGutenberg(readFileSync(FIXTURE, 'utf8'));
  const text = pages.join('\n\n');

  it('takes title (with its continuation line), author and eBook number from the header', () => {
    expect(header).toEqual({
      title: 'The Lamplighter’s Almanac; or, Notes from a Harbour Town',
      mainTitle: 'The Lamplighter’s Almanac',
      authors: ['Ada Quill'],
      ebook: '99999',
      language: 'eng',
    });
    expect(complete).toBe(true);
  });

  it('keeps only what lies between the markers, without Project Gutenberg or the credits', () => {
    expect(text.startsWith('# THE LAMPLIGHTER’S ALMANAC\n\nby Ada Quill')).toBe(true);
    expect(text.endsWith('THE END')).toBe(true);
    expect(text).not.toMatch(/gutenberg/i);
    expect(text).not.toContain('Produced by');
    expect(text).not.toContain('***');
    expect(text).not.toContain('\r');
    expect(text).not.toContain('\uFEFF');
  });

  it('turns chapter headings into "# " lines, a table of contents into plain lines', () => {
    expect(text.split('\n').filter((line) => line.startsWith('#'))).toEqual([
      '# THE LAMPLIGHTER’S ALMANAC',
      '# CHAPTER I. The Lamp',
      '# II. The Harbour',
      '# STAVE THREE. THE FOG',
    ]);
    expect(text).toContain(
      'CONTENTS\n\nChapter 1\n\nChapter 2\n\nStave Three\n\n# CHAPTER I. The Lamp',
    );
    expect(text).toContain('\n\nCHORUS.\n\n');
  });

  it('says so when the END marker is missing', () => {
    const cut = readFileSync(FIXTURE, 'utf8').split('*** END OF')[0] ?? '';
    expect(parseGutenberg(cut).complete).toBe(false);
  });

  it('matches a catalogue book by title and first author, ignoring case, punctuation and asides', () => {
    const frankenstein = {
      title: 'Frankenstein; or The Modern Prometheus',
      mainTitle: 'Frankenstein',
      authors: ['Mary Wollstonecraft (Godwin) Shelley'],
      ebook: '84',
      language: 'eng',
    };
    expect(
      sameBook(frankenstein, {
        title: 'Frankenstein; or, The Modern Prometheus',
        authors: ['Mary Wollstonecraft Shelley'],
      }),
    ).toBe(true);
    expect(
      sameBook(frankenstein, {
        title: 'Frankenstein',
        authors: ['MARY WOLLSTONECRAFT SHELLEY', 'X'],
      }),
    ).toBe(true);
    expect(sameBook(frankenstein, { title: 'Frankenstein', authors: ['Someone Else'] })).toBe(
      false,
    );
    expect(
      sameBook(
        {
          ...frankenstein,
          title: 'A Christmas Carol: A Ghost Story of Christmas',
          mainTitle: 'A Christmas Carol',
          authors: ['Charles Dickens'],
        },
        { title: 'A Christmas Carol', authors: ['Charles Dickens'] },
      ),
    ).toBe(true);
    expect(
      sameBook(
        {
          ...frankenstein,
          title: 'A Christmas Carol',
          mainTitle: 'A Christmas Carol',
          authors: ['Charles Dickens'],
        },
        { title: 'A Christmas Carol and Other Christmas Writings', authors: ['Charles Dickens'] },
      ),
    ).toBe(false);
  });
});

describe.each(testDatabaseKinds())('importing a Gutenberg text on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  let folder: string | undefined;
  afterEach(async () => {
    await handle?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
    handle = undefined;
    folder = undefined;
  });

  const pagesOf = (itemId: string) =>
    handle!.db
      .selectFrom('item_pages')
      .select(['page_number', 'content'])
      .where('item_id', '=', itemId)
      .orderBy('page_number')
      .execute();

  it('attaches its pages to the book already in the catalogue, replacing what it held', async () => {
    handle = await openTestDatabase(kind);
    const existing = await handle.db
      .insertInto('items')
      .values({
        kind: 'book',
        title: 'The Lamplighter’s Almanac',
        authors: ['ADA QUILL'],
        source: 'demo',
        source_id: 'book-lamplighter',
        page_count: 2,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await handle.db
      .insertInto('item_pages')
      .values(
        [1, 2].map((page_number) => ({
          item_id: existing.id,
          page_number,
          content: 'A guide page',
        })),
      )
      .execute();

    const result = await importGutenberg(handle.db, FIXTURE);
    expect(result.counts).toEqual({ rows: 1, inserted: 0, updated: 1, unchanged: 0, skipped: 0 });
    expect(result.pages).toBe(1);
    const items = await handle.db
      .selectFrom('items')
      .select(['id', 'page_count', 'title'])
      .execute();
    expect(items).toEqual([{ id: existing.id, page_count: 1, title: 'The Lamplighter’s Almanac' }]);
    const pages = await pagesOf(existing.id);
    expect(pages).toHaveLength(1);
    expect(pages[0]?.content).toContain('# CHAPTER I. The Lamp');

    const again = await importGutenberg(handle.db, FIXTURE);
    expect(again.counts).toEqual({ rows: 1, inserted: 0, updated: 0, unchanged: 1, skipped: 0 });
  });

  it('creates the book when the catalogue lacks it, and finds it again on a re-run', async () => {
    handle = await openTestDatabase(kind);
    const first = await importGutenberg(handle.db, FIXTURE);
    expect(first.counts.inserted).toBe(1);
    const book = await handle.db
      .selectFrom('items')
      .select(['id', 'kind', 'title', 'authors', 'source', 'source_id', 'page_count', 'language'])
      .executeTakeFirstOrThrow();
    expect(book).toMatchObject({
      kind: 'book',
      title: 'The Lamplighter’s Almanac; or, Notes from a Harbour Town',
      authors: ['Ada Quill'],
      source: 'gutenberg',
      source_id: '99999',
      page_count: 1,
      language: 'eng',
    });

    // A longer edition, then the short one again: extra pages are removed.
    folder = await mkdtemp(path.join(tmpdir(), 'digi-gutenberg-'));
    const longer = path.join(folder, 'longer.txt');
    const body = Array.from({ length: 12 }, (_, index) => paragraph(index, 900)).join('\n\n');
    await writeFile(
      longer,
      readFileSync(FIXTURE, 'utf8').replace('THE END', body.replace(/\n/g, '\r\n')),
    );
    expect((await importGutenberg(handle.db, longer)).counts.updated).toBe(1);
    expect((await pagesOf(book.id)).length).toBeGreaterThan(2);
    expect((await importGutenberg(handle.db, FIXTURE)).counts.updated).toBe(1);
    expect(await pagesOf(book.id)).toHaveLength(1);
    const count = await handle.db
      .selectFrom('items')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
  });

  it('refuses a file without the markers and leaves the catalogue untouched', async () => {
    handle = await openTestDatabase(kind);
    folder = await mkdtemp(path.join(tmpdir(), 'digi-gutenberg-'));
    const plain = path.join(folder, 'plain.txt');
    await writeFile(plain, 'Just some text.\nNo markers.\n');
    await expect(importGutenberg(handle.db, plain)).rejects.toThrow(ImportFileError);
    await expect(importGutenberg(handle.db, plain)).rejects.toThrow(/no "\*\*\* START OF" line/);

    const cut = path.join(folder, 'cut.txt');
    await writeFile(cut, readFileSync(FIXTURE, 'utf8').split('*** END OF')[0] ?? '');
    await expect(importGutenberg(handle.db, cut)).rejects.toThrow(/no "\*\*\* END OF" line/);
    const items = await handle.db.selectFrom('items').select('id').execute();
    expect(items).toEqual([]);
  });
});
