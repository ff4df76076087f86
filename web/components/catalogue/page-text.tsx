import { Fragment, type KeyboardEvent, type ReactNode, useId } from 'react';
import { inlineRuns, pageSegments, parsePageText, type PageSegment } from '#contract/page-text.ts';
import styles from './page-text.module.css';

export { parsePageText, type Block } from '#contract/page-text.ts';

/** A passage of the page to mark: offsets into the page's plain text (`pagePlainText`). */
export interface PageHighlight {
  id: string;
  start: number;
  end: number;
  note?: string;
}

/** A range of the page's plain text, such as the sentence being read aloud. */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * A line's text with `**bold**` as `<strong>` and `*italics*` / `_italics_` as `<em>`; nothing
 * is ever parsed as HTML (the runs come from `contract/page-text.ts`).
 */
export function InlineText({ text }: { text: string }) {
  return <>{inlineRuns(text).map((run, index) => emphasis(run, run.text, index))}</>;
}

function emphasis(run: { bold?: true; italic?: true }, text: string, key: number | string) {
  if (run.bold) return <strong key={key}>{text}</strong>;
  if (run.italic) return <em key={key}>{text}</em>;
  return <Fragment key={key}>{text}</Fragment>;
}

/** What marks the page carries, checked once per render. */
interface Marks {
  highlights: readonly PageHighlight[];
  words: RegExp | null;
  speaking: TextRange | null;
  noteIds: Map<string, string>;
  onHighlight?: (id: string) => void;
  /** Highlights already given their one keyboard stop. */
  focusable: Set<string>;
}

/** Whole words, any case; `null` when there are none to find. */
function wordPattern(words: readonly string[] | undefined): RegExp | null {
  const wanted = (words ?? []).map((word) => word.trim()).filter((word) => word !== '');
  if (wanted.length === 0) return null;
  const escaped = wanted
    .sort((a, b) => b.length - a.length)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${escaped.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

/** Sorted, distinct cut points inside `[from, to]`. */
function cuts(from: number, to: number, points: Iterable<number>): number[] {
  const inside = new Set([from, to]);
  for (const point of points) if (point > from && point < to) inside.add(point);
  return [...inside].sort((a, b) => a - b);
}

const covers = (range: TextRange, from: number, to: number) =>
  range.start <= from && range.end >= to && range.end > range.start;

/**
 * One line's text between `from` and `to` (plain-text offsets, inside one highlight or none),
 * cut where emphasis, a search word or the spoken sentence starts or ends.
 */
function pieces(segment: PageSegment, from: number, to: number, marks: Marks): ReactNode[] {
  const runs: { start: number; end: number; bold?: true; italic?: true }[] = [];
  let at = segment.start;
  for (const run of inlineRuns(segment.source)) {
    runs.push({ ...run, start: at, end: at + run.text.length });
    at += run.text.length;
  }
  const found: TextRange[] = [];
  if (marks.words) {
    for (const match of segment.text.matchAll(marks.words)) {
      const start = segment.start + match.index;
      found.push({ start, end: start + match[0].length });
    }
  }
  const points = [
    ...runs.flatMap((run) => [run.start, run.end]),
    ...found.flatMap((range) => [range.start, range.end]),
    ...(marks.speaking ? [marks.speaking.start, marks.speaking.end] : []),
  ];
  const bounds = cuts(from, to, points);
  const out: ReactNode[] = [];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const start = bounds[index]!;
    const end = bounds[index + 1]!;
    const run = runs.find((candidate) => candidate.start <= start && candidate.end >= end) ?? {};
    const text = segment.text.slice(start - segment.start, end - segment.start);
    let node: ReactNode = emphasis(run, text, 'text');
    if (found.some((range) => covers(range, start, end)))
      node = (
        <mark key="word" className={styles.word}>
          {node}
        </mark>
      );
    if (marks.speaking && covers(marks.speaking, start, end))
      node = (
        <span key="spoken" className={styles.spoken}>
          {node}
        </span>
      );
    out.push(<Fragment key={start}>{node}</Fragment>);
  }
  return out;
}

/**
 * A line as elements: its highlights as `<mark>`, each holding the finer pieces. A plain
 * function, called in order within one render, so each highlight's first piece is known.
 */
function lineContent(segment: PageSegment, marks: Marks): ReactNode {
  const from = segment.start;
  const to = segment.start + segment.text.length;
  const bounds = cuts(
    from,
    to,
    marks.highlights.flatMap((highlight) => [highlight.start, highlight.end]),
  );
  // Neighbouring intervals under the same highlight become one mark.
  const groups: { start: number; end: number; highlight?: PageHighlight }[] = [];
  for (let index = 0; index + 1 < bounds.length; index++) {
    const start = bounds[index]!;
    const end = bounds[index + 1]!;
    const highlight = marks.highlights.find((candidate) => covers(candidate, start, end));
    const last = groups.at(-1);
    if (last && last.highlight === highlight) last.end = end;
    else groups.push({ start, end, highlight });
  }
  return (
    <>
      {groups.map(({ start, end, highlight }) => {
        const content = pieces(segment, start, end, marks);
        if (!highlight) return <Fragment key={start}>{content}</Fragment>;
        const noteId = marks.noteIds.get(highlight.id);
        const activate = marks.onHighlight;
        // One keyboard stop per highlight, on its first piece.
        const first = activate !== undefined && !marks.focusable.has(highlight.id);
        if (first) marks.focusable.add(highlight.id);
        return (
          <mark
            key={start}
            className={noteId ? `${styles.highlight} ${styles.withNote}` : styles.highlight}
            data-highlight={highlight.id}
            aria-describedby={noteId}
            role={first ? 'button' : undefined}
            tabIndex={first ? 0 : undefined}
            onClick={activate ? () => activate(highlight.id) : undefined}
            onKeyDown={
              first
                ? (event: KeyboardEvent) => {
                    if (event.key !== 'Enter' && event.key !== ' ') return;
                    event.preventDefault();
                    activate?.(highlight.id);
                  }
                : undefined
            }
          >
            {content}
          </mark>
        );
      })}
    </>
  );
}

/**
 * One page of a held text rendered as elements. Page headings start at h3, below the screen's
 * own h1 and the book's h2, so the document outline stays right. Every line carries
 * `data-offset`, where its text starts in the page's plain text, so that a selection can be
 * mapped back to offsets (`web/components/reading/selection.ts`). Highlights, search words and
 * the sentence read aloud are marked by offsets; nothing from the text is ever markup.
 */
export function PageText({
  text,
  highlights = [],
  words,
  speaking = null,
  onHighlight,
}: {
  text: string;
  /** The reader's highlights on this page; one with a note is marked so. */
  highlights?: readonly PageHighlight[];
  /** Search-inside words to mark: whole words, any case. */
  words?: readonly string[];
  /** The sentence being read aloud. */
  speaking?: TextRange | null;
  /** Makes highlights clickable (and reachable by Tab): called with the highlight's id. */
  onHighlight?: (id: string) => void;
}) {
  const id = useId();
  const withNotes = highlights.filter((highlight) => (highlight.note ?? '').trim() !== '');
  const marks: Marks = {
    highlights,
    words: wordPattern(words),
    speaking,
    noteIds: new Map(withNotes.map((highlight, index) => [highlight.id, `${id}-note-${index}`])),
    onHighlight,
    focusable: new Set(),
  };
  const segments = pageSegments(text);
  const line = (block: number, item: number) =>
    segments.find((segment) => segment.block === block && segment.item === item)!;

  return (
    <>
      {parsePageText(text).map((block, index) => {
        if (block.kind === 'heading') {
          const Tag = (['h3', 'h4', 'h5'] as const)[block.level - 1]!;
          const segment = line(index, 0);
          return (
            <Tag key={index} data-offset={segment.start}>
              {lineContent(segment, marks)}
            </Tag>
          );
        }
        if (block.kind === 'paragraph') {
          const segment = line(index, 0);
          return (
            <p key={index} data-offset={segment.start}>
              {lineContent(segment, marks)}
            </p>
          );
        }
        const List = block.kind === 'ordered' ? 'ol' : 'ul';
        return (
          <List key={index}>
            {block.items.map((_, itemIndex) => {
              const segment = line(index, itemIndex);
              return (
                <li key={itemIndex} data-offset={segment.start}>
                  {lineContent(segment, marks)}
                </li>
              );
            })}
          </List>
        );
      })}
      {withNotes.length > 0 ? (
        // Read as each marked passage's description; hidden from view and from selection.
        <div hidden>
          {withNotes.map((highlight, index) => (
            <span key={highlight.id} id={`${id}-note-${index}`}>
              Highlighted, with your note: {highlight.note}
            </span>
          ))}
        </div>
      ) : null}
    </>
  );
}
