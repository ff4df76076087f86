import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MESSAGE_MAX } from '../../../contract/socket/chat.ts';
import { FormMessage } from '../../components/forms/fields.tsx';
import { isSendKey } from '../../components/forms/send-key.ts';
import { Button } from '../../components/ui/button.tsx';
import styles from './chat-room.module.css';

/**
 * The message box: Enter sends, Shift+Enter starts a new line. `onSend` answers whether the
 * draft is done with (sent, or refused for good) or should stay for another try, with the
 * sentence to show.
 */
export function MessageComposer({
  disabled,
  onSend,
}: {
  disabled: boolean;
  onSend: (text: string) => Promise<{ clear: boolean; error?: string }>;
}) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);

  const submit = async () => {
    if (disabled || sending) return;
    if (!draft.trim()) {
      setError('Type a message first');
      return;
    }
    setSending(true);
    const result = await onSend(draft);
    setSending(false);
    setError(result.error ?? '');
    if (result.clear) setDraft('');
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (isSendKey(event)) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <form className={styles.composer} onSubmit={onSubmit} noValidate>
      <label htmlFor={`${id}-message`} className="visually-hidden">
        Message
      </label>
      <div className={styles.composerRow}>
        <textarea
          id={`${id}-message`}
          className={styles.input}
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
        <Button type="submit" disabled={disabled || sending}>
          Send
        </Button>
      </div>
      <p id={`${id}-hint`} className={styles.hint}>
        Enter sends, Shift+Enter starts a new line. At most {MESSAGE_MAX} characters.
      </p>
      <FormMessage>{error}</FormMessage>
    </form>
  );
}
