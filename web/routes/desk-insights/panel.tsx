import { type ReactNode, useId, useState } from 'react';
import styles from './desk-insights.module.css';

/**
 * One insights panel: its heading, a chart, the same numbers as a table behind "Show as table"
 * (a real table, for the keyboard and screen readers) and its CSV download.
 */
export function InsightPanel({
  title,
  lead,
  csvHref,
  chart,
  table,
  empty,
  wide,
  children,
}: {
  title: string;
  lead?: ReactNode;
  csvHref: string;
  chart: ReactNode;
  table: ReactNode;
  /** Shown instead of chart and table when there is nothing to show. */
  empty?: string | null;
  /** Across both columns on a wide screen. */
  wide?: boolean;
  children?: ReactNode;
}) {
  const [showTable, setShowTable] = useState(false);
  const headingId = useId();
  const tableId = useId();
  return (
    <section
      className={wide ? `${styles.panel} ${styles.wide}` : styles.panel}
      aria-labelledby={headingId}
    >
      <div className={styles.panelHead}>
        <h2 id={headingId} className={styles.panelTitle}>
          {title}
        </h2>
        <a className={styles.csv} href={csvHref} download>
          Download CSV<span className="visually-hidden"> of {title.toLowerCase()}</span>
        </a>
      </div>
      {lead ? <p className={styles.lead}>{lead}</p> : null}
      {children}
      {empty ? (
        <p className={styles.empty}>{empty}</p>
      ) : (
        <>
          {chart}
          <button
            type="button"
            className={styles.toggle}
            aria-expanded={showTable}
            aria-controls={tableId}
            onClick={() => setShowTable((shown) => !shown)}
          >
            {showTable ? 'Hide table' : 'Show as table'}
            <span className="visually-hidden">: {title.toLowerCase()}</span>
          </button>
          {/* Focusable, so a wide table scrolls by keyboard too. */}
          <div
            id={tableId}
            hidden={!showTable}
            className={styles.tableWrap}
            role="region"
            aria-label={`${title}: table`}
            tabIndex={0}
          >
            {table}
          </div>
        </>
      )}
    </section>
  );
}
