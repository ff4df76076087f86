import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import {
  DESK_TRANSITIONS,
  deskPickupsQuerySchema,
  deskStatusChangeSchema,
  RESERVATION_STATUS_LABELS,
  reservationRequestSchema,
} from '../../../contract/http/reservations.ts';
import { RESERVATION_DAYS_AHEAD, RESERVATION_TIME_SLOTS } from '../../../contract/limits.ts';
import { requireUser, type UserRow } from '../../auth/session.ts';
import { isReservationId } from '../../db/ids.ts';
import { parseInput } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';
import { idempotencyKey, runIdempotent } from '../../http/idempotency.ts';
import { enforceRateLimits } from '../../http/rate-limit.ts';
import {
  presentDeskReservation,
  presentReservation,
  presentReservationBook,
} from '../../presenters/reservations.ts';
import {
  isSlotOpen,
  localDate,
  reservableDates,
  reservationDays,
  requestedDate,
  formatDate,
} from '../../reservations/calendar.ts';
import {
  activeAt,
  expireHolds,
  reservableBooks,
  reservationQuery,
  reserveCopy,
  type ReservationRow,
} from '../../reservations/holds.ts';
import { sendReservationConfirmation } from '../../reservations/notify.ts';
import type { RouteContext } from '../context.ts';

/** Reservations one person may make in ten minutes: plenty for people, a wall for scripts. */
const RESERVE_RATE = { limit: 60, windowSeconds: 600 };

/**
 * Physical-book reservations: the reservable books and days, reserving a copy (one transaction
 * that locks the holder and the book, with `Idempotency-Key` retries), one's own list and
 * cancelling, and the librarians' desk.
 */
export async function reservationRoutes(
  app: FastifyInstance,
  context: RouteContext,
): Promise<void> {
  const db = context.database.db;
  const timeZone = context.config.library.timeZone;

  const findOwn = async (user: UserRow, id: string): Promise<ReservationRow> => {
    const row = await reservationQuery(db, context.now())
      .where('r.id', '=', id)
      .where('r.user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) throw new Refusal(404, 'You have no reservation with that id.');
    return row;
  };

  app.get('/users/reservation-books', async (request, reply) => {
    await requireUser(request, reply, context);
    const rows = await reservableBooks(db, context.now());
    return { success: true, payload: rows.map(presentReservationBook) };
  });

  app.get('/users/reservation-days', async (request, reply) => {
    await requireUser(request, reply, context);
    return { timeZone, days: reservationDays(context.now(), timeZone) };
  });

  app.post('/users/reservation', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    const key = idempotencyKey(request.headers['idempotency-key']);
    await enforceRateLimits(db, [{ key: `reserve:user:${user.id}`, ...RESERVE_RATE }]);
    const body = parseInput(reservationRequestSchema, request.body);
    const now = context.now();

    const outcome = await runIdempotent(
      db,
      { userId: user.id, key, method: 'POST', path: '/api/users/reservation', body: request.body },
      async (trx) => {
        const date = requestedDate(body.reservation.date, timeZone);
        const dates = reservableDates(now, timeZone);
        if (date === null) throw new Refusal(400, 'The reservation date is not a real date.');
        if (!dates.includes(date)) {
          throw new Refusal(
            400,
            `Choose a date from ${formatDate(dates[0]!)} to ${formatDate(dates.at(-1)!)} (today and the next ${RESERVATION_DAYS_AHEAD - 1} days).`,
          );
        }
        if (!isSlotOpen(date, body.reservation.timeSlot, now, timeZone)) {
          throw new Refusal(
            400,
            `The ${body.reservation.timeSlot} slot is already over today. Please choose a later slot or another day.`,
          );
        }
        const id = await reserveCopy(trx, {
          userId: user.id,
          itemId: body.book.id,
          date,
          slot: body.reservation.timeSlot,
          timeZone,
          now,
        });
        const row = await reservationQuery(trx, now)
          .where('r.id', '=', id)
          .executeTakeFirstOrThrow();
        return { statusCode: 200, body: { success: true, reservation: presentReservation(row) } };
      },
    );

    if (!outcome.replayed && outcome.statusCode === 200) {
      const { reservation } = outcome.body as { reservation: { reservationId: string } };
      const row = await findOwn(user, reservation.reservationId);
      sendReservationConfirmation(context, user, row).catch((error: unknown) =>
        request.log.error({ err: error }, 'the reservation confirmation could not be sent'),
      );
    }
    return reply.code(outcome.statusCode).send(outcome.body);
  });

  app.get('/users/reservations', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    // A GET writes nothing: a hold past its time reads as expired (`reservationQuery`).
    const now = context.now();
    const rows = await reservationQuery(db, now)
      .where('r.user_id', '=', user.id)
      .orderBy(sql`CASE WHEN ${activeAt(now)} THEN 0 ELSE 1 END`)
      .orderBy(sql`CASE WHEN ${activeAt(now)} THEN r.slot_starts_at END`, 'asc')
      .orderBy('r.created_at', 'desc')
      .limit(100)
      .execute();
    return { payload: rows.map(presentReservation) };
  });

  app.delete<{ Params: { id: string } }>('/users/reservations/:id', async (request, reply) => {
    const user = await requireUser(request, reply, context);
    if (!isReservationId(request.params.id))
      throw new Refusal(404, 'You have no reservation with that id.');
    const now = context.now();
    await expireHolds(db, now, { userId: user.id });
    const cancelled = await db
      .updateTable('reservations')
      .set({ status: 'cancelled', updated_at: now })
      .where('id', '=', request.params.id)
      .where('user_id', '=', user.id)
      .where('status', '=', 'active')
      .returning('id')
      .executeTakeFirst();
    const row = await findOwn(user, request.params.id);
    if (!cancelled) {
      throw new Refusal(
        409,
        `This reservation is ${RESERVATION_STATUS_LABELS[row.status].toLowerCase()} and can no longer be cancelled.`,
      );
    }
    return { success: true, reservation: presentReservation(row) };
  });

  app.get('/desk/pickups', async (request, reply) => {
    await requireUser(request, reply, context, ['librarian']);
    const query = parseInput(deskPickupsQuerySchema, request.query);
    const now = context.now();
    const date = query.date ? requestedDate(query.date, timeZone) : localDate(now, timeZone);
    if (date === null) throw new Refusal(400, 'date must be a real date (YYYY-MM-DD).');
    const [rows, onLoan] = await Promise.all([
      reservationQuery(db, now)
        .where('r.pickup_date', '=', date)
        .orderBy('r.slot_starts_at')
        .orderBy('r.created_at')
        .execute(),
      reservationQuery(db, now)
        .where('r.status', '=', 'collected')
        .orderBy('r.updated_at')
        .limit(500)
        .execute(),
    ]);
    return {
      date,
      formattedDate: formatDate(date),
      slots: RESERVATION_TIME_SLOTS.map((timeSlot) => ({
        timeSlot,
        reservations: rows.filter((row) => row.time_slot === timeSlot).map(presentDeskReservation),
      })),
      onLoan: onLoan.map(presentDeskReservation),
    };
  });

  app.patch<{ Params: { id: string } }>('/desk/reservations/:id', async (request, reply) => {
    await requireUser(request, reply, context, ['librarian']);
    const { status } = parseInput(deskStatusChangeSchema, request.body);
    if (!isReservationId(request.params.id))
      throw new Refusal(404, 'There is no reservation with that id.');
    const now = context.now();
    await expireHolds(db, now);
    const from = (Object.keys(DESK_TRANSITIONS) as (keyof typeof DESK_TRANSITIONS)[]).filter(
      (source) => DESK_TRANSITIONS[source].includes(status),
    );
    const changed = await db
      .updateTable('reservations')
      .set({ status, updated_at: now })
      .where('id', '=', request.params.id)
      .where('status', 'in', from)
      .returning('id')
      .executeTakeFirst();
    const row = await reservationQuery(db, now)
      .where('r.id', '=', request.params.id)
      .executeTakeFirst();
    if (!row) throw new Refusal(404, 'There is no reservation with that id.');
    if (!changed) {
      throw new Refusal(
        409,
        `This reservation is ${RESERVATION_STATUS_LABELS[row.status].toLowerCase()}; it cannot be marked ${RESERVATION_STATUS_LABELS[status].toLowerCase()}.`,
      );
    }
    return { success: true, reservation: presentDeskReservation(row) };
  });
}
