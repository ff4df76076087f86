import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { ImportFileError } from './csv.ts';
import { matchKey, squash, titleProblem } from './text.ts';
import {
  emptyCounts,
  type ImportCounts,
  type ImportListener,
  type ImportResult,
} from './writer.ts';

/** The importer's name, stored in `items.source` of books it had to create. */
export const GUTENBERG_SOURCE = 'gutenberg';

/** A page closes once it holds this many characters (at a paragraph's end)... */
export const PAGE_MIN_LENGTH = 2_500;
/** ...and never grows past this many, unless one paragraph alone is longer. */
export const PAGE_MAX_LENGTH = 3_500;

/** What the Project Gutenberg header says about the book. */
export interface GutenbergHeader {
  /** The whole title, subtitle lines included: "Frankenstein; or The Modern Prometheus". */
  title: string;
  /** The first line of the title only: "Frankenstein". */
  mainTitle: string;
  authors: string[];
  /** The eBook number ("[EBook #84]"), Project Gutenberg's identifier of the text. */
  ebook: string | null;
  language: string | null;
}

const LANGUAGE_CODES: Record<string, string> = {
  english: 'eng',
  french: 'fre',
  german: 'ger',
  spanish: 'spa',
  italian: 'ita',
  portuguese: 'por',
  dutch: 'dut',
};

/** Paragraphs that name Project Gutenberg: its licence forbids keeping the name once it is stripped. */
export function mentionsGutenberg(paragraph: string): boolean {
  return /project\s+gutenberg|gutenberg\.(?:org|net)|gutenberg-tm/i.test(paragraph);
}

// Transcribers' credits at the start of the body belong to the edition, not to the book.
const CREDITS = /^(?:produced by|e-?text prepared by|transcribed (?:from|by)|transcriber)/i;

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|' +
  'sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|' +
  'first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last';
const NUMBERED_HEADING = new RegExp(
  `^(?:chapter|stave|letter|book|part|volume|canto|section)\\s+(?:the\\s+)?(\\d+|[ivxlcdm]+|(?:${NUMBER_WORDS})(?:[- ](?:${NUMBER_WORDS}))?)\\b(?:[.:]\\s*.*)?$`,
  'i',
);
const NAMED_HEADING =
  /^(?:preface|introduction|prologue|epilogue|contents|conclusion|afterword|foreword|appendix|the end)\.?$/i;
// Well-formed numerals only, so that words such as "CIVIL" or "VIVID" are not taken for one.
const ROMAN_NUMERAL =
  /^(?=[IVXLCDM])M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})\.?$/;

/**
 * What a one-line paragraph is: a bare roman numeral ("I", "XII."), which may take the next line
 * as its title; a heading ("CHAPTER I. Down the Rabbit-Hole", "Chapter 1", "STAVE I: MARLEY'S
 * GHOST", "Letter 4", "Epilogue", or a short line in capitals such as "STORY OF THE DOOR"); or text.
 */
export function headingKind(line: string): 'numeral' | 'heading' | null {
  const text = squash(line);
  if (text.length === 0 || text.length > 80) return null;
  if (ROMAN_NUMERAL.test(text)) return 'numeral';
  // Headings begin with a capital; a quoted or lower-case line is speech or text.
  if (!/^\p{Lu}/u.test(text)) return null;
  if (NAMED_HEADING.test(text)) return 'heading';
  const numbered = NUMBERED_HEADING.exec(text)?.[1];
  // "Chapter IV" but not "Book Dim": a number spelt in roman letters must be an upper-case numeral.
  if (numbered && (!/^[ivxlcdm]+$/i.test(numbered) || ROMAN_NUMERAL.test(numbered))) {
    return 'heading';
  }
  // A lone capitalised word ("CHORUS.") or initials ("R.W.") is a speaker or a signature.
  const capitals = text.match(/\p{Lu}/gu)?.length ?? 0;
  const words = text.split(' ').length;
  if (capitals >= 3 && words >= 2 && !/\p{Ll}/u.test(text) && !/[,;]$/.test(text)) return 'heading';
  return null;
}

/** Whether a one-line paragraph can be the title under a bare numeral ("II" then "The Machine"). */
function isNumeralTitle(text: string): boolean {
  return text.length <= 60 && /^\p{Lu}/u.test(text) && !/[.,;:!?"”’]$/.test(text);
}

/**
 * Splits a paragraph longer than `max` at line breaks, then sentence ends, then spaces, so each
 * piece fits a page; shorter paragraphs come back whole.
 */
export function splitParagraph(text: string, max = PAGE_MAX_LENGTH): string[] {
  if (text.length <= max) return [text];
  const levels: [RegExp, string][] = [
    [/\n/, '\n'],
    [/(?<=[.!?;:]["'”’)\]]*)\s+/, ' '],
    [/\s+/, ' '],
  ];
  for (const [separator, joiner] of levels) {
    const units = text.split(separator).filter((unit) => unit !== '');
    if (units.length < 2) continue;
    const pieces: string[] = [];
    let current = '';
    for (const unit of units) {
      if (current !== '' && current.length + joiner.length + unit.length > max) {
        pieces.push(current);
        current = '';
      }
      current = current === '' ? unit : `${current}${joiner}${unit}`;
    }
    if (current !== '') pieces.push(current);
    return pieces.flatMap((piece) => splitParagraph(piece, max));
  }
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += max)
    pieces.push(text.slice(start, start + max));
  return pieces;
}

/**
 * Gathers paragraphs into pages of about PAGE_MIN_LENGTH..PAGE_MAX_LENGTH characters. The last
 * completed page is held back one step so that a tiny tail ("THE END") can join it.
 */
export class Pager {
  private parts: string[] = [];
  private length = 0;
  private held: string | null = null;

  constructor(
    private readonly min = PAGE_MIN_LENGTH,
    private readonly max = PAGE_MAX_LENGTH,
  ) {}

  /** Adds a paragraph (or a `# heading`, which never ends a page); returns pages it completed. */
  add(paragraph: string, heading = false): string[] {
    const pages: string[] = [];
    for (const piece of splitParagraph(paragraph, this.max)) {
      if (this.parts.length > 0 && this.length + 2 + piece.length > this.max) this.close(pages);
      this.length += (this.parts.length > 0 ? 2 : 0) + piece.length;
      this.parts.push(piece);
      if (this.length >= this.min && !heading) this.close(pages);
    }
    return pages;
  }

  /** The last pages; a last page shorter than a fifth of a page joins the one before if it fits. */
  end(): string[] {
    const pages: string[] = [];
    const tail = this.parts.length > 0 ? this.take() : null;
    const held = this.held;
    this.held = null;
    if (
      held !== null &&
      tail !== null &&
      tail.length < this.min / 5 &&
      held.length + 2 + tail.length <= this.max
    ) {
      pages.push(`${held}\n\n${tail}`);
    } else {
      if (held !== null) pages.push(held);
      if (tail !== null) pages.push(tail);
    }
    return pages;
  }

  private close(pages: string[]): void {
    if (this.held !== null) pages.push(this.held);
    this.held = this.take();
  }

  private take(): string {
    const page = this.parts.join('\n\n');
    this.parts = [];
    this.length = 0;
    return page;
  }
}

interface Candidate {
  heading: string;
  /** The paragraphs as they stood, for a candidate that turns out not to be a heading. */
  original: string[];
}

type Stage = 'header' | 'start-marker' | 'body' | 'done';

/**
 * Reads a Project Gutenberg plain-text eBook line by line: the header's Title/Author/EBook lines,
 * then only the text between the `*** START OF` and `*** END OF` markers, as pages. Chapter
 * headings become `# Heading` lines; paragraphs naming Project Gutenberg are dropped. Holds one
 * page and a few paragraphs at a time, so any size of book streams through.
 */
export class GutenbergReader {
  private stage: Stage = 'header';
  private headerField: 'title' | 'author' | null = null;
  private readonly titleLines: string[] = [];
  private readonly authorLines: string[] = [];
  private ebook: string | null = null;
  private language: string | null = null;
  private markerLines = 0;
  private paragraph: string[] = [];
  private seenText = false;
  private numeral: string[] | null = null;
  private run: Candidate[] = [];
  private readonly pager = new Pager();

  /** True once the START marker has been read. */
  get inBody(): boolean {
    return this.stage === 'body' || this.stage === 'done';
  }

  /** True once the END marker has been read. */
  get finished(): boolean {
    return this.stage === 'done';
  }

  /** The header as read so far (complete once `inBody`). */
  header(): GutenbergHeader {
    const [mainTitle = '', ...rest] = this.titleLines;
    let title = mainTitle;
    // "Frankenstein" / "or The Modern Prometheus" reads "Frankenstein; or The Modern Prometheus".
    for (const line of rest) title += /^or\b/i.test(line) ? `; ${line}` : `: ${line}`;
    const author = squash(this.authorLines.join(' '));
    return {
      title: squash(title),
      mainTitle: squash(mainTitle),
      authors: author ? author.split(/\s*;\s*|\s+and\s+/).filter(Boolean) : [],
      ebook: this.ebook,
      language: this.language,
    };
  }

  /** Reads one line (without its line break); returns the pages it completed. */
  pushLine(raw: string): string[] {
    const line = raw.replace(/^\uFEFF/, '').replace(/\s+$/, '');
    switch (this.stage) {
      case 'header':
        this.readHeader(line);
        return [];
      case 'start-marker':
        this.readMarker(line, 'body');
        return [];
      case 'body':
        if (/^\*{3}\s*END OF/i.test(line.trim())) {
          // Whatever follows (the rest of the marker, the licence) is not the book.
          const pages = this.finish();
          this.stage = 'done';
          return pages;
        }
        if (line.trim() === '') return this.endParagraph();
        this.paragraph.push(line);
        return [];
      default:
        return [];
    }
  }

  /** Flushes the last pages; call after the last line. */
  end(): string[] {
    return this.stage === 'body' ? this.finish() : [];
  }

  private readHeader(line: string): void {
    if (/^\*{3}\s*START OF/i.test(line.trim())) {
      this.stage = 'start-marker';
      this.markerLines = 0;
      this.readMarker(line, 'body');
      return;
    }
    const ebook = /\[E(?:Book|Text)\s*#\s*(\d+)\]/i.exec(line);
    if (ebook) this.ebook = ebook[1] ?? null;
    const field = /^(Title|Author|Language):\s*(.*)$/i.exec(line);
    if (field) {
      const name = (field[1] ?? '').toLowerCase();
      const value = squash(field[2] ?? '');
      if (name === 'language') {
        this.language = LANGUAGE_CODES[value.toLowerCase()] ?? null;
        this.headerField = null;
      } else {
        this.headerField = name as 'title' | 'author';
        (name === 'title' ? this.titleLines : this.authorLines).push(value);
      }
      return;
    }
    // An indented line continues the field above it ("Title: A Christmas Carol" / "  A Ghost Story").
    if (this.headerField && /^\s+\S/.test(line)) {
      (this.headerField === 'title' ? this.titleLines : this.authorLines).push(squash(line));
      return;
    }
    this.headerField = null;
  }

  /** A marker may wrap onto a second line; it ends at the line that ends in `***`. */
  private readMarker(line: string, next: Stage): void {
    this.markerLines += 1;
    if (line.trim().endsWith('***') || this.markerLines >= 3) this.stage = next;
  }

  private endParagraph(): string[] {
    if (this.paragraph.length === 0) return [];
    const lines = this.paragraph;
    this.paragraph = [];
    const joined = lines.join(' ');
    if (mentionsGutenberg(joined)) return [];
    if (!this.seenText && CREDITS.test(joined.trim())) return [];
    this.seenText = true;
    return this.classify(lines);
  }

  /**
   * A run of heading-like paragraphs with no text between them is a table of contents or a title
   * page: only its last one heads the text that follows, the others stay text.
   */
  private classify(lines: string[]): string[] {
    const text = squash(lines.join(' '));
    const pages: string[] = [];
    if (this.numeral) {
      const numeral = this.numeral;
      this.numeral = null;
      const number = squash(numeral.join(' ')).replace(/\.$/, '');
      if (lines.length === 1 && isNumeralTitle(text)) {
        this.run.push({
          heading: `${number}. ${text}`,
          original: [numeral.join('\n'), lines.join('\n')],
        });
        return pages;
      }
      this.run.push({ heading: `${number}.`, original: [numeral.join('\n')] });
    }
    const kind = lines.length === 1 ? headingKind(text) : null;
    if (kind === 'numeral') {
      this.numeral = lines;
    } else if (kind === 'heading') {
      this.run.push({ heading: text, original: [lines.join('\n')] });
    } else {
      pages.push(...this.flushRun(), ...this.pager.add(lines.join('\n')));
    }
    return pages;
  }

  /** Emits the pending run; at the end of the book (`last`) nothing follows, so nothing is headed. */
  private flushRun(last = false): string[] {
    const pages: string[] = [];
    const run = this.run;
    this.run = [];
    run.forEach((candidate, index) => {
      if (index === run.length - 1 && !last)
        pages.push(...this.pager.add(`# ${candidate.heading}`, true));
      else for (const paragraph of candidate.original) pages.push(...this.pager.add(paragraph));
    });
    return pages;
  }

  private finish(): string[] {
    const pages = this.endParagraph();
    if (this.numeral) {
      const number = squash(this.numeral.join(' ')).replace(/\.$/, '');
      this.run.push({ heading: `${number}.`, original: [this.numeral.join('\n')] });
      this.numeral = null;
    }
    return [...pages, ...this.flushRun(true), ...this.pager.end()];
  }
}

/** A whole Gutenberg text at once: its header and pages (tests and small inputs). */
export function parseGutenberg(text: string): {
  header: GutenbergHeader;
  pages: string[];
  complete: boolean;
} {
  const reader = new GutenbergReader();
  const pages: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) pages.push(...reader.pushLine(line));
  pages.push(...reader.end());
  return { header: reader.header(), pages, complete: reader.inBody && reader.finished };
}

/**
 * Whether a catalogue item is this book: same title (whole, or before a subtitle) and same first
 * author, ignoring case, punctuation and asides such as "(Godwin)".
 */
export function sameBook(
  header: GutenbergHeader,
  item: { title: string; authors: string[] },
): boolean {
  const titles = (title: string) =>
    new Set([matchKey(title), matchKey(title.split(/[:;]/)[0] ?? '')].filter(Boolean));
  const ours = titles(header.title);
  for (const key of titles(header.mainTitle)) ours.add(key);
  const theirs = titles(item.title);
  if (![...theirs].some((key) => ours.has(key))) return false;
  return matchKey(header.authors[0] ?? '') === matchKey(item.authors[0] ?? '');
}

/** The catalogue book a text belongs to: one this importer made before, else one with its title and author. */
async function findBook(
  trx: Transaction<Database>,
  header: GutenbergHeader,
  sourceId: string,
): Promise<{ id: string; page_count: number } | undefined> {
  const own = await trx
    .selectFrom('items')
    .select(['id', 'page_count'])
    .where('source', '=', GUTENBERG_SOURCE)
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  if (own) return own;
  // Narrow by the author's surname (or a title word) in SQL; sameBook decides.
  const words = (header.authors[0] ?? header.mainTitle)
    .replace(/\([^()]*\)/g, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 2);
  const word = header.authors[0] ? words.at(-1) : words.sort((a, b) => b.length - a.length)[0];
  if (!word) return undefined;
  const pattern = `%${word.replace(/[\\%_]/g, '\\$&')}%`;
  const candidates = await trx
    .selectFrom('items')
    .select(['id', 'title', 'authors', 'page_count'])
    .where('kind', '=', 'book')
    .where(
      header.authors[0]
        ? sql<boolean>`array_to_string(authors, ' ') ILIKE ${pattern}`
        : sql<boolean>`title ILIKE ${pattern}`,
    )
    // The oldest match wins, so re-runs keep choosing the same item.
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return candidates.find((item) => sameBook(header, item));
}

async function* fileLines(file: string): AsyncGenerator<string> {
  const input = createReadStream(file, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  for await (const line of lines) yield line;
}

/**
 * Imports one Project Gutenberg text: attaches its pages to the catalogue book with the same title
 * and first author (creating the book only when there is none) and sets `page_count`. Pages are
 * upserted, so a re-run of an unchanged text writes nothing.
 */
export async function importGutenberg(
  db: Kysely<Database>,
  file: string,
  listener: ImportListener = {},
): Promise<ImportResult> {
  const counts = emptyCounts();
  const reader = new GutenbergReader();
  const lines = fileLines(file)[Symbol.asyncIterator]();
  while (!reader.inBody) {
    const next = await lines.next();
    if (next.done) {
      throw new ImportFileError(
        `${file} has no "*** START OF" line: it does not look like a Project Gutenberg text`,
      );
    }
    reader.pushLine(next.value);
  }
  const header = reader.header();
  const problem = titleProblem(header.title);
  if (problem) throw new ImportFileError(`${file}: the header's Title line gives ${problem}`);
  const sourceId =
    header.ebook ?? `title:${matchKey(header.title)}|${matchKey(header.authors[0] ?? '')}`;

  counts.rows = 1;
  let pages: number;
  try {
    pages = await writeBook(db, reader, lines, header, sourceId, counts, file);
  } finally {
    await lines.return?.(undefined);
  }
  listener.onProgress?.({ ...counts });
  return { counts, badRows: [], pages };
}

async function writeBook(
  db: Kysely<Database>,
  reader: GutenbergReader,
  lines: AsyncIterator<string>,
  header: GutenbergHeader,
  sourceId: string,
  counts: ImportCounts,
  file: string,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let book = await findBook(trx, header, sourceId);
    const created = !book;
    if (!book) {
      book = await trx
        .insertInto('items')
        .values({
          kind: 'book',
          title: header.title,
          authors: header.authors,
          source: GUTENBERG_SOURCE,
          source_id: sourceId,
          language: header.language,
        })
        .returning(['id', 'page_count'])
        .executeTakeFirstOrThrow();
    }
    const itemId = book.id;

    let pageCount = 0;
    let changed = 0;
    let batch: { item_id: string; page_number: number; content: string }[] = [];
    const write = async () => {
      if (batch.length === 0) return;
      const rows = await trx
        .insertInto('item_pages')
        .values(batch)
        .onConflict((conflict) =>
          conflict
            .columns(['item_id', 'page_number'])
            .doUpdateSet({ content: (eb) => eb.ref('excluded.content') })
            .where(sql<boolean>`item_pages.content IS DISTINCT FROM excluded.content`),
        )
        .returning('page_number')
        .execute();
      changed += rows.length;
      batch = [];
    };
    const collect = async (pages: string[]) => {
      for (const content of pages) {
        pageCount += 1;
        batch.push({ item_id: itemId, page_number: pageCount, content });
        if (batch.length >= 100) await write();
      }
    };

    for (let next = await lines.next(); !next.done; next = await lines.next()) {
      await collect(reader.pushLine(next.value));
      if (reader.finished) break;
    }
    await collect(reader.end());
    await write();
    if (!reader.finished) {
      throw new ImportFileError(
        `${file} has no "*** END OF" line after its text: the file looks cut short`,
      );
    }
    if (pageCount === 0) throw new ImportFileError(`${file} has no text between its markers`);

    // Pages beyond the new end (a reading guide, a longer earlier edition) go.
    const removed = await trx
      .deleteFrom('item_pages')
      .where('item_id', '=', itemId)
      .where('page_number', '>', pageCount)
      .executeTakeFirst();
    const dirty =
      changed > 0 || Number(removed.numDeletedRows) > 0 || book.page_count !== pageCount;
    if (dirty) {
      await trx
        .updateTable('items')
        .set({ page_count: pageCount, updated_at: sql<Date>`now()` })
        .where('id', '=', itemId)
        .execute();
    }
    if (created) counts.inserted += 1;
    else if (dirty) counts.updated += 1;
    else counts.unchanged += 1;
    return pageCount;
  });
}
