import type { InsightsPanel, InsightsResponse } from '#contract/http/insights.ts';

/**
 * One CSV field: quoted, quotes doubled; a search term a spreadsheet would run as a formula
 * (`=`, `+`, `-`, `@` first) gets a leading apostrophe, as the catalogue export's fields do.
 */
function csvField(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/u.test(text)) text = `'${text}`;
  return `"${text.replace(/"/gu, '""')}"`;
}

function csv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]) {
  return [header, ...rows].map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** One panel of the insights as CSV: the same numbers as its chart and table. */
export function insightsCsv(insights: InsightsResponse, panel: InsightsPanel): string {
  switch (panel) {
    case 'searches-empty':
      return csv(
        [
          'term',
          'searches',
          ...new Set(insights.searchesEmpty.byWeek.map((row) => `week of ${row.week}`)),
        ],
        insights.searchesEmpty.terms.map((term) => {
          const weeks = [...new Set(insights.searchesEmpty.byWeek.map((row) => row.week))];
          return [
            term.term,
            term.searches,
            ...weeks.map(
              (week) =>
                insights.searchesEmpty.byWeek.find(
                  (row) => row.week === week && row.term === term.term,
                )?.searches ?? 0,
            ),
          ];
        }),
      );
    case 'searches-top':
      return csv(
        ['term', 'searches'],
        insights.searchesTop.map((row) => [row.term, row.searches]),
      );
    case 'items-viewed':
    case 'items-reserved':
    case 'items-borrowed': {
      const rows = {
        'items-viewed': insights.itemsViewed,
        'items-reserved': insights.itemsReserved,
        'items-borrowed': insights.itemsBorrowed,
      }[panel];
      return csv(
        ['item_id', 'title', 'count'],
        rows.map((row) => [row.itemId, row.title, row.count]),
      );
    }
    case 'requests':
      return csv(
        ['week', 'type', 'status', 'requests'],
        insights.requests.byWeek.map((row) => [row.week, row.type, row.status, row.count]),
      );
    case 'pickups':
      return csv(
        ['weekday', 'hour', 'pickups'],
        insights.pickups.cells.map((row) => [row.weekday, row.hour, row.count]),
      );
    case 'rooms': {
      // One row a day with messages or moderation, one column per kind of action taken.
      const { messagesByDay, moderationByDay } = insights.rooms;
      const actions = [...new Set(moderationByDay.map((row) => row.action))].sort();
      const days = [
        ...new Set([
          ...messagesByDay.map((row) => row.day),
          ...moderationByDay.map((row) => row.day),
        ]),
      ].sort();
      return csv(
        ['day', 'messages', ...actions],
        days.map((day) => [
          day,
          messagesByDay.find((row) => row.day === day)?.messages ?? 0,
          ...actions.map(
            (action) =>
              moderationByDay.find((row) => row.day === day && row.action === action)?.count ?? 0,
          ),
        ]),
      );
    }
    case 'chatbot-unanswered':
      // One row per wording, under its group's representative wording and total.
      return csv(
        ['group', 'group_questions', 'wording', 'questions'],
        insights.chatbotUnanswered.flatMap((group) =>
          group.variants.map((variant) => [
            group.wording,
            group.questions,
            variant.wording,
            variant.questions,
          ]),
        ),
      );
  }
}
