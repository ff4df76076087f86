import { z } from 'zod';
import { DATABASE_BIGINT_MAX, isDatabaseBigintId } from '../limits.ts';

/** Messages shown on either side of a reported one in the queue. */
export const MODERATION_CONTEXT = 5;
/** The longest reason a moderator may give. */
export const MODERATION_REASON_MAX = 500;
/** How often the queue screen asks again (polling, decision 040). */
export const MODERATION_POLL_MS = 5_000;

/** What a moderator may do to a reported message and its sender. */
export const MODERATION_ACTIONS = ['dismiss', 'hide', 'restore', 'mute', 'remove'] as const;
export type ModerationActionKind = (typeof MODERATION_ACTIONS)[number];
/** What the history records: the actions above, and `lift`, a mute or removal ended early (044). */
export const MODERATION_HISTORY_ACTIONS = [...MODERATION_ACTIONS, 'lift'] as const;

/** How long a mute or a removal lasts, and its length in seconds. */
export const MODERATION_DURATIONS = { '10m': 600, '1h': 3_600, '1d': 86_400 } as const;
export type ModerationDuration = keyof typeof MODERATION_DURATIONS;
export const MODERATION_DURATION_LABELS: Record<ModerationDuration, string> = {
  '10m': '10 minutes',
  '1h': '1 hour',
  '1d': '1 day',
};

/**
 * A chat message as the moderators see it: `contract/socket/chat.ts`'s message (the HTTP contract
 * does not import the socket one), its text whole even when hidden.
 */
const chatMessageSchema = z.object({
  id: z.string(),
  room: z.string(),
  sender: z.string(),
  senderId: z.string().nullable(),
  content: z.string(),
  time: z.string(),
  isSystemMessage: z.boolean(),
  isStaff: z.boolean().optional(),
  hidden: z.boolean().optional(),
  /** Edited by its sender since (decision 043): the text is the edited one. */
  editedAt: z.string().optional(),
  /** Deleted by its sender since (decision 043): the text is kept for the moderators. */
  deleted: z.boolean().optional(),
});

/** One reported message with its context, as the librarians' queue shows it. */
export const moderationQueueItemSchema = z.object({
  message: chatMessageSchema,
  roomName: z.string(),
  reporterCount: z.number().int(),
  /** How many reports gave each reason. */
  reasons: z.record(z.string(), z.number().int()),
  /** The reporters' notes, without their names. */
  notes: z.array(z.string()),
  firstReportedAt: z.string(),
  before: z.array(chatMessageSchema),
  after: z.array(chatMessageSchema),
});
export type ModerationQueueItem = z.infer<typeof moderationQueueItemSchema>;

/** One recorded action: who did what to whom, why, and until when. */
export const moderationActionSchema = z.object({
  id: z.string(),
  actor: z.string(),
  action: z.enum(MODERATION_HISTORY_ACTIONS),
  target: z.string(),
  roomName: z.string(),
  messageId: z.string().nullable(),
  scope: z.enum(['room', 'everywhere']).nullable(),
  reason: z.string(),
  createdAt: z.string(),
  endsAt: z.string().nullable(),
});
export type ModerationAction = z.infer<typeof moderationActionSchema>;

/** A mute or removal in force (decision 044): a librarian may end it early. */
export const moderationSanctionSchema = z.object({
  id: z.string(),
  kind: z.enum(['mute', 'remove']),
  person: z.string(),
  /** The room, or null for a mute in every room. */
  roomName: z.string().nullable(),
  reason: z.string(),
  endsAt: z.string(),
});
export type ModerationSanction = z.infer<typeof moderationSanctionSchema>;

/** `GET /api/moderation/queue`: open reports, most reported first, and the latest actions. */
export const moderationQueueResponseSchema = z.object({
  reports: z.array(moderationQueueItemSchema),
  /** Messages hidden now, which a librarian may restore. */
  hidden: z.array(moderationQueueItemSchema),
  history: z.array(moderationActionSchema),
  /** Mutes and removals in force, ending soonest first (decision 044). */
  sanctions: z.array(moderationSanctionSchema).optional(),
});
export type ModerationQueue = z.infer<typeof moderationQueueResponseSchema>;

/** `POST /api/moderation/actions`: one action on one message (and its sender). */
export const moderationActionRequestSchema = z
  .object({
    messageId: z
      .string({ message: 'messageId must be a message id' })
      .regex(/^\d{1,20}$/, 'messageId must be a message id')
      .refine(
        isDatabaseBigintId,
        `messageId must be a message id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`,
      ),
    action: z.enum(MODERATION_ACTIONS, {
      message: `action is one of ${MODERATION_ACTIONS.join(', ')}`,
    }),
    reason: z
      .string({ message: 'Please give a reason' })
      .trim()
      .min(1, 'Please give a reason')
      .max(MODERATION_REASON_MAX, `Reasons are at most ${MODERATION_REASON_MAX} characters`),
    scope: z.enum(['room', 'everywhere'], { message: 'scope is room or everywhere' }).optional(),
    duration: z
      .enum(Object.keys(MODERATION_DURATIONS) as [ModerationDuration, ...ModerationDuration[]], {
        message: 'duration is 10m, 1h or 1d',
      })
      .optional(),
  })
  .refine((body) => !(body.action === 'mute' || body.action === 'remove') || body.duration, {
    message: 'Choose how long: 10 minutes, 1 hour or 1 day',
    path: ['duration'],
  })
  .refine((body) => body.action !== 'mute' || body.scope, {
    message: 'Choose where: this room or everywhere',
    path: ['scope'],
  });
export type ModerationActionRequest = z.input<typeof moderationActionRequestSchema>;
export const moderationActionResponseSchema = z.object({ action: moderationActionSchema });

/** `POST /api/moderation/sanctions/{id}/end`: ends a mute or removal now, with why (decision 044). */
export const endSanctionParamsSchema = z.object({
  id: z
    .string()
    .regex(/^\d{1,20}$/, 'id must be a sanction id')
    .refine(isDatabaseBigintId, `id must be a whole number from 1 to ${DATABASE_BIGINT_MAX}`),
});
export const endSanctionRequestSchema = z.object({
  reason: z
    .string({ message: 'Please give a reason' })
    .trim()
    .min(1, 'Please give a reason')
    .max(MODERATION_REASON_MAX, `Reasons are at most ${MODERATION_REASON_MAX} characters`),
});
export type EndSanctionRequest = z.input<typeof endSanctionRequestSchema>;
export const endSanctionResponseSchema = z.object({ action: moderationActionSchema });
