import { type ReactNode, useId, useMemo, useState } from 'react';
import {
  INSIGHTS_PERIODS,
  type InsightsPanel as PanelName,
  type InsightsPeriod,
  type InsightsResponse,
} from '#contract/http/insights.ts';
import { insightsCsvAddress, useInsights } from '../../api/insights.ts';
import styles from './desk-insights.module.css';
import { type DrawChart, InsightChart } from './insight-chart.tsx';

/** A period as the selectors name it. */
export function periodLabel(days: InsightsPeriod): string {
  return days === 365 ? 'Last 12 months' : `Last ${days} days`;
}

/** One column of an insights table: its heading and what each row shows in it. */
export interface InsightColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
}

/**
 * The numbers of a chart as a real table, for the keyboard and screen readers: the first column
 * heads its row.
 */
export function InsightTable<Row>({
  columns,
  rows,
  rowKey,
}: {
  columns: readonly InsightColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column, index) =>
              index === 0 ? (
                <th key={column.header} scope="row">
                  {column.cell(row)}
                </th>
              ) : (
                <td key={column.header}>{column.cell(row)}</td>
              ),
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What a panel shows of one period's insights. */
export interface PanelContent {
  lead?: ReactNode;
  /** Shown instead of the charts and the table when there is nothing to show. */
  empty?: string | null;
  charts: readonly { label: string; draw: DrawChart }[];
  table: ReactNode;
  /** Shown above the charts (the searches' "terms to act on"). */
  extra?: ReactNode;
}

/**
 * One insights panel: its heading, its own period (the page's until changed), its charts, the
 * same numbers as a table behind "Show as table" and its CSV download. `content` must be stable
 * (a module's function): the charts are drawn again only when the numbers change.
 */
export function InsightPanel({
  panel,
  title,
  pagePeriod,
  content,
  wide,
}: {
  panel: PanelName;
  title: string;
  pagePeriod: InsightsPeriod;
  content: (data: InsightsResponse, period: InsightsPeriod) => PanelContent;
  /** Across both columns on a wide screen. */
  wide?: boolean;
}) {
  const [ownPeriod, setOwnPeriod] = useState<InsightsPeriod | null>(null);
  const period = ownPeriod ?? pagePeriod;
  // The page asked for the same period already: the cache answers, nothing more is fetched.
  const { data, isError } = useInsights(period);
  const shown = useMemo(() => (data ? content(data, period) : null), [content, data, period]);
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
        <div className={styles.panelTools}>
          <label className={styles.panelPeriod}>
            <span>
              Period<span className="visually-hidden"> of {title.toLowerCase()}</span>
            </span>
            <select
              value={period}
              onChange={(event) => setOwnPeriod(Number(event.target.value) as InsightsPeriod)}
            >
              {INSIGHTS_PERIODS.map((days) => (
                <option key={days} value={days}>
                  {periodLabel(days)}
                </option>
              ))}
            </select>
          </label>
          <a className={styles.csv} href={insightsCsvAddress(panel, period)} download>
            Download CSV<span className="visually-hidden"> of {title.toLowerCase()}</span>
          </a>
        </div>
      </div>
      {isError ? <p role="alert">This panel could not be loaded. Try again in a moment.</p> : null}
      {shown === null ? (
        isError ? null : (
          <p className={styles.empty} role="status">
            Loading…
          </p>
        )
      ) : (
        <>
          {shown.lead ? <p className={styles.lead}>{shown.lead}</p> : null}
          {shown.extra}
          {shown.empty ? (
            <p className={styles.empty}>{shown.empty}</p>
          ) : (
            <>
              {shown.charts.map((chart) => (
                <InsightChart key={chart.label} label={chart.label} draw={chart.draw} />
              ))}
              <button
                type="button"
                className={styles.toggle}
                aria-expanded={showTable}
                aria-controls={tableId}
                onClick={() => setShowTable((open) => !open)}
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
                {shown.table}
              </div>
            </>
          )}
        </>
      )}
    </section>
  );
}
