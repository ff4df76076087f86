import { createReadStream } from 'node:fs';

/** One CSV record: its fields and the 1-based line of the file it starts on. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** Set when the record could not be read whole (a quote never closed before the end). */
  error?: string;
}

type State = 'field-start' | 'unquoted' | 'quoted' | 'quote-in-quoted';

/**
 * An incremental RFC 4180 parser: feed it chunks of any size, get back the records they complete.
 * Quoted fields may hold commas, doubled quotes and line breaks; CRLF, LF and a leading BOM are
 * accepted. It keeps only the record being read, so memory stays flat however large the file.
 */
export class CsvParser {
  private state: State = 'field-start';
  private field = '';
  private fields: string[] = [];
  private line = 1;
  private recordLine = 1;
  // A CR already counted as a line break; an LF right after it belongs to the same break.
  private afterCr = false;
  private started = false;

  /** Parses `chunk` and returns the records it completed. */
  push(chunk: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let text = chunk;
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    const length = text.length;
    let i = 0;
    while (i < length) {
      const char = text[i] as string;
      if (this.afterCr) {
        this.afterCr = false;
        if (char === '\n') {
          i += 1;
          continue;
        }
      }
      switch (this.state) {
        case 'field-start':
          if (char === '"') {
            this.state = 'quoted';
          } else if (char === ',') {
            this.fields.push('');
          } else if (char === '\n' || char === '\r') {
            this.endRecord(records, char);
          } else {
            this.state = 'unquoted';
            continue;
          }
          i += 1;
          break;
        case 'unquoted': {
          // Copy the run up to the next separator in one slice: most fields are plain.
          let end = i;
          while (end < length) {
            const c = text[end];
            if (c === ',' || c === '\n' || c === '\r') break;
            end += 1;
          }
          this.field += text.slice(i, end);
          i = end;
          if (i < length) {
            const separator = text[i] as string;
            i += 1;
            if (separator === ',') this.endField();
            else this.endRecord(records, separator);
          }
          break;
        }
        case 'quoted': {
          let end = i;
          while (end < length) {
            const c = text[end];
            if (c === '"' || c === '\n' || c === '\r') break;
            end += 1;
          }
          this.field += text.slice(i, end);
          i = end;
          if (i < length) {
            const special = text[i] as string;
            i += 1;
            if (special === '"') {
              this.state = 'quote-in-quoted';
            } else {
              // Line breaks inside a field are stored as LF whatever the file used.
              this.field += '\n';
              this.line += 1;
              this.afterCr = special === '\r';
            }
          }
          break;
        }
        case 'quote-in-quoted':
          if (char === '"') {
            this.field += '"';
            this.state = 'quoted';
          } else if (char === ',') {
            this.endField();
          } else if (char === '\n' || char === '\r') {
            this.endRecord(records, char);
          } else {
            // Text after a closing quote is not RFC 4180; keep it rather than lose the row.
            this.field += char;
            this.state = 'unquoted';
          }
          i += 1;
          break;
      }
    }
    return records;
  }

  /** Flushes the last record (a file need not end with a line break). */
  end(): CsvRecord[] {
    const records: CsvRecord[] = [];
    if (this.state === 'quoted') {
      this.fields.push(this.field);
      records.push({
        line: this.recordLine,
        fields: this.fields,
        error: `a quoted field opened on line ${this.recordLine} is never closed`,
      });
    } else if (this.state !== 'field-start' || this.fields.length > 0) {
      this.fields.push(this.field);
      records.push({ line: this.recordLine, fields: this.fields });
    }
    this.fields = [];
    this.field = '';
    this.state = 'field-start';
    return records;
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.state = 'field-start';
  }

  private endRecord(records: CsvRecord[], lineBreak: string): void {
    const blank = this.state === 'field-start' && this.fields.length === 0;
    if (!blank) {
      this.fields.push(this.field);
      records.push({ line: this.recordLine, fields: this.fields });
    }
    this.fields = [];
    this.field = '';
    this.state = 'field-start';
    this.line += 1;
    this.recordLine = this.line;
    this.afterCr = lineBreak === '\r';
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
  const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 64 * 1024 });
  for await (const chunk of stream) yield* parser.push(chunk as string);
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
