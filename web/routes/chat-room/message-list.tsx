import { Fragment, useLayoutEffect, useRef, type ReactNode } from 'react';
import { CHAT_TEXT, type ChatMessage } from '#contract/socket/chat.ts';
import { compareMessageIds } from '../../api/chat-room.ts';
import { Button } from '../../components/ui/button.tsx';
import attention from './attention.module.css';
import { MessageItemCards } from './item-card.tsx';
import { MentionText, mentionsUser } from './mention-text.tsx';
import { firstUnreadId, NewMessagesDivider } from './new-messages-divider.tsx';
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

/**
 * What replies, reactions, edits and deletions (decision 043) add to each message: actions after
 * its time, the quote of what it replies to above its text, and its reactions below.
 */
export interface ThreadSlots {
  actions: (message: ChatMessage) => ReactNode;
  quote: (message: ChatMessage) => ReactNode;
  reactions: (message: ChatMessage) => ReactNode;
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
  threads,
  lastReadId = null,
  focusId,
  onReadTo,
  seeking = false,
}: {
  /** Older pages are still loading to reach where the room opens: wait before placing it. */
  seeking?: boolean;
  /** Where this person had read to before this visit (decision 042): "New messages" follows. */
  lastReadId?: string | null;
  /** A message to open the room at (a notice's link), instead of the first unread. */
  focusId?: string;
  /** Called with the latest message id while the reader is at the bottom: it has been read. */
  onReadTo?: (messageId: string) => void;
  /** Opens the report dialog for a message of someone else's (decision 040). */
  onReport?: (message: ChatMessage) => void;
  /** Replies, reactions, edits and deletions (decision 043). */
  threads?: ThreadSlots;
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
  /** The room was opened at its place (or there was none): done once per visit. */
  const anchored = useRef(false);
  const dividerId = firstUnreadId(messages, lastReadId, userId, compareMessageIds);
  const unreadCount = dividerId
    ? messages.filter(
        (message) => compareMessageIds(message.id, dividerId) >= 0 && message.senderId !== userId,
      ).length
    : 0;

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const first = messages[0]?.id ?? '';
    const last = messages.at(-1)?.id ?? '';
    const before = previous.current;
    // The first messages of the visit: open at the linked message, else at "New messages"
    // (decision 042), else at the bottom as before.
    let anchor: HTMLElement | null = null;
    if (!anchored.current && last !== '' && !seeking) {
      anchored.current = true;
      anchor =
        (focusId &&
          element.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(focusId)}"]`)) ||
        (dividerId ? element.querySelector<HTMLElement>('[data-new-messages]') : null);
    }
    if (anchor) {
      element.scrollTop +=
        anchor.getBoundingClientRect().top - element.getBoundingClientRect().top - 8;
      following.current =
        element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
    } else if (first !== before.first && last === before.last && before.height > 0) {
      // An older page went in above: keep the reader on the message they were reading.
      element.scrollTop += element.scrollHeight - before.height;
    } else if (
      last !== before.last &&
      (following.current || messages.at(-1)?.senderId === userId)
    ) {
      element.scrollTop = element.scrollHeight;
    }
    previous.current = { first, last, height: element.scrollHeight };
    if (following.current && last && onReadTo) onReadTo(last);
    // Only the messages decide: the anchor is looked for once, when the first ones arrive.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [messages, userId, seeking]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    following.current =
      element.scrollHeight - element.scrollTop - element.clientHeight < FOLLOW_SLACK_PX;
    if (element.scrollTop < LOAD_SLACK_PX && hasMore) onLoadOlder();
    const last = messages.at(-1)?.id;
    if (following.current && last && onReadTo) onReadTo(last);
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
            const forMe = mentionsUser(message.mentions, userId);
            return (
              <Fragment key={message.id}>
                {message.id === dividerId ? <NewMessagesDivider /> : null}
                <li
                  className={forMe ? `${styles.message} ${attention.mentionsMe}` : styles.message}
                  data-mine={mine}
                  data-system={message.isSystemMessage}
                  data-message-id={message.id}
                  data-mentions-me={forMe || undefined}
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
                    {threads?.actions(message)}
                  </div>
                  {threads?.quote(message)}
                  <p
                    className={
                      message.hidden || message.deleted
                        ? `${styles.content} ${styles.hidden}`
                        : styles.content
                    }
                  >
                    {message.mentions && !message.hidden ? (
                      <MentionText
                        content={message.content}
                        mentions={message.mentions}
                        userId={userId}
                      />
                    ) : (
                      message.content
                    )}
                  </p>
                  {message.hidden || message.deleted || message.isSystemMessage ? null : (
                    <MessageItemCards content={message.content} />
                  )}
                  {threads?.reactions(message)}
                </li>
              </Fragment>
            );
          })}
        </ol>
      )}
      {/* Said once the room opens (decision 042); the region exists before, so it is read out. */}
      <p className="visually-hidden" role="status">
        {loaded && unreadCount > 0
          ? `${unreadCount} new ${unreadCount === 1 ? 'message' : 'messages'} since you last read this room.`
          : ''}
      </p>
    </div>
  );
}
