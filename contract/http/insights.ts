import { z } from 'zod';

/**
 * Library insights (issue 27): counts librarians act on, never what one person did. A term or
 * item counted for fewer than {@link INSIGHTS_MIN_PEOPLE} distinct people in the period is never
 * answered (docs/privacy.md says how distinct people are counted).
 */
export const INSIGHTS_MIN_PEOPLE = 5;

/** The periods a librarian may choose, in days. */
export const INSIGHTS_PERIODS = [7, 30, 365] as const;
export type InsightsPeriod = (typeof INSIGHTS_PERIODS)[number];

/** `?period=`: 7, 30 or 365 days; 30 when absent. */
export const insightsQuerySchema = z.object({
  period: z.coerce
    .number({ message: 'period must be 7, 30 or 365 (days)' })
    .refine(
      (value): value is InsightsPeriod => (INSIGHTS_PERIODS as readonly number[]).includes(value),
      'period must be 7, 30 or 365 (days)',
    )
    .default(30),
});
export type InsightsQuery = z.infer<typeof insightsQuerySchema>;

/** The panels, each also downloadable as CSV. */
export const INSIGHTS_PANELS = [
  'searches-empty',
  'searches-top',
  'items-viewed',
  'items-reserved',
  'items-borrowed',
  'requests',
  'pickups',
  'rooms',
  'chatbot-unanswered',
] as const;
export type InsightsPanel = (typeof INSIGHTS_PANELS)[number];

/** `GET /api/insights/export.csv?panel=&period=`. */
export const insightsExportQuerySchema = insightsQuerySchema.extend({
  panel: z.enum(INSIGHTS_PANELS, {
    message: `panel must be one of ${INSIGHTS_PANELS.join(', ')}`,
  }),
});

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** A search term with how often it was searched in the period. */
export const insightTermSchema = z.object({ term: z.string(), searches: z.number().int() });
export type InsightTerm = z.infer<typeof insightTermSchema>;

/** An item with how often it was viewed, reserved or borrowed in the period. */
export const insightItemSchema = z.object({
  itemId: z.string(),
  title: z.string(),
  count: z.number().int(),
});
export type InsightItem = z.infer<typeof insightItemSchema>;

/** One group of similar questions the chatbot could not answer. */
export const insightQuestionGroupSchema = z.object({
  /** The wording asked most often: the group's name. */
  wording: z.string(),
  /** Questions of the group in the period, every wording counted. */
  questions: z.number().int(),
  /** Its wordings, most asked first (at most 10). */
  variants: z.array(z.object({ wording: z.string(), questions: z.number().int() })),
});
export type InsightQuestionGroup = z.infer<typeof insightQuestionGroupSchema>;

/** The answer of `GET /api/insights`: every panel for one period. */
export const insightsResponseSchema = z.object({
  period: z.number().int(),
  /** The first and last day counted (the library's days). */
  from: day,
  to: day,
  searchesEmpty: z.object({
    terms: z.array(insightTermSchema),
    /** Each listed term's searches per week (weeks start on Monday). */
    byWeek: z.array(z.object({ week: day, term: z.string(), searches: z.number().int() })),
  }),
  searchesTop: z.array(insightTermSchema),
  itemsViewed: z.array(insightItemSchema),
  itemsReserved: z.array(insightItemSchema),
  itemsBorrowed: z.array(insightItemSchema),
  requests: z.object({
    byWeek: z.array(
      z.object({
        week: day,
        type: z.string(),
        status: z.string(),
        count: z.number().int(),
      }),
    ),
    /** Median hours from filing to the first answer, of the period's answered requests. */
    medianHoursToAnswer: z.number().nullable(),
    answered: z.number().int(),
  }),
  pickups: z.object({
    /** Pickup slots of the period: ISO weekday (1 Monday … 7 Sunday) × hour, library time. */
    cells: z.array(
      z.object({
        weekday: z.number().int().min(1).max(7),
        hour: z.number().int().min(0).max(23),
        count: z.number().int(),
      }),
    ),
    /** No-shows among the period's past pickups (collected, returned, no-show), 0–1. */
    noShowRate: z.number().nullable(),
    noShows: z.number().int(),
    due: z.number().int(),
  }),
  rooms: z.object({
    messagesByDay: z.array(z.object({ day, messages: z.number().int() })),
    activeRooms: z.number().int(),
    /** Moderators' actions (decision 040) per day and kind: how many, never who or whom. */
    moderationByDay: z.array(z.object({ day, action: z.string(), count: z.number().int() })),
  }),
  /**
   * Questions the Digi Chatbot could not answer, grouped by similar wording (decision 041): a
   * group asked by fewer than 5 distinct people on any one day of the period is never listed.
   */
  chatbotUnanswered: z.array(insightQuestionGroupSchema),
});
export type InsightsResponse = z.infer<typeof insightsResponseSchema>;

/** The answer of `GET /api/insights/my-materials`: the caller's own published materials. */
export const myMaterialsInsightsSchema = z.object({
  period: z.number().int(),
  materials: z.array(
    z.object({
      itemId: z.string(),
      title: z.string(),
      /** Opens per week, or null when fewer than 5 people opened it on any one day. */
      weeks: z.array(z.object({ week: day, opens: z.number().int() })).nullable(),
    }),
  ),
});
export type MyMaterialsInsights = z.infer<typeof myMaterialsInsightsSchema>;

/** The answer of `GET /api/insights/today`: what needs the desk's action today. */
export const deskTodaySchema = z.object({
  pickupsWaiting: z.number().int(),
  overdueLoans: z.number().int(),
  openRequests: z.number().int(),
  /** Messages with members' reports no moderator has acted on yet (`/desk/moderation`). */
  openReports: z.number().int(),
});
export type DeskToday = z.infer<typeof deskTodaySchema>;

/** The answer of `POST /api/items/:id/opened`. */
export const openedResponseSchema = z.object({ success: z.literal(true) });
