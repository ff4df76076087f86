import { useId, useState, type FormEvent } from 'react';
import {
  CHAT_TEXT,
  createRoomSchema,
  ROOM_DESCRIPTION_MAX,
  ROOM_NAME_MAX,
} from '#contract/socket/chat.ts';
import { chatRequest } from '../../api/chat-socket.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './discussion-forum.module.css';

/**
 * 'Create New Room': a name and an optional description. The server refuses a duplicate name
 * (ignoring case) and its sentence is shown here, with the typed values kept.
 */
export function CreateRoomForm({
  id,
  username,
  onCreated,
}: {
  id: string;
  username: string;
  onCreated: (roomName: string) => void;
}) {
  const fieldId = useId();
  const [roomName, setRoomName] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !roomName.trim()) {
      setError(CHAT_TEXT.needBoth);
      return;
    }
    const parsed = createRoomSchema.safeParse({ roomName, description, creator: username });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? CHAT_TEXT.needBoth);
      return;
    }
    setError('');
    setPending(true);
    const ack = await chatRequest('create_room', parsed.data);
    setPending(false);
    if (ack.ok) onCreated(parsed.data.roomName);
    else setError(ack.message);
  };

  return (
    <form id={id} className={styles.createForm} onSubmit={onSubmit} noValidate>
      <div className={formStyles.field}>
        <label htmlFor={`${fieldId}-name`} className={formStyles.label}>
          Room name
        </label>
        <input
          id={`${fieldId}-name`}
          className={formStyles.input}
          value={roomName}
          maxLength={ROOM_NAME_MAX}
          onChange={(event) => setRoomName(event.target.value)}
          autoComplete="off"
          autoFocus
        />
      </div>
      <div className={formStyles.field}>
        <label htmlFor={`${fieldId}-description`} className={formStyles.label}>
          Description <span className={formStyles.optional}>(optional)</span>
        </label>
        <textarea
          id={`${fieldId}-description`}
          className={`${formStyles.input} ${formStyles.textarea}`}
          value={description}
          maxLength={ROOM_DESCRIPTION_MAX}
          rows={3}
          onChange={(event) => setDescription(event.target.value)}
        />
      </div>
      <FormMessage>{error}</FormMessage>
      <div className={styles.actions}>
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create Room'}
        </Button>
      </div>
    </form>
  );
}
