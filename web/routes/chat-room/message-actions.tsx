import { EDIT_WINDOW_SECONDS, THREADS_TEXT, type ChatMessage } from '#contract/socket/chat.ts';
import styles from './threads.module.css';

/** True while `message` is this person's and still within the edit window (the server decides). */
export function mayChange(message: ChatMessage, userId: string, now = Date.now()): boolean {
  if (message.senderId !== userId || message.deleted || message.hidden || message.isSystemMessage)
    return false;
  return now - new Date(message.time).getTime() < EDIT_WINDOW_SECONDS * 1000;
}

/** Below a message's text: "edited" when its sender changed it (not once it is gone). */
export function EditedMark({ message }: { message: ChatMessage }) {
  if (!message.editedAt || message.deleted || message.hidden) return null;
  return (
    <p className={styles.edited} title={`Edited ${new Date(message.editedAt).toLocaleString()}`}>
      {THREADS_TEXT.edited}
    </p>
  );
}

/**
 * A message's own actions (decision 043), after its time: Reply, React (opens the picker under
 * the message), and Edit and Delete on one's own message while the window is open. Nothing on a
 * deleted, hidden or system message.
 */
export function MessageActions({
  message,
  userId,
  disabled,
  pickerOpen,
  pickerId,
  onReply,
  onTogglePicker,
  onEdit,
  onDelete,
}: {
  message: ChatMessage;
  userId: string;
  /** The room is restricted or closed, or the person is offline or removed. */
  disabled: boolean;
  pickerOpen: boolean;
  pickerId: string;
  onReply: () => void;
  onTogglePicker: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const gone = Boolean(message.deleted || message.hidden);
  const who = message.senderId === userId ? 'your message' : `the message from ${message.sender}`;
  return (
    <span className={styles.actions}>
      {!gone && !message.isSystemMessage && !disabled ? (
        <>
          <button
            type="button"
            className={styles.action}
            onClick={onReply}
            aria-label={`Reply to ${who}`}
          >
            Reply
          </button>
          <button
            type="button"
            className={styles.action}
            onClick={onTogglePicker}
            aria-expanded={pickerOpen}
            aria-controls={pickerOpen ? pickerId : undefined}
            aria-label={`React to ${who}`}
            data-react-for={message.id}
          >
            React
          </button>
          {mayChange(message, userId) ? (
            <>
              <button
                type="button"
                className={styles.action}
                onClick={onEdit}
                aria-label="Edit your message"
              >
                Edit
              </button>
              <button
                type="button"
                className={styles.action}
                onClick={onDelete}
                aria-label="Delete your message"
              >
                Delete
              </button>
            </>
          ) : null}
        </>
      ) : null}
    </span>
  );
}
