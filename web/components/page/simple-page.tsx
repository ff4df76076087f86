import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './page.module.css';

/** A plain content screen: eyebrow, title, lead text, free content and actions. */
export function SimplePage({
  eyebrow,
  title,
  lead,
  children,
  actions,
}: {
  eyebrow?: string;
  title: string;
  lead?: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <div className={`container ${styles.page}`}>
      <div className={styles.narrow}>
        {eyebrow ? <span className={styles.eyebrow}>{eyebrow}</span> : null}
        <h1 className={styles.title}>{title}</h1>
        {lead ? <p className={styles.lead}>{lead}</p> : null}
        {children}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
    </div>
  );
}

/** Class names for content inside a `SimplePage`. */
export const pageStyles = styles;
