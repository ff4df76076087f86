import type { ReactNode } from 'react';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { PageHeader } from './page-header.tsx';
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
        <PageHeader eyebrow={eyebrow} title={title} lead={lead} prominent />
        {children}
        {actions ? <div className={styles.actions}>{actions}</div> : null}
      </div>
    </div>
  );
}
