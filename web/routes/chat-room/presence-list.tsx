import { useEffect, useRef } from 'react';
import type { PresenceChanged } from '#contract/socket/chat.ts';
import styles from './presence.module.css';

/**
 * "3 here" in the room's header, opening the list of who is in the room now (decision 044). A
 * native disclosure (`details`), so it opens with Enter or Space and its state is announced; it
 * floats over the page, so Escape, a click elsewhere or the focus leaving it closes it again.
 */
export function PresenceList({ presence }: { presence: PresenceChanged | null }) {
  const details = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const close = (event: Event) => {
      const element = details.current;
      if (element?.open && !element.contains(event.target as Node)) element.open = false;
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('focusin', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('focusin', close);
    };
  }, []);
  if (!presence || presence.count === 0) return null;
  const more = presence.count - presence.names.length;
  return (
    <details
      ref={details}
      className={styles.presence}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !event.currentTarget.open) return;
        event.currentTarget.open = false;
        event.currentTarget.querySelector('summary')?.focus();
      }}
    >
      <summary className={styles.summary}>
        {presence.count} here<span className="visually-hidden">: show who</span>
      </summary>
      <div className={styles.popover}>
        <p className={styles.popoverTitle}>In this room now</p>
        <ul className={styles.names}>
          {presence.names.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
        {more > 0 ? <p className={styles.more}>and {more} more</p> : null}
      </div>
    </details>
  );
}
