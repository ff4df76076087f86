import type { FormEvent, KeyboardEvent } from 'react';

/**
 * True for the Enter that sends a message box. Shift+Enter starts a new line instead, and an
 * input method's Enter (while composing) picks a character.
 */
export function isSendKey(event: KeyboardEvent<HTMLElement>): boolean {
  return event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing;
}

/**
 * A message box's two ways to send, both calling `submit`: the form's submit (the Send button)
 * and the send key in the box. Each stops the browser's own handling: a page load, a new line.
 * A hook by its name only: that tells React's lint that a `submit` using refs is read in the
 * handlers, not during the render that calls this.
 */
export function useSendHandlers(submit: () => void) {
  return {
    onSubmit: (event: FormEvent) => {
      event.preventDefault();
      submit();
    },
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      if (isSendKey(event)) {
        event.preventDefault();
        submit();
      }
    },
  };
}
