import { z } from 'zod';
import { DATABASE_BIGINT_MAX, isDatabaseBigintId } from '../limits.ts';

/**
 * The kinds of notice the library sends (issue 21). In-app notices are always kept; each person
 * chooses, per kind, whether the same notice also comes by e-mail.
 */
export const NOTICE_KINDS = [
  'hold_offered',
  'pickup_reminder',
  'due_soon',
  'overdue',
  'request_status',
  'moderation',
  'mention',
] as const;
export type NoticeKind = (typeof NOTICE_KINDS)[number];

/** How each kind is named on the preferences page and in an e-mail's unsubscribe line. */
export const NOTICE_KIND_LABELS: Record<NoticeKind, string> = {
  hold_offered: 'A copy you waited for is ready to reserve',
  pickup_reminder: 'Reminder one hour before your pickup slot',
  due_soon: 'A loan is due in 2 days',
  overdue: 'A loan is overdue',
  request_status: 'A resource request you made changed status',
  moderation: 'A moderator muted you or removed you from a chat room',
  mention: 'Someone mentioned you in a chat room while you were away',
};

/**
 * The kinds whose e-mail is off until the person turns it on (decision 042): a busy room could
 * otherwise fill an inbox. Every other kind comes by e-mail unless turned off.
 */
export const NOTICE_KINDS_EMAIL_OFF_BY_DEFAULT: readonly NoticeKind[] = ['mention'];

/** Most notices one page of `GET /api/notices` lists. */
export const NOTICES_PAGE_MAX = 50;

/** A notice's id as a client sends it back: decimal text within the column's (bigint) range. */
const noticeId = (field: string) =>
  z
    .string()
    .regex(/^\d{1,20}$/, `${field} must be a notice id`)
    .refine(
      isDatabaseBigintId,
      `${field} must be a notice id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`,
    );

/** One notice as its recipient sees it. */
export const noticeSchema = z.object({
  id: z.string(),
  kind: z.enum(NOTICE_KINDS),
  title: z.string(),
  body: z.string(),
  /** A path inside the app that the notice is about (its book, loan list, request). */
  link: z.string(),
  createdAt: z.string(),
  /** Null until its recipient has read it. */
  readAt: z.string().nullable(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** `GET /api/notices?before=<id>&limit=N`: newest first, and the caller's unread count. */
export const noticesQuerySchema = z.object({
  /** The id of the last notice of the previous page. */
  before: z.preprocess(
    (value) => (value === '' ? undefined : value),
    noticeId('before').optional(),
  ),
  limit: z.coerce
    .number({ message: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit is at least 1')
    .max(NOTICES_PAGE_MAX, `limit is at most ${NOTICES_PAGE_MAX}`)
    .default(20),
});
export const noticesResponseSchema = z.object({
  payload: z.array(noticeSchema),
  unread: z.number().int(),
  /** More, older notices exist. */
  hasMore: z.boolean(),
});

/** `POST /api/notices/read`: these notices, or all of the caller's when `all` is true. */
export const markNoticesReadSchema = z
  .object({
    ids: z.array(noticeId('ids')).max(NOTICES_PAGE_MAX).optional(),
    all: z.boolean().optional(),
  })
  .refine((value) => value.all === true || (value.ids?.length ?? 0) > 0, {
    message: 'Name the notices to mark read, or all of them',
  });
export const markNoticesReadResponseSchema = z.object({ unread: z.number().int() });

/** Per kind: whether the notice also comes by e-mail (in-app notices are always kept). */
export const noticePreferencesSchema = z.object({
  email: z.record(z.enum(NOTICE_KINDS), z.boolean()),
});
export type NoticePreferences = z.infer<typeof noticePreferencesSchema>;

/** `PUT /api/users/me/notices`: any kinds given are set; the others stay. */
export const noticePreferencesUpdateSchema = z.object({
  email: z.partialRecord(z.enum(NOTICE_KINDS), z.boolean()),
});

/** `POST /api/notices/unsubscribe`: the signed token of an e-mail's unsubscribe link. */
export const unsubscribeRequestSchema = z.object({
  token: z.string().min(1, 'The unsubscribe link is incomplete').max(500),
});
export const unsubscribeResponseSchema = z.object({
  success: z.literal(true),
  kind: z.enum(NOTICE_KINDS),
  /** What the person will no longer get by e-mail. */
  message: z.string(),
});
