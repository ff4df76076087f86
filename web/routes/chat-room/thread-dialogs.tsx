import { useState } from 'react';
import {
  EDIT_WINDOW_SECONDS,
  MESSAGE_MAX,
  type Ack,
  type ChatMessage,
} from '#contract/socket/chat.ts';
import { FieldFrame, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import styles from './threads.module.css';

/**
 * Editing one's own message (decision 043): its text in a box, saved with the same checks as a
 * send. Escape or Cancel leaves it as it was. Mounted for one message at a time.
 */
export function EditDialog({
  message,
  onSave,
  onClose,
}: {
  message: ChatMessage;
  onSave: (text: string) => Promise<Ack>;
  onClose: () => void;
}) {
  const [text, setText] = useState(message.content);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (text.trim() === '') {
      setError('Type a message first');
      return;
    }
    setSaving(true);
    const ack = await onSave(text);
    setSaving(false);
    if (ack.ok) onClose();
    else setError(ack.message);
  };
  return (
    <Dialog
      open
      title="Edit your message"
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void save()} disabled={saving}>
            {saving ? 'Saving…' : 'Save'}
          </Button>
        </>
      }
    >
      <FieldFrame
        label="Your message"
        hint={`Within ${EDIT_WINDOW_SECONDS / 60} minutes of sending it; it is marked edited.`}
      >
        {(control) => (
          <textarea
            {...control}
            data-autofocus
            className={`${formStyles.input} ${formStyles.textarea} ${styles.textarea}`}
            rows={4}
            maxLength={MESSAGE_MAX}
            value={text}
            onChange={(event) => setText(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void save();
              }
            }}
          />
        )}
      </FieldFrame>
      {error ? <p role="alert">{error}</p> : null}
    </Dialog>
  );
}

/** Asks before deleting one's own message: everyone then reads "message deleted". */
export function DeleteDialog({
  message,
  onDelete,
  onClose,
}: {
  message: ChatMessage;
  onDelete: () => Promise<Ack>;
  onClose: () => void;
}) {
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    setDeleting(true);
    const ack = await onDelete();
    setDeleting(false);
    if (ack.ok) onClose();
    else setError(ack.message);
  };
  return (
    <Dialog
      open
      title="Delete your message"
      onClose={onClose}
      actions={
        <>
          <Button variant="outline" onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void remove()} disabled={deleting}>
            {deleting ? 'Deleting…' : 'Delete'}
          </Button>
        </>
      }
    >
      <p>Delete “{message.content.slice(0, 140)}” for everyone in the room?</p>
      <p>Everyone will read “message deleted” in its place. This cannot be undone.</p>
      {error ? <p role="alert">{error}</p> : null}
    </Dialog>
  );
}
