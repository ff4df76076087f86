import { useEffect, useState } from 'react';
import type { ChatConnection } from '../../api/chat-socket.ts';
import styles from './chat.module.css';

/**
 * How long a first connection may take before 'Connecting…' shows. Most connect within a few
 * hundred milliseconds; a notice that appears and goes at once moved what was below it (the
 * username form's Continue button) under the pointer of someone about to click it.
 */
export const CONNECTING_NOTICE_DELAY_MS = 1_500;

/**
 * Says 'Reconnecting…' while the live connection is down, 'Connecting…' when a first connection
 * is slow, or why the server refused it.
 */
export function ConnectionNotice({ connection }: { connection: ChatConnection }) {
  const connecting = connection.status === 'connecting';
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!connecting) return;
    const timer = setTimeout(() => setSlow(true), CONNECTING_NOTICE_DELAY_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [connecting]);

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
      : connecting && slow
        ? 'Connecting…'
        : '';
  // Always rendered, so screen readers hear the change when the connection drops.
  return (
    <p role="status" className={text ? styles.connection : styles.quiet}>
      {text}
    </p>
  );
}
