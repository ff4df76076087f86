import { useCallback, useEffect, useState } from 'react';
import {
  emptyStore,
  migrateLegacyNotes,
  parseStore,
  type LegacyNote,
  type NotesStore,
} from './reader-notes.ts';

/*
 * Where the reader's notes live: this browser's localStorage, per person, and nowhere else (the
 * seed's promise: notes typed in the reader are never sent to the library).
 */

/** The key of one person's notes in this browser. */
export const notesStoreKey = (userId: string) => `digi.reader.${userId}`;
/** The seed's key of one person's free-text note on one file, read once and moved into the store. */
export const legacyNotesKey = (userId: string, fileId: string) => `digi.notes.${userId}.${fileId}`;
/** The note being typed on one file, kept so a reload or a closed tab does not lose it. */
export const draftKey = (userId: string, fileId: string) => `digi.reader-draft.${userId}.${fileId}`;

/** A new note id: random where the browser can, unique enough elsewhere. */
export function newNoteId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function')
    return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

function legacyNotes(storage: Storage, userId: string): { keys: string[]; notes: LegacyNote[] } {
  const prefix = legacyNotesKey(userId, '');
  const keys: string[] = [];
  const notes: LegacyNote[] = [];
  for (let index = 0; index < storage.length; index += 1) {
    const key = storage.key(index);
    if (!key?.startsWith(prefix)) continue;
    const fileId = key.slice(prefix.length);
    if (!/^[A-Za-z0-9_-]{25,}$/.test(fileId)) continue;
    keys.push(key);
    notes.push({ fileId, text: storage.getItem(key) ?? '' });
  }
  return { keys, notes };
}

/**
 * One person's notes from `storage`, with the seed's free-text notes moved in. The old keys are
 * removed only once the store holding their text is written, so a full storage loses nothing.
 */
export function loadNotes(storage: Storage, userId: string, now = new Date()): NotesStore {
  const stored = parseStore(storage.getItem(notesStoreKey(userId)));
  const legacy = legacyNotes(storage, userId);
  if (legacy.keys.length === 0) return stored;
  const migrated = migrateLegacyNotes(stored, legacy.notes, now.toISOString(), newNoteId);
  try {
    storage.setItem(notesStoreKey(userId), JSON.stringify(migrated));
    for (const key of legacy.keys) storage.removeItem(key);
  } catch {
    // Kept under the old keys: the next visit tries again.
  }
  return migrated;
}

/** Writes one person's notes; throws when the browser refuses (storage full or turned off). */
export function saveNotes(storage: Storage, userId: string, store: NotesStore): void {
  storage.setItem(notesStoreKey(userId), JSON.stringify(store));
}

/** Whether this browser lets the page keep anything (a private window may not). */
function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * The signed-in person's notes, kept in step with other tabs of this browser. `change` applies a
 * pure change and writes it, and answers with the sentence to show when it could not be kept.
 */
export function useNotesStore(userId: string | null): {
  store: NotesStore;
  change: (update: (store: NotesStore) => NotesStore) => string | null;
} {
  const [store, setStore] = useState<NotesStore>(() => {
    const storage = browserStorage();
    return userId && storage ? loadNotes(storage, userId) : emptyStore();
  });
  const [loadedFor, setLoadedFor] = useState(userId);
  if (loadedFor !== userId) {
    // Another person signed in on this tab: their notes, not the last person's.
    setLoadedFor(userId);
    const storage = browserStorage();
    setStore(userId && storage ? loadNotes(storage, userId) : emptyStore());
  }

  useEffect(() => {
    if (!userId) return;
    const key = notesStoreKey(userId);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key) setStore(parseStore(event.newValue));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [userId]);

  const change = useCallback(
    (update: (current: NotesStore) => NotesStore): string | null => {
      const storage = browserStorage();
      if (!userId || !storage) return 'This browser does not let the reader keep notes.';
      // From what is stored now, so a change made in another tab meanwhile is kept too.
      const next = update(loadNotes(storage, userId));
      try {
        saveNotes(storage, userId, next);
      } catch {
        return 'This browser’s storage is full or turned off, so the change was not kept. Export your notes to keep a copy.';
      }
      setStore(next);
      return null;
    },
    [userId],
  );

  return { store, change };
}

/** The note being typed on a file, as last kept. */
export function readDraft(userId: string, fileId: string): string {
  return browserStorage()?.getItem(draftKey(userId, fileId)) ?? '';
}

/** Keeps (or, when blank, forgets) the note being typed on a file. */
export function writeDraft(userId: string, fileId: string, text: string): void {
  try {
    const storage = browserStorage();
    if (text.trim() === '') storage?.removeItem(draftKey(userId, fileId));
    else storage?.setItem(draftKey(userId, fileId), text);
  } catch {
    // A draft is a convenience: the note itself is kept when it is added.
  }
}
