import {
  addNote,
  cleanTitle,
  driveViewLink,
  MAX_PAGE,
  notesByPage,
  type NotesStore,
  type ReaderDocument,
} from './reader-notes.ts';

/*
 * The reader's notes as Markdown a student can read, paste where they write, and import in another
 * browser. Two HTML comments, invisible when the Markdown is shown, carry what the import needs: the
 * file's mark and each document's Drive file id. Everything a note says is indented under its list
 * item, so no line of a note can be read as a heading or a mark.
 */

/** The first line of every export: what tells an export from any other Markdown file. */
export const EXPORT_MARK = '<!-- digi-library reader notes, version 1 -->';
const DOCUMENT_MARK = /^<!-- drive file: ([A-Za-z0-9_-]{25,}) -->$/;
const PAGE_HEADING = /^### Page (\d{1,6})$/;
const NO_PAGE_HEADING = '### Without a page';

/** A title as a heading's text: one line, and no character that Markdown would read as markup. */
function headingText(title: string): string {
  return cleanTitle(title).replace(/[\\`*_[\]<>#|]/g, (char) => `\\${char}`);
}

function unescapeHeading(text: string): string {
  return text.replace(/\\([\\`*_[\]<>#|])/g, '$1');
}

function documentSection(document: ReaderDocument): string[] {
  const lines = [`## ${headingText(document.title) || document.fileId}`, ''];
  // The canonical address of the file: whatever the link was typed as, it opens the same file.
  lines.push(
    `Google Drive: <${driveViewLink(document.fileId)}>`,
    '',
    `<!-- drive file: ${document.fileId} -->`,
  );
  let heading: string | null = null;
  for (const note of notesByPage(document.notes)) {
    const next = note.page === null ? NO_PAGE_HEADING : `### Page ${note.page}`;
    if (next !== heading) {
      lines.push('', next, '');
      heading = next;
    }
    const [first = '', ...rest] = note.text.split('\n');
    lines.push(`- ${first}`, ...rest.map((line) => (line === '' ? '' : `  ${line}`)));
  }
  return lines;
}

/**
 * The Markdown of some documents' notes: a heading per document with its name and Drive link, its
 * notes by page. One document's export is headed by its name; several, by "Reader notes".
 */
export function exportMarkdown(documents: readonly ReaderDocument[], exportedAt: Date): string {
  const withNotes = documents.filter((document) => document.notes.length > 0);
  const single = withNotes.length === 1 ? withNotes[0] : undefined;
  const day = exportedAt.toISOString().slice(0, 10);
  const lines = [
    EXPORT_MARK,
    '',
    single ? `# Notes on ${headingText(single.title) || single.fileId}` : '# Reader notes',
    '',
    `Exported from the Digi Library reader on ${day}. To bring these notes into another browser, ` +
      'import this file on its Reader screen.',
  ];
  for (const document of withNotes) lines.push('', ...documentSection(document));
  return `${lines.join('\n')}\n`;
}

/** A file name for an export: the document's name when there is one document, else the day. */
export function exportFileName(documents: readonly ReaderDocument[], exportedAt: Date): string {
  const single = documents.length === 1 ? documents[0] : undefined;
  const slug = single
    ? cleanTitle(single.title)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60)
    : '';
  return `reader-notes-${slug || exportedAt.toISOString().slice(0, 10)}.md`;
}

/** One document as read back from an export. */
export interface ImportedDocument {
  fileId: string;
  title: string;
  link: string;
  notes: { page: number | null; text: string }[];
}

/** What an import file held, or the sentence saying it is not an export. */
export type ParsedExport =
  { ok: true; documents: ImportedDocument[] } | { ok: false; error: string };

/** The message for a file that is not the reader's export. */
export const NOT_AN_EXPORT =
  'This file is not a notes export from the Digi Library reader. Choose a .md file made with ' +
  '“Export” on this screen.';

/**
 * Reads an export back. Only the file's mark, the document marks, the page headings and the list
 * items count; any other line (the intro, a link, a student's own addition) is passed over.
 */
export function parseExport(markdown: string): ParsedExport {
  const lines = markdown.replace(/^\uFEFF/, '').split(/\r\n?|\n/);
  const firstLine = lines.find((line) => line.trim() !== '');
  if (firstLine?.trim() !== EXPORT_MARK) return { ok: false, error: NOT_AN_EXPORT };

  const documents: ImportedDocument[] = [];
  let title = '';
  let current: ImportedDocument | null = null;
  let page: number | null = null;
  let note: string[] | null = null;
  let blanks = 0;
  const endNote = () => {
    if (current && note) {
      const text = note.join('\n').trim();
      if (text !== '') current.notes.push({ page, text });
    }
    note = null;
    blanks = 0;
  };

  for (const line of lines) {
    if (note && line.startsWith('  ') && line.trim() !== '') {
      // A note's next line; blank lines between its lines belong to it.
      note.push(...Array<string>(blanks).fill(''), line.slice(2));
      blanks = 0;
      continue;
    }
    if (note && line.trim() === '') {
      blanks += 1;
      continue;
    }
    endNote();
    if (line.startsWith('## ')) {
      title = unescapeHeading(line.slice(3).trim());
      current = null;
      continue;
    }
    const documentMark = DOCUMENT_MARK.exec(line.trim());
    if (documentMark) {
      const fileId = documentMark[1]!;
      current = {
        fileId,
        title: cleanTitle(title) || fileId,
        link: driveViewLink(fileId),
        notes: [],
      };
      documents.push(current);
      page = null;
      continue;
    }
    const pageHeading = PAGE_HEADING.exec(line.trim());
    if (pageHeading) {
      const number = Number(pageHeading[1]);
      page = number >= 1 && number <= MAX_PAGE ? number : null;
      continue;
    }
    if (line.trim() === NO_PAGE_HEADING) {
      page = null;
      continue;
    }
    if (current && line.startsWith('- ')) note = [line.slice(2)];
  }
  endNote();

  const withNotes = documents.filter((document) => document.notes.length > 0);
  if (withNotes.length === 0)
    return { ok: false, error: 'This export holds no notes: there is nothing to import.' };
  return { ok: true, documents: withNotes };
}

/** What an import changed, for the sentence the screen shows. */
export interface ImportResult {
  store: NotesStore;
  added: number;
  alreadyHere: number;
  documents: number;
}

/**
 * Adds an export's notes to the store. A note already there (same document, page and text) is
 * not added again, so importing the same file twice changes nothing; a document already here
 * keeps the name the student gave it in this browser.
 */
export function mergeImport(
  store: NotesStore,
  imported: readonly ImportedDocument[],
  now: string,
  newId: () => string,
): ImportResult {
  let next = store;
  let added = 0;
  let alreadyHere = 0;
  const touched = new Set<string>();
  for (const document of imported) {
    for (const note of document.notes) {
      const existing = next.documents[document.fileId];
      if (existing?.notes.some((each) => each.page === note.page && each.text === note.text)) {
        alreadyHere += 1;
        continue;
      }
      next = addNote(
        next,
        {
          fileId: document.fileId,
          title: existing?.title ?? document.title,
          link: existing?.link ?? document.link,
        },
        note,
        now,
        newId(),
      );
      added += 1;
      touched.add(document.fileId);
    }
  }
  return { store: next, added, alreadyHere, documents: touched.size };
}
