import type { KeyboardEvent } from 'react';

/**
 * True for the Enter that sends a message box. Shift+Enter starts a new line instead, and an
 * input method's Enter (while composing) picks a character.
 */
export function isSendKey(event: KeyboardEvent<HTMLElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}
