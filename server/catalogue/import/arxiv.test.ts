import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import {
  arxivId,
  importArxiv,
  parseArxivAuthors,
  parseArxivCsvRow,
  parseArxivJson,
  parseArxivJsonRecord,
  texToUnicode,
  topLevelKeyLines,
  yearFromArxivId,
} from './arxiv.ts';
import type { BadRow } from './writer.ts';

const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const CSV = path.join(FIXTURES, 'arxiv-sample.csv');
const JSON_FILE = path.join(FIXTURES, 'arxiv-sample.json');

describe('arXiv identifiers', () => {
  it('strips the version and the abs URL, and refuses what is not an id', () => {
    expect(arxivId('2103.14659v1')).toBe('2103.14659');
    expect(arxivId('http://arxiv.org/abs/2303.11436v2')).toBe('2303.11436');
    expect(arxivId('0704.0013')).toBe('0704.0013');
    expect(arxivId('hep-th/9901001v2')).toBe('hep-th/9901001');
    expect(arxivId('not-an-id')).toBeNull();
    expect(arxivId('704.0013')).toBeNull();
  });

  it('takes the year from YYMM: 20YY for new-style ids, 19YY for old ones from the 1990s', () => {
    expect(yearFromArxivId('0704.0013')).toBe(2007);
    expect(yearFromArxivId('0812.3799')).toBe(2008);
    expect(yearFromArxivId('2303.11436')).toBe(2023);
    expect(yearFromArxivId('hep-th/9901001')).toBe(1999);
    expect(yearFromArxivId('math/0211159')).toBe(2002);
    expect(yearFromArxivId('0713.0001')).toBeNull();
  });
});

describe('arXiv authors', () => {
  it('turns TeX accents into letters', () => {
    expect(texToUnicode('P. \\"Ohberg')).toBe('P. Öhberg');
    expect(texToUnicode("C. Bal\\'azs")).toBe('C. Balázs');
    expect(texToUnicode('Fran\\c{c}ois')).toBe('François');
    expect(texToUnicode('{\\O}stergaard S{\\o}rensen')).toBe('Østergaard Sørensen');
    expect(texToUnicode("Napole\\'{o}n Hern\\'andez")).toBe('Napoleón Hernández');
    expect(texToUnicode("Ji\\v{r}\\'\\i")).toBe('Jiří');
  });

  it('splits on "," and "and", drops affiliations and "et al"', () => {
    expect(parseArxivAuthors('Michal Grochol and Roland Zimmermann')).toEqual([
      'Michal Grochol',
      'Roland Zimmermann',
    ]);
    expect(parseArxivAuthors('J. Mason, D.W. Hughes and S.M. Tobias')).toHaveLength(3);
    expect(parseArxivAuthors('Yi Lu, Yao-Quan Chu, and Li-Zhi Fang')).toEqual([
      'Yi Lu',
      'Yao-Quan Chu',
      'Li-Zhi Fang',
    ]);
    expect(
      parseArxivAuthors(
        'C. D. Fassnacht (1), L. M. Lubin\n  (2) ((1) UC Davis, (2) OCIW,\n  Bonn)',
      ),
    ).toEqual(['C. D. Fassnacht', 'L. M. Lubin']);
    expect(parseArxivAuthors('PHENIX Collaboration: A. Adare, et al')).toEqual([
      'PHENIX Collaboration: A. Adare',
    ]);
  });
});

describe('arXiv CSV rows', () => {
  const row = (overrides: Record<string, string> = {}) => ({
    id: '0704.0013',
    title: 'A   title\n  over lines',
    abstract: ' Some  abstract. ',
    categories: 'math.NT math.AG',
    authors: 'A. One and B. Two',
    ...overrides,
  });

  it('makes a paper with the year from its id and categories as subjects', () => {
    expect(parseArxivCsvRow(row()).item).toEqual({
      kind: 'paper',
      source_id: '0704.0013',
      arxiv_id: '0704.0013',
      title: 'A title over lines',
      authors: ['A. One', 'B. Two'],
      year: 2007,
      subjects: ['math.NT', 'math.AG'],
      description: 'Some abstract.',
      doi: null,
      url: 'https://arxiv.org/abs/0704.0013',
    });
  });

  it('explains bad rows', () => {
    expect(parseArxivCsvRow(row({ id: 'x' })).error).toBe('"x" is not an arXiv identifier');
    expect(parseArxivCsvRow(row({ id: '0700.0001' })).error).toBe(
      'arXiv 0700.0001: its YYMM is not a month',
    );
    expect(parseArxivCsvRow(row({ title: ' ' })).error).toBe('arXiv 0704.0013: no title');
  });
});

describe('arXiv JSON records', () => {
  const oldLayout = {
    id: 'http://arxiv.org/abs/2303.11436v2',
    title: '  Mind meets machine:\n  a study',
    authors: ['Sifat Dhingra', 'Manmeet Singh'],
    abstract: '  Cognitive psychology delves,\n  here.',
    categories: [
      { '@term': 'cs.CL', '@scheme': 'http://arxiv.org/schemas/atom' },
      { '@term': 'cs.AI', '@scheme': 'http://arxiv.org/schemas/atom' },
    ],
    published: '2023-03-20T20:28:26Z',
    updated: '2023-03-21T00:00:00Z',
    doi: null,
  };
  const newLayout = {
    id: 'http://arxiv.org/abs/2103.14659v1',
    title: 'Alignment of Language Agents',
    authors: ['Zachary Kenton'],
    abstract: 'For artificial intelligence to be beneficial.',
    categories: ['cs.AI', 'cs.LG'],
    published: '2021-03-26T17:05:07+00:00',
    updated: '2021-03-26T17:05:07+00:00',
    doi: '10.1000/xyz',
    comment: null,
    journal_ref: null,
    primary_category: 'cs.AI',
  };

  it('reads the first layout: key without version, categories as {"@term"} objects', () => {
    expect(parseArxivJsonRecord('2303.11436', oldLayout).item).toMatchObject({
      arxiv_id: '2303.11436',
      title: 'Mind meets machine: a study',
      description: 'Cognitive psychology delves, here.',
      subjects: ['cs.CL', 'cs.AI'],
      year: 2023,
      doi: null,
    });
  });

  it('reads the second layout: key with version, categories as strings', () => {
    expect(parseArxivJsonRecord('2103.14659v1', newLayout).item).toMatchObject({
      arxiv_id: '2103.14659',
      source_id: '2103.14659',
      subjects: ['cs.AI', 'cs.LG'],
      year: 2021,
      doi: '10.1000/xyz',
      authors: ['Zachary Kenton'],
    });
  });

  it('also takes a single category object, and refuses what is not a record', () => {
    const single = { ...oldLayout, categories: { '@term': 'cs.CV' } };
    expect(parseArxivJsonRecord('2303.11436', single).item?.subjects).toEqual(['cs.CV']);
    expect(parseArxivJsonRecord('2303.11436', 'text').error).toBe(
      '2303.11436: the record is not an object',
    );
  });

  it('finds the line of each top-level key, ignoring nested keys and strings', () => {
    const json =
      '{\n  "a": {\n    "b": "x: \\"y\\"",\n    "c": [1, {"d": 2}]\n  },\n  "e\\"f": 3\n}';
    expect(topLevelKeyLines(json)).toEqual(
      new Map([
        ['a', 2],
        ['e"f', 6],
      ]),
    );
  });

  it('reports bad records of a file by the line of their key', async () => {
    const text = await readFile(JSON_FILE, 'utf8');
    const rows = parseArxivJson(text);
    const lineOf = (key: string) =>
      text.split('\n').findIndex((line) => line.startsWith(`  "${key}"`)) + 1;
    expect(rows.filter((row) => row.parsed.error)).toEqual([
      { line: lineOf('2105.00003v1'), parsed: { error: 'arXiv 2105.00003: no title' } },
      { line: lineOf('not-an-id'), parsed: { error: '"not-an-id" is not an arXiv identifier' } },
    ]);
    expect(lineOf('2105.00003v1')).toBeGreaterThan(1);
    expect(() => parseArxivJson('[1, 2]')).toThrow(/one object keyed by arXiv id/);
    expect(() => parseArxivJson('{')).toThrow(/not valid JSON/);
  });
});

describe.each(testDatabaseKinds())('importing arXiv files on %s', (kind) => {
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('imports the CSV and the JSON layouts side by side; re-runs insert nothing', async () => {
    handle = await openTestDatabase(kind);
    const bad: BadRow[] = [];
    const csv = await importArxiv(handle.db, CSV, { onBadRow: (row) => bad.push(row) });
    expect(csv.counts).toEqual({ rows: 7, inserted: 4, updated: 0, unchanged: 0, skipped: 3 });
    expect(bad).toEqual([
      { line: 6, reason: '"not-an-id" is not an arXiv identifier' },
      { line: 7, reason: 'arXiv 0713.0001: its YYMM is not a month' },
      { line: 8, reason: 'arXiv 0801.0002: no title' },
    ]);
    const json = await importArxiv(handle.db, JSON_FILE);
    expect(json.counts).toEqual({ rows: 4, inserted: 2, updated: 0, unchanged: 0, skipped: 2 });

    const papers = await handle.db
      .selectFrom('items')
      .select(['arxiv_id', 'title', 'authors', 'year', 'subjects', 'doi', 'kind', 'source'])
      .orderBy('arxiv_id')
      .execute();
    expect(papers.map((paper) => paper.arxiv_id)).toEqual([
      '0705.0001',
      '0802.0003',
      '0811.12345',
      '2104.00002',
      '2303.00001',
      'hep-th/9901001',
    ]);
    expect(papers[0]).toEqual({
      arxiv_id: '0705.0001',
      title: 'Tidal Models of Harbour Basins',
      authors: ['A. Börsen', 'C. Duval'],
      year: 2007,
      subjects: ['physics.ao-ph', 'math.AP'],
      doi: null,
      kind: 'paper',
      source: 'arxiv',
    });
    expect(papers[2]?.authors).toEqual(['D. Evans', 'F. García']);
    expect(papers[3]).toMatchObject({ year: 2021, doi: '10.1000/example.2104' });
    expect(papers[4]).toMatchObject({
      title: 'Learning to Shelve: A Study of Library Robots',
      subjects: ['cs.RO', 'cs.DL'],
    });
    expect(papers[5]?.year).toBe(1999);

    expect((await importArxiv(handle.db, CSV)).counts).toMatchObject({ inserted: 0, unchanged: 4 });
    expect((await importArxiv(handle.db, JSON_FILE)).counts).toMatchObject({
      inserted: 0,
      unchanged: 2,
    });
  });
});
