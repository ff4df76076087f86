import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { HIGHLIGHT_QUOTE_MAX } from '#contract/http/reading.ts';
import { pagePlainText } from '#contract/page-text.ts';
import { useCreateHighlight } from '../../api/highlights.ts';
import { useReadingState } from '../../api/reading.ts';
import { PageText, type TextRange } from '../catalogue/page-text.tsx';
import { Button } from '../ui/button.tsx';
import { failureText, HighlightNote, NoteForm } from './notes-panel.tsx';
import {
  extendSelectionByKey,
  passageOfSelection,
  pickWordByKey,
  type SelectedPassage,
} from './selection.ts';
import styles from './reading.module.css';

/** Keeps the selection when a toolbar button is pressed with the mouse. */
const keepSelection = (event: { preventDefault: () => void }) => event.preventDefault();

/** Room kept free at the top of the window: the app's top bar covers it. */
const TOP_BAR_ROOM = 96;

/**
 * Scrolls the window, if need be, so that a passage (`box`, in the window's coordinates) is not
 * hidden under `card`, the toolbar or opened note that sticks to the window's bottom; never so
 * far that the passage's top goes under the top bar.
 */
function keepAboveCard(box: { top: number; bottom: number } | null, card: HTMLElement | null) {
  if (!box || !card) return;
  const overlap = box.bottom + 8 - card.getBoundingClientRect().top;
  const by = Math.min(overlap, box.top - TOP_BAR_ROOM);
  if (by > 0) window.scrollBy({ top: by });
}

/** The box around a highlight's marks on the page, or null when it is not there. */
function highlightBox(root: HTMLElement | null, highlightId: string) {
  const marks = [...(root?.querySelectorAll('[data-highlight]') ?? [])].filter(
    (mark) => mark.getAttribute('data-highlight') === highlightId,
  );
  if (marks.length === 0) return null;
  const rects = marks.map((mark) => mark.getBoundingClientRect());
  return {
    top: Math.min(...rects.map((rect) => rect.top)),
    bottom: Math.max(...rects.map((rect) => rect.bottom)),
  };
}

/** The box around the browser's selection, where the engine can measure it. */
function selectionBox() {
  const selection = document.getSelection();
  if (!selection || selection.rangeCount === 0) return null;
  const range = selection.getRangeAt(0);
  return typeof range.getBoundingClientRect === 'function' ? range.getBoundingClientRect() : null;
}

/** A passage shortened for the toolbar's preview. */
const preview = (quote: string) => (quote.length > 80 ? `${quote.slice(0, 77).trimEnd()}…` : quote);

/**
 * A page of a book with the reader's own highlights on it. Selecting text (with the mouse, or
 * from the keyboard: Ctrl and the arrows pick a word, Shift and the arrows extend) shows a small
 * toolbar below the page, reachable by Tab: "Highlight" or "Highlight with note"; Escape
 * dismisses it. A highlight opens with a click (or Enter) to show its note with Edit and Delete.
 * `words` and `speaking` mark search hits and the sentence read aloud.
 */
export function AnnotatedPage({
  itemId,
  page,
  text,
  words,
  speaking = null,
}: {
  itemId: string;
  page: number;
  /** The page's content, as `GET /api/items/:id/pages/:page` gives it. */
  text: string;
  words?: readonly string[];
  speaking?: TextRange | null;
}) {
  const id = useId();
  const reading = useReadingState(itemId, true);
  const create = useCreateHighlight(itemId);
  const plain = useMemo(() => pagePlainText(text), [text]);
  const pageRef = useRef<HTMLDivElement>(null);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const [passage, setPassage] = useState<SelectedPassage | null>(null);
  const [withNote, setWithNote] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [said, setSaid] = useState('');
  // A failure belongs to the passage it was for: another selection does not show it.
  const [failure, setFailure] = useState<{ passage: SelectedPassage; message: string } | null>(
    null,
  );
  const openedRef = useRef<HTMLElement>(null);

  // The highlights stored for this page whose quote still matches it (a changed page drops them
  // from view rather than marking the wrong words).
  const highlights = useMemo(
    () =>
      (reading.data?.highlights ?? []).filter(
        (highlight) =>
          highlight.page === page &&
          plain.slice(highlight.start, highlight.end) === highlight.quote,
      ),
    [reading.data, page, plain],
  );
  const open = highlights.find((highlight) => highlight.id === openId) ?? null;

  // A new page starts clean (adjusted while rendering, as React advises, not in an effect).
  const pageKey = `${itemId}:${page}:${plain}`;
  const [shownKey, setShownKey] = useState(pageKey);
  if (shownKey !== pageKey) {
    setShownKey(pageKey);
    setPassage(null);
    setWithNote(false);
    setOpenId(null);
  }

  // Follows the browser's selection: a passage of this page shows the toolbar. A selection that
  // goes away while the toolbar (or its note form) has the focus is kept: Tab moved there.
  useEffect(() => {
    const onChange = () => {
      const root = pageRef.current;
      if (!root) return;
      const found = passageOfSelection(root, document.getSelection(), plain);
      if (found) {
        setPassage((current) =>
          current && current.start === found.start && current.end === found.end ? current : found,
        );
        return;
      }
      if (toolbarRef.current?.contains(document.activeElement)) return;
      setPassage(null);
      setWithNote(false);
    };
    document.addEventListener('selectionchange', onChange);
    return () => document.removeEventListener('selectionchange', onChange);
  }, [plain]);

  const dismiss = () => {
    setPassage(null);
    setWithNote(false);
    document.getSelection()?.removeAllRanges();
    pageRef.current?.focus();
  };

  // Escape dismisses the toolbar wherever the focus is (in the page, or on the toolbar).
  const selecting = passage !== null;
  useEffect(() => {
    if (!selecting) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      const fromToolbar = toolbarRef.current?.contains(document.activeElement) ?? false;
      setPassage(null);
      setWithNote(false);
      document.getSelection()?.removeAllRanges();
      // The toolbar goes: its focus goes back to the page rather than to nowhere.
      if (fromToolbar) pageRef.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [selecting]);

  // An opened highlight takes the focus, so its note is read and its buttons are next; the
  // passage stays in sight above it.
  useEffect(() => {
    if (!openId) return;
    openedRef.current?.focus({ preventScroll: true });
    keepAboveCard(highlightBox(pageRef.current, openId), openedRef.current);
  }, [openId]);

  // The selection grows from the keyboard towards the window's bottom: the toolbar that sticks
  // there must not hide it.
  useEffect(() => {
    if (passage) keepAboveCard(selectionBox(), toolbarRef.current);
  }, [passage]);

  const save = (note: string) => {
    if (!passage) return;
    create.mutate(
      { page, start: passage.start, end: passage.end, quote: passage.quote, note },
      {
        onSuccess: () => {
          setSaid(note ? 'Highlighted, with your note.' : 'Highlighted.');
          setPassage(null);
          setWithNote(false);
          document.getSelection()?.removeAllRanges();
          pageRef.current?.focus();
        },
        onError: (error) =>
          setFailure({
            passage,
            message: failureText(error, 'The highlight could not be saved. Try again.'),
          }),
      },
    );
  };

  const tooLong = passage !== null && passage.quote.length > HIGHLIGHT_QUOTE_MAX;

  return (
    <div className={styles.annotated}>
      <div
        ref={pageRef}
        className={styles.pageText}
        // Reachable by Tab so that the keyboard can select in the text (Shift and the arrows),
        // and where the focus comes back after highlighting.
        tabIndex={0}
        aria-describedby={`${id}-how`}
        onKeyDown={(event) => {
          if (event.metaKey) return;
          const root = pageRef.current;
          if (!root) return;
          const byWord = event.ctrlKey || event.altKey;
          const acted = event.shiftKey
            ? extendSelectionByKey(root, event.key, byWord)
            : // Without Shift, Ctrl and the arrows pick the word to start from.
              byWord && pickWordByKey(root, event.key);
          if (acted) {
            event.preventDefault();
            // Not also a page turn in the viewer around it.
            event.stopPropagation();
          }
        }}
      >
        <PageText
          text={text}
          highlights={highlights}
          words={words}
          speaking={speaking}
          onHighlight={(highlightId) => {
            // A click that ends a drag selection is a selection, not a wish to open a note.
            if (!document.getSelection()?.isCollapsed) return;
            setOpenId(highlightId);
          }}
        />
      </div>
      <p id={`${id}-how`} className="visually-hidden">
        To highlight, pick the first word with Control and the arrow keys, extend the selection with
        Shift and the arrow keys, then press Tab.
      </p>
      <p role="status" className="visually-hidden">
        {said}
      </p>
      {passage ? (
        <div
          ref={toolbarRef}
          className={styles.toolbar}
          role="group"
          aria-labelledby={`${id}-selected`}
        >
          <p id={`${id}-selected`} className={styles.selected}>
            Selected: “{preview(passage.quote)}”
          </p>
          {tooLong ? (
            <p role="alert" className={styles.error}>
              A highlight is at most {HIGHLIGHT_QUOTE_MAX} characters: select a shorter passage.
            </p>
          ) : withNote ? (
            <NoteForm
              label="Note on this passage"
              submitLabel="Save highlight"
              pending={create.isPending}
              onSubmit={save}
              onCancel={() => setWithNote(false)}
            />
          ) : (
            <div className={styles.actions}>
              <Button
                onMouseDown={keepSelection}
                disabled={create.isPending}
                onClick={() => save('')}
              >
                Highlight
              </Button>
              <Button
                variant="outline"
                onMouseDown={keepSelection}
                disabled={create.isPending}
                onClick={() => setWithNote(true)}
              >
                Highlight with note
              </Button>
              <Button variant="ghost" onMouseDown={keepSelection} onClick={dismiss}>
                Cancel
              </Button>
            </div>
          )}
          {failure?.passage === passage ? (
            <p role="alert" className={styles.error}>
              {failure.message}
            </p>
          ) : null}
        </div>
      ) : null}
      {open ? (
        <section
          ref={openedRef}
          className={styles.opened}
          aria-labelledby={`${id}-open`}
          tabIndex={-1}
          onKeyDown={(event) => {
            if (event.key !== 'Escape' || event.defaultPrevented) return;
            setOpenId(null);
            pageRef.current?.focus();
          }}
        >
          <p id={`${id}-open`} className={styles.selected}>
            Your highlight: “{preview(open.quote)}”
          </p>
          <HighlightNote
            itemId={itemId}
            highlight={open}
            onDeleted={() => {
              setOpenId(null);
              setSaid('Highlight deleted.');
              pageRef.current?.focus();
            }}
          />
          <div className={styles.actions}>
            <Button
              variant="ghost"
              onClick={() => {
                setOpenId(null);
                pageRef.current?.focus();
              }}
            >
              Close
            </Button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
