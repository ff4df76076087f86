import { z } from 'zod';

/** Most open holds (queued or offered) one person may have at a time. */
export const QUEUED_HOLDS_MAX = 5;

/** How long an offered copy waits for its holder to pick a pickup slot. */
export const OFFER_HOURS = 48;

/**
 * A hold's life: queued (waiting for a copy), offered (a freed copy waits 48 hours for a pickup
 * slot), then fulfilled (the reservation was made), cancelled by its holder, or expired (the
 * offer lapsed; the copy went to the next in the queue).
 */
export const HOLD_STATUSES = ['queued', 'offered', 'fulfilled', 'cancelled', 'expired'] as const;
export type HoldStatus = (typeof HOLD_STATUSES)[number];

/** How each status reads on screen. */
export const HOLD_STATUS_LABELS: Record<HoldStatus, string> = {
  queued: 'Waiting',
  offered: 'Ready to reserve',
  fulfilled: 'Reserved',
  cancelled: 'Left the list',
  expired: 'Offer lapsed',
};

/** `POST /api/users/holds`: join a book's waiting list. The holder is the caller. */
export const holdRequestSchema = z.object({
  bookId: z.string({ message: 'Choose a book' }).min(1, 'Choose a book').max(100),
});
export type HoldRequest = z.input<typeof holdRequestSchema>;

/** A place in a book's waiting list, as its holder sees it. */
export const holdRecordSchema = z.object({
  /** `HOLD-` and digits, made by the server. */
  holdId: z.string(),
  status: z.enum(HOLD_STATUSES),
  /** 1 for the next in line; only while queued. */
  position: z.number().int().nullable(),
  /** About how many days until a copy is offered (position, copies and loan length); queued only. */
  estimatedDays: z.number().int().nullable(),
  /** When the offer lapses; only while offered. */
  offerExpiresAt: z.string().nullable(),
  /** The reservation made from the offer; only when fulfilled. */
  reservationId: z.string().nullable(),
  createdAt: z.string(),
  book: z.object({
    id: z.string(),
    title: z.string(),
    author: z.string(),
    coverImage: z.string(),
  }),
});
export type HoldRecord = z.infer<typeof holdRecordSchema>;

/** `POST /api/users/holds` and `DELETE /api/users/holds/:id` answer. */
export const holdResponseSchema = z.object({
  success: z.literal(true),
  hold: holdRecordSchema,
});

/** `GET /api/users/holds`: open holds first (offers, then the queue), then the rest newest first. */
export const myHoldsResponseSchema = z.object({
  payload: z.array(holdRecordSchema),
});
