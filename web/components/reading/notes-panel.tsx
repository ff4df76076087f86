import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { HIGHLIGHT_NOTE_MAX, type Highlight } from '#contract/http/reading.ts';
import { ApiError } from '../../api/client.ts';
import {
  citationUrl,
  notesExportUrl,
  useDeleteHighlight,
  useSetBookmark,
  useUpdateHighlight,
} from '../../api/highlights.ts';
import { useReadingState } from '../../api/reading.ts';
import { Button } from '../ui/button.tsx';
import styles from './reading.module.css';

/** The sentence a failed call shows: the server's own when it sent one. */
export function failureText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

/**
 * A form for a highlight's note: a labelled text box that takes the focus, Save and Cancel.
 * Escape cancels. Used when highlighting with a note and when editing one.
 */
export function NoteForm({
  initial = '',
  label = 'Your note',
  submitLabel = 'Save note',
  pending = false,
  onSubmit,
  onCancel,
}: {
  initial?: string;
  label?: string;
  submitLabel?: string;
  pending?: boolean;
  onSubmit: (note: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [note, setNote] = useState(initial);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => box.current?.focus(), []);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(note.trim());
  };
  return (
    <form
      className={styles.noteForm}
      onSubmit={submit}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onCancel();
      }}
    >
      <label htmlFor={`${id}-note`}>{label}</label>
      <textarea
        ref={box}
        id={`${id}-note`}
        className={styles.noteBox}
        value={note}
        maxLength={HIGHLIGHT_NOTE_MAX}
        rows={3}
        onChange={(event) => setNote(event.target.value)}
      />
      <div className={styles.actions}>
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * A highlight's note with Edit and Delete (Delete asks once more: a long note is work). Shown
 * in "My notes" and when a highlight on the page is opened. `onDeleted` runs once it is gone.
 */
export function HighlightNote({
  itemId,
  highlight,
  onDeleted,
}: {
  itemId: string;
  highlight: Highlight;
  onDeleted?: () => void;
}) {
  const update = useUpdateHighlight(itemId);
  const remove = useDeleteHighlight(itemId);
  const [mode, setMode] = useState<'view' | 'edit' | 'confirm'>('view');
  const editButton = useRef<HTMLButtonElement>(null);
  const keepButton = useRef<HTMLButtonElement>(null);
  const back = () => {
    setMode('view');
    // The focus goes back where it came from, not to the top of the page.
    requestAnimationFrame(() => editButton.current?.focus());
  };
  useEffect(() => {
    if (mode === 'confirm') keepButton.current?.focus();
  }, [mode]);

  if (mode === 'edit')
    return (
      <NoteForm
        initial={highlight.note}
        label="Note on this highlight"
        pending={update.isPending}
        onCancel={back}
        onSubmit={(note) => update.mutate({ id: highlight.id, note }, { onSuccess: back })}
      />
    );
  return (
    <div className={styles.highlightNote}>
      {highlight.note ? (
        <p className={styles.note}>{highlight.note}</p>
      ) : (
        <p className={styles.muted}>No note.</p>
      )}
      {mode === 'confirm' ? (
        <div className={styles.actions} role="group" aria-label="Delete this highlight?">
          <span>Delete this highlight{highlight.note ? ' and its note' : ''}?</span>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() =>
              // The promise, not mutate's callback: this note may be gone from the page by then.
              remove.mutateAsync(highlight.id).then(
                () => onDeleted?.(),
                () => {},
              )
            }
          >
            Delete
          </Button>
          <Button ref={keepButton} variant="ghost" onClick={back}>
            Keep
          </Button>
        </div>
      ) : (
        <div className={styles.actions}>
          <Button ref={editButton} variant="outline" onClick={() => setMode('edit')}>
            {highlight.note ? 'Edit note' : 'Add a note'}
          </Button>
          <Button variant="ghost" onClick={() => setMode('confirm')}>
            Delete
          </Button>
        </div>
      )}
      {update.isError || remove.isError ? (
        <p role="alert" className={styles.error}>
          {failureText(
            update.error ?? remove.error,
            'That did not work. Check your connection and try again.',
          )}
        </p>
      ) : null}
    </div>
  );
}

/** A file name for a download, from the book's title. */
function fileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return base || 'book';
}

/**
 * "My notes" for one book: the reader's bookmarks and highlights grouped by page in page order,
 * each quote with its note (edit, delete), a click on a page or a quote jumps there; the
 * Markdown export and the book's citation. Private: nobody else sees them, librarians included.
 */
export function NotesPanel({
  itemId,
  title,
  onJump,
  heading = 'h2',
}: {
  itemId: string;
  /** The book's title, for the downloads' file names. */
  title: string;
  onJump: (page: number) => void;
  /**
   * The heading's level under the screen's own headings; `false` when the frame around it (the
   * viewer's panel) already heads it "My notes".
   */
  heading?: 'h2' | 'h3' | false;
}) {
  const id = useId();
  const reading = useReadingState(itemId, true);
  const bookmark = useSetBookmark(itemId);
  const Heading = heading || 'h3';
  const SubHeading = heading === 'h2' ? 'h3' : 'h4';

  const pages = new Map<number, { bookmarked: boolean; highlights: Highlight[] }>();
  const entry = (page: number) => {
    let found = pages.get(page);
    if (!found) pages.set(page, (found = { bookmarked: false, highlights: [] }));
    return found;
  };
  for (const mark of reading.data?.bookmarks ?? []) entry(mark.page).bookmarked = true;
  for (const highlight of reading.data?.highlights ?? [])
    entry(highlight.page).highlights.push(highlight);
  const ordered = [...pages.entries()].sort(([a], [b]) => a - b);
  for (const [, group] of ordered) group.highlights.sort((a, b) => a.start - b.start);

  // Inside the viewer's panel (`heading` false), the frame is already the region named "My
  // notes": a second landmark of that name would be one too many.
  const Root = heading ? 'section' : 'div';
  return (
    <Root
      className={heading ? styles.panel : styles.panelBare}
      aria-labelledby={heading ? `${id}-title` : undefined}
    >
      {heading ? (
        <Heading id={`${id}-title`} className={styles.panelTitle}>
          My notes
        </Heading>
      ) : null}
      <p className={styles.muted}>
        Your bookmarks, highlights and notes are private: nobody else sees them, librarians
        included.
      </p>
      {reading.isPending ? (
        <p role="status">Loading your notes…</p>
      ) : reading.isError ? (
        <p role="alert">
          {failureText(reading.error, 'Your notes could not be loaded. Try again in a moment.')}
        </p>
      ) : ordered.length === 0 ? (
        <p className={styles.empty}>
          No notes yet. Select words on a page and choose <strong>Highlight</strong> (or{' '}
          <strong>Highlight with note</strong>) to keep them here;{' '}
          <strong>Bookmark this page</strong> keeps a page.
        </p>
      ) : (
        <ol className={styles.pages}>
          {ordered.map(([page, group]) => (
            <li key={page} className={styles.pageGroup}>
              <SubHeading className={styles.pageHeading}>
                <button type="button" className={styles.jump} onClick={() => onJump(page)}>
                  Page {page}
                </button>
                {group.bookmarked ? <span className={styles.tag}>Bookmarked</span> : null}
              </SubHeading>
              {group.bookmarked ? (
                <Button
                  variant="ghost"
                  disabled={bookmark.isPending}
                  onClick={() => bookmark.mutate({ page, bookmarked: false })}
                >
                  Remove bookmark<span className="visually-hidden"> on page {page}</span>
                </Button>
              ) : null}
              {group.highlights.length > 0 ? (
                <ul className={styles.highlights}>
                  {group.highlights.map((highlight) => (
                    <li key={highlight.id} className={styles.highlightItem}>
                      <button
                        type="button"
                        className={styles.quote}
                        onClick={() => onJump(page)}
                        aria-label={`Go to page ${page}: “${highlight.quote}”`}
                      >
                        “{highlight.quote}”
                      </button>
                      <HighlightNote itemId={itemId} highlight={highlight} />
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {bookmark.isError ? (
        <p role="alert" className={styles.error}>
          {failureText(bookmark.error, 'The bookmark could not be removed. Try again.')}
        </p>
      ) : null}
      <p className={styles.exports}>
        <a href={notesExportUrl(itemId)} download={`${fileName(title)}-notes.md`}>
          Export as Markdown
        </a>
        <span>
          Cite:{' '}
          <a href={citationUrl(itemId, 'bibtex')} download={`${fileName(title)}.bib`}>
            BibTeX
          </a>{' '}
          ·{' '}
          <a href={citationUrl(itemId, 'ris')} download={`${fileName(title)}.ris`}>
            RIS
          </a>
        </span>
      </p>
    </Root>
  );
}
