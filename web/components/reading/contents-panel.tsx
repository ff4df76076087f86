import { useEffect, useRef } from 'react';
import type { ContentsEntry } from '#contract/http/reading.ts';
import styles from './book-viewer.module.css';

/**
 * The chapter a page is in: the last chapter heading on that page or before it (none before the
 * first). Chapter headings are the book's top level (`#` lines, or `##` in a book without them),
 * so a section heading lower on the page does not stand for the chapter.
 */
export function currentChapter(
  entries: readonly ContentsEntry[],
  page: number,
): ContentsEntry | null {
  const top = Math.min(...entries.map((entry) => entry.level));
  let found: ContentsEntry | null = null;
  for (const entry of entries) {
    if (entry.page > page) break;
    if (entry.level === top) found = entry;
  }
  return found;
}

/**
 * The book's contents: its heading lines in page order, each a button that shows its page. The
 * chapter the reader is in is marked `aria-current`.
 */
export function ContentsPanel({
  entries,
  status,
  page,
  onJump,
}: {
  entries: readonly ContentsEntry[];
  status: 'pending' | 'error' | 'success';
  page: number;
  onJump: (page: number) => void;
}) {
  const list = useRef<HTMLOListElement>(null);
  // A long contents opens at the reader's chapter, not at its top.
  useEffect(() => {
    const entry = list.current?.querySelector<HTMLElement>('[aria-current]');
    const scroller = entry?.closest<HTMLElement>('[data-scroller]');
    if (!entry || !scroller) return;
    const offset = entry.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
    if (offset > scroller.clientHeight * 0.6)
      scroller.scrollTop += offset - scroller.clientHeight / 3;
  }, [status]);
  if (status === 'pending') return <p role="status">Loading…</p>;
  if (status === 'error') return <p role="alert">The contents could not be read.</p>;
  if (entries.length === 0)
    return <p className={styles.muted}>This book has no chapter headings to list.</p>;
  const current = currentChapter(entries, page);
  return (
    <nav aria-label="Chapters">
      <ol ref={list} className={styles.contents}>
        {entries.map((entry, index) => (
          <li key={index} data-level={entry.level}>
            <button
              type="button"
              className={styles.entry}
              aria-current={entry === current ? 'true' : undefined}
              // Read as "Chapter 5, page 11"; the visible words begin the name.
              aria-label={`${entry.title}, page ${entry.page}`}
              onClick={() => onJump(entry.page)}
            >
              <span>{entry.title}</span>
              <span className={styles.entryPage}>{entry.page}</span>
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
