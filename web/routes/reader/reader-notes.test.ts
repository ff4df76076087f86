import { describe, expect, it } from 'vitest';
import {
  addNote,
  deleteNote,
  documentList,
  emptyStore,
  migrateLegacyNotes,
  notesByPage,
  parseNoteInput,
  parseStore,
  renameDocument,
  restoreNote,
  updateNote,
  type DocumentRef,
} from './reader-notes.ts';

const FILE = 'A'.repeat(28);
const OTHER = 'B'.repeat(30);
const DOC: DocumentRef = {
  fileId: FILE,
  title: 'Linear Algebra Notes',
  link: `https://drive.google.com/file/d/${FILE}/view`,
};
const counter = () => {
  let next = 0;
  return () => `id-${(next += 1)}`;
};

describe('reading what the student typed', () => {
  it('takes the page from the field', () => {
    expect(parseNoteInput('12', 'eigenvalues')).toEqual({
      ok: true,
      page: 12,
      text: 'eigenvalues',
    });
    expect(parseNoteInput(' p. 7 ', 'x')).toMatchObject({ page: 7 });
  });

  it('takes the page from a "p. 12:" start, in its common spellings', () => {
    for (const typed of [
      'p. 12: text',
      'p.12: text',
      'P 12 - text',
      'page 12: text',
      'pg. 12 — text',
    ])
      expect(parseNoteInput('', typed)).toEqual({ ok: true, page: 12, text: 'text' });
  });

  it('keeps a note without a page, and words that only look like a start', () => {
    expect(parseNoteInput('', 'plain note')).toEqual({ ok: true, page: null, text: 'plain note' });
    expect(parseNoteInput('', 'p. 12 matters')).toEqual({
      ok: true,
      page: null,
      text: 'p. 12 matters',
    });
  });

  it('lets the field win over a different start, and drops a start that says the same page', () => {
    expect(parseNoteInput('3', 'p. 12: see there')).toEqual({
      ok: true,
      page: 3,
      text: 'p. 12: see there',
    });
    expect(parseNoteInput('12', 'p. 12: same')).toEqual({ ok: true, page: 12, text: 'same' });
  });

  it('says what is wrong with an empty note or a page that is not one', () => {
    expect(parseNoteInput('', '   ')).toEqual({
      ok: false,
      error: 'Write the note before adding it.',
    });
    expect(parseNoteInput('', 'p. 4:  ')).toMatchObject({ ok: false });
    for (const page of ['twelve', '0', '-3', '1.5', '1000000'])
      expect(parseNoteInput(page, 'text')).toMatchObject({
        ok: false,
        error: expect.stringContaining('whole number'),
      });
  });

  it('keeps the line breaks inside a note', () => {
    expect(parseNoteInput('', 'p. 2: one\r\ntwo\n\nthree\n')).toEqual({
      ok: true,
      page: 2,
      text: 'one\ntwo\n\nthree',
    });
  });
});

describe('changing the notes', () => {
  it('adds, edits, deletes and restores notes, keeping the document', () => {
    let store = addNote(emptyStore(), DOC, { page: 5, text: 'first' }, '2026-01-01T00:00:00Z', 'a');
    store = addNote(store, DOC, { page: null, text: 'second' }, '2026-01-02T00:00:00Z', 'b');
    expect(store.documents[FILE]).toMatchObject({
      title: 'Linear Algebra Notes',
      updatedAt: '2026-01-02T00:00:00Z',
    });
    store = updateNote(store, DOC, 'a', { page: 6, text: 'first, fixed' }, '2026-01-03T00:00:00Z');
    expect(store.documents[FILE]!.notes[0]).toMatchObject({
      page: 6,
      text: 'first, fixed',
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-03T00:00:00Z',
    });
    const deleted = store.documents[FILE]!.notes[1]!;
    store = deleteNote(store, DOC, 'b', '2026-01-04T00:00:00Z');
    expect(store.documents[FILE]!.notes.map((note) => note.id)).toEqual(['a']);
    store = restoreNote(store, DOC, deleted, '2026-01-05T00:00:00Z');
    store = restoreNote(store, DOC, deleted, '2026-01-05T00:00:00Z');
    expect(store.documents[FILE]!.notes.map((note) => note.id)).toEqual(['a', 'b']);
  });

  it('orders notes by page, those without one last, the same page as written', () => {
    const at = (day: number) => `2026-01-0${day}T00:00:00Z`;
    let store = emptyStore();
    store = addNote(store, DOC, { page: null, text: 'n' }, at(1), '1');
    store = addNote(store, DOC, { page: 9, text: 'late' }, at(2), '2');
    store = addNote(store, DOC, { page: 2, text: 'b' }, at(4), '3');
    store = addNote(store, DOC, { page: 2, text: 'a' }, at(3), '4');
    expect(notesByPage(store.documents[FILE]!.notes).map((note) => note.text)).toEqual([
      'a',
      'b',
      'late',
      'n',
    ]);
  });

  it('names a document as the student chooses, without moving it in the list', () => {
    let store = addNote(emptyStore(), DOC, { page: 1, text: 'x' }, '2026-01-01T00:00:00Z', 'a');
    store = renameDocument(store, DOC, '  Week 3:\n  matrices ', '2026-02-01T00:00:00Z');
    expect(store.documents[FILE]).toMatchObject({
      title: 'Week 3: matrices',
      updatedAt: '2026-01-01T00:00:00Z',
    });
    store = renameDocument(store, DOC, '   ', '2026-02-01T00:00:00Z');
    expect(store.documents[FILE]!.title).toBe('Linear Algebra Notes');
  });

  it('lists the documents with notes, the latest changed first, with their counts', () => {
    let store = addNote(emptyStore(), DOC, { page: 1, text: 'x' }, '2026-01-01T00:00:00Z', 'a');
    store = addNote(store, DOC, { page: 2, text: 'y' }, '2026-01-01T00:00:01Z', 'b');
    const other = { fileId: OTHER, title: '', link: '' };
    store = addNote(store, other, { page: null, text: 'z' }, '2026-03-01T00:00:00Z', 'c');
    store = addNote(store, { ...DOC, fileId: 'C'.repeat(25) }, { page: 1, text: 'w' }, 'x', 'd');
    store = deleteNote(store, { ...DOC, fileId: 'C'.repeat(25) }, 'd', '2026-04-01T00:00:00Z');
    expect(documentList(store)).toEqual([
      {
        fileId: OTHER,
        title: OTHER,
        link: `https://drive.google.com/file/d/${OTHER}/view`,
        noteCount: 1,
        updatedAt: '2026-03-01T00:00:00Z',
      },
      { ...DOC, noteCount: 2, updatedAt: '2026-01-01T00:00:01Z' },
    ]);
  });
});

describe('the seed’s free-text notes', () => {
  it('become one note without a page each, named by file id, once', () => {
    const legacy = [
      { fileId: FILE, text: '\nChapter 2: eigenvalues matter.\r\nAnd <b>this</b>.\n' },
      { fileId: OTHER, text: '   ' },
    ];
    const newId = counter();
    const once = migrateLegacyNotes(emptyStore(), legacy, '2026-01-01T00:00:00Z', newId);
    expect(Object.keys(once.documents)).toEqual([FILE]);
    expect(once.documents[FILE]).toMatchObject({
      title: FILE,
      link: `https://drive.google.com/file/d/${FILE}/view`,
      notes: [{ id: 'id-1', page: null, text: 'Chapter 2: eigenvalues matter.\nAnd <b>this</b>.' }],
    });
    expect(migrateLegacyNotes(once, legacy, '2026-01-02T00:00:00Z', newId)).toEqual(once);
  });

  it('join the notes a document already has', () => {
    const store = addNote(emptyStore(), DOC, { page: 3, text: 'new' }, '2026-01-01T00:00:00Z', 'a');
    const migrated = migrateLegacyNotes(store, [{ fileId: FILE, text: 'old' }], 'now', counter());
    expect(migrated.documents[FILE]!.title).toBe('Linear Algebra Notes');
    expect(migrated.documents[FILE]!.notes.map((note) => note.text)).toEqual(['new', 'old']);
  });
});

describe('reading the store back', () => {
  it('gives back what was kept', () => {
    const store = addNote(emptyStore(), DOC, { page: 3, text: 'x' }, '2026-01-01T00:00:00Z', 'a');
    expect(parseStore(JSON.stringify(store))).toEqual(store);
  });

  it('passes over what is broken and keeps the rest', () => {
    expect(parseStore(null)).toEqual(emptyStore());
    expect(parseStore('{not json')).toEqual(emptyStore());
    expect(parseStore('[1,2]')).toEqual(emptyStore());
    const parsed = parseStore(
      JSON.stringify({
        documents: {
          short: { notes: [] },
          [FILE]: {
            title: 42,
            notes: [{ id: 'a', text: 'kept', page: 2.5 }, { id: 'b' }, null, 'x'],
          },
        },
      }),
    );
    expect(parsed.documents).toEqual({
      [FILE]: {
        fileId: FILE,
        title: FILE,
        link: `https://drive.google.com/file/d/${FILE}/view`,
        notes: [{ id: 'a', page: null, text: 'kept', createdAt: '', updatedAt: '' }],
        updatedAt: '',
      },
    });
  });
});
