import { citationParts, type CitedItem } from './citation.ts';

/**
 * A person's bookmarks and highlights in one book as a Markdown file, for where students write
 * (Obsidian, a word processor, a README): the book's title, a reference line, then page by page
 * the bookmarks and each highlight as a `> quote` with its page and the note below it. Everything
 * taken from the book or the person is escaped, so it reads as the text it is.
 */

/** Characters Markdown could read as markup anywhere in a line (and `<` as HTML). */
const INLINE_MARKUP = /[\\`*_[\]<>|~]/g;

/** A line of text written so Markdown shows it as it is. */
export function escapeMarkdown(line: string): string {
  return (
    line
      .replace(INLINE_MARKUP, (char) => `\\${char}`)
      // What makes a line a heading, a list item, a quote or a rule only at its start.
      .replace(/^(\s*)([#+=-])/, '$1\\$2')
      .replace(/^(\s*\d+)([.)])/, '$1\\$2')
  );
}

/** Lines of `text` escaped each, with `prefix` before each (a quote's `> `). */
const linesOf = (text: string, prefix = '') =>
  text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => `${prefix}${escapeMarkdown(line.trim())}`.trimEnd())
    .join('\n');

/** What the export needs of a highlight. */
export interface NotedHighlight {
  page: number;
  start_offset: number;
  quote: string;
  note: string;
}

/** The Markdown export of one book's bookmarks and highlights. */
export function notesMarkdown(input: {
  item: CitedItem;
  bookmarks: readonly { page: number }[];
  highlights: readonly NotedHighlight[];
  libraryName: string;
}): string {
  const { item, bookmarks, highlights, libraryName } = input;
  const cite = citationParts(item, libraryName);
  const reference = [
    cite.authors ? `${escapeMarkdown(cite.authors)}.` : '',
    `*${escapeMarkdown(cite.title)}*.`,
    cite.year ? `${cite.year}.` : '',
    `${escapeMarkdown(cite.library)}.`,
  ]
    .filter(Boolean)
    .join(' ');
  const blocks = [`# ${escapeMarkdown(cite.title)}`, reference];
  const pages = [
    ...new Set([...bookmarks.map((mark) => mark.page), ...highlights.map((each) => each.page)]),
  ].sort((a, b) => a - b);
  if (pages.length === 0) blocks.push('No bookmarks or highlights yet.');
  for (const page of pages) {
    if (bookmarks.some((mark) => mark.page === page)) blocks.push(`Bookmark (p. ${page})`);
    for (const highlight of highlights
      .filter((each) => each.page === page)
      .sort((a, b) => a.start_offset - b.start_offset)) {
      blocks.push(`${linesOf(highlight.quote, '> ')} (p. ${page})`);
      if (highlight.note.trim() !== '') blocks.push(linesOf(highlight.note.trim()));
    }
  }
  return `${blocks.join('\n\n')}\n`;
}
