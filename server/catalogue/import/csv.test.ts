import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CsvParser, ImportFileError, parseCsv, readCsvRows, toRow } from './csv.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');

/** Feeds `text` to a fresh parser in pieces of `size` characters, as a stream would. */
function parseInChunks(text: string, size: number) {
  const parser = new CsvParser();
  const records = [];
  for (let start = 0; start < text.length; start += size) {
    records.push(...parser.push(text.slice(start, start + size)));
  }
  return [...records, ...parser.end()];
}

describe('the CSV parser', () => {
  it('reads plain fields and numbers records by the line they start on', () => {
    expect(parseCsv('a,b,c\n1,2,3\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
    ]);
  });

  it('keeps commas, doubled quotes and line breaks inside quoted fields', () => {
    const records = parseCsv(
      'id,title\n1,"Salt, Sea"\n2,"The ""Quiet"" One"\n3,"two\nlines"\n4,end\n',
    );
    expect(records.map((record) => record.fields)).toEqual([
      ['id', 'title'],
      ['1', 'Salt, Sea'],
      ['2', 'The "Quiet" One'],
      ['3', 'two\nlines'],
      ['4', 'end'],
    ]);
    // The record after a two-line field starts on line 6, not 5.
    expect(records.map((record) => record.line)).toEqual([1, 2, 3, 4, 6]);
  });

  it('accepts CRLF line endings, a byte-order mark and a missing final line break', () => {
    const records = parseCsv('\uFEFFa,b\r\n"x\r\ny",2\r\nlast,3');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b'] },
      // A CRLF inside a quoted field is stored as LF.
      { line: 2, fields: ['x\ny', '2'] },
      { line: 4, fields: ['last', '3'] },
    ]);
  });

  it('gives the same records whatever the chunk boundaries, even between CR and LF', () => {
    const text = '\uFEFFa,"b ""q"", c"\r\n"multi\r\nline",x\r\n,\r\n"",""\r\n';
    const whole = parseCsv(text);
    expect(whole).toEqual([
      { line: 1, fields: ['a', 'b "q", c'] },
      { line: 2, fields: ['multi\nline', 'x'] },
      { line: 4, fields: ['', ''] },
      { line: 5, fields: ['', ''] },
    ]);
    for (const size of [1, 2, 3, 5, 7]) expect(parseInChunks(text, size)).toEqual(whole);
  });

  it('skips blank lines but still counts them', () => {
    expect(parseCsv('a\n\n\nb\n')).toEqual([
      { line: 1, fields: ['a'] },
      { line: 4, fields: ['b'] },
    ]);
  });

  it('reports a quoted field that never closes, with the line it opened on', () => {
    const records = parseCsv('a,b\n1,"open\n2,3\n');
    expect(records[1]).toMatchObject({
      line: 2,
      error: 'a quoted field opened on line 2 is never closed',
    });
  });

  it('keeps text that follows a closing quote rather than losing the row', () => {
    // csv-parse's relax_quotes keeps such a field as written, quotes included.
    expect(parseCsv('"ab"c,d\n')[0]?.fields).toEqual(['"ab"c', 'd']);
  });

  it('takes bytes split anywhere, inside a UTF-8 character too, and any mix of line breaks', () => {
    const bytes = Buffer.from('título,año\r\n"Ñandú\r\ngrande",1999\nÉtude,2001\rLast,2002');
    const parser = new CsvParser();
    const records = [];
    for (let start = 0; start < bytes.length; start += 1) {
      records.push(...parser.push(bytes.subarray(start, start + 1)));
    }
    expect([...records, ...parser.end()]).toEqual([
      { line: 1, fields: ['título', 'año'] },
      { line: 2, fields: ['Ñandú\ngrande', '1999'] },
      { line: 4, fields: ['Étude', '2001'] },
      { line: 5, fields: ['Last', '2002'] },
    ]);
  });

  it('pairs fields with the header and flags a row with the wrong number of fields', () => {
    expect(toRow(['a', 'b'], { line: 3, fields: ['1', '2'] })).toEqual({
      line: 3,
      row: { a: '1', b: '2' },
    });
    expect(toRow(['a', 'b'], { line: 4, fields: ['1'] })).toEqual({
      line: 4,
      error: 'has 1 fields where the header has 2',
    });
  });
});

describe('reading a CSV file', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'digi-csv-'));
  });
  afterAll(async () => rm(folder, { recursive: true, force: true }));

  it('streams the rows of a file with a BOM and CRLF by column name, with their lines', async () => {
    const rows = [];
    for await (const row of readCsvRows(path.join(FIXTURES, 'courses-sample.csv'), [
      'title',
      'url',
    ])) {
      rows.push(row);
    }
    expect(rows.map((row) => row.line)).toEqual([2, 3, 4, 5, 6, 7, 9]);
    expect(rows[0]?.row?.section).toBe('Algorithms & Data Structures');
    expect(rows[5]?.row?.notes).toBe('PDF;\nHTML');
  });

  it('refuses a file whose header lacks a column the importer needs', async () => {
    const file = path.join(folder, 'wrong.csv');
    await writeFile(file, 'name,colour\nx,y\n');
    const read = async () => {
      for await (const row of readCsvRows(file, ['title', 'url'])) void row;
    };
    await expect(read()).rejects.toThrow(ImportFileError);
    await expect(read()).rejects.toThrow(/lacks title, url/);
  });

  it('refuses an empty file', async () => {
    const file = path.join(folder, 'empty.csv');
    await writeFile(file, '');
    const read = async () => {
      for await (const row of readCsvRows(file, ['title'])) void row;
    };
    await expect(read()).rejects.toThrow(/is empty/);
  });
});
