import { z } from 'zod';
import {
  deskPickupsQuerySchema,
  deskPickupsResponseSchema,
  deskReservationResponseSchema,
  deskStatusChangeSchema,
  myReservationsResponseSchema,
  reservationBooksQuerySchema,
  reservationBooksResponseSchema,
  reservationDaysResponseSchema,
  reservationRequestSchema,
  reservationResponseSchema,
} from '#contract/http/reservations.ts';
import type { ErrorResponse } from '#contract/http/errors.ts';
import { parseInput } from '../../http/errors.ts';
import { wakeNotices } from '../../notices/job.ts';
import { idempotencyKey, runIdempotent } from '../../http/idempotency.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import {
  presentDeskDay,
  presentDeskReservation,
  presentReservation,
  presentReservationBook,
} from '../../presenters/reservations.ts';
import { reservationDays } from '../../reservations/calendar.ts';
import { changeDeskStatus, deskDay } from '../../reservations/desk.ts';
import { reservableBooks } from '../../reservations/holds.ts';
import {
  cancelReservation,
  findOwnReservation,
  ownReservations,
  reserve,
} from '../../reservations/holder.ts';
import { sendReservationConfirmation } from '../../reservations/notify.ts';
import { Refusal } from '../../refusal.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/** Reservations one person may make in ten minutes: plenty for people, a wall for scripts. */
const RESERVE_RATE = { limit: 60, windowSeconds: 600 };

/** A reservation's id, as `reservationId` shows it. */
const reservationParams = z.object({
  id: z
    .string()
    .regex(/^RES-\d+$/)
    .describe('The reservation id, `RES-` and digits; any other text is a 404.'),
});

/** The header that makes `POST /api/users/reservation` safe to retry. */
const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{8,255}$/)
    .optional()
    .describe(
      'Retries with the same key and body get the first answer back; another body with the key is a 422.',
    ),
});

/**
 * Physical-book reservations: the reservable books and days, reserving a copy (one transaction
 * that locks the holder and the book, with `Idempotency-Key` retries), one's own list and
 * cancelling, and the librarians' desk.
 */
export async function reservationRoutes(
  app: DeclaringInstance,
  context: RouteContext,
): Promise<void> {
  const db = context.database.db;
  const timeZone = context.config.library.timeZone;

  app.get(
    '/users/reservation-books',
    declareRoute({
      tag: 'reservations',
      summary: 'Books with physical copies, and whether one is free',
      description:
        'By title; optionally narrowed by words of the title, author or ISBN (`q`), an author, and to books with a copy free now (`availableOnly`), one page at a time. Without parameters: the first page of all.',
      access: 'signed-in',
      query: reservationBooksQuerySchema,
      response: reservationBooksResponseSchema,
    }),
    async (request) => {
      const query = parseInput(reservationBooksQuerySchema, request.query);
      const caller = signedInCaller(request);
      const { rows, total } = await reservableBooks(db, context.now(), query, caller.id);
      return {
        success: true as const,
        payload: rows.map(presentReservationBook),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  );

  app.get(
    '/users/reservation-days',
    declareRoute({
      tag: 'reservations',
      summary: "The seven days and five slots in the library's time zone",
      access: 'signed-in',
      response: reservationDaysResponseSchema,
    }),
    async () => {
      return { timeZone, days: reservationDays(context.now(), timeZone) };
    },
  );

  app.post(
    '/users/reservation',
    declareRoute({
      tag: 'reservations',
      summary: 'Reserve a copy of a book for a pickup slot',
      description: 'The holder is the caller; the server takes only the book id, date and slot.',
      access: 'signed-in',
      headers: idempotencyHeaders,
      body: reservationRequestSchema,
      response: reservationResponseSchema,
      rateLimited: true,
      verifiedEmail: true,
      errors: {
        404: 'No such reservable book.',
        409: 'No copy is free, or the caller already holds this book or the most reservations.',
        422: 'The Idempotency-Key was used with another body.',
      },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const key = idempotencyKey(request.headers['idempotency-key']);
      await enforceRateLimits(db, [{ key: `reserve:user:${user.id}`, ...RESERVE_RATE }]);
      const body = parseInput(reservationRequestSchema, request.body);
      const now = context.now();

      const outcome = await runIdempotent(
        db,
        {
          userId: user.id,
          key,
          method: 'POST',
          path: '/api/users/reservation',
          body: request.body,
        },
        async (trx) => {
          const row = await reserve(trx, {
            userId: user.id,
            itemId: body.book.id,
            date: body.reservation.date,
            slot: body.reservation.timeSlot,
            timeZone,
            now,
          });
          return { statusCode: 200, body: { success: true, reservation: presentReservation(row) } };
        },
      );

      if (!outcome.replayed && outcome.statusCode === 200) {
        const { reservation } = outcome.body as { reservation: { reservationId: string } };
        const row = await findOwnReservation(db, user.id, reservation.reservationId, context.now());
        sendReservationConfirmation(context, user, row).catch((error: unknown) =>
          request.log.error({ err: error }, 'the reservation confirmation could not be sent'),
        );
      }
      if (outcome.statusCode !== 200) {
        // A refusal, first or replayed, is kept as its error body: it is answered again as such.
        const { message, errors } = outcome.body as ErrorResponse;
        throw new Refusal(outcome.statusCode, message, errors);
      }
      return outcome.body as z.output<typeof reservationResponseSchema>;
    },
  );

  app.get(
    '/users/reservations',
    declareRoute({
      tag: 'reservations',
      summary: "The caller's own reservations",
      access: 'signed-in',
      response: myReservationsResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const rows = await ownReservations(db, user.id, context.now());
      return { payload: rows.map(presentReservation) };
    },
  );

  app.delete(
    '/users/reservations/:id',
    declareRoute({
      tag: 'reservations',
      summary: "Cancel one's own active reservation",
      description: "Anyone else's is a 404.",
      access: 'signed-in',
      params: reservationParams,
      response: reservationResponseSchema,
      errors: { 409: 'The reservation is no longer active.' },
    }),
    async (request) => {
      const user = signedInCaller(request);
      const row = await cancelReservation(db, user.id, request.params.id, context.now());
      wakeNotices(context.jobs, request.log);
      return { success: true as const, reservation: presentReservation(row) };
    },
  );

  app.get(
    '/desk/pickups',
    declareRoute({
      tag: 'desk',
      summary: "A day's pickups by slot, and the copies on loan",
      access: ['librarian'],
      query: deskPickupsQuerySchema,
      response: deskPickupsResponseSchema,
    }),
    async (request) => {
      const query = parseInput(deskPickupsQuerySchema, request.query);
      return presentDeskDay(await deskDay(db, query.date, context.now(), timeZone));
    },
  );

  app.patch(
    '/desk/reservations/:id',
    declareRoute({
      tag: 'desk',
      summary: 'Mark a reservation collected, no-show or returned',
      access: ['librarian'],
      params: reservationParams,
      body: deskStatusChangeSchema,
      response: deskReservationResponseSchema,
      errors: { 409: 'The reservation cannot take that status from where it is.' },
    }),
    async (request) => {
      const { status } = parseInput(deskStatusChangeSchema, request.body);
      const librarian = signedInCaller(request);
      const row = await changeDeskStatus(db, request.params.id, status, context.now(), {
        actor: { id: librarian.id, name: librarian.name },
        terms: { loanDays: context.config.library.loanDays, timeZone },
      });
      wakeNotices(context.jobs, request.log);
      return { success: true as const, reservation: presentDeskReservation(row) };
    },
  );
}
