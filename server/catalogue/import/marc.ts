import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import type { MarcField } from '@natlibfi/marc-record';
import { MARCXML } from '@natlibfi/marc-record-serializers';
import type { Kysely } from 'kysely';
import { barcodeSchema, COPY_LOCATION_MAX, COPY_NOTE_MAX } from '#contract/http/copies.ts';
import type { Database } from '../../db/schema.ts';
import { normaliseIsbn } from '../isbn.ts';
import { readIso2709Record, RECORD_TERMINATOR, type MarcData } from './iso2709.ts';
import { matchKey, squash, titleProblem, yearProblem } from './text.ts';
import {
  writeRows,
  type ImportCopy,
  type ImportListener,
  type ImportResult,
  type LineRow,
  type ParsedRow,
} from './writer.ts';

/** The importer's name, stored in `items.source`; `source_id` is the 001 control number. */
export const MARC_SOURCE = 'marc';

/**
 * The library's own checks (MARCXML) are off: a record with an empty subfield or an odd leader is
 * still a book; mapMarcRecord judges what the catalogue needs.
 */
const LENIENT = {
  fields: false,
  subfields: false,
  subfieldValues: false,
  controlFieldValues: false,
  leader: false,
  characters: false,
  noControlCharacters: false,
  noAdditionalProperties: false,
};

function subfields(field: MarcField, code: string): string[] {
  return (field.subfields ?? [])
    .filter((subfield) => subfield.code === code)
    .map((subfield) => squash(subfield.value ?? ''))
    .filter((value) => value !== '');
}

function first(field: MarcField | undefined, code: string): string {
  return field ? (subfields(field, code)[0] ?? '') : '';
}

function fieldsOf(record: MarcData, tag: string): MarcField[] {
  return record.fields.filter((field) => field.tag === tag);
}

/** Strips the ISBD punctuation that closes a MARC subfield (` /`, ` :`, ` ;`, ` =`, `,`). */
export function trimIsbd(text: string): string {
  return text.replace(/\s*[/:;=,]+\s*$/u, '').trim();
}

/**
 * A heading's name as people read it: "Austen, Jane," (first indicator 1, surname first) becomes
 * "Jane Austen"; a closing full stop goes unless it ends an initial ("Tolkien, J. R. R.").
 */
export function personalName(field: MarcField): string {
  let name = trimIsbd(first(field, 'a'));
  if (/\p{L}{2}\.$/u.test(name)) name = name.slice(0, -1);
  const comma = name.indexOf(',');
  if (field.ind1 === '1' && comma > 0) {
    const surname = name.slice(0, comma).trim();
    const forenames = name.slice(comma + 1).trim();
    if (forenames) name = `${forenames} ${surname}`;
  }
  return name;
}

/** The first four-digit year in a 260/264 $c ("c1998.", "[2004?]"), or in 008/07-10. */
function publicationYear(record: MarcData): number | null {
  for (const tag of ['264', '260']) {
    for (const field of fieldsOf(record, tag)) {
      const match = /\d{4}/.exec(first(field, 'c'));
      if (match) return Number(match[0]);
    }
  }
  const fixed = fieldsOf(record, '008')[0]?.value ?? '';
  const date = fixed.slice(7, 11);
  return /^\d{4}$/.test(date) ? Number(date) : null;
}

const fits = (text: string, max: number) => text.length <= max;

/**
 * A copy's status from Koha's 952: withdrawn ($0), lost ($1) and damaged ($4) as they say; not
 * for loan ($7, non-zero: reference, ordered, in processing) counts as in repair, the one status
 * of ours that keeps a copy on the shelf but out of reservations; a due date ($q) means on loan.
 */
function kohaStatus(field: MarcField): { status: ImportCopy['status']; note: string } {
  const flag = (code: string) => {
    const value = first(field, code);
    return value !== '' && value !== '0' ? value : null;
  };
  if (flag('0')) return { status: 'withdrawn', note: '' };
  if (flag('1')) return { status: 'missing', note: '' };
  if (flag('4')) return { status: 'in_repair', note: 'Damaged' };
  const notForLoan = flag('7');
  if (notForLoan) return { status: 'in_repair', note: `Not for loan (${notForLoan})` };
  if (first(field, 'q')) return { status: 'on_loan', note: '' };
  return { status: 'available', note: '' };
}

/** The copies of a record: Koha's 952 items, or its 852 holdings when it has no 952. */
function holdings(record: MarcData): { copies: ImportCopy[]; error?: string } {
  const koha = fieldsOf(record, '952');
  const fields = koha.length > 0 ? koha : fieldsOf(record, '852');
  const copies: ImportCopy[] = [];
  for (const [index, field] of fields.entries()) {
    const which = `${field.tag} number ${index + 1}`;
    const barcode = first(field, 'p');
    if (barcode === '') return { copies, error: `holding ${which} has no barcode ($p)` };
    if (!barcodeSchema.safeParse(barcode).success) {
      return {
        copies,
        error: `holding ${which} has the barcode "${barcode}", which no label holds`,
      };
    }
    let location: string;
    let state: { status: ImportCopy['status']; note: string } = { status: 'available', note: '' };
    if (field.tag === '952') {
      const branch = first(field, 'a') || first(field, 'b');
      location = [branch, first(field, 'o')].filter(Boolean).join(', ');
      state = kohaStatus(field);
    } else {
      const callNumber = [first(field, 'h'), first(field, 'i')].filter(Boolean).join(' ');
      location = [first(field, 'b'), callNumber].filter(Boolean).join(', ');
    }
    if (!fits(location, COPY_LOCATION_MAX)) {
      return {
        copies,
        error: `holding ${which}: its location is longer than ${COPY_LOCATION_MAX} characters`,
      };
    }
    // Koha's non-public note ($x) is the copy's note; the export writes it there.
    const note = (field.tag === '952' && first(field, 'x')) || state.note;
    copies.push({ barcode, location, status: state.status, note: note.slice(0, COPY_NOTE_MAX) });
  }
  return { copies };
}

/**
 * Maps one MARC 21 bibliographic record to a catalogue book and its copies: 020 $a ISBN (an
 * invalid one is dropped, the book kept), 100/700 authors, 245 $a $b title, 250 edition and
 * 260/264 $b publisher as lines of the description after 520 $a, 260/264 $c year, 650 $a subjects,
 * 001 the control number that finds the record again on a re-import.
 */
export function mapMarcRecord(record: MarcData): ParsedRow {
  const title245 = fieldsOf(record, '245')[0];
  const main = trimIsbd(first(title245, 'a'));
  const rest = trimIsbd(first(title245, 'b'));
  let title = rest && main ? `${main}: ${rest}` : main || rest;
  // The full stop that closes the field, not one that ends an initial or "Vol. 2.".
  if (/\p{L}{2}\.$/u.test(title)) title = title.slice(0, -1);
  const problem = titleProblem(title);
  if (problem) return { error: problem === 'no title' ? 'no title (245 $a)' : problem };

  const authors = [
    ...new Set(
      [...fieldsOf(record, '100'), ...fieldsOf(record, '700')]
        .map(personalName)
        .filter((name) => name !== ''),
    ),
  ];

  let isbn: string | null = null;
  let rawIsbn: string | null = null;
  for (const field of fieldsOf(record, '020')) {
    for (const value of subfields(field, 'a')) {
      // "0306406152 (pbk.)": the number is the first word.
      const candidate = value.split(/\s/)[0] ?? '';
      rawIsbn ??= candidate;
      isbn = normaliseIsbn(candidate);
      if (isbn) break;
    }
    if (isbn) break;
  }

  let year = publicationYear(record);
  if (year !== null && yearProblem(year)) year = null;

  const publisher = [...fieldsOf(record, '264'), ...fieldsOf(record, '260')]
    .map((field) => trimIsbd(first(field, 'b')))
    .find((value) => value !== '');
  const edition = trimIsbd(first(fieldsOf(record, '250')[0], 'a'));
  // A summary keeps its paragraphs (the export writes the whole description into one 520 $a).
  const summary = fieldsOf(record, '520')
    .map((field) =>
      (field.subfields ?? [])
        .filter((subfield) => subfield.code === 'a')
        .map((subfield) => (subfield.value ?? '').replace(/\r\n?/gu, '\n').trim())
        .find((value) => value !== ''),
    )
    .filter(Boolean)
    .join('\n\n');
  const description =
    [summary, edition && `Edition: ${edition}`, publisher && `Publisher: ${publisher}`]
      .filter(Boolean)
      .join('\n\n') || null;

  const subjects = [
    ...new Set(
      fieldsOf(record, '650')
        .map((field) => first(field, 'a').replace(/\.$/u, '').trim())
        .filter(Boolean),
    ),
  ];

  const { copies, error } = holdings(record);
  if (error) return { error };

  const controlNumber = squash(fieldsOf(record, '001')[0]?.value ?? '');
  const sourceId =
    controlNumber || isbn || rawIsbn || `title:${matchKey(title)}|${matchKey(authors[0] ?? '')}`;

  return {
    item: {
      kind: 'book',
      source_id: sourceId,
      title,
      authors,
      year,
      subjects,
      description,
      isbn,
    },
    copies,
  };
}

/** Reads and maps one ISO 2709 record (bytes up to, not including, its 0x1D terminator). */
function readIso2709(bytes: Buffer): ParsedRow {
  const read = readIso2709Record(bytes);
  return 'error' in read ? { error: read.error } : mapMarcRecord(read.record);
}

/** Whether `bytes` hold only whitespace (line breaks some tools put between records). */
function isBlank(bytes: Buffer): boolean {
  // A record starts with its length's digits: only text that starts blank needs a closer look.
  return bytes.length === 0 || (bytes[0]! <= 0x20 && bytes.toString('latin1').trim() === '');
}

/**
 * Streams the records of an ISO 2709 file, numbered from 1, without holding more than one; each
 * says how many bytes of the file had been read when it was.
 */
async function* iso2709Records(file: string): AsyncGenerator<LineRow> {
  let position = 0;
  let bytesRead = 0;
  let rest: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    let data = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let end = data.indexOf(RECORD_TERMINATOR);
    while (end !== -1) {
      const bytes = data.subarray(0, end);
      data = data.subarray(end + 1);
      end = data.indexOf(RECORD_TERMINATOR);
      if (isBlank(bytes)) continue;
      position += 1;
      yield { line: position, parsed: readIso2709(trimStart(bytes)), bytesRead };
    }
    rest = Buffer.from(data);
  }
  if (!isBlank(rest)) {
    position += 1;
    yield {
      line: position,
      parsed: { error: 'the file ends inside a record (no 0x1D)' },
      bytesRead,
    };
  }
}

function trimStart(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start += 1;
  return bytes.subarray(start);
}

const RECORD_START = /<(?:[\w.-]+:)?record[\s>]/u;

/**
 * Streams the `<record>` elements of a MARCXML file, numbered from 1, one at a time; each says how
 * many bytes of the file had been read when it was.
 */
async function* marcXmlRecords(file: string): AsyncGenerator<LineRow> {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let position = 0;
  let bytesRead = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    bytesRead += chunk.length;
    buffer += decoder.write(chunk);
    for (;;) {
      const start = RECORD_START.exec(buffer);
      if (!start) {
        // Keep a tail long enough to hold a start tag cut in two.
        buffer = buffer.slice(-64);
        break;
      }
      const prefix = /^<([\w.-]+:)?/u.exec(start[0])?.[1] ?? '';
      const closing = `</${prefix}record>`;
      const end = buffer.indexOf(closing, start.index);
      if (end === -1) {
        buffer = buffer.slice(start.index);
        break;
      }
      const xml = buffer.slice(start.index, end + closing.length);
      buffer = buffer.slice(end + closing.length);
      position += 1;
      yield { line: position, parsed: await readMarcXml(xml), bytesRead };
    }
  }
  buffer += decoder.end();
  if (RECORD_START.test(buffer)) {
    yield { line: position + 1, parsed: { error: 'the file ends inside a <record>' }, bytesRead };
  }
}

async function readMarcXml(xml: string): Promise<ParsedRow> {
  try {
    return mapMarcRecord(await MARCXML.from(xml, LENIENT));
  } catch (error) {
    return { error: `not a MARCXML record: ${squash((error as Error).message)}` };
  }
}

/** Whether a file is MARCXML: its first character that is not whitespace or a BOM is `<`. */
async function isXml(file: string): Promise<boolean> {
  for await (const chunk of createReadStream(file, { end: 4095 }) as AsyncIterable<Buffer>) {
    const text = chunk.toString('utf8').replace(/^[\uFEFF\s]+/u, '');
    if (text !== '') return text.startsWith('<');
  }
  return false;
}

/** The records of a MARC file, ISO 2709 or MARCXML (told apart by their first character). */
export async function* marcRecords(file: string): AsyncGenerator<LineRow> {
  yield* (await isXml(file)) ? marcXmlRecords(file) : iso2709Records(file);
}

/**
 * Imports a MARC 21 file (ISO 2709 `.mrc` or MARCXML), streaming it. Books are matched by ISBN-13,
 * else by control number (001), so a re-import updates them; their 952 or 852 holdings become
 * copies matched by barcode. A bad record is reported by its position in the file and skipped.
 * Its progress says how far through the file it has read.
 */
export async function importMarc(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  return writeRows(db, marcRecords(file), {
    source: MARC_SOURCE,
    identifier: 'control number',
    totalBytes: (await stat(file)).size,
    ...listener,
  });
}
