import { readFile } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ImportFileError } from './csv.ts';
import { splitList, squash, titleProblem, yearProblem } from './text.ts';
import {
  writeRows,
  type ImportItem,
  type ImportListener,
  type ImportResult,
  type LineRow,
  parsedCsvRows,
  type ParsedRow,
} from './writer.ts';

/** The importer's name, stored in `items.source`. */
export const ARXIV_SOURCE = 'arxiv';

/** Columns of the arXiv sample CSV the importer reads (`update_date` is not a publication date). */
export const ARXIV_CSV_COLUMNS = ['id', 'title', 'abstract', 'categories', 'authors'] as const;

// New-style ids (0704.0001 onwards: YYMM.NNNN[N]) and old-style ones (hep-th/9901001).
const NEW_ID = /^(\d{2})(\d{2})\.\d{4,5}$/;
const OLD_ID = /^[a-z-]+(?:\.[A-Z]{2})?\/(\d{2})(\d{2})\d{3}$/;

/** An arXiv identifier without its version (`2103.14659v1` -> `2103.14659`), or null if not one. */
export function arxivId(raw: string): string | null {
  const id = raw
    .trim()
    .replace(/^https?:\/\/arxiv\.org\/abs\//, '')
    .replace(/v\d+$/, '');
  return NEW_ID.test(id) || OLD_ID.test(id) ? id : null;
}

/**
 * The year an arXiv id was submitted in: `0704.0013` -> 2007. New-style ids began in April 2007,
 * so their YY is always 20YY; old-style ids ran from 1991, so 91..99 are 19YY.
 */
export function yearFromArxivId(id: string): number | null {
  const match = NEW_ID.exec(id) ?? OLD_ID.exec(id);
  if (!match) return null;
  const yy = Number(match[1]);
  const month = Number(match[2]);
  if (month < 1 || month > 12) return null;
  return NEW_ID.test(id) ? 2000 + yy : yy >= 91 ? 1900 + yy : 2000 + yy;
}

const COMBINING: Record<string, string> = {
  '"': '\u0308',
  "'": '\u0301',
  '`': '\u0300',
  '^': '\u0302',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
  u: '\u0306',
  v: '\u030c',
  H: '\u030b',
  c: '\u0327',
  k: '\u0328',
  r: '\u030a',
};

const TEX_LETTERS: Record<string, string> = {
  o: 'ø',
  O: 'Ø',
  ss: 'ß',
  l: 'ł',
  L: 'Ł',
  ae: 'æ',
  AE: 'Æ',
  aa: 'å',
  AA: 'Å',
  oe: 'œ',
  OE: 'Œ',
  i: 'ı',
};

/** Turns TeX accents in a name into letters: `P. \"Ohberg` -> `P. Öhberg`, `Fran\c{c}ois` -> `François`. */
export function texToUnicode(text: string): string {
  const accent = (mark: string, letter: string) =>
    // A dotless i under an accent is just an accented i.
    `${letter === '\\i' ? 'i' : letter}${COMBINING[mark] ?? ''}`;
  return text
    .replace(/\\(["'`^~=.])\s*(?:\{\s*(\\i|[A-Za-z])\s*\}|(\\i|[A-Za-z]))/g, (_, mark, a, b) =>
      accent(mark as string, (a ?? b) as string),
    )
    .replace(/\\([uvHckr])\s*(?:\{\s*(\\i|[A-Za-z])\s*\}|\s([A-Za-z]))/g, (_, mark, a, b) =>
      accent(mark as string, (a ?? b) as string),
    )
    .replace(
      /\\(ss|ae|AE|aa|AA|oe|OE|[oOlLi])(?![A-Za-z])\s*/g,
      (_, name: string) => TEX_LETTERS[name] ?? name,
    )
    .replace(/[{}]/g, '')
    .normalize('NFC');
}

/**
 * The author list of the arXiv CSV: one string with names separated by "," and "and", with TeX
 * accents and, sometimes, parenthesised affiliations ("A (MIT), B ((1) X, (2) Y)") to drop.
 */
export function parseArxivAuthors(text: string): string[] {
  let names = texToUnicode(text);
  for (let previous = ''; previous !== names;) {
    previous = names;
    names = names.replace(/\([^()]*\)/g, ' ');
  }
  return splitList(squash(names), /\s*,\s*(?:and\s+)?|\s+and\s+/).filter(
    (name) => !/^et\.? al\.?$/i.test(name),
  );
}

function paperItem(fields: {
  id: string;
  title: string;
  abstract: string;
  authors: string[];
  subjects: string[];
  year: number | null;
  doi: string | null;
}): ParsedRow {
  const title = squash(fields.title);
  const problem = titleProblem(title);
  if (problem) return { error: `arXiv ${fields.id}: ${problem}` };
  if (fields.year !== null) {
    const yearError = yearProblem(fields.year);
    if (yearError) return { error: `arXiv ${fields.id}: ${yearError}` };
  }
  const item: ImportItem = {
    kind: 'paper',
    source_id: fields.id,
    arxiv_id: fields.id,
    title,
    authors: fields.authors,
    year: fields.year,
    subjects: fields.subjects,
    description: squash(fields.abstract) || null,
    doi: fields.doi,
    url: `https://arxiv.org/abs/${fields.id}`,
  };
  return { item };
}

/** Turns one row of the arXiv sample CSV (by column name) into a paper, or says why it cannot. */
export function parseArxivCsvRow(row: Readonly<Record<string, string>>): ParsedRow {
  const raw = (row.id ?? '').trim();
  const id = arxivId(raw);
  if (!id) return { error: `"${raw}" is not an arXiv identifier` };
  const year = yearFromArxivId(id);
  if (year === null) return { error: `arXiv ${id}: its YYMM is not a month` };
  return paperItem({
    id,
    title: row.title ?? '',
    abstract: row.abstract ?? '',
    authors: parseArxivAuthors(row.authors ?? ''),
    subjects: splitList(row.categories ?? '', /\s+/),
    year,
    doi: null,
  });
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** `categories` in either layout: strings, or `{"@term": ...}` objects (one object alone, too). */
function categoryTerms(value: unknown): string[] {
  const list = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return splitList(
    list
      .map((entry) =>
        typeof entry === 'string' ? entry : text((entry as Record<string, unknown>)?.['@term']),
      )
      .join(' '),
    /\s+/,
  );
}

function authorNames(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list
    .map((entry) =>
      squash(
        typeof entry === 'string' ? entry : text((entry as Record<string, unknown> | null)?.name),
      ),
    )
    .filter(Boolean);
}

/**
 * Turns one record of `arxiv_metadata.json` into a paper. Handles both layouts the collector wrote:
 * keys with or without a version, categories as strings or as `{"@term"}` objects.
 */
export function parseArxivJsonRecord(key: string, record: unknown): ParsedRow {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) {
    return { error: `${key}: the record is not an object` };
  }
  const fields = record as Record<string, unknown>;
  const id = arxivId(key) ?? arxivId(text(fields.id));
  if (!id) return { error: `"${key}" is not an arXiv identifier` };
  const published = /^(-?\d{4})-/.exec(text(fields.published));
  const year = published ? Number(published[1]) : yearFromArxivId(id);
  const doi = text(fields.doi).trim();
  return paperItem({
    id,
    title: text(fields.title),
    abstract: text(fields.abstract),
    authors: authorNames(fields.authors),
    subjects: categoryTerms(fields.categories),
    year,
    doi: doi || null,
  });
}

/**
 * The 1-based line on which each top-level key of a JSON object text stands, so a bad record can
 * be reported by line like a CSV row.
 */
export function topLevelKeyLines(json: string): Map<string, number> {
  const lines = new Map<string, number>();
  let line = 1;
  let depth = 0;
  let lastString: { start: number; end: number; line: number } | undefined;
  for (let i = 0; i < json.length; i += 1) {
    const char = json[i];
    if (char === '\n') line += 1;
    else if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    else if (char === '"') {
      const start = i;
      const startLine = line;
      for (i += 1; i < json.length && json[i] !== '"'; i += 1) {
        if (json[i] === '\\') i += 1;
        else if (json[i] === '\n') line += 1;
      }
      lastString = { start, end: i, line: startLine };
    } else if (char === ':' && depth === 1 && lastString) {
      lines.set(
        JSON.parse(json.slice(lastString.start, lastString.end + 1)) as string,
        lastString.line,
      );
      lastString = undefined;
    }
  }
  return lines;
}

/** Every record of an arXiv metadata JSON text (one object keyed by id) as a parsed row. */
export function parseArxivJson(json: string): LineRow[] {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw new ImportFileError(`the file is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ImportFileError('the JSON file must hold one object keyed by arXiv id');
  }
  const lines = topLevelKeyLines(json);
  return Object.entries(data).map(([key, record]) => ({
    line: lines.get(key) ?? 1,
    parsed: parseArxivJsonRecord(key, record),
  }));
}

/**
 * Imports arXiv metadata: a `.json` file (one object keyed by id, read whole: it is a few MB) or a
 * CSV (streamed). Papers are matched by arXiv id on re-runs.
 */
export async function importArxiv(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  let rows: LineRow[] | AsyncGenerator<LineRow>;
  if (file.toLowerCase().endsWith('.json')) {
    try {
      rows = parseArxivJson((await readFile(file, 'utf8')).replace(/^\uFEFF/, ''));
    } catch (error) {
      if (error instanceof ImportFileError) throw new ImportFileError(`${file}: ${error.message}`);
      throw error;
    }
  } else {
    rows = parsedCsvRows(file, ARXIV_CSV_COLUMNS, parseArxivCsvRow);
  }
  return writeRows(db, rows, { source: ARXIV_SOURCE, ...listener });
}
