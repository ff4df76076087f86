import {
  deskTodaySchema,
  insightsExportQuerySchema,
  insightsQuerySchema,
  insightsResponseSchema,
  myMaterialsInsightsSchema,
  openedResponseSchema,
} from '#contract/http/insights.ts';
import { NO_SUCH_ITEM } from '../../catalogue/items.ts';
import { parseInput } from '../../http/errors.ts';
import {
  deskToday,
  insightsWindow,
  isCourseMaterial,
  libraryInsights,
  myMaterialOpens,
} from '../../insights/store.ts';
import { insightsCsv } from '../../presenters/insights.ts';
import { Refusal } from '../../refusal.ts';
import type { RouteContext } from '../context.ts';
import {
  declareRoute,
  signedInCaller,
  uuidParams,
  type DeclaringInstance,
} from '../declare-route.ts';
import { recordInsight } from './record.ts';

const THRESHOLD =
  'A term or item counted for fewer than 5 distinct people in the period is never listed (docs/privacy.md).';

/**
 * Library insights (issue 27): the librarians' counts, a faculty member's own materials' opens,
 * the desk's numbers for today, and the beacon a course material's opening sends.
 */
export async function insightRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;
  const timeZone = context.config.library.timeZone;

  app.get(
    '/insights',
    declareRoute({
      tag: 'insights',
      summary: 'Library insights for a period of 7, 30 or 365 days',
      description: THRESHOLD,
      access: ['librarian'],
      query: insightsQuerySchema,
      response: insightsResponseSchema,
    }),
    async (request) => {
      const { period } = parseInput(insightsQuerySchema, request.query);
      const now = context.now();
      return libraryInsights(db, insightsWindow(period, now, timeZone), now);
    },
  );

  app.get(
    '/insights/export.csv',
    declareRoute({
      tag: 'insights',
      summary: 'One insights panel as CSV (text/csv)',
      description: THRESHOLD,
      access: ['librarian'],
      query: insightsExportQuerySchema,
      download: {
        contentType: 'text/csv',
        description: 'The numbers of one panel, as its table shows them.',
      },
    }),
    async (request, reply) => {
      const { period, panel } = parseInput(insightsExportQuerySchema, request.query);
      const now = context.now();
      const insights = await libraryInsights(db, insightsWindow(period, now, timeZone), now);
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="insights-${panel}-${period}d.csv"`);
      return reply.send(insightsCsv(insights, panel));
    },
  );

  app.get(
    '/insights/my-materials',
    declareRoute({
      tag: 'insights',
      summary: "How often the caller's published course materials were opened, per week",
      description: `The last 365 days. ${THRESHOLD} Such a material has \`weeks: null\`.`,
      access: ['faculty', 'librarian'],
      response: myMaterialsInsightsSchema,
    }),
    async (request) => {
      const caller = signedInCaller(request);
      const window = insightsWindow(365, context.now(), timeZone);
      return { period: 365, materials: await myMaterialOpens(db, caller.id, window) };
    },
  );

  app.get(
    '/insights/today',
    declareRoute({
      tag: 'insights',
      summary: 'What needs the desk today: pickups waiting, overdue loans, open requests',
      access: ['librarian'],
      response: deskTodaySchema,
    }),
    async () => deskToday(db, context.now(), timeZone),
  );

  app.post(
    '/items/:id/opened',
    declareRoute({
      tag: 'insights',
      summary: 'Counts a course material opened in the reader',
      description:
        'Counted, never linked to the person (docs/privacy.md). 404 for an item that is not a course material.',
      access: 'guest',
      params: uuidParams('course material'),
      response: openedResponseSchema,
    }),
    async (request) => {
      if (!(await isCourseMaterial(db, request.params.id))) throw new Refusal(404, NO_SUCH_ITEM);
      recordInsight(context.insights, request, { kind: 'open', subject: request.params.id });
      return { success: true as const };
    },
  );
}
