import type { ChatConnection } from '../../api/chat-socket.ts';
import styles from './chat.module.css';

/** Says 'Reconnecting…' while the live connection is down, or why the server refused it. */
export function ConnectionNotice({ connection }: { connection: ChatConnection }) {
  if (connection.status === 'refused') {
    return (
      <p role="alert" className={styles.refused}>
        {connection.message}
      </p>
    );
  }
  const text =
    connection.status === 'reconnecting'
      ? 'Reconnecting…'
      : connection.status === 'connecting'
        ? 'Connecting…'
        : '';
  // Always rendered, so screen readers hear the change when the connection drops.
  return (
    <p role="status" className={text ? styles.connection : styles.quiet}>
      {text}
    </p>
  );
}
