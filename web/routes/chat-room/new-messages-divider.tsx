import styles from './attention.module.css';

/** The text of the line above the first unread message (decision 042). */
export const NEW_MESSAGES_TEXT = 'New messages';

/**
 * The "New messages" line above the first message that came since the person last read the room.
 * An item of the message list in words (a list may hold only items, so no separator role): a
 * screen reader moving through the list meets it where the new messages start.
 */
export function NewMessagesDivider() {
  return (
    <li className={styles.divider} data-new-messages="" tabIndex={-1}>
      <span>{NEW_MESSAGES_TEXT}</span>
    </li>
  );
}

/**
 * The first message after `lastReadId` that someone else sent, or undefined: where the line goes.
 * None on a first visit (null) or when everything since is the reader's own.
 */
export function firstUnreadId(
  messages: readonly { id: string; senderId: string | null }[],
  lastReadId: string | null,
  userId: string,
  compare: (a: string, b: string) => number,
): string | undefined {
  if (lastReadId === null) return undefined;
  return messages.find(
    (message) => compare(message.id, lastReadId) > 0 && message.senderId !== userId,
  )?.id;
}
