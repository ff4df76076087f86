import * as Plot from '@observablehq/plot';
import { Link, useSearchParams } from 'react-router';
import {
  INSIGHTS_MIN_PEOPLE,
  INSIGHTS_PERIODS,
  type InsightItem,
  type InsightQuestionGroup,
  type InsightsPanel,
  type InsightsPeriod,
  type InsightsResponse,
  type InsightTerm,
} from '#contract/http/insights.ts';
import { ROUTES } from '#contract/routes.ts';
import { useInsights } from '../../api/insights.ts';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './desk-insights.module.css';
import {
  type InsightColumn,
  InsightPanel,
  InsightTable,
  type PanelContent,
  periodLabel,
} from './panel.tsx';

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
  return (width: number) => {
    // Room for the longest label (about 7 px a character at 13 px), at most half the width.
    const marginLeft = Math.min(
      width / 2,
      16 + 7 * Math.max(0, ...rows.map((row) => row.label.length)),
    );
    return Plot.plot({
      width,
      height: 32 + rows.length * 26,
      marginLeft,
      style: { fontSize: '13px', color: 'var(--color-text)', background: 'transparent' },
      // Whole numbers only: counts have no halves.
      x: {
        label: what,
        grid: true,
        // And no more than one a 50 px, or their numbers run into each other on a phone.
        ticks: Math.max(
          1,
          Math.min(6, Math.floor((width - marginLeft) / 50), ...rows.map((row) => row.value)),
        ),
        tickFormat: 'd',
      },
      y: { label: null, tickFormat: (label: string) => shorten(label, (width / 2 - 16) / 7) },
      marks: [
        Plot.barX(rows, { x: 'value', y: 'label', fill: BAR, sort: { y: '-x' } }),
        Plot.ruleX([0]),
      ],
    });
  };
}

/** Search terms with their searches, and with what to do about each when `actions`. */
function termTable(terms: readonly InsightTerm[], actions = false) {
  const columns: InsightColumn<InsightTerm>[] = [
    { header: 'Search words', cell: (row) => row.term },
    { header: 'Searches', cell: (row) => row.searches },
  ];
  if (actions)
    columns.push({ header: 'Act on it', cell: (row) => <TermActions term={row.term} /> });
  return <InsightTable columns={columns} rows={terms} rowKey={(row) => row.term} />;
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

const NOBODY = `Nothing counted for at least ${INSIGHTS_MIN_PEOPLE} different people in this period.`;

/** Stacked bars by week (weeks from Monday), one colour per `fill`. */
function weeklyBars<Row extends { week: string }>(
  rows: readonly Row[],
  y: keyof Row & string,
  fill: keyof Row & string,
  what: string,
  height = 220,
) {
  return (width: number) =>
    Plot.plot({
      width,
      height,
      style: { fontSize: '13px', background: 'transparent' },
      x: { type: 'band', label: 'Week from', tickFormat: (week: string) => week.slice(5) },
      y: { label: what, grid: true },
      color: { legend: true },
      marks: [Plot.barY(rows, { x: 'week', y, fill }), Plot.ruleY([0])],
    });
}

/** Bars by day, labelled every few days when a month or a year of days would crowd them. */
function dailyBars<Row extends { day: string }>(
  rows: readonly Row[],
  y: keyof Row & string,
  what: string,
  fill?: keyof Row & string,
) {
  const days = [...new Set(rows.map((row) => row.day))].sort();
  return (width: number) =>
    Plot.plot({
      width,
      height: 220,
      style: { fontSize: '13px', background: 'transparent' },
      x: {
        type: 'band',
        label: 'Day',
        tickFormat: (day: string) => day.slice(5),
        ticks: days.filter((_, index, all) => index % Math.ceil(all.length / 12) === 0),
      },
      y: { label: what, grid: true },
      ...(fill ? { color: { legend: true } } : {}),
      marks: [Plot.barY(rows, { x: 'day', y, fill: fill ?? BAR }), Plot.ruleY([0])],
    });
}

function searchesEmpty(data: InsightsResponse): PanelContent {
  const { terms, byWeek } = data.searchesEmpty;
  return {
    lead: 'What people looked for and the catalogue did not have: add it, or see whether someone has asked for it.',
    extra:
      terms.length > 0 ? (
        <ul className={styles.termList} aria-label="Terms to act on">
          {terms.slice(0, 5).map((row) => (
            <li key={row.term}>
              <strong>{row.term}</strong> <span className={styles.muted}>({row.searches})</span>{' '}
              <TermActions term={row.term} />
            </li>
          ))}
        </ul>
      ) : null,
    empty: terms.length === 0 ? NOBODY : null,
    charts: [
      {
        label: `Searches that found nothing, by term: ${terms.map((row) => `${row.term} ${row.searches}`).join(', ')}`,
        draw: bars(
          terms.map((row) => ({ label: row.term, value: row.searches })),
          'Searches',
        ),
      },
      ...(byWeek.length > 0
        ? [
            {
              label: "The same terms' searches by week",
              draw: weeklyBars(byWeek, 'searches', 'term', 'Searches'),
            },
          ]
        : []),
    ],
    table: termTable(terms, true),
  };
}

function searchesTop(data: InsightsResponse): PanelContent {
  const terms = data.searchesTop;
  return {
    empty: terms.length === 0 ? NOBODY : null,
    charts: [
      {
        label: 'Most searched terms',
        draw: bars(
          terms.map((row) => ({ label: row.term, value: row.searches })),
          'Searches',
        ),
      },
    ],
    table: termTable(terms),
  };
}

/** A panel of items with a count: most viewed, reserved or borrowed. */
function itemsPanel(
  pick: (data: InsightsResponse) => readonly InsightItem[],
  title: string,
  what: string,
) {
  return (data: InsightsResponse): PanelContent => {
    const items = pick(data);
    return {
      empty: items.length === 0 ? NOBODY : null,
      charts: [
        {
          label: title,
          draw: bars(
            items.map((row) => ({ label: row.title, value: row.count })),
            what,
          ),
        },
      ],
      table: (
        <InsightTable
          columns={[
            { header: 'Item', cell: (row: InsightItem) => row.title },
            { header: what, cell: (row: InsightItem) => row.count },
          ]}
          rows={items}
          rowKey={(row) => row.itemId}
        />
      ),
    };
  };
}

const itemsViewed = itemsPanel((data) => data.itemsViewed, 'Most viewed items', 'Views');
const itemsReserved = itemsPanel(
  (data) => data.itemsReserved,
  'Most reserved items',
  'Reservations',
);
const itemsBorrowed = itemsPanel((data) => data.itemsBorrowed, 'Most borrowed items', 'Loans');

type RequestWeek = InsightsResponse['requests']['byWeek'][number];

function requests(data: InsightsResponse): PanelContent {
  const { byWeek, medianHoursToAnswer, answered } = data.requests;
  return {
    lead:
      medianHoursToAnswer === null
        ? 'No request of this period has had an answer yet.'
        : `Median time to an answer: ${formatHours(medianHoursToAnswer)} (${answered} answered).`,
    empty: byWeek.length === 0 ? 'No requests were filed in this period.' : null,
    charts: [
      {
        label: 'Resource requests by week and status',
        draw: weeklyBars(byWeek, 'count', 'status', 'Requests', 240),
      },
    ],
    table: (
      <InsightTable
        columns={[
          { header: 'Week from', cell: (row: RequestWeek) => row.week },
          { header: 'Type', cell: (row: RequestWeek) => row.type },
          { header: 'Status', cell: (row: RequestWeek) => row.status },
          { header: 'Requests', cell: (row: RequestWeek) => row.count },
        ]}
        rows={byWeek}
        rowKey={(row) => `${row.week}-${row.type}-${row.status}`}
      />
    ),
  };
}

/** Hours as a person reads them: "5.5 hours", "2.1 days". */
export function formatHours(hours: number): string {
  if (hours < 48) return `${hours.toLocaleString('en-US', { maximumFractionDigits: 1 })} hours`;
  return `${(hours / 24).toLocaleString('en-US', { maximumFractionDigits: 1 })} days`;
}

type PickupCell = InsightsResponse['pickups']['cells'][number];

function pickups(data: InsightsResponse): PanelContent {
  const { cells, noShowRate, noShows, due } = data.pickups;
  const named = cells.map((c) => ({ ...c, day: WEEKDAYS[c.weekday - 1] }));
  const counts = cells.map((c) => c.count);
  const middle = (Math.min(...counts) + Math.max(...counts)) / 2;
  return {
    lead:
      noShowRate === null
        ? 'No pickup slot of this period has passed yet.'
        : `No-show rate: ${Math.round(noShowRate * 100)}% (${noShows} of ${due} pickups).`,
    empty: cells.length === 0 ? 'No pickups in this period.' : null,
    charts: [
      {
        label: 'Pickups by weekday and hour, as a heat map',
        draw: (width: number) =>
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
              Plot.cell(named, { x: 'hour', y: 'day', fill: 'count' }),
              // White on the darker half of the scale, black on the lighter: always legible.
              Plot.text(
                named.filter((c) => c.count > middle),
                { x: 'hour', y: 'day', text: 'count', fill: 'white' },
              ),
              Plot.text(
                named.filter((c) => c.count <= middle),
                { x: 'hour', y: 'day', text: 'count', fill: 'black' },
              ),
            ],
          }),
      },
    ],
    table: (
      <InsightTable
        columns={[
          { header: 'Day', cell: (row: PickupCell) => WEEKDAYS[row.weekday - 1] },
          { header: 'Hour', cell: (row: PickupCell) => `${String(row.hour).padStart(2, '0')}:00` },
          { header: 'Pickups', cell: (row: PickupCell) => row.count },
        ]}
        rows={cells}
        rowKey={(row) => `${row.weekday}-${row.hour}`}
      />
    ),
  };
}

/** A day of the rooms: its messages and each kind of moderators' action taken. */
interface RoomDay {
  day: string;
  messages: number;
  actions: Record<string, number>;
}

/** The moderators' actions as the rooms panel names them. */
const ACTION_NAMES: Record<string, string> = {
  dismiss: 'Reports dismissed',
  hide: 'Messages hidden',
  restore: 'Messages restored',
  mute: 'People muted',
  remove: 'People removed',
};

function rooms(data: InsightsResponse): PanelContent {
  const { messagesByDay, activeRooms, moderationByDay } = data.rooms;
  const kinds = [...new Set(moderationByDay.map((row) => row.action))].sort();
  const days: RoomDay[] = [
    ...new Set([...messagesByDay.map((row) => row.day), ...moderationByDay.map((row) => row.day)]),
  ]
    .sort()
    .map((day) => ({
      day,
      messages: messagesByDay.find((row) => row.day === day)?.messages ?? 0,
      actions: Object.fromEntries(
        moderationByDay.filter((row) => row.day === day).map((row) => [row.action, row.count]),
      ),
    }));
  const actionsTaken = moderationByDay.reduce((sum, row) => sum + row.count, 0);
  const named = moderationByDay.map((row) => ({
    ...row,
    kind: ACTION_NAMES[row.action] ?? row.action,
  }));
  return {
    lead: `${activeRooms} room${activeRooms === 1 ? '' : 's'} had messages in this period; moderators took ${actionsTaken} action${actionsTaken === 1 ? '' : 's'}.`,
    empty: days.length === 0 ? 'No messages and no moderation in this period.' : null,
    charts: [
      ...(messagesByDay.length > 0
        ? [{ label: 'Messages per day', draw: dailyBars(messagesByDay, 'messages', 'Messages') }]
        : []),
      ...(named.length > 0
        ? [
            {
              label: 'Moderation actions per day, by kind',
              draw: dailyBars(named, 'count', 'Actions', 'kind'),
            },
          ]
        : []),
    ],
    table: (
      <InsightTable
        columns={[
          { header: 'Day', cell: (row: RoomDay) => row.day },
          { header: 'Messages', cell: (row: RoomDay) => row.messages },
          ...kinds.map((kind) => ({
            header: ACTION_NAMES[kind] ?? kind,
            cell: (row: RoomDay) => row.actions[kind] ?? 0,
          })),
        ]}
        rows={days}
        rowKey={(row) => row.day}
      />
    ),
  };
}

/** One wording of a group, as its table row. */
interface QuestionRow {
  group: InsightQuestionGroup;
  wording: string;
  questions: number;
  first: boolean;
}

function chatbotUnanswered(data: InsightsResponse): PanelContent {
  const groups = data.chatbotUnanswered;
  const rows: QuestionRow[] = groups.flatMap((group) =>
    group.variants.map((variant, index) => ({ group, ...variant, first: index === 0 })),
  );
  return {
    lead: 'What people asked the chatbot and it could not answer, similar wordings grouped: what to teach it, or to add to the catalogue.',
    extra:
      groups.length > 0 ? (
        <ul className={styles.questionList} aria-label="Questions to teach it">
          {groups.slice(0, 5).map((group) => (
            <li key={group.wording}>
              <strong>{group.wording}</strong>{' '}
              <span className={styles.muted}>
                ({group.questions} question{group.questions === 1 ? '' : 's'}
                {group.variants.length > 1 ? `, ${group.variants.length} wordings` : ''})
              </span>
              {group.variants.length > 1 ? (
                <ul className={styles.variants}>
                  {group.variants.slice(1).map((variant) => (
                    <li key={variant.wording}>
                      {variant.wording} <span className={styles.muted}>({variant.questions})</span>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null,
    empty: groups.length === 0 ? NOBODY : null,
    charts: [
      {
        label: `Unanswered chatbot questions, by group: ${groups.map((group) => `${group.wording} ${group.questions}`).join(', ')}`,
        draw: bars(
          groups.map((group) => ({ label: group.wording, value: group.questions })),
          'Questions',
        ),
      },
    ],
    table: (
      <InsightTable
        columns={[
          { header: 'Question', cell: (row: QuestionRow) => row.group.wording },
          { header: 'Questions', cell: (row: QuestionRow) => row.group.questions },
          {
            header: 'Wording',
            cell: (row: QuestionRow) => (row.first ? row.wording : `also: ${row.wording}`),
          },
          { header: 'Asked', cell: (row: QuestionRow) => row.questions },
        ]}
        rows={rows}
        rowKey={(row) => `${row.group.wording}\u0000${row.wording}`}
      />
    ),
  };
}

/** The panels in the order of the screen. */
const PANELS: readonly {
  panel: InsightsPanel;
  title: string;
  content: (data: InsightsResponse) => PanelContent;
  wide?: boolean;
}[] = [
  {
    panel: 'searches-empty',
    title: 'Searches that found nothing',
    content: searchesEmpty,
    wide: true,
  },
  { panel: 'searches-top', title: 'Most searched terms', content: searchesTop },
  { panel: 'items-viewed', title: 'Most viewed items', content: itemsViewed },
  { panel: 'items-reserved', title: 'Most reserved items', content: itemsReserved },
  { panel: 'items-borrowed', title: 'Most borrowed items', content: itemsBorrowed },
  { panel: 'requests', title: 'Resource requests', content: requests },
  { panel: 'pickups', title: 'Pickups by weekday and hour', content: pickups },
  {
    panel: 'chatbot-unanswered',
    title: 'Chatbot questions it could not answer',
    content: chatbotUnanswered,
    wide: true,
  },
  { panel: 'rooms', title: 'Rooms', content: rooms },
];

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
                {periodLabel(days)}
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
          {PANELS.map((entry) => (
            // Keyed by the page's period: choosing another for the page resets each panel's own.
            <InsightPanel
              key={`${entry.panel}-${period}`}
              panel={entry.panel}
              title={entry.title}
              pagePeriod={period}
              content={entry.content}
              wide={entry.wide ?? false}
            />
          ))}
        </div>
      ) : null}
    </div>
  );
}
