import { useLayoutEffect, useRef } from 'react';
import { CHAT_TEXT, type ChatMessage } from '#contract/socket/chat.ts';
import { Button } from '../../components/ui/button.tsx';
import styles from './chat-room.module.css';

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const dayTimeFormat = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** `3:04 PM` for a message of today, `Mar 5, 3:04 PM` for an older one. */
export function formatMessageTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toDateString() === now.toDateString()
    ? timeFormat.format(date)
    : dayTimeFormat.format(date);
}

/** Within this many pixels of the bottom, the list follows new messages. */
const FOLLOW_SLACK_PX = 80;
/** Within this many pixels of the top, scrolling asks for older messages. */
const LOAD_SLACK_PX = 40;

/**
 * The room's messages, oldest first, in a focusable scrolling region. Scrolling to the top (or
 * the 'Load older messages' button, for keyboard users) fetches older ones without moving what
 * the reader is looking at; new messages are followed while the reader is at the bottom.
 * Message text is rendered as text, never as HTML. A librarian's messages carry a 'Staff' badge.
 */
export function MessageList({
  messages,
  userId,
  loaded,
  hasMore,
  loadingOlder,
  onLoadOlder,
  onReport,
}: {
  /** Opens the report dialog for a message of someone else's (decision 040). */
  onReport?: (message: ChatMessage) => void;
  messages: readonly ChatMessage[];
  userId: string;
  loaded: boolean;
  hasMore: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const previous = useRef({ first: '', last: '', height: 0 });

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const first = messages[0]?.id ?? '';
    const last = messages.at(-1)?.id ?? '';
    const before = previous.current;
    if (first !== before.first && last === before.last && before.height > 0) {
      // An older page went in above: keep the reader on the message they were reading.
      element.scrollTop += element.scrollHeight - before.height;
    } else if (
      last !== before.last &&
      (following.current || messages.at(-1)?.senderId === userId)
    ) {
      element.scrollTop = element.scrollHeight;
    }
    previous.current = { first, last, height: element.scrollHeight };
  }, [messages, userId]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    following.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
    if (element.scrollTop < LOAD_SLACK_PX && hasMore) onLoadOlder();
  };

  return (
    <div
      ref={scroller}
      className={styles.messages}
      role="region"
      aria-label="Messages"
      // Focusable so keyboard users can scroll the conversation.
      tabIndex={0}
      onScroll={onScroll}
    >
      {hasMore ? (
        <div className={styles.older}>
          <Button variant="ghost" onClick={onLoadOlder} disabled={loadingOlder}>
            {loadingOlder ? 'Loading older messages…' : 'Load older messages'}
          </Button>
        </div>
      ) : null}
      {!loaded ? (
        <p className={styles.empty}>Loading messages…</p>
      ) : messages.length === 0 ? (
        <p className={styles.empty}>{CHAT_TEXT.noMessages}</p>
      ) : (
        <ol className={styles.list}>
          {messages.map((message) => {
            const mine = message.senderId !== null && message.senderId === userId;
            return (
              <li
                key={message.id}
                className={styles.message}
                data-mine={mine}
                data-system={message.isSystemMessage}
              >
                <div className={styles.messageHead}>
                  <span className={styles.sender}>{mine ? 'You' : message.sender}</span>
                  {message.isStaff ? (
                    // In words, not colour alone: the server set it from the sender's role.
                    <span className={styles.badge} title="A member of the library staff">
                      Staff
                    </span>
                  ) : null}
                  <time className={styles.time} dateTime={message.time}>
                    {formatMessageTime(message.time)}
                  </time>
                  {onReport && !mine && !message.isSystemMessage && !message.hidden ? (
                    <button
                      type="button"
                      className={styles.report}
                      onClick={() => onReport(message)}
                      aria-label={`Report the message from ${message.sender}`}
                    >
                      Report
                    </button>
                  ) : null}
                </div>
                <p
                  className={message.hidden ? `${styles.content} ${styles.hidden}` : styles.content}
                >
                  {message.content}
                </p>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
