import * as Plot from '@observablehq/plot';
import { useCallback } from 'react';
import { Link, useSearchParams } from 'react-router';
import {
  INSIGHTS_MIN_PEOPLE,
  INSIGHTS_PERIODS,
  type InsightItem,
  type InsightsPanel,
  type InsightsPeriod,
  type InsightsResponse,
  type InsightTerm,
} from '#contract/http/insights.ts';
import { ROUTES } from '#contract/routes.ts';
import { insightsCsvAddress, useInsights } from '../../api/insights.ts';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './desk-insights.module.css';
import { InsightChart } from './insight-chart.tsx';
import { InsightPanel } from './panel.tsx';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const BAR = 'var(--color-brand)';

/** The period of `?period=`, 30 days unless it names one of the choices. */
export function periodFrom(value: string | null): InsightsPeriod {
  const number = Number(value);
  return (INSIGHTS_PERIODS as readonly number[]).includes(number) ? (number as InsightsPeriod) : 30;
}

/** The new-item form prefilled with a term as its title. */
export function addToCatalogueAddress(term: string): string {
  return `${ROUTES.deskCatalogueNew}?${new URLSearchParams({ title: term })}`;
}

/** The requests screen filtered by a term. */
export function requestsLikeAddress(term: string): string {
  return `${ROUTES.requests}?${new URLSearchParams({ q: term })}`;
}

/** `text` cut to `length` characters, with an ellipsis when cut. */
function shorten(text: string, length: number): string {
  const room = Math.max(8, Math.floor(length));
  return text.length <= room ? text : `${text.slice(0, room - 1)}…`;
}

/** Horizontal bars of labelled counts, longest first. */
function bars(rows: readonly { label: string; value: number }[], what: string) {
  return (width: number) =>
    Plot.plot({
      width,
      height: 32 + rows.length * 26,
      // Room for the longest label (about 7 px a character at 13 px), at most half the width.
      marginLeft: Math.min(width / 2, 16 + 7 * Math.max(0, ...rows.map((row) => row.label.length))),
      style: { fontSize: '13px', color: 'var(--color-text)', background: 'transparent' },
      // Whole numbers only: counts have no halves.
      x: {
        label: what,
        grid: true,
        ticks: Math.max(1, Math.min(6, ...rows.map((row) => row.value))),
        tickFormat: 'd',
      },
      y: { label: null, tickFormat: (label: string) => shorten(label, (width / 2 - 16) / 7) },
      marks: [
        Plot.barX(rows, { x: 'value', y: 'label', fill: BAR, sort: { y: '-x' } }),
        Plot.ruleX([0]),
      ],
    });
}

function TermTable({ terms, actions }: { terms: readonly InsightTerm[]; actions?: boolean }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">Search words</th>
          <th scope="col">Searches</th>
          {actions ? <th scope="col">Act on it</th> : null}
        </tr>
      </thead>
      <tbody>
        {terms.map((row) => (
          <tr key={row.term}>
            <th scope="row">{row.term}</th>
            <td>{row.searches}</td>
            {actions ? (
              <td>
                <TermActions term={row.term} />
              </td>
            ) : null}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function TermActions({ term }: { term: string }) {
  return (
    <span className={styles.actions}>
      <Link to={addToCatalogueAddress(term)}>
        Add to catalogue<span className="visually-hidden">: {term}</span>
      </Link>
      <Link to={requestsLikeAddress(term)}>
        Show requests like this<span className="visually-hidden">: {term}</span>
      </Link>
    </span>
  );
}

function ItemTable({ items, what }: { items: readonly InsightItem[]; what: string }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <th scope="col">{what}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((row) => (
          <tr key={row.itemId}>
            <th scope="row">{row.title}</th>
            <td>{row.count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const NOBODY = `Nothing counted for at least ${INSIGHTS_MIN_PEOPLE} different people in this period.`;

function SearchesEmpty({ data, period }: { data: InsightsResponse; period: InsightsPeriod }) {
  const { terms, byWeek } = data.searchesEmpty;
  const draw = useCallback(
    (width: number) =>
      bars(
        terms.map((row) => ({ label: row.term, value: row.searches })),
        'Searches',
      )(width),
    [terms],
  );
  const drawWeeks = useCallback(
    (width: number) =>
      Plot.plot({
        width,
        height: 220,
        style: { fontSize: '13px', background: 'transparent' },
        x: { type: 'band', label: 'Week from', tickFormat: (week: string) => week.slice(5) },
        y: { label: 'Searches', grid: true },
        color: { legend: true },
        marks: [Plot.barY(byWeek, { x: 'week', y: 'searches', fill: 'term' }), Plot.ruleY([0])],
      }),
    [byWeek],
  );
  return (
    <InsightPanel
      title="Searches that found nothing"
      wide
      lead="What people looked for and the catalogue did not have: add it, or see whether someone has asked for it."
      csvHref={insightsCsvAddress('searches-empty', period)}
      empty={terms.length === 0 ? NOBODY : null}
      chart={
        <>
          <InsightChart
            label={`Searches that found nothing, by term: ${terms.map((row) => `${row.term} ${row.searches}`).join(', ')}`}
            draw={draw}
          />
          {byWeek.length > 0 ? (
            <InsightChart label="The same terms' searches by week" draw={drawWeeks} />
          ) : null}
        </>
      }
      table={<TermTable terms={terms} actions />}
    >
      {terms.length > 0 ? (
        <ul className={styles.termList} aria-label="Terms to act on">
          {terms.slice(0, 5).map((row) => (
            <li key={row.term}>
              <strong>{row.term}</strong> <span className={styles.muted}>({row.searches})</span>{' '}
              <TermActions term={row.term} />
            </li>
          ))}
        </ul>
      ) : null}
    </InsightPanel>
  );
}

function TermsPanel({ data, period }: { data: InsightsResponse; period: InsightsPeriod }) {
  const terms = data.searchesTop;
  const draw = useCallback(
    (width: number) =>
      bars(
        terms.map((row) => ({ label: row.term, value: row.searches })),
        'Searches',
      )(width),
    [terms],
  );
  return (
    <InsightPanel
      title="Most searched terms"
      csvHref={insightsCsvAddress('searches-top', period)}
      empty={terms.length === 0 ? NOBODY : null}
      chart={<InsightChart label="Most searched terms" draw={draw} />}
      table={<TermTable terms={terms} />}
    />
  );
}

function ItemsPanel({
  title,
  items,
  what,
  panel,
  period,
}: {
  title: string;
  items: readonly InsightItem[];
  what: string;
  panel: InsightsPanel;
  period: InsightsPeriod;
}) {
  const draw = useCallback(
    (width: number) =>
      bars(
        items.map((row) => ({ label: row.title, value: row.count })),
        what,
      )(width),
    [items, what],
  );
  return (
    <InsightPanel
      title={title}
      csvHref={insightsCsvAddress(panel, period)}
      empty={items.length === 0 ? NOBODY : null}
      chart={<InsightChart label={title} draw={draw} />}
      table={<ItemTable items={items} what={what} />}
    />
  );
}

function RequestsPanel({ data, period }: { data: InsightsResponse; period: InsightsPeriod }) {
  const { byWeek, medianHoursToAnswer, answered } = data.requests;
  const draw = useCallback(
    (width: number) =>
      Plot.plot({
        width,
        height: 240,
        style: { fontSize: '13px', background: 'transparent' },
        x: { type: 'band', label: 'Week from', tickFormat: (week: string) => week.slice(5) },
        y: { label: 'Requests', grid: true },
        color: { legend: true },
        marks: [Plot.barY(byWeek, { x: 'week', y: 'count', fill: 'status' }), Plot.ruleY([0])],
      }),
    [byWeek],
  );
  return (
    <InsightPanel
      title="Resource requests"
      lead={
        medianHoursToAnswer === null
          ? 'No request of this period has had an answer yet.'
          : `Median time to an answer: ${formatHours(medianHoursToAnswer)} (${answered} answered).`
      }
      csvHref={insightsCsvAddress('requests', period)}
      empty={byWeek.length === 0 ? 'No requests were filed in this period.' : null}
      chart={<InsightChart label="Resource requests by week and status" draw={draw} />}
      table={
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Week from</th>
              <th scope="col">Type</th>
              <th scope="col">Status</th>
              <th scope="col">Requests</th>
            </tr>
          </thead>
          <tbody>
            {byWeek.map((row) => (
              <tr key={`${row.week}-${row.type}-${row.status}`}>
                <th scope="row">{row.week}</th>
                <td>{row.type}</td>
                <td>{row.status}</td>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

/** Hours as a person reads them: "5.5 hours", "2.1 days". */
export function formatHours(hours: number): string {
  if (hours < 48) return `${hours.toLocaleString('en-US', { maximumFractionDigits: 1 })} hours`;
  return `${(hours / 24).toLocaleString('en-US', { maximumFractionDigits: 1 })} days`;
}

function PickupsPanel({ data, period }: { data: InsightsResponse; period: InsightsPeriod }) {
  const { cells, noShowRate, noShows, due } = data.pickups;
  const draw = useCallback(
    (width: number) =>
      Plot.plot({
        width,
        height: 260,
        marginLeft: 48,
        padding: 0.05,
        style: { fontSize: '13px', background: 'transparent' },
        x: {
          type: 'band',
          label: 'Hour',
          domain: [...new Set(cells.map((c) => c.hour))].sort((a, b) => a - b),
        },
        y: { type: 'band', label: null, domain: WEEKDAYS },
        color: { scheme: 'blues', legend: true, label: 'Pickups' },
        marks: [
          Plot.cell(
            cells.map((c) => ({ ...c, day: WEEKDAYS[c.weekday - 1] })),
            { x: 'hour', y: 'day', fill: 'count' },
          ),
          Plot.text(
            cells.map((c) => ({ ...c, day: WEEKDAYS[c.weekday - 1] })),
            { x: 'hour', y: 'day', text: 'count', fill: 'black' },
          ),
        ],
      }),
    [cells],
  );
  return (
    <InsightPanel
      title="Pickups by weekday and hour"
      lead={
        noShowRate === null
          ? 'No pickup slot of this period has passed yet.'
          : `No-show rate: ${Math.round(noShowRate * 100)}% (${noShows} of ${due} pickups).`
      }
      csvHref={insightsCsvAddress('pickups', period)}
      empty={cells.length === 0 ? 'No pickups in this period.' : null}
      chart={<InsightChart label="Pickups by weekday and hour, as a heat map" draw={draw} />}
      table={
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Hour</th>
              <th scope="col">Pickups</th>
            </tr>
          </thead>
          <tbody>
            {cells.map((row) => (
              <tr key={`${row.weekday}-${row.hour}`}>
                <th scope="row">{WEEKDAYS[row.weekday - 1]}</th>
                <td>{`${String(row.hour).padStart(2, '0')}:00`}</td>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

function RoomsPanel({ data, period }: { data: InsightsResponse; period: InsightsPeriod }) {
  const { messagesByDay, activeRooms } = data.rooms;
  const draw = useCallback(
    (width: number) =>
      Plot.plot({
        width,
        height: 220,
        style: { fontSize: '13px', background: 'transparent' },
        x: {
          type: 'band',
          label: 'Day',
          tickFormat: (day: string) => day.slice(5),
          // A label every few days when a month or a year of days would crowd them.
          ticks: messagesByDay
            .map((row) => row.day)
            .filter((_, index, all) => index % Math.ceil(all.length / 12) === 0),
        },
        y: { label: 'Messages', grid: true },
        marks: [Plot.barY(messagesByDay, { x: 'day', y: 'messages', fill: BAR }), Plot.ruleY([0])],
      }),
    [messagesByDay],
  );
  return (
    <InsightPanel
      title="Rooms"
      lead={`${activeRooms} room${activeRooms === 1 ? '' : 's'} had messages in this period.`}
      csvHref={insightsCsvAddress('rooms', period)}
      empty={messagesByDay.length === 0 ? 'No messages in this period.' : null}
      chart={<InsightChart label="Messages per day" draw={draw} />}
      table={
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Messages</th>
            </tr>
          </thead>
          <tbody>
            {messagesByDay.map((row) => (
              <tr key={row.day}>
                <th scope="row">{row.day}</th>
                <td>{row.messages}</td>
              </tr>
            ))}
          </tbody>
        </table>
      }
    />
  );
}

/**
 * `/desk/insights`: what people look for and do not find, what they use, and when the desk is
 * busy, as counts of at least 5 people (docs/privacy.md), each chart with its table and CSV.
 */
export function DeskInsightsPage() {
  useDocumentTitle('Library insights');
  const [params, setParams] = useSearchParams();
  const period = periodFrom(params.get('period'));
  const { data, isPending, isError } = useInsights(period);

  const onPeriod = (value: string) => {
    const next = new URLSearchParams(params);
    next.set('period', value);
    setParams(next, { replace: true });
  };

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="Library insights"
        lead={`Counts only, never what one person did: a term or item counted for fewer than ${INSIGHTS_MIN_PEOPLE} different people is not shown.`}
      />
      <div className={styles.controls}>
        <label className={styles.period}>
          Period{' '}
          <select value={period} onChange={(event) => onPeriod(event.target.value)}>
            {INSIGHTS_PERIODS.map((days) => (
              <option key={days} value={days}>
                {days === 365 ? 'Last 12 months' : `Last ${days} days`}
              </option>
            ))}
          </select>
        </label>
        {data ? (
          <p className={styles.muted}>
            {data.from} to {data.to}
          </p>
        ) : null}
      </div>
      {isPending ? <p role="status">Loading…</p> : null}
      {isError ? (
        <p role="alert">The insights could not be loaded. Try again in a moment.</p>
      ) : null}
      {data ? (
        <div className={styles.panels}>
          <SearchesEmpty data={data} period={period} />
          <TermsPanel data={data} period={period} />
          <ItemsPanel
            title="Most viewed items"
            items={data.itemsViewed}
            what="Views"
            panel="items-viewed"
            period={period}
          />
          <ItemsPanel
            title="Most reserved items"
            items={data.itemsReserved}
            what="Reservations"
            panel="items-reserved"
            period={period}
          />
          <ItemsPanel
            title="Most borrowed items"
            items={data.itemsBorrowed}
            what="Loans"
            panel="items-borrowed"
            period={period}
          />
          <RequestsPanel data={data} period={period} />
          <PickupsPanel data={data} period={period} />
          <RoomsPanel data={data} period={period} />
        </div>
      ) : null}
    </div>
  );
}
