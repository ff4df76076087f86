import { sql, type Kysely } from 'kysely';
import { INSIGHTS_MIN_PEOPLE, type InsightsPeriod } from '#contract/http/insights.ts';
import { isUuid } from '../db/ids.ts';
import type { Database, InsightKind } from '../db/schema.ts';
import { addDays, localDate, zonedInstant } from '../reservations/calendar.ts';

/** Most terms or items a panel lists. */
export const INSIGHTS_TOP = 20;
/** Most terms the weekly chart of searches that found nothing follows. */
const WEEKLY_TERMS = 8;

/** A period as the library's days and the instants that bound them. */
export interface InsightsWindow {
  period: InsightsPeriod;
  from: string;
  to: string;
  start: Date;
  end: Date;
  timeZone: string;
}

/** The last `period` days up to and including today, in the library's time zone. */
export function insightsWindow(
  period: InsightsPeriod,
  now: Date,
  timeZone: string,
): InsightsWindow {
  const to = localDate(now, timeZone);
  const from = addDays(to, 1 - period);
  return {
    period,
    from,
    to,
    start: zonedInstant(from, 0, 0, timeZone),
    end: zonedInstant(addDays(to, 1), 0, 0, timeZone),
    timeZone,
  };
}

/**
 * Each subject's count per day of one kind in the window, with the distinct people of that day:
 * the raw events' person keys counted, and the reduced days' numbers. A reduced day's subject
 * may have several rows (a search's type tabs): their largest count of people is taken, never
 * their sum, so the number never exceeds the people there were.
 */
function dailyCounts(kind: InsightKind, window: InsightsWindow) {
  return sql`
    SELECT day, subject, sum(count)::int AS count, count(DISTINCT person)::int AS people
    FROM insight_events
    WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
    GROUP BY day, subject
    UNION ALL
    SELECT day, subject, sum(count)::int AS count, max(people)::int AS people
    FROM insight_daily
    WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
    GROUP BY day, subject
  `;
}

/**
 * The subjects of one kind counted for at least 5 distinct people in the window, most counted
 * first. The person keys are per day (docs/privacy.md), so "distinct people in the period" is
 * taken as the most distinct people of any one day: never more than there were, so a subject
 * shown was searched, viewed or opened by at least 5 people.
 */
export async function topSubjects(
  db: Kysely<Database>,
  kind: InsightKind,
  window: InsightsWindow,
  limit = INSIGHTS_TOP,
): Promise<{ subject: string; count: number }[]> {
  const { rows } = await sql<{ subject: string; count: number }>`
    SELECT subject, sum(count)::int AS count
    FROM (${dailyCounts(kind, window)}) AS days
    GROUP BY subject
    HAVING max(people) >= ${INSIGHTS_MIN_PEOPLE}
    ORDER BY count DESC, subject
    LIMIT ${limit}
  `.execute(db);
  return rows;
}

/** Weekly counts (weeks from Monday) of the given subjects of one kind in the window. */
async function weeklyCounts(
  db: Kysely<Database>,
  kind: InsightKind,
  window: InsightsWindow,
  subjects: readonly string[],
): Promise<{ week: string; subject: string; count: number }[]> {
  if (subjects.length === 0) return [];
  const { rows } = await sql<{ week: string; subject: string; count: number }>`
    SELECT to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD') AS week, subject,
      sum(count)::int AS count
    FROM (${dailyCounts(kind, window)}) AS days
    WHERE subject IN (${sql.join(subjects)})
    GROUP BY week, subject
    ORDER BY week, subject
  `.execute(db);
  return rows;
}

/** Titles of items by id (text), for the subjects of views and opens. */
async function titles(db: Kysely<Database>, ids: readonly string[]): Promise<Map<string, string>> {
  const uuids = ids.filter(isUuid);
  if (uuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('items')
    .select(['id', 'title'])
    .where('id', 'in', uuids)
    .execute();
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** Items reserved or borrowed by at least 5 distinct people in the window, most first. */
async function circulatedItems(
  db: Kysely<Database>,
  what: 'reservations' | 'loans',
  window: InsightsWindow,
) {
  const at = what === 'reservations' ? sql.ref('u.created_at') : sql.ref('u.checked_out_at');
  const { rows } = await sql<{ itemId: string; title: string; count: number }>`
    SELECT u.item_id AS "itemId", i.title, count(*)::int AS count
    FROM ${sql.table(what)} u JOIN items i ON i.id = u.item_id
    WHERE ${at} >= ${window.start} AND ${at} < ${window.end}
    GROUP BY u.item_id, i.title
    HAVING count(DISTINCT u.user_id) >= ${INSIGHTS_MIN_PEOPLE}
    ORDER BY count DESC, i.title
    LIMIT ${INSIGHTS_TOP}
  `.execute(db);
  return rows;
}

/** Resource requests filed in the window by week, type and status, and the median time to answer. */
async function requestInsights(db: Kysely<Database>, window: InsightsWindow) {
  const { rows: byWeek } = await sql<{ week: string; type: string; status: string; count: number }>`
    SELECT to_char(date_trunc('week', created_at AT TIME ZONE ${window.timeZone}), 'YYYY-MM-DD') AS week,
      resource_type AS type, status, count(*)::int AS count
    FROM resource_requests
    WHERE created_at >= ${window.start} AND created_at < ${window.end}
    GROUP BY week, type, status
    ORDER BY week, type, status
  `.execute(db);
  const { rows } = await sql<{ median: number | string | null; answered: number }>`
    SELECT percentile_cont(0.5) WITHIN GROUP (
        ORDER BY extract(epoch FROM status_changed_at - created_at)
      ) / 3600 AS median,
      count(*)::int AS answered
    FROM resource_requests
    WHERE created_at >= ${window.start} AND created_at < ${window.end}
      AND status_changed_at IS NOT NULL
  `.execute(db);
  const median = rows[0]?.median;
  return {
    byWeek,
    medianHoursToAnswer:
      median === null || median === undefined ? null : Math.round(Number(median) * 10) / 10,
    answered: rows[0]?.answered ?? 0,
  };
}

/** Pickup slots of the window by weekday and hour (library time), and the no-show rate. */
async function pickupInsights(db: Kysely<Database>, window: InsightsWindow, now: Date) {
  const { rows: cells } = await sql<{ weekday: number; hour: number; count: number }>`
    SELECT extract(isodow FROM slot_starts_at AT TIME ZONE ${window.timeZone})::int AS weekday,
      extract(hour FROM slot_starts_at AT TIME ZONE ${window.timeZone})::int AS hour,
      count(*)::int AS count
    FROM reservations
    WHERE slot_starts_at >= ${window.start} AND slot_starts_at < ${window.end}
      AND status <> 'cancelled'
    GROUP BY weekday, hour
    ORDER BY weekday, hour
  `.execute(db);
  const { rows } = await sql<{ due: number; no_shows: number }>`
    SELECT count(*)::int AS due, count(*) FILTER (WHERE status = 'no_show')::int AS no_shows
    FROM reservations
    WHERE slot_starts_at >= ${window.start} AND slot_starts_at < ${window.end}
      AND slot_starts_at < ${now}
      AND status IN ('collected', 'returned', 'no_show')
  `.execute(db);
  const due = rows[0]?.due ?? 0;
  const noShows = rows[0]?.no_shows ?? 0;
  return {
    cells,
    due,
    noShows,
    noShowRate: due === 0 ? null : Math.round((noShows / due) * 1000) / 1000,
  };
}

/** Messages per day in the window and the rooms that had any (system lines left out). */
async function roomInsights(db: Kysely<Database>, window: InsightsWindow) {
  const { rows: messagesByDay } = await sql<{ day: string; messages: number }>`
    SELECT to_char(created_at AT TIME ZONE ${window.timeZone}, 'YYYY-MM-DD') AS day,
      count(*)::int AS messages
    FROM chat_messages
    WHERE created_at >= ${window.start} AND created_at < ${window.end} AND NOT is_system
    GROUP BY day
    ORDER BY day
  `.execute(db);
  const { rows } = await sql<{ rooms: number }>`
    SELECT count(DISTINCT room_id)::int AS rooms FROM chat_messages
    WHERE created_at >= ${window.start} AND created_at < ${window.end} AND NOT is_system
  `.execute(db);
  // How many of each kind, never who acted nor on whom.
  const { rows: moderationByDay } = await sql<{ day: string; action: string; count: number }>`
    SELECT to_char(created_at AT TIME ZONE ${window.timeZone}, 'YYYY-MM-DD') AS day, action,
      count(*)::int AS count
    FROM moderation_actions
    WHERE created_at >= ${window.start} AND created_at < ${window.end}
    GROUP BY day, action
    ORDER BY day, action
  `.execute(db);
  return { messagesByDay, activeRooms: rows[0]?.rooms ?? 0, moderationByDay };
}

/** Most wordings a group of unanswered chatbot questions lists. */
const QUESTION_VARIANTS = 10;

/**
 * The chatbot's unanswered questions of the window, grouped by their key (the events' scope,
 * server/insights/questions.ts), groups asked by at least 5 distinct people on one day, most
 * asked first, each with its wordings. A group's people on a day are its raw events' distinct
 * person keys across all its wordings; on a reduced day the largest of its wordings' numbers,
 * never their sum, so the number never exceeds the people there were.
 */
async function unansweredQuestions(db: Kysely<Database>, window: InsightsWindow) {
  const kind: InsightKind = 'chatbot_unanswered';
  const { rows: groups } = await sql<{ key: string; count: number }>`
    SELECT scope AS key, sum(count)::int AS count
    FROM (
      SELECT day, scope, sum(count)::int AS count, count(DISTINCT person)::int AS people
      FROM insight_events
      WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
      GROUP BY day, scope
      UNION ALL
      SELECT day, scope, sum(count)::int AS count, max(people)::int AS people
      FROM insight_daily
      WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
      GROUP BY day, scope
    ) AS days
    GROUP BY scope
    HAVING max(people) >= ${INSIGHTS_MIN_PEOPLE}
    ORDER BY count DESC, scope
    LIMIT ${INSIGHTS_TOP}
  `.execute(db);
  if (groups.length === 0) return [];
  const keys = groups.map((group) => group.key);
  const { rows: wordings } = await sql<{ key: string; subject: string; count: number }>`
    SELECT scope AS key, subject, sum(count)::int AS count
    FROM (
      SELECT scope, subject, count FROM insight_events
      WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
        AND scope IN (${sql.join(keys)})
      UNION ALL
      SELECT scope, subject, count FROM insight_daily
      WHERE kind = ${kind} AND day BETWEEN ${window.from} AND ${window.to}
        AND scope IN (${sql.join(keys)})
    ) AS asked
    GROUP BY scope, subject
    ORDER BY count DESC, length(subject), subject
  `.execute(db);
  return groups.map((group) => {
    const variants = wordings
      .filter((row) => row.key === group.key)
      .slice(0, QUESTION_VARIANTS)
      .map((row) => ({ wording: row.subject, questions: row.count }));
    return { wording: variants[0]?.wording ?? group.key, questions: group.count, variants };
  });
}

/** Every panel of the insights screen for one window. */
export async function libraryInsights(db: Kysely<Database>, window: InsightsWindow, now: Date) {
  const emptyTerms = await topSubjects(db, 'search_empty', window);
  const weekly = await weeklyCounts(
    db,
    'search_empty',
    window,
    emptyTerms.slice(0, WEEKLY_TERMS).map((row) => row.subject),
  );
  const topTerms = await topSubjects(db, 'search', window);
  const viewed = await topSubjects(db, 'view', window);
  const viewedTitles = await titles(
    db,
    viewed.map((row) => row.subject),
  );
  return {
    period: window.period,
    from: window.from,
    to: window.to,
    searchesEmpty: {
      terms: emptyTerms.map((row) => ({ term: row.subject, searches: row.count })),
      byWeek: weekly.map((row) => ({ week: row.week, term: row.subject, searches: row.count })),
    },
    searchesTop: topTerms.map((row) => ({ term: row.subject, searches: row.count })),
    itemsViewed: viewed.flatMap((row) => {
      const title = viewedTitles.get(row.subject);
      return title === undefined ? [] : [{ itemId: row.subject, title, count: row.count }];
    }),
    itemsReserved: await circulatedItems(db, 'reservations', window),
    itemsBorrowed: await circulatedItems(db, 'loans', window),
    requests: await requestInsights(db, window),
    pickups: await pickupInsights(db, window, now),
    rooms: await roomInsights(db, window),
    chatbotUnanswered: await unansweredQuestions(db, window),
  };
}

/**
 * How often each of one person's published course materials was opened, per week of the window;
 * null for one no day of which had at least 5 distinct people open it.
 */
export async function myMaterialOpens(
  db: Kysely<Database>,
  userId: string,
  window: InsightsWindow,
) {
  const materials = await db
    .selectFrom('items')
    .select(['id', 'title'])
    .where('kind', '=', 'course')
    .where('created_by', '=', userId)
    .where('withdrawn_at', 'is', null)
    .orderBy('title')
    .execute();
  if (materials.length === 0) return [];
  const ids = materials.map((material) => material.id);
  const { rows } = await sql<{ subject: string; week: string; count: number; people: number }>`
    SELECT subject, to_char(date_trunc('week', day::timestamp), 'YYYY-MM-DD') AS week,
      sum(count)::int AS count, max(people)::int AS people
    FROM (${dailyCounts('open', window)}) AS days
    WHERE subject IN (${sql.join(ids)})
    GROUP BY subject, week
    ORDER BY week
  `.execute(db);
  return materials.map((material) => {
    const weeks = rows.filter((row) => row.subject === material.id);
    const shown = weeks.some((row) => row.people >= INSIGHTS_MIN_PEOPLE);
    return {
      itemId: material.id,
      title: material.title,
      weeks: shown ? weeks.map((row) => ({ week: row.week, opens: row.count })) : null,
    };
  });
}

/**
 * What needs the desk today: pickups of today still waiting, overdue loans, pending requests, and
 * messages with open reports (the moderation queue's entries).
 */
export async function deskToday(db: Kysely<Database>, now: Date, timeZone: string) {
  const today = localDate(now, timeZone);
  const [pickups, overdue, requests, reports] = await Promise.all([
    db
      .selectFrom('reservations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'active')
      .where('pickup_date', '=', today)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('loans')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('returned_at', 'is', null)
      .where('due_at', '<', now)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('resource_requests')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('chat_message_reports')
      .select(sql<number>`count(DISTINCT message_id)`.as('n'))
      .where('resolved_at', 'is', null)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    pickupsWaiting: Number(pickups.n),
    overdueLoans: Number(overdue.n),
    openRequests: Number(requests.n),
    openReports: Number(reports.n),
  };
}

/** True when `id` is a course material that is not withdrawn: only those count as opened. */
export async function isCourseMaterial(db: Kysely<Database>, id: string): Promise<boolean> {
  // Any other text is no item (and never reaches the database as a uuid).
  if (!isUuid(id)) return false;
  const row = await db
    .selectFrom('items')
    .select('id')
    .where('id', '=', id)
    .where('kind', '=', 'course')
    .where('withdrawn_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}
