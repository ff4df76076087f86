/**
 * From a selection in a rendered page (`PageText`) to a highlight's anchor: offsets into the
 * page's plain text (`pagePlainText` of `contract/page-text.ts`) and the passage between them,
 * as the server checks it. Each rendered line carries `data-offset`, where its text starts in
 * the plain text; inside a line, every text node is the page's own text.
 */

/** A passage of the page: `quote` is exactly `plainText.slice(start, end)`. */
export interface SelectedPassage {
  start: number;
  end: number;
  quote: string;
}

const LINE = '[data-offset]';

/** The rendered lines of the page, in reading order. */
function linesOf(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(LINE)];
}

const lineStart = (line: Element) => Number(line.getAttribute('data-offset'));

/** The line holding a DOM point, if the point is inside one under `root`. */
function lineAt(root: Element, node: Node): Element | null {
  const element = node instanceof Element ? node : node.parentElement;
  const line = element?.closest(LINE) ?? null;
  return line && root.contains(line) ? line : null;
}

/** Characters of `line`'s text before the DOM point `(node, offset)` inside it. */
function charactersBefore(line: Element, node: Node, offset: number): number {
  const range = line.ownerDocument.createRange();
  range.setStart(line, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

/**
 * The plain-text offset of a range's boundary. A boundary between lines (in a list, or in the
 * page's own box) counts as the start of the next line for a start, the end of the previous
 * line for an end.
 */
function offsetOf(root: Element, node: Node, offset: number, edge: 'start' | 'end'): number | null {
  const line = lineAt(root, node);
  if (line) return lineStart(line) + charactersBefore(line, node, offset);
  const point = root.ownerDocument.createRange();
  point.setStart(node, offset);
  const lines = linesOf(root);
  if (edge === 'start') {
    // The first line that begins after the point.
    const next = lines.find((candidate) => point.comparePoint(candidate, 0) > 0);
    return next ? lineStart(next) : null;
  }
  // The last line that ends before the point.
  const previous = lines
    .filter((candidate) => point.comparePoint(candidate, candidate.childNodes.length) < 0)
    .at(-1);
  return previous ? lineStart(previous) + (previous.textContent ?? '').length : null;
}

const isSpace = (char: string | undefined) => char !== undefined && /\s/.test(char);

/**
 * The passage a range covers in the page rendered under `root`, trimmed of spaces and line
 * breaks at both ends; `null` when it covers none of the page's text.
 */
export function passageOfRange(
  root: Element,
  range: Range,
  plainText: string,
): SelectedPassage | null {
  if (range.collapsed || !range.intersectsNode(root)) return null;
  // A range that starts or ends outside the page is cut at the page's edges.
  const inside = range.cloneRange();
  if (!root.contains(range.startContainer)) inside.setStart(root, 0);
  if (!root.contains(range.endContainer)) inside.setEnd(root, root.childNodes.length);
  let start = offsetOf(root, inside.startContainer, inside.startOffset, 'start');
  let end = offsetOf(root, inside.endContainer, inside.endOffset, 'end');
  if (start === null || end === null) return null;
  start = Math.max(0, Math.min(start, plainText.length));
  end = Math.max(0, Math.min(end, plainText.length));
  while (start < end && isSpace(plainText[start])) start++;
  while (end > start && isSpace(plainText[end - 1])) end--;
  if (end <= start) return null;
  return { start, end, quote: plainText.slice(start, end) };
}

/** The passage the browser's current selection covers in the page under `root`, if any. */
export function passageOfSelection(
  root: Element,
  selection: Selection | null,
  plainText: string,
): SelectedPassage | null {
  if (!selection || selection.rangeCount === 0 || selection.isCollapsed) return null;
  return passageOfRange(root, selection.getRangeAt(0), plainText);
}

/** `Selection.modify`: not in the standard, but in every engine the app supports. */
type ModifiableSelection = Selection & {
  modify?: (alter: 'move' | 'extend', direction: string, granularity: string) => void;
};

/**
 * The document's selection, when the engine can move it, with a starting point inside `root`: the
 * selection already there, or the page's first word.
 */
function modifiableSelectionIn(
  root: Element,
): (ModifiableSelection & Required<Pick<ModifiableSelection, 'modify'>>) | null {
  const selection = root.ownerDocument.getSelection() as ModifiableSelection | null;
  if (!selection || typeof selection.modify !== 'function') return null;
  const inside =
    selection.rangeCount > 0 &&
    selection.anchorNode !== null &&
    root.contains(selection.anchorNode);
  if (!inside) {
    const walker = root.ownerDocument.createTreeWalker(
      root.querySelector(LINE) ?? root,
      NodeFilter.SHOW_TEXT,
    );
    const first = walker.nextNode();
    if (!first) return null;
    selection.collapse(first, 0);
  }
  return selection as ModifiableSelection & Required<Pick<ModifiableSelection, 'modify'>>;
}

/**
 * Ctrl (or Alt) and an arrow pick where a keyboard selection starts: → the next word, ← the
 * previous one, ↓ and ↑ the first word of the next or previous line. The word is selected, so the
 * reader sees where they are (a caret in text that cannot be edited is not drawn), and Shift and
 * the arrows then extend from its start. True when it acted.
 */
export function pickWordByKey(root: Element, key: string): boolean {
  if (!['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'].includes(key)) return false;
  const selection = modifiableSelectionIn(root);
  if (!selection) return false;
  const forward = key === 'ArrowRight' || key === 'ArrowDown';
  if (!selection.isCollapsed) {
    if (forward) selection.collapseToEnd();
    else selection.collapseToStart();
  }
  if (key === 'ArrowDown' || key === 'ArrowUp') {
    selection.modify('move', forward ? 'forward' : 'backward', 'line');
    selection.modify('move', 'backward', 'lineboundary');
    selection.modify('extend', 'forward', 'word');
  } else {
    selection.modify('extend', forward ? 'forward' : 'backward', 'word');
  }
  // Always from the word's start to its end, so Shift and → then grow the selection.
  const { anchorNode, anchorOffset, focusNode, focusOffset } = selection;
  if (!forward && anchorNode && focusNode && key === 'ArrowLeft')
    selection.setBaseAndExtent(focusNode, focusOffset, anchorNode, anchorOffset);
  // The selection must stay in the page: outside it (past its last word), it is let go.
  if (selection.focusNode && !root.contains(selection.focusNode)) selection.collapseToStart();
  return true;
}

/** How each key moves the selection's end: direction and step. */
const KEY_MOVES: Record<string, [direction: string, granularity: string]> = {
  ArrowRight: ['forward', 'character'],
  ArrowLeft: ['backward', 'character'],
  ArrowDown: ['forward', 'line'],
  ArrowUp: ['backward', 'line'],
  Home: ['backward', 'lineboundary'],
  End: ['forward', 'lineboundary'],
};

/**
 * Shift and an arrow (Ctrl or Alt too: by word), Home or End extend the selection inside the
 * page, as in a text box, for readers without a mouse and without the browser's caret browsing.
 * With no selection in the page yet it starts at the page's first word. True when it acted (the
 * caller then prevents the key's default: scrolling, or turning the page).
 */
export function extendSelectionByKey(root: Element, key: string, byWord: boolean): boolean {
  const move = KEY_MOVES[key];
  const selection = modifiableSelectionIn(root);
  if (!move || !selection) return false;
  const [direction, step] = move;
  selection.modify('extend', direction, byWord && step === 'character' ? 'word' : step);
  return true;
}
