/**
 * The small markup of a held text's pages, read the same way by the browser (to show a page and
 * anchor a highlight) and by the server (to check a highlight's quote, build the contents and
 * export notes): `#`, `##`, `###` heading lines, `1.` numbered and `-` (or `*`) list lines,
 * paragraphs separated by blank lines, and inside any of them `**bold**`, `*italics*` and
 * `_italics_`. Nothing is ever HTML: this only splits text.
 */

/** A block of page text: a heading, a list, or a paragraph (its text still holds inline marks). */
export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'ordered' | 'unordered'; items: string[] }
  | { kind: 'paragraph'; text: string };

/** Splits a page into blocks. Every line of the result is one line (no line breaks inside). */
export function parsePageText(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const ordered = /^\d+[.)]\s+(.*)$/.exec(line);
    const unordered = /^[-*•]\s+(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (ordered || unordered) {
      flush();
      const kind = ordered ? 'ordered' : 'unordered';
      const item = (ordered ?? unordered)![1]!;
      const last = blocks.at(-1);
      if (last && last.kind === kind) last.items.push(item);
      else blocks.push({ kind, items: [item] });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** A run of text with the same emphasis. */
export interface InlineRun {
  text: string;
  bold?: true;
  italic?: true;
}

// `**bold**`; `*italics*` not touching spaces inside; `_italics_` only at word edges, so that
// snake_case and file_names stay as they are.
const INLINE =
  /\*\*(.+?)\*\*|\*(?![\s*])(.+?)(?<![\s*])\*|(?<![\p{L}\p{N}_])_(?![\s_])(.+?)(?<![\s_])_(?![\p{L}\p{N}_])/gu;

/** Splits a line into runs of plain, bold and italic text; the markers themselves are dropped. */
export function inlineRuns(text: string): InlineRun[] {
  const runs: InlineRun[] = [];
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    if (match.index > last) runs.push({ text: text.slice(last, match.index) });
    if (match[1] !== undefined) runs.push({ text: match[1], bold: true });
    else runs.push({ text: (match[2] ?? match[3])!, italic: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) runs.push({ text: text.slice(last) });
  return runs;
}

/** A line as a reader sees it: its runs' text, without the emphasis markers. */
export function plainLine(text: string): string {
  return inlineRuns(text)
    .map((run) => run.text)
    .join('');
}

/**
 * One line of a page as it is read (a heading, a paragraph, or one list item), with where its
 * plain text starts in {@link pagePlainText}. Highlights are offsets into that text.
 */
export interface PageSegment {
  /** Index of its block in {@link parsePageText}'s result. */
  block: number;
  /** Index of the item in a list block; 0 otherwise. */
  item: number;
  /** The line with its inline marks (for rendering). */
  source: string;
  /** The line as read, marks dropped. */
  text: string;
  /** Offset of `text` in the page's plain text. */
  start: number;
}

/** Every line of a page in reading order, each with its offset in the page's plain text. */
export function pageSegments(content: string): PageSegment[] {
  const segments: PageSegment[] = [];
  let offset = 0;
  const add = (block: number, item: number, source: string) => {
    const text = plainLine(source);
    segments.push({ block, item, source, text, start: offset });
    // One line break between lines, as the plain text joins them.
    offset += text.length + 1;
  };
  parsePageText(content).forEach((block, index) => {
    if (block.kind === 'heading' || block.kind === 'paragraph') add(index, 0, block.text);
    else block.items.forEach((item, itemIndex) => add(index, itemIndex, item));
  });
  return segments;
}

/** A page as plain text: its lines as read, one line break between them. */
export function pagePlainText(content: string): string {
  return pageSegments(content)
    .map((segment) => segment.text)
    .join('\n');
}

/** The heading lines of a page, as read, with their level: a book's contents are made of them. */
export function pageHeadings(content: string): { level: 1 | 2 | 3; title: string }[] {
  return parsePageText(content).flatMap((block) =>
    block.kind === 'heading' ? [{ level: block.level, title: plainLine(block.text).trim() }] : [],
  );
}
