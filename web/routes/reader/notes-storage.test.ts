import { beforeEach, describe, expect, it } from 'vitest';
import { legacyNotesKey, loadNotes, notesStoreKey, saveNotes } from './notes-storage.ts';
import { addNote, emptyStore } from './reader-notes.ts';

const FILE = 'A'.repeat(28);
const OTHER = 'B'.repeat(30);

beforeEach(() => localStorage.clear());

describe('notes in this browser', () => {
  it('moves the seed’s notes into the store once, and removes only their old keys', () => {
    localStorage.setItem(legacyNotesKey('user-1', FILE), 'Chapter 2: eigenvalues matter.');
    localStorage.setItem(legacyNotesKey('user-1', OTHER), 'Second file.');
    localStorage.setItem(legacyNotesKey('user-2', FILE), 'Someone else’s.');
    localStorage.setItem('digi.notes.user-1.short', 'not a file id');

    const store = loadNotes(localStorage, 'user-1', new Date('2026-01-01T00:00:00Z'));
    expect(store.documents[FILE]!.notes).toMatchObject([
      { page: null, text: 'Chapter 2: eigenvalues matter.' },
    ]);
    expect(store.documents[OTHER]!.notes).toMatchObject([{ page: null, text: 'Second file.' }]);
    expect(localStorage.getItem(legacyNotesKey('user-1', FILE))).toBeNull();
    expect(localStorage.getItem(legacyNotesKey('user-1', OTHER))).toBeNull();
    expect(localStorage.getItem(legacyNotesKey('user-2', FILE))).toBe('Someone else’s.');
    expect(localStorage.getItem('digi.notes.user-1.short')).toBe('not a file id');
    expect(JSON.parse(localStorage.getItem(notesStoreKey('user-1'))!)).toEqual(store);
    expect(loadNotes(localStorage, 'user-1')).toEqual(store);
  });

  it('keeps the old notes where they were when the browser refuses to write', () => {
    localStorage.setItem(legacyNotesKey('user-1', FILE), 'old note');
    // A browser whose storage is full: it reads, and refuses every write.
    const full: Storage = {
      get length() {
        return localStorage.length;
      },
      key: (index) => localStorage.key(index),
      getItem: (key) => localStorage.getItem(key),
      removeItem: (key) => localStorage.removeItem(key),
      clear: () => localStorage.clear(),
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError');
      },
    };
    expect(loadNotes(full, 'user-1').documents[FILE]!.notes[0]!.text).toBe('old note');
    expect(localStorage.getItem(legacyNotesKey('user-1', FILE))).toBe('old note');
  });

  it('keeps each person’s notes apart', () => {
    const store = addNote(
      emptyStore(),
      { fileId: FILE, title: 'Mine', link: '' },
      { page: 1, text: 'x' },
      '2026-01-01T00:00:00Z',
      'a',
    );
    saveNotes(localStorage, 'user-1', store);
    expect(loadNotes(localStorage, 'user-1')).toEqual(store);
    expect(loadNotes(localStorage, 'user-2')).toEqual(emptyStore());
  });
});
