import { type PointerEvent, useEffect, useRef } from 'react';

/** How far (CSS pixels) a finger must travel sideways for a swipe to turn the page. */
export const SWIPE_MIN_DISTANCE = 60;

/**
 * Whether a key press belongs to what has the focus rather than to the page: typing in a field,
 * choosing in a list or a group of radio buttons (their own arrow keys), or an open modal drawer.
 */
export function keyBelongsToFocus(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !==
      null || target.closest('dialog[open]') !== null
  );
}

/** Some text is selected: a drag over the page is a selection, never a swipe. */
function selectingText(): boolean {
  const selection = window.getSelection();
  return selection !== null && !selection.isCollapsed && selection.toString().trim() !== '';
}

/** ← and → anywhere on the screen turn pages, except while the focus is in a field or a drawer. */
export function usePageKeys(onTurn: (step: -1 | 1) => void, enabled: boolean): void {
  const turn = useRef(onTurn);
  useEffect(() => {
    turn.current = onTurn;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.shiftKey || keyBelongsToFocus(event.target)) return;
      if (event.key === 'ArrowLeft') turn.current(-1);
      else if (event.key === 'ArrowRight') turn.current(1);
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [enabled]);
}

/**
 * Pointer handlers for the page: a finger moved sideways by at least {@link SWIPE_MIN_DISTANCE},
 * mostly sideways, turns the page (left: next, right: previous). A mouse never swipes, and neither
 * does a finger selecting text. The element needs `touch-action: pan-y` to receive the move.
 */
export function useSwipe(onTurn: (step: -1 | 1) => void) {
  const start = useRef<{ id: number; x: number; y: number } | null>(null);
  return {
    onPointerDown: (event: PointerEvent) => {
      start.current =
        event.pointerType === 'touch'
          ? { id: event.pointerId, x: event.clientX, y: event.clientY }
          : null;
    },
    onPointerUp: (event: PointerEvent) => {
      const from = start.current;
      start.current = null;
      if (!from || from.id !== event.pointerId || selectingText()) return;
      const dx = event.clientX - from.x;
      const dy = event.clientY - from.y;
      if (Math.abs(dx) < SWIPE_MIN_DISTANCE || Math.abs(dx) < 2 * Math.abs(dy)) return;
      onTurn(dx < 0 ? 1 : -1);
    },
    onPointerCancel: () => {
      start.current = null;
    },
  };
}
