import { typingText, type TypingChanged } from '#contract/socket/chat.ts';
import styles from './presence.module.css';

/**
 * "Ada and 3 others are typing…" under the messages (decision 044). Not a live region: a screen
 * reader would otherwise hear it every second in a busy room; the line keeps its height, so the
 * composer does not jump as it comes and goes.
 */
export function TypingIndicator({ typing }: { typing: TypingChanged | null }) {
  return <p className={styles.typing}>{typing ? typingText(typing) : ''}</p>;
}
