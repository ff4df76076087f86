import {
  MODERATION_TEXT,
  THREADS_TEXT,
  type ChatMessage,
  type ReplyQuote as Quote,
} from '#contract/socket/chat.ts';
import { Button } from '../../components/ui/button.tsx';
import styles from './threads.module.css';

/** What a quote shows of its original: the excerpt, or why there is none. */
function quoteText(quote: Quote): string {
  if (quote.hidden) return MODERATION_TEXT.hidden;
  if (quote.deleted) return THREADS_TEXT.deleted;
  return quote.excerpt;
}

/**
 * The message a reply answers, above the reply's text (decision 043): a button that takes the
 * reader to the original (loading older history when it is not held) and highlights it.
 */
export function ReplyQuote({ quote, onJump }: { quote: Quote; onJump: (id: string) => void }) {
  const gone = Boolean(quote.hidden || quote.deleted);
  const text = quoteText(quote);
  return (
    <button
      type="button"
      className={styles.quote}
      onClick={() => onJump(quote.id)}
      aria-label={`Replying to ${quote.sender}: ${text}. Go to the original message`}
    >
      <span className={styles.quoteSender}>{quote.sender}</span>{' '}
      <span className={gone ? styles.quoteGone : undefined}>{text}</span>
    </button>
  );
}

/** Above the composer while a reply is being written: to whom, and a way out (or Escape). */
export function ReplyBanner({ message, onCancel }: { message: ChatMessage; onCancel: () => void }) {
  return (
    <div className={styles.banner} role="status">
      <p className={styles.bannerText}>
        Replying to <strong>{message.sender}</strong>: {message.content.slice(0, 140)}
      </p>
      <Button
        variant="ghost"
        onClick={onCancel}
        aria-label={`Cancel the reply to ${message.sender}`}
      >
        Cancel
      </Button>
    </div>
  );
}
