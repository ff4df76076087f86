import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { downloadText } from './download.ts';
import { exportFileName, exportMarkdown } from './notes-markdown.ts';
import { newNoteId, readDraft, writeDraft } from './notes-storage.ts';
import {
  addNote,
  deleteNote,
  type DocumentRef,
  MAX_TITLE_LENGTH,
  notesByPage,
  type NotesStore,
  parseNoteInput,
  renameDocument,
  type ReaderNote,
  restoreNote,
  updateNote,
} from './reader-notes.ts';
import styles from './reader.module.css';

/** Applies a change to the notes and keeps it; answers the sentence to show when it was not kept. */
export type ChangeNotes = (update: (store: NotesStore) => NotesStore) => string | null;

/** Ctrl+Enter (⌘+Enter on a Mac) sends a note's form from its text box, as in most note apps. */
function submitOnCtrlEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
}

/** The plain statement of where the notes are, which every student reads before relying on them. */
export function LocalOnlyNotice() {
  return (
    <p className={styles.localOnly}>
      <strong>Your notes live only in this browser.</strong> They are never sent to the library, so
      they are not on your other devices, and clearing this browser’s data deletes them. Export them
      to keep a copy; import that file to bring them into another browser.
    </p>
  );
}

/**
 * The notes beside the document: its name, its notes by page (each can be edited or deleted),
 * a form for a new one and the Markdown export. Without a Drive document, it says how to start.
 */
export function NotesPanel({
  userId,
  document,
  notes,
  change,
}: {
  userId: string | null;
  document: DocumentRef | null;
  notes: readonly ReaderNote[];
  change: ChangeNotes;
}) {
  const headingId = useId();
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string } | null>(null);
  const [deleted, setDeleted] = useState<ReaderNote | null>(null);
  const undoRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  // Set when the undo button goes away, so the list with the note back in it takes the focus.
  const focusList = useRef(false);
  useEffect(() => {
    // The deleted note's buttons are gone: the undo takes the focus they had.
    if (deleted) undoRef.current?.focus();
    else if (focusList.current) listRef.current?.focus();
    focusList.current = false;
  }, [deleted]);

  if (!document || !userId) {
    return (
      <section className={styles.notes} aria-labelledby={headingId}>
        <h2 id={headingId} className={styles.sectionTitle}>
          Notes on this document
        </h2>
        <LocalOnlyNotice />
        <p className={styles.empty}>Open a Google Drive document to take notes on it.</p>
      </section>
    );
  }

  const keep = (update: (store: NotesStore) => NotesStore, done?: string): boolean => {
    const error = change(update);
    setMessage(error ? { kind: 'error', text: error } : done ? { kind: 'info', text: done } : null);
    return error === null;
  };
  const now = () => new Date().toISOString();
  const ordered = notesByPage(notes);

  return (
    <section className={styles.notes} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.sectionTitle}>
        Notes on this document
      </h2>
      <LocalOnlyNotice />
      <DocumentName
        document={document}
        onRename={(title) => keep((store) => renameDocument(store, document, title, now()))}
      />
      {ordered.length > 0 ? (
        <ol
          ref={listRef}
          // Focus lands here when the undo button it came from goes away.
          tabIndex={-1}
          className={styles.noteList}
          aria-label={`Notes on ${document.title}`}
        >
          {ordered.map((note, index) => (
            <NoteItem
              key={note.id}
              note={note}
              number={index + 1}
              onSave={(edited) =>
                keep((store) => updateNote(store, document, note.id, edited, now()), 'Note saved.')
              }
              onDelete={() => {
                if (keep((store) => deleteNote(store, document, note.id, now()))) setDeleted(note);
              }}
            />
          ))}
        </ol>
      ) : (
        <p className={styles.empty}>No notes on this document yet.</p>
      )}
      {deleted ? (
        <p role="status" className={styles.undoRow}>
          Note deleted.{' '}
          <Button
            ref={undoRef}
            variant="ghost"
            onClick={() => {
              if (keep((store) => restoreNote(store, document, deleted, now()), 'Note restored.')) {
                focusList.current = true;
                setDeleted(null);
              }
            }}
          >
            Undo
          </Button>
        </p>
      ) : null}
      {message ? <FormMessage kind={message.kind}>{message.text}</FormMessage> : null}
      <NewNoteForm
        userId={userId}
        fileId={document.fileId}
        onAdd={(note) => {
          setDeleted(null);
          return keep((store) => addNote(store, document, note, now(), newNoteId()));
        }}
      />
      {notes.length > 0 ? (
        <Button
          variant="outline"
          className={styles.exportButton}
          onClick={() => {
            const exported = [{ ...document, notes: [...notes], updatedAt: now() }];
            const at = new Date();
            downloadText(exportFileName(exported, at), exportMarkdown(exported, at));
          }}
        >
          Export these notes (Markdown)
        </Button>
      ) : null}
    </section>
  );
}

/** The name the document goes by in the list and the export, which the student may change. */
function DocumentName({
  document,
  onRename,
}: {
  document: DocumentRef;
  onRename: (title: string) => void;
}) {
  const id = useId();
  const [value, setValue] = useState(document.title);
  return (
    <div className={formStyles.field}>
      <label htmlFor={id} className={formStyles.label}>
        Document name
      </label>
      <input
        id={id}
        className={formStyles.input}
        value={value}
        maxLength={MAX_TITLE_LENGTH}
        onChange={(event) => setValue(event.target.value)}
        // Kept when the student leaves the box, not at each letter: the list does not jump about.
        onBlur={() => {
          // A blank name changes nothing: the box shows the name kept.
          if (value.trim() === '') setValue(document.title);
          else if (value.trim() !== document.title) onRename(value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
        }}
      />
    </div>
  );
}

/** One note: its page and text, with Edit and Delete; editing turns it into its own small form. */
function NoteItem({
  note,
  number,
  onSave,
  onDelete,
}: {
  note: ReaderNote;
  number: number;
  onSave: (note: { page: number | null; text: string }) => boolean;
  onDelete: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [page, setPage] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const editRef = useRef<HTMLButtonElement>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  // Set when an edit ends, so the focus goes back to its Edit button for a keyboard user.
  const returnFocus = useRef(false);
  const ids = { page: useId(), text: useId(), error: useId() };
  const which = `note ${number}${note.page === null ? '' : ` (page ${note.page})`}`;

  useEffect(() => {
    if (editing) textRef.current?.focus();
    else if (returnFocus.current) editRef.current?.focus();
    returnFocus.current = false;
  }, [editing]);

  if (editing) {
    const save = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      const parsed = parseNoteInput(page, text);
      if (!parsed.ok) {
        setError(parsed.error);
        return;
      }
      if (onSave({ page: parsed.page, text: parsed.text })) {
        returnFocus.current = true;
        setEditing(false);
      }
    };
    const cancel = () => {
      returnFocus.current = true;
      setEditing(false);
    };
    return (
      <li className={styles.note}>
        <form
          className={styles.noteForm}
          onSubmit={save}
          aria-label={`Edit ${which}`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') cancel();
          }}
        >
          <div className={styles.pageField}>
            <label htmlFor={ids.page} className={formStyles.label}>
              Page
            </label>
            <input
              id={ids.page}
              className={formStyles.input}
              inputMode="numeric"
              value={page}
              onChange={(event) => setPage(event.target.value)}
            />
          </div>
          <label htmlFor={ids.text} className={formStyles.label}>
            Note text
          </label>
          <textarea
            id={ids.text}
            ref={textRef}
            className={`${formStyles.input} ${styles.noteInput}`}
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? ids.error : undefined}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={submitOnCtrlEnter}
          />
          {error ? (
            <span id={ids.error} className={formStyles.error}>
              {error}
            </span>
          ) : null}
          <span className={styles.noteActions}>
            <Button type="submit">Save</Button>
            <Button variant="ghost" onClick={cancel}>
              Cancel
            </Button>
          </span>
        </form>
      </li>
    );
  }

  return (
    <li className={styles.note}>
      <span className={styles.notePage}>{note.page === null ? 'No page' : `p. ${note.page}`}</span>
      <p className={styles.noteText}>{note.text}</p>
      <span className={styles.noteActions}>
        <Button
          ref={editRef}
          variant="ghost"
          onClick={() => {
            setPage(note.page === null ? '' : String(note.page));
            setText(note.text);
            setError(null);
            setEditing(true);
          }}
        >
          Edit<span className="visually-hidden"> {which}</span>
        </Button>
        <Button variant="ghost" onClick={onDelete}>
          Delete<span className="visually-hidden"> {which}</span>
        </Button>
      </span>
    </li>
  );
}

/** The form for a new note: an optional page, the text (a "p. 12:" start gives the page too). */
function NewNoteForm({
  userId,
  fileId,
  onAdd,
}: {
  userId: string;
  fileId: string;
  onAdd: (note: { page: number | null; text: string }) => boolean;
}) {
  const ids = { page: useId(), pageHint: useId(), text: useId(), error: useId() };
  const [page, setPage] = useState('');
  // What was being typed on this document survives a reload: the seed kept every keystroke too.
  const [text, setText] = useState(() => readDraft(userId, fileId));
  const [error, setError] = useState<string | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);

  const add = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = parseNoteInput(page, text);
    if (!parsed.ok) {
      setError(parsed.error);
      textRef.current?.focus();
      return;
    }
    if (!onAdd({ page: parsed.page, text: parsed.text })) return;
    setPage('');
    setText('');
    setError(null);
    writeDraft(userId, fileId, '');
    textRef.current?.focus();
  };

  return (
    <form className={styles.noteForm} onSubmit={add} noValidate>
      <div className={styles.pageField}>
        <label htmlFor={ids.page} className={formStyles.label}>
          Page
        </label>
        <input
          id={ids.page}
          className={formStyles.input}
          inputMode="numeric"
          autoComplete="off"
          value={page}
          aria-describedby={ids.pageHint}
          onChange={(event) => setPage(event.target.value)}
        />
      </div>
      <span id={ids.pageHint} className={formStyles.hint}>
        Optional. You can also start a note with “p. 12:”.
      </span>
      <label htmlFor={ids.text} className={formStyles.label}>
        Add to your notes
      </label>
      <textarea
        id={ids.text}
        ref={textRef}
        className={`${formStyles.input} ${styles.noteInput}`}
        value={text}
        placeholder="p. 12: the proof uses induction on n"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? ids.error : undefined}
        onChange={(event) => {
          setText(event.target.value);
          if (error) setError(null);
          writeDraft(userId, fileId, event.target.value);
        }}
        onKeyDown={submitOnCtrlEnter}
      />
      {error ? (
        <span id={ids.error} className={formStyles.error} role="alert">
          {error}
        </span>
      ) : null}
      <Button type="submit" className={styles.addButton}>
        Add note
      </Button>
    </form>
  );
}
