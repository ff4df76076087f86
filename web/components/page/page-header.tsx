import type { ReactNode } from 'react';
import styles from './page.module.css';

/**
 * A screen's header: an optional eyebrow, the title as the screen's one `h1`, an optional lead
 * and an optional row of actions. `prominent` sets a larger lead, for a screen whose header is
 * its main message (a welcome, a notice).
 */
export function PageHeader({
  title,
  id,
  eyebrow,
  lead,
  actions,
  prominent = false,
}: {
  title: ReactNode;
  /** The heading's id, for a section that is labelled by it. */
  id?: string;
  eyebrow?: string;
  lead?: ReactNode;
  actions?: ReactNode;
  prominent?: boolean;
}) {
  return (
    <>
      {eyebrow ? <span className={styles.eyebrow}>{eyebrow}</span> : null}
      <h1 id={id} className={styles.title}>
        {title}
      </h1>
      {lead ? (
        <p className={prominent ? `${styles.lead} ${styles.prominent}` : styles.lead}>{lead}</p>
      ) : null}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </>
  );
}

/** The page frame's class names: `screen` pads a working screen that starts with a `PageHeader`. */
export const pageStyles = styles;
