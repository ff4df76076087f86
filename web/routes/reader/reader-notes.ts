/*
 * The reader's notes, kept in the browser only (never sent to the library): their shape, the
 * changes a person makes to them, and the move from the seed's one free-text note per document.
 * Pure functions over plain data; `notes-storage.ts` reads and writes them.
 */

/** One note on a document, at an optional page the student typed. */
export interface ReaderNote {
  id: string;
  /** The page the note is about, as the student numbered it; null when they gave none. */
  page: number | null;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** A Drive document the student keeps notes on. */
export interface ReaderDocument {
  fileId: string;
  /** The student's name for it: the course material's title, the file id, or their own. */
  title: string;
  /** The Drive link it opens with. */
  link: string;
  notes: ReaderNote[];
  /** The last change to its notes or name. */
  updatedAt: string;
}

/** Everything one person keeps in one browser, by Drive file id. */
export interface NotesStore {
  version: 1;
  documents: Record<string, ReaderDocument>;
}

/** What identifies a document when a note is added to it. */
export interface DocumentRef {
  fileId: string;
  title: string;
  link: string;
}

/** The highest page number taken: beyond it, a number is a typing slip. */
export const MAX_PAGE = 100_000;
/** The longest note kept, in characters (localStorage holds about 5 MB per site). */
export const MAX_NOTE_LENGTH = 20_000;
/** The longest document name kept. */
export const MAX_TITLE_LENGTH = 200;

/** A store with nothing in it. */
export function emptyStore(): NotesStore {
  return { version: 1, documents: {} };
}

/** The Drive address of a file, for a document known only by its id. */
export function driveViewLink(fileId: string): string {
  return `https://drive.google.com/file/d/${fileId}/view`;
}

/** "p. 12:", "p12 -", "page 12:" or "pg. 12:" at the start of a note. */
const PAGE_PREFIX = /^\s*(?:p|pg|page)\.?\s*(\d{1,6})\s*[:\-–—]\s*/i;

/** A note ready to keep, or the sentence saying why it is not. */
export type NoteInput =
  { ok: true; page: number | null; text: string } | { ok: false; error: string };

function pageNumber(value: string): number | null | 'bad' {
  const trimmed = value.trim().replace(/^(?:p|pg|page)\.?\s*/i, '');
  if (trimmed === '') return null;
  if (!/^\d{1,6}$/.test(trimmed)) return 'bad';
  const page = Number(trimmed);
  return page >= 1 && page <= MAX_PAGE ? page : 'bad';
}

/**
 * Reads what the student typed: the page field when filled, otherwise a "p. 12:" at the start of
 * the text. A prefix naming the same page as the field is dropped, so it is not said twice.
 */
export function parseNoteInput(pageField: string, rawText: string): NoteInput {
  const fieldPage = pageNumber(pageField);
  if (fieldPage === 'bad')
    return {
      ok: false,
      error: `The page should be a whole number from 1 to ${MAX_PAGE}, like 12.`,
    };
  let text = rawText.replace(/\r\n?/g, '\n');
  let page = fieldPage;
  const prefix = PAGE_PREFIX.exec(text);
  if (prefix) {
    const typed = Number(prefix[1]);
    if (typed >= 1 && typed <= MAX_PAGE && (page === null || page === typed)) {
      page = typed;
      text = text.slice(prefix[0].length);
    }
  }
  text = text.trim();
  if (text === '') return { ok: false, error: 'Write the note before adding it.' };
  if (text.length > MAX_NOTE_LENGTH)
    return {
      ok: false,
      error: `A note can be up to ${MAX_NOTE_LENGTH.toLocaleString('en')} characters; split it in two.`,
    };
  return { ok: true, page, text };
}

/** Notes in reading order: by page, those without one last; the same page in the order written. */
export function notesByPage(notes: readonly ReaderNote[]): ReaderNote[] {
  return [...notes].sort((a, b) => {
    if (a.page !== b.page) {
      if (a.page === null) return 1;
      if (b.page === null) return -1;
      return a.page - b.page;
    }
    return a.createdAt.localeCompare(b.createdAt);
  });
}

/** A document name as kept: one line, not too long; blank stays blank (the default is shown). */
export function cleanTitle(title: string): string {
  return title.replace(/\s+/g, ' ').trim().slice(0, MAX_TITLE_LENGTH);
}

function withDocument(
  store: NotesStore,
  ref: DocumentRef,
  now: string,
  change: (notes: ReaderNote[]) => ReaderNote[],
): NotesStore {
  const existing = store.documents[ref.fileId];
  const document: ReaderDocument = {
    fileId: ref.fileId,
    title: cleanTitle(ref.title) || existing?.title || ref.fileId,
    link: ref.link || existing?.link || driveViewLink(ref.fileId),
    notes: change(existing?.notes ?? []),
    updatedAt: now,
  };
  return { ...store, documents: { ...store.documents, [ref.fileId]: document } };
}

/** Adds a note to a document, creating the document's entry on its first note. */
export function addNote(
  store: NotesStore,
  ref: DocumentRef,
  note: { page: number | null; text: string },
  now: string,
  id: string,
): NotesStore {
  return withDocument(store, ref, now, (notes) => [
    ...notes,
    { id, page: note.page, text: note.text, createdAt: now, updatedAt: now },
  ]);
}

/** Changes one note's page and text. */
export function updateNote(
  store: NotesStore,
  ref: DocumentRef,
  noteId: string,
  note: { page: number | null; text: string },
  now: string,
): NotesStore {
  return withDocument(store, ref, now, (notes) =>
    notes.map((each) =>
      each.id === noteId ? { ...each, page: note.page, text: note.text, updatedAt: now } : each,
    ),
  );
}

/** Removes one note; the document stays, with its name, even when it has none left. */
export function deleteNote(
  store: NotesStore,
  ref: DocumentRef,
  noteId: string,
  now: string,
): NotesStore {
  return withDocument(store, ref, now, (notes) => notes.filter((each) => each.id !== noteId));
}

/** Puts back a note that was deleted, as it was. */
export function restoreNote(
  store: NotesStore,
  ref: DocumentRef,
  note: ReaderNote,
  now: string,
): NotesStore {
  return withDocument(store, ref, now, (notes) =>
    notes.some((each) => each.id === note.id) ? notes : [...notes, note],
  );
}

/** Names a document as the student chose (blank gives back the default name). */
export function renameDocument(
  store: NotesStore,
  ref: DocumentRef,
  title: string,
  now: string,
): NotesStore {
  const existing = store.documents[ref.fileId];
  const named = withDocument(store, { ...ref, title: '' }, now, (notes) => notes);
  const document = named.documents[ref.fileId]!;
  document.title = cleanTitle(title) || cleanTitle(ref.title) || ref.fileId;
  // A name alone is no change to the notes: the list's "last change" stays where it was.
  if (existing) document.updatedAt = existing.updatedAt;
  return named;
}

/** One row of the list of documents with notes. */
export interface DocumentSummary {
  fileId: string;
  title: string;
  link: string;
  noteCount: number;
  updatedAt: string;
}

/** The documents that have notes, the most recently changed first. */
export function documentList(store: NotesStore): DocumentSummary[] {
  return Object.values(store.documents)
    .filter((document) => document.notes.length > 0)
    .map((document) => ({
      fileId: document.fileId,
      title: document.title,
      link: document.link,
      noteCount: document.notes.length,
      updatedAt: document.updatedAt,
    }))
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.title.localeCompare(b.title));
}

/** A note of the seed's reader: one free text per person per file, keyed by the file id. */
export interface LegacyNote {
  fileId: string;
  text: string;
}

/**
 * Moves the seed's free-text notes into the store, each as one note without a page, exactly as
 * written. Running it again adds nothing: a note with the same text already there is kept once.
 */
export function migrateLegacyNotes(
  store: NotesStore,
  legacy: readonly LegacyNote[],
  now: string,
  newId: () => string,
): NotesStore {
  let next = store;
  for (const { fileId, text } of legacy) {
    // Only the blank lines around it go; every word and line break within stays.
    const body = text.replace(/\r\n?/g, '\n').trim();
    if (body === '') continue;
    const existing = next.documents[fileId];
    if (existing?.notes.some((note) => note.page === null && note.text === body)) continue;
    next = addNote(
      next,
      { fileId, title: existing?.title ?? fileId, link: existing?.link ?? driveViewLink(fileId) },
      { page: null, text: body },
      now,
      newId(),
    );
  }
  return next;
}

const FILE_ID = /^[A-Za-z0-9_-]{25,}$/;
const isString = (value: unknown): value is string => typeof value === 'string';

function readNote(value: unknown): ReaderNote | null {
  if (typeof value !== 'object' || value === null) return null;
  const note = value as Record<string, unknown>;
  if (!isString(note.id) || !isString(note.text) || note.text === '') return null;
  const page =
    typeof note.page === 'number' && Number.isInteger(note.page) && note.page >= 1
      ? note.page
      : null;
  const createdAt = isString(note.createdAt) ? note.createdAt : '';
  return {
    id: note.id,
    page,
    text: note.text,
    createdAt,
    updatedAt: isString(note.updatedAt) ? note.updatedAt : createdAt,
  };
}

/**
 * The store from what localStorage held: anything malformed (an older or hand-edited value) is
 * left out piece by piece rather than losing the rest.
 */
export function parseStore(raw: string | null): NotesStore {
  if (!raw) return emptyStore();
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return emptyStore();
  }
  const store = emptyStore();
  const documents =
    typeof value === 'object' && value !== null
      ? (value as { documents?: unknown }).documents
      : null;
  if (typeof documents !== 'object' || documents === null) return store;
  for (const [fileId, entry] of Object.entries(documents)) {
    if (!FILE_ID.test(fileId) || typeof entry !== 'object' || entry === null) continue;
    const document = entry as Record<string, unknown>;
    const notes = Array.isArray(document.notes)
      ? document.notes.map(readNote).filter((note): note is ReaderNote => note !== null)
      : [];
    store.documents[fileId] = {
      fileId,
      title: (isString(document.title) && cleanTitle(document.title)) || fileId,
      link: isString(document.link) ? document.link : driveViewLink(fileId),
      notes,
      updatedAt: isString(document.updatedAt) ? document.updatedAt : '',
    };
  }
  return store;
}
