import { z } from 'zod';
import { RESERVATION_TIME_SLOTS } from '../limits.ts';

/** Most active reservations one person may hold at a time. */
export const ACTIVE_RESERVATIONS_MAX = 3;

/**
 * A reservation's life: active (the copy is held until 24 hours after the slot), then collected
 * at the desk (the copy is on loan until returned), or cancelled by its holder, expired when
 * nobody came, or marked no-show by the desk.
 */
export const RESERVATION_STATUSES = [
  'active',
  'collected',
  'returned',
  'cancelled',
  'expired',
  'no_show',
] as const;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

/** How each status reads on screen. */
export const RESERVATION_STATUS_LABELS: Record<ReservationStatus, string> = {
  active: 'Active',
  collected: 'Collected',
  returned: 'Returned',
  cancelled: 'Cancelled',
  expired: 'Expired',
  no_show: 'No-show',
};

/** The library desk's moves: from active to collected or no-show, from collected to returned. */
export const DESK_TRANSITIONS: Record<ReservationStatus, readonly ReservationStatus[]> = {
  active: ['collected', 'no_show'],
  collected: ['returned'],
  returned: [],
  cancelled: [],
  expired: [],
  no_show: [],
};

/** A reservable book in the spec's shape, with how many copies are free right now. */
export const reservationBookSchema = z.object({
  _id: z.string(),
  title: z.string(),
  author: z.string(),
  coverImage: z.string(),
  genre: z.string(),
  /** A copy is free to reserve. */
  available: z.boolean(),
  description: z.string(),
  copies: z.number(),
  freeCopies: z.number(),
  /**
   * Set when the caller's place on the book's waiting list came up: a copy waits for them until
   * then (so `available` is true for them though `freeCopies` may be 0).
   */
  offerExpiresAt: z.string().optional(),
});
export type ReservationBook = z.infer<typeof reservationBookSchema>;

/** The most books one page of `GET /api/users/reservation-books` lists (and its default). */
export const RESERVATION_BOOKS_PAGE_MAX = 200;

const blank = (value: unknown) => (value === '' ? undefined : value);

/**
 * `GET /api/users/reservation-books` query (issue 21): one book by id, or words of the title,
 * author or ISBN, an author, only books with a copy free now, and the page. None given: the first
 * page of all.
 */
export const reservationBooksQuerySchema = z.object({
  /** One book by its id (the "Reserve a copy" button of a catalogue item). */
  id: z.preprocess(blank, z.uuid({ message: 'id must be an item id' }).optional()),
  q: z.preprocess(
    blank,
    z.string().trim().max(200, 'The search is too long (200 characters at most)').optional(),
  ),
  author: z.preprocess(
    blank,
    z.string().trim().max(100, 'The author is too long (100 characters at most)').optional(),
  ),
  availableOnly: z
    .preprocess((value) => value === 'true' || value === true || value === '1', z.boolean())
    .default(false),
  page: z.coerce
    .number({ message: 'page must be a number' })
    .int('page must be a whole number')
    .min(1, 'page starts at 1')
    .max(10_000, 'page is at most 10000')
    .default(1),
  pageSize: z.coerce
    .number({ message: 'pageSize must be a number' })
    .int('pageSize must be a whole number')
    .min(1, 'pageSize is at least 1')
    .max(RESERVATION_BOOKS_PAGE_MAX, `pageSize is at most ${RESERVATION_BOOKS_PAGE_MAX}`)
    .default(RESERVATION_BOOKS_PAGE_MAX),
});
export type ReservationBooksQuery = z.output<typeof reservationBooksQuerySchema>;

/** `GET /api/users/reservation-books`: the seed's shape, with the page it is (issue 21). */
export const reservationBooksResponseSchema = z.object({
  success: z.literal(true),
  payload: z.array(reservationBookSchema),
  /** Books matching, on every page. */
  total: z.number().int().optional(),
  page: z.number().int().optional(),
  pageSize: z.number().int().optional(),
});

/** `GET /api/users/reservation-days`: the seven days one may choose, in the library's time zone. */
export const reservationDaysResponseSchema = z.object({
  timeZone: z.string(),
  days: z.array(
    z.object({
      /** `YYYY-MM-DD` in the library's time zone. */
      date: z.string(),
      formattedDate: z.string(),
      /** Each of the five slots, and whether it can still be chosen (not already over). */
      slots: z.array(z.object({ timeSlot: z.string(), open: z.boolean() })),
    }),
  ),
});
export type ReservationDays = z.infer<typeof reservationDaysResponseSchema>;

const optionalText = z.string().max(500).optional();

/**
 * `POST /api/users/reservation`, the spec's payload `{ user, book, reservation }`. The server
 * takes only `book.id`, `reservation.date` and `reservation.timeSlot` from it: the person is the
 * signed-in user, and the id, status and times are the server's.
 */
export const reservationRequestSchema = z.object({
  user: z
    .object({ email: optionalText, firstName: optionalText, phoneNumber: optionalText })
    .loose()
    .optional(),
  book: z
    .object(
      {
        id: z.string({ message: 'Please select a book and time slot' }).min(1).max(100),
        title: optionalText,
        author: optionalText,
        genre: optionalText,
      },
      { message: 'Please select a book and time slot' },
    )
    .loose(),
  reservation: z
    .object(
      {
        /** `YYYY-MM-DD`, or an ISO date-time read in the library's time zone. */
        date: z
          .string({ message: 'Choose a date' })
          .min(10, 'Choose a date')
          .max(40)
          .regex(
            /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/,
            'The date is not valid',
          ),
        timeSlot: z.enum(RESERVATION_TIME_SLOTS, {
          message: `Choose one of the time slots: ${RESERVATION_TIME_SLOTS.join(', ')}`,
        }),
        formattedDate: optionalText,
        reservationId: optionalText,
        status: optionalText,
        createdAt: optionalText,
      },
      { message: 'Please select a book and time slot' },
    )
    .loose(),
});
export type ReservationRequest = z.input<typeof reservationRequestSchema>;

/** A reservation as its holder sees it. */
export const reservationRecordSchema = z.object({
  /** `RES-` and digits, made by the server. */
  reservationId: z.string(),
  status: z.enum(RESERVATION_STATUSES),
  /** `YYYY-MM-DD` in the library's time zone. */
  date: z.string(),
  formattedDate: z.string(),
  timeSlot: z.string(),
  slotStartsAt: z.string(),
  /** The end of the hold: 24 hours after the slot begins. */
  expiresAt: z.string(),
  createdAt: z.string(),
  book: z.object({
    id: z.string(),
    title: z.string(),
    author: z.string(),
    genre: z.string(),
    coverImage: z.string(),
  }),
});
export type ReservationRecord = z.infer<typeof reservationRecordSchema>;

/** `POST /api/users/reservation` and `DELETE /api/users/reservations/:id` answer. */
export const reservationResponseSchema = z.object({
  success: z.literal(true),
  reservation: reservationRecordSchema,
});

/** `GET /api/users/reservations`: the caller's own, upcoming first, then the rest newest first. */
export const myReservationsResponseSchema = z.object({
  payload: z.array(reservationRecordSchema),
});

/** A reservation as the library desk sees it: who holds it. */
export const deskReservationSchema = reservationRecordSchema.extend({
  holder: z.object({ name: z.string(), email: z.string(), phoneNumber: z.string() }),
});
export type DeskReservation = z.infer<typeof deskReservationSchema>;

/** `GET /api/desk/pickups?date=YYYY-MM-DD` (default today). */
export const deskPickupsQuerySchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD')
    .optional(),
});
export const deskPickupsResponseSchema = z.object({
  date: z.string(),
  formattedDate: z.string(),
  /** The day's five slots in order, each with its reservations (any status). */
  slots: z.array(z.object({ timeSlot: z.string(), reservations: z.array(deskReservationSchema) })),
  /** Copies collected and not yet returned, oldest first. */
  onLoan: z.array(deskReservationSchema),
});
export type DeskPickups = z.infer<typeof deskPickupsResponseSchema>;

/** `PATCH /api/desk/reservations/:id`. */
export const deskStatusChangeSchema = z.object({
  status: z.enum(['collected', 'no_show', 'returned'], {
    message: 'status must be collected, no_show or returned',
  }),
});
export const deskReservationResponseSchema = z.object({
  success: z.literal(true),
  reservation: deskReservationSchema,
});
