import { useEffect, useId, useRef, useState } from 'react';
import { MESSAGE_MAX } from '#contract/socket/chat.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { useSendHandlers } from '../../components/forms/send-key.ts';
import { Button } from '../../components/ui/button.tsx';
import styles from './chat-room.module.css';

/**
 * The message box: Enter sends, Shift+Enter starts a new line. The box empties as a message
 * goes, and messages typed meanwhile follow it in order. `onSend` answers whether a message is
 * done with (sent, or dropped for good) or should come back to the box for another try, with the
 * sentence to show.
 */
export function MessageComposer({
  disabled,
  onSend,
  slowModeSeconds = 0,
}: {
  disabled: boolean;
  onSend: (text: string) => Promise<{ clear: boolean; error?: string }>;
  /** The room's slow mode (decision 040): after a message, the wait is shown and counted down. */
  slowModeSeconds?: number;
}) {
  const id = useId();
  const [wait, setWait] = useState(0);
  const waitUntil = useRef(0);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(
      () => setWait(Math.max(0, Math.ceil((waitUntil.current - Date.now()) / 1000))),
      1000,
    );
    return () => clearTimeout(timer);
  }, [wait]);
  const [draft, setDraftState] = useState('');
  const [error, setError] = useState('');
  // Read synchronously: a key press may come before the next render.
  const draftNow = useRef('');
  /** Messages the person sent that are not acknowledged yet, oldest first; the first is in flight. */
  const outbox = useRef<string[]>([]);

  const setDraft = (text: string) => {
    draftNow.current = text;
    setDraftState(text);
  };

  /** Sends the outbox one message at a time, in order. A refusal puts the unsent text back. */
  const drain = async () => {
    while (outbox.current.length > 0) {
      const text = outbox.current[0]!;
      const result = await onSend(text);
      setError(result.error ?? '');
      if (result.clear) {
        outbox.current.shift();
        if (slowModeSeconds > 0 && !result.error) {
          waitUntil.current = Date.now() + slowModeSeconds * 1000;
          setWait(slowModeSeconds);
        }
        continue;
      }
      // Nothing typed is lost: the refused message, any queued behind it and the new draft.
      const unsent = [...outbox.current, draftNow.current].filter((part) => part.trim());
      outbox.current = [];
      setDraft(unsent.join('\n'));
    }
  };

  const submit = () => {
    if (disabled) return;
    const text = draftNow.current;
    if (!text.trim()) {
      setError('Type a message first');
      return;
    }
    // The box empties at once, so the next message can be typed while this one is on its way.
    setDraft('');
    outbox.current.push(text);
    if (outbox.current.length === 1) void drain();
  };

  const { onSubmit, onKeyDown } = useSendHandlers(submit);

  return (
    <form className={styles.composer} onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-message`} className="visually-hidden">
        Message
      </label>
      <div className={formStyles.composerRow}>
        <textarea
          id={`${id}-message`}
          className={`${formStyles.composerInput} ${styles.input}`}
          rows={2}
          maxLength={MESSAGE_MAX}
          value={draft}
          disabled={disabled}
          aria-describedby={`${id}-hint`}
          placeholder="Type a message"
          onChange={(event) => {
            setDraft(event.target.value);
            if (error) setError('');
          }}
          onKeyDown={onKeyDown}
        />
        <Button type="submit" disabled={disabled}>
          Send
        </Button>
      </div>
      <p id={`${id}-hint`} className={styles.hint}>
        Enter sends, Shift+Enter starts a new line. At most {MESSAGE_MAX} characters.
        {slowModeSeconds > 0 ? ` Slow mode: one message every ${slowModeSeconds} seconds.` : ''}
      </p>
      {wait > 0 ? (
        <p className={styles.hint} role="status">
          You can send again in {wait} s.
        </p>
      ) : null}
      <FormMessage>{error}</FormMessage>
    </form>
  );
}
