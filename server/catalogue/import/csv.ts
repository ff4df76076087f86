import { createReadStream } from 'node:fs';
import { Parser, type CsvError, type Options } from 'csv-parse';

/** One CSV record: its fields and the 1-based line of the file it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set when the record could not be read whole (a quote never closed before the end). */
  error?: string;
}

/**
 * csv-parse's options for the files the importers read: RFC 4180 with a leading BOM dropped, CRLF,
 * LF or CR ending any record, blank lines skipped, text after a closing quote or a quote inside an
 * unquoted field kept rather than the row lost, and rows of any length (toRow judges them).
 */
const OPTIONS = {
  bom: true,
  record_delimiter: ['\r\n', '\n', '\r'],
  skip_empty_lines: true,
  relax_quotes: true,
  relax_column_count: true,
} satisfies Options;

const LINE_BREAK = /\r\n?|\n/g;

/**
 * An incremental CSV parser over csv-parse: feed it chunks of any size, get back the records they
 * complete, each with the line it starts on. Line breaks inside quoted fields are stored as LF. It
 * keeps only the record being read, so memory stays flat however large the file.
 */
export class CsvParser {
  private readonly parser: Parser;
  private records: CsvRecord[] = [];
  // The line after the last record, and how many blank lines csv-parse had skipped by then.
  private nextLine = 1;
  private emptyLines = 0;

  constructor() {
    this.parser = new Parser({
      ...OPTIONS,
      // Records are collected here, not pushed to the stream's readable side, so each write
      // completes at once and push() can hand back what it parsed.
      on_record: (fields, info) => {
        this.records.push(this.numbered(fields, info.empty_lines));
        return null;
      },
    });
    // Errors are read from `errored` right after each call; this only keeps them from being thrown
    // again as an unhandled 'error' event.
    this.parser.on('error', () => undefined);
  }

  /** Parses `chunk` and returns the records it completed. */
  push(chunk: string | Buffer): CsvRecord[] {
    this.parser.write(chunk);
    if (this.parser.errored) throw this.parser.errored;
    return this.take();
  }

  /** Flushes the last record (a file need not end with a line break). */
  end(): CsvRecord[] {
    let flushed = false;
    this.parser.once('prefinish', () => {
      flushed = true;
    });
    this.parser.end();
    const error = this.parser.errored as CsvError | null;
    if (error?.code === 'CSV_QUOTE_NOT_CLOSED') {
      const line = this.nextLine + Number(error.empty_lines) - this.emptyLines;
      this.records.push({
        line,
        fields: [],
        error: `a quoted field opened on line ${line} is never closed`,
      });
    } else if (error) {
      throw error;
    } else if (!flushed) {
      throw new Error('csv-parse did not flush the last record synchronously');
    }
    return this.take();
  }

  private take(): CsvRecord[] {
    const records = this.records;
    this.records = [];
    return records;
  }

  /**
   * Gives a record the line it starts on: the line after the previous record, plus the blank lines
   * skipped since. csv-parse's own line count is not used: it counts a CRLF as two lines.
   */
  private numbered(fields: string[], emptyLines: number): CsvRecord {
    const line = this.nextLine + emptyLines - this.emptyLines;
    let breaks = 0;
    for (let index = 0; index < fields.length; index += 1) {
      const field = fields[index] as string;
      if (field.includes('\n') || field.includes('\r')) {
        breaks += field.match(LINE_BREAK)?.length ?? 0;
        fields[index] = field.replace(LINE_BREAK, '\n');
      }
    }
    this.emptyLines = emptyLines;
    this.nextLine = line + breaks + 1;
    return { line, fields };
  }
}

/** Parses a whole CSV text at once (tests and small inputs). */
export function parseCsv(text: string): CsvRecord[] {
  const parser = new CsvParser();
  return [...parser.push(text), ...parser.end()];
}

/** Streams the records of a UTF-8 CSV file without reading it whole. */
export async function* readCsvRecords(file: string): AsyncGenerator<CsvRecord> {
  const parser = new CsvParser();
  const stream = createReadStream(file, { highWaterMark: 64 * 1024 });
  for await (const chunk of stream) yield* parser.push(chunk as Buffer);
  yield* parser.end();
}

/** A data row of a CSV file with a header, by column name; or why it could not be read. */
export type CsvRow =
  | { line: number; row: Record<string, string>; error?: undefined }
  | { line: number; row?: undefined; error: string };

/** Thrown when a file is not the kind of file the importer expects (its header is wrong). */
export class ImportFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileError';
  }
}

/**
 * Streams the data rows of a CSV file whose first record is its header. Throws ImportFileError
 * when a required column is missing; a row with the wrong number of fields comes back as an error.
 */
export async function* readCsvRows(
  file: string,
  requiredColumns: readonly string[],
): AsyncGenerator<CsvRow> {
  let header: string[] | undefined;
  for await (const record of readCsvRecords(file)) {
    if (!header) {
      header = record.fields.map((name) => name.trim());
      const missing = requiredColumns.filter((column) => !header?.includes(column));
      if (missing.length > 0) {
        throw new ImportFileError(
          `${file} does not look like the expected CSV: its header lacks ${missing.join(', ')}`,
        );
      }
      continue;
    }
    yield toRow(header, record);
  }
  if (!header) throw new ImportFileError(`${file} is empty: no CSV header found`);
}

/** Pairs a record's fields with the header's column names. */
export function toRow(header: readonly string[], record: CsvRecord): CsvRow {
  if (record.error) return { line: record.line, error: record.error };
  if (record.fields.length !== header.length) {
    return {
      line: record.line,
      error: `has ${record.fields.length} fields where the header has ${header.length}`,
    };
  }
  const row: Record<string, string> = {};
  header.forEach((name, index) => {
    row[name] = record.fields[index] ?? '';
  });
  return { line: record.line, row };
}
