import { MarcRecord, type MarcField } from '@natlibfi/marc-record';
import { MARCXML } from '@natlibfi/marc-record-serializers';
import type { ExportItem } from '../catalogue/export.ts';

/** The columns of the catalogue's CSV export, in order. */
export const EXPORT_CSV_COLUMNS = [
  'id',
  'type',
  'title',
  'authors',
  'year',
  'isbn',
  'subjects',
  'description',
  'copies',
] as const;

/**
 * One CSV field: quoted, quotes doubled; text a spreadsheet would run as a formula (`=`, `+`, `-`,
 * `@` first) gets a leading apostrophe, so opening the export never runs what a record says.
 */
function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/u.test(text)) text = `'${text}`;
  return `"${text.replace(/"/gu, '""')}"`;
}

/** The CSV export's header line. */
export function catalogueCsvHeader(): string {
  return `${EXPORT_CSV_COLUMNS.join(',')}\r\n`;
}

/**
 * Items as CSV lines: lists joined by "; ", each copy as "barcode | location | status".
 */
export function catalogueCsvLines(items: readonly ExportItem[]): string {
  return items
    .map(
      (item) =>
        [
          item.id,
          item.kind,
          item.title,
          item.authors.join('; '),
          item.year,
          item.isbn,
          item.subjects.join('; '),
          item.description,
          item.copies
            .map((copy) => `${copy.barcode} | ${copy.location} | ${copy.status}`)
            .join('; '),
        ]
          .map(csvField)
          .join(',') + '\r\n',
    )
    .join('');
}

const data = (tag: string, ind1: string, ind2: string, ...subfields: [string, string][]) =>
  ({
    tag,
    ind1,
    ind2,
    subfields: subfields
      .filter(([, value]) => value !== '')
      .map(([code, value]) => ({ code, value })),
  }) satisfies MarcField;

/** A copy's status as Koha's 952 says it, the flags the MARC importer reads back. */
function kohaFlags(status: ExportItem['copies'][number]['status']): [string, string][] {
  if (status === 'withdrawn') return [['0', '1']];
  if (status === 'missing') return [['1', '1']];
  if (status === 'in_repair') return [['4', '1']];
  if (status === 'on_loan') return [['q', 'on loan']];
  return [];
}

/**
 * One item as a MARC 21 record: 001 its id, 020 ISBN, 100/700 authors (forename first, first
 * indicator 0), 245 title, 264 year, 520 description, 650 subjects, a Koha 952 per copy ($a
 * location, $p barcode, $x note, status flags).
 */
export function catalogueMarcRecord(item: ExportItem): MarcRecord {
  const [first, ...others] = item.authors;
  const fields: MarcField[] = [
    { tag: '001', value: item.id },
    ...(item.isbn ? [data('020', ' ', ' ', ['a', item.isbn])] : []),
    ...(first ? [data('100', '0', ' ', ['a', first])] : []),
    data('245', first ? '1' : '0', '0', ['a', item.title]),
    ...(item.year !== null ? [data('264', ' ', '1', ['c', String(item.year)])] : []),
    ...(item.description ? [data('520', ' ', ' ', ['a', item.description])] : []),
    ...item.subjects.map((subject) => data('650', ' ', '4', ['a', subject])),
    ...others.map((author) => data('700', '0', ' ', ['a', author])),
    ...item.copies.map((copy) =>
      data(
        '952',
        ' ',
        ' ',
        ['a', copy.location],
        ['p', copy.barcode],
        ['x', copy.note],
        ...kohaFlags(copy.status),
      ),
    ),
  ];
  return new MarcRecord({ leader: '00000nam a2200000 a 4500', fields }, { subfieldValues: false });
}

/** The MARCXML export's opening, before its records. */
export const MARCXML_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>\n<collection xmlns="http://www.loc.gov/MARC21/slim">\n';
/** The MARCXML export's closing. */
export const MARCXML_CLOSE = '</collection>\n';

/** Items as MARCXML `<record>` elements, one a line. */
export function catalogueMarcXml(items: readonly ExportItem[]): string {
  return items
    .map((item) => `${MARCXML.to(catalogueMarcRecord(item), { omitDeclaration: true })}\n`)
    .join('');
}
