import { useEffect, useId, useRef, useState } from 'react';
import { MESSAGE_MAX, type RoomMember } from '#contract/socket/chat.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { useSendHandlers } from '../../components/forms/send-key.ts';
import { Button } from '../../components/ui/button.tsx';
import { useMentionAutocomplete } from './mention-autocomplete.tsx';
import styles from './chat-room.module.css';
import presenceStyles from './presence.module.css';

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
  mentions,
  onDraftChange,
  disabledReason,
}: {
  /** Told every change of the box (typed, sent, cleared): the typing indicator (decision 044). */
  onDraftChange?: (text: string) => void;
  /** Why the box is disabled, shown under it (a mute, with its reason and end: decision 044). */
  disabledReason?: string;
  /** `@name` completion from the room's members (decision 042); none without it. */
  mentions?: { members: readonly RoomMember[] | null; onNeed: () => void; selfId: string };
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
    onDraftChange?.(text);
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
  const {
    ref: mentionRef,
    inputProps: mentionProps,
    onKeyDown: mentionKeyDown,
    onInput: mentionInput,
    list: mentionList,
  } = useMentionAutocomplete({
    value: draft,
    onChange: setDraft,
    members: mentions?.members ?? null,
    onNeed: mentions?.onNeed ?? noop,
    selfId: mentions?.selfId ?? '',
  });

  return (
    <form className={styles.composer} onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-message`} className="visually-hidden">
        Message
      </label>
      {mentionList}
      <div className={formStyles.composerRow}>
        <textarea
          ref={mentionRef}
          {...(mentions ? mentionProps : {})}
          id={`${id}-message`}
          className={`${formStyles.composerInput} ${styles.input}`}
          rows={2}
          maxLength={MESSAGE_MAX}
          value={draft}
          disabled={disabled}
          aria-describedby={disabledReason ? `${id}-hint ${id}-disabled` : `${id}-hint`}
          placeholder="Type a message"
          onChange={(event) => {
            setDraft(event.target.value);
            mentionInput();
            if (error) setError('');
          }}
          onKeyDown={(event) => {
            // The @ list, while open, takes its keys (Enter picks a name rather than sending).
            if (!mentionKeyDown(event)) onKeyDown(event);
          }}
        />
        <Button type="submit" disabled={disabled}>
          Send
        </Button>
      </div>
      <p id={`${id}-hint`} className={styles.hint}>
        Enter sends, Shift+Enter starts a new line. At most {MESSAGE_MAX} characters.
        {mentions ? ' Type @ to mention someone in the room.' : ''}
        {slowModeSeconds > 0 ? ` Slow mode: one message every ${slowModeSeconds} seconds.` : ''}
      </p>
      {disabledReason ? (
        // Not live: the banner above announces the mute; this says why the box is disabled.
        <p id={`${id}-disabled`} className={presenceStyles.muted}>
          {disabledReason}
        </p>
      ) : null}
      {wait > 0 ? (
        <p className={styles.hint} role="status">
          You can send again in {wait} s.
        </p>
      ) : null}
      <FormMessage>{error}</FormMessage>
    </form>
  );
}

const noop = () => {};
