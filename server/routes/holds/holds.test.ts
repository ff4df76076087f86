import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  holdResponseSchema,
  myHoldsResponseSchema,
  OFFER_HOURS,
  QUEUED_HOLDS_MAX,
  type HoldRecord,
} from '#contract/http/holds.ts';
import { reservationBooksResponseSchema } from '#contract/http/reservations.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { sweep } from '../../sweeper.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { clearCirculation } from '../../test/circulation.ts';

/** Monday 23 November 2026, 10:00 in New York. */
const START = new Date('2026-11-23T15:00:00Z');
const TIME_ZONE = 'America/New_York';
const HOUR = 3_600_000;

/** The five students the tests share. */
type Five = [SignedInPerson, SignedInPerson, SignedInPerson, SignedInPerson, SignedInPerson];

describe.each(testDatabaseKinds())('the holds queue on %s', (kind) => {
  let testApp: TestApp;
  let clock = START;
  let people: Five;
  let librarian: SignedInPerson;
  let books = 0;

  /** A new book with `copies` copies, the last `unavailable` of them in repair. */
  async function book(copies: number, unavailable = 0): Promise<string> {
    const row = await testApp.database.db
      .insertInto('items')
      .values({
        kind: 'book',
        title: `Queue Book ${++books}`,
        authors: ['A. Writer'],
        source: 'test',
        source_id: crypto.randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setNumberedCopies(testApp.database.db, row.id, copies, unavailable);
    return row.id;
  }

  const reserve = (person: SignedInPerson, id: string) =>
    person.client.post('/api/users/reservation', {
      book: { id },
      // Tomorrow, as the test clock has it.
      reservation: { date: reservableDates(clock, TIME_ZONE)[1], timeSlot: '9:00-9:30 AM' },
    });

  async function reserved(person: SignedInPerson, id: string): Promise<string> {
    const response = await reserve(person, id);
    expect(response.statusCode, response.body).toBe(200);
    return response.json().reservation.reservationId;
  }

  const join = (person: SignedInPerson, bookId: string) =>
    person.client.post('/api/users/holds', { bookId });

  async function joined(person: SignedInPerson, bookId: string): Promise<HoldRecord> {
    const response = await join(person, bookId);
    expect(response.statusCode, response.body).toBe(200);
    return holdResponseSchema.parse(response.json()).hold;
  }

  /** `person`'s hold of `bookId` as their list shows it. */
  async function holdOf(person: SignedInPerson, bookId: string): Promise<HoldRecord | undefined> {
    const response = await person.client.get('/api/users/holds');
    expect(response.statusCode).toBe(200);
    const { payload } = myHoldsResponseSchema.parse(response.json());
    return payload.find((hold) => hold.book.id === bookId);
  }

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => clock,
    });
    people = (await signedInPeople(testApp, 5)) as Five;
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    clock = START;
    await clearCirculation(testApp.database.db);
    await testApp.database.db.deleteFrom('rate_limits').execute();
  });

  describe('joining', () => {
    it('answers a place and an estimate; joining again answers the same hold', async () => {
      const [a, b, c] = people;
      const id = await book(1);
      await reserved(a, id);
      const first = await joined(b, id);
      expect(first).toMatchObject({
        status: 'queued',
        position: 1,
        estimatedDays: 21,
        offerExpiresAt: null,
        reservationId: null,
        createdAt: START.toISOString(),
        book: { id, title: expect.stringMatching(/^Queue Book/), author: 'A. Writer' },
      });
      expect(first.holdId).toMatch(/^HOLD-\d+$/);
      const second = await joined(c, id);
      expect([second.position, second.estimatedDays]).toEqual([2, 42]);
      expect(await joined(b, id)).toEqual(first);
      expect(
        await testApp.database.db.selectFrom('queued_holds').select('id').execute(),
      ).toHaveLength(2);
    });

    it('estimates one loan per round of the copies ahead: two copies, third in line is about 42 days', async () => {
      const [a, b, c, d, e] = people;
      const id = await book(2);
      await reserved(a, id);
      await reserved(b, id);
      expect((await joined(c, id)).estimatedDays).toBe(21);
      expect((await joined(d, id)).estimatedDays).toBe(21);
      expect((await joined(e, id)).estimatedDays).toBe(42);
    });

    it('answers 409 for a book with a free copy (reserve it instead), 404 for no such book or one without copies', async () => {
      const [a] = people;
      const free = await book(2);
      const refused = await join(a, free);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toMatch(/free right now: reserve it/);
      expect((await join(a, crypto.randomUUID())).statusCode).toBe(404);
      expect((await join(a, 'not-an-id')).statusCode).toBe(404);
      expect((await join(a, await book(0))).statusCode).toBe(404);
      expect((await a.client.post('/api/users/holds', {})).statusCode).toBe(400);
    });

    it('is refused to someone who holds a copy already, and beyond five open holds', async () => {
      const [a, b] = people;
      const held = await book(1);
      await reserved(a, held);
      const mine = await join(a, held);
      expect(mine.statusCode).toBe(409);
      expect(mine.json().message).toMatch(/already hold a copy/);
      const full = [];
      for (let index = 0; index <= QUEUED_HOLDS_MAX; index += 1) full.push(await book(1, 1));
      for (const id of full.slice(0, QUEUED_HOLDS_MAX)) await joined(b, id);
      const sixth = await join(b, full[QUEUED_HOLDS_MAX]!);
      expect(sixth.statusCode).toBe(409);
      expect(sixth.json().message).toMatch(/already waiting for 5 books/);
      // Joining one of the five again still answers it.
      expect((await join(b, full[0]!)).statusCode).toBe(200);
    });

    it('needs a verified e-mail address', async () => {
      const unverified = await signedInPerson(testApp, 'student', {}, { verified: false });
      const response = await join(unverified, await book(1, 1));
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('EMAIL_NOT_VERIFIED');
    });
  });

  describe('offers', () => {
    it('offers a cancelled copy to the first in line for 48 hours; nobody else may take it; the offer becomes a reservation', async () => {
      const [a, b, c, d] = people;
      const id = await book(1);
      const taken = await reserved(a, id);
      const first = await joined(b, id);
      await joined(c, id);
      expect((await a.client.delete(`/api/users/reservations/${taken}`)).statusCode).toBe(200);

      expect(await holdOf(b, id)).toMatchObject({
        holdId: first.holdId,
        status: 'offered',
        position: null,
        estimatedDays: null,
        offerExpiresAt: new Date(START.getTime() + OFFER_HOURS * HOUR).toISOString(),
      });
      expect(await holdOf(c, id)).toMatchObject({ status: 'queued', position: 1 });
      // The reservation picker lets the one offered pick it, and no one else.
      const pick = async (person: SignedInPerson) =>
        (await person.client.get(`/api/users/reservation-books?id=${id}`)).json().payload[0];
      expect(await pick(b)).toMatchObject({
        available: true,
        freeCopies: 0,
        offerExpiresAt: new Date(START.getTime() + OFFER_HOURS * HOUR).toISOString(),
      });
      expect(await pick(c)).toMatchObject({ available: false, freeCopies: 0 });
      expect((await pick(c)).offerExpiresAt).toBeUndefined();
      const free = (await b.client.get('/api/users/reservation-books?availableOnly=true')).json();
      expect(free.payload.map((entry: { _id: string }) => entry._id)).toContain(id);
      // Neither someone outside the queue, nor the next in line, can take the offered copy.
      expect((await reserve(d, id)).statusCode).toBe(409);
      expect((await reserve(c, id)).statusCode).toBe(409);
      const list = reservationBooksResponseSchema.parse(
        (await d.client.get(`/api/users/reservation-books?id=${id}`)).json(),
      );
      expect(list.payload[0]).toMatchObject({ freeCopies: 0, available: false });

      const reservationId = await reserved(b, id);
      expect(await holdOf(b, id)).toMatchObject({ status: 'fulfilled', reservationId });
      expect(await holdOf(c, id)).toMatchObject({ status: 'queued', position: 1 });
    });

    it('reads a lapsed offer as expired at once; the next in line takes the copy, by reserving or from the sweeper', async () => {
      const [a, b, c, d, e] = people;
      const id = await book(1);
      const taken = await reserved(a, id);
      for (const person of [b, c, d, e]) await joined(person, id);
      await a.client.delete(`/api/users/reservations/${taken}`);

      clock = new Date(START.getTime() + (OFFER_HOURS + 1) * HOUR);
      expect(await holdOf(b, id)).toMatchObject({ status: 'expired', offerExpiresAt: null });
      // Reserving treats it as lapsed without waiting for the sweeper: B may not, C (next) may.
      expect((await reserve(b, id)).statusCode).toBe(409);
      const mine = await reserved(c, id);
      expect(await holdOf(c, id)).toMatchObject({ status: 'fulfilled', reservationId: mine });

      // C cancels: D is offered the copy, lets it lapse, and the sweeper passes it to E.
      await c.client.delete(`/api/users/reservations/${mine}`);
      expect(await holdOf(d, id)).toMatchObject({ status: 'offered' });
      clock = new Date(clock.getTime() + (OFFER_HOURS + 1) * HOUR);
      await sweep(testApp.database, clock);
      expect(await holdOf(e, id)).toMatchObject({
        status: 'offered',
        offerExpiresAt: new Date(clock.getTime() + OFFER_HOURS * HOUR).toISOString(),
      });
      const stored = await testApp.database.db
        .selectFrom('queued_holds')
        .select('status')
        .where('item_id', '=', id)
        .orderBy('number')
        .execute();
      expect(stored.map((row) => row.status)).toEqual([
        'expired',
        'fulfilled',
        'expired',
        'offered',
      ]);
    });

    it('offers the copy when the desk marks a no-show or a return, and when a reservation hold lapses', async () => {
      const [a, b, c, d] = people;
      const id = await book(1);
      const first = await reserved(a, id);
      await joined(b, id);
      await joined(c, id);
      await joined(d, id);
      const desk = (reservation: string, status: string) =>
        librarian.client.patch(`/api/desk/reservations/${reservation}`, { status });

      expect((await desk(first, 'no_show')).statusCode).toBe(200);
      expect(await holdOf(b, id)).toMatchObject({ status: 'offered' });
      const second = await reserved(b, id);
      expect((await desk(second, 'collected')).statusCode).toBe(200);
      expect(await holdOf(c, id)).toMatchObject({ status: 'queued', position: 1 });
      expect((await desk(second, 'returned')).statusCode).toBe(200);
      expect(await holdOf(c, id)).toMatchObject({ status: 'offered' });

      // C reserves and never comes: the hold lapses 24 hours after the slot begins.
      await reserved(c, id);
      clock = new Date('2026-11-25T15:00:00Z');
      await sweep(testApp.database, clock);
      expect(await holdOf(d, id)).toMatchObject({ status: 'offered' });
    });

    it('offers a copy the desk puts back on the shelf or adds', async () => {
      const [a, b] = people;
      const id = await book(1, 1);
      await joined(a, id);
      await joined(b, id);
      const { barcode } = await testApp.database.db
        .selectFrom('copies')
        .select('barcode')
        .where('item_id', '=', id)
        .executeTakeFirstOrThrow();
      const back = await librarian.client.patch(`/api/copies/${barcode}`, { status: 'available' });
      expect(back.statusCode, back.body).toBe(200);
      expect(await holdOf(a, id)).toMatchObject({ status: 'offered' });
      expect(await holdOf(b, id)).toMatchObject({ status: 'queued', position: 1 });
      const added = await librarian.client.post(`/api/items/${id}/copies`, {
        barcode: `Q-${crypto.randomUUID().slice(0, 8)}`,
      });
      expect(added.statusCode, added.body).toBe(201);
      expect(await holdOf(b, id)).toMatchObject({ status: 'offered' });
    });
  });

  describe('under load', () => {
    it('12 people joining at once get places 1 to 12; when the copy comes back and all of them reserve at once, only the first in line gets it', async () => {
      const crowd = await signedInPeople(testApp, 12);
      const [a] = people;
      const id = await book(1);
      const taken = await reserved(a, id);
      const holds = await Promise.all(crowd.map((person) => joined(person, id)));
      expect(holds.map((hold) => hold.position).sort((x, y) => x! - y!)).toEqual(
        Array.from({ length: 12 }, (_, index) => index + 1),
      );
      const first = crowd[holds.findIndex((hold) => hold.position === 1)]!;

      // The cancellation and twelve reservations race; whoever wins, the copy is the first's.
      const [cancelled, ...answers] = await Promise.all([
        a.client.delete(`/api/users/reservations/${taken}`),
        ...crowd.map((person) => reserve(person, id)),
      ]);
      expect(cancelled!.statusCode).toBe(200);
      const winners = crowd.filter((_, index) => answers[index]!.statusCode === 200);
      expect(answers.every((answer) => [200, 409].includes(answer.statusCode))).toBe(true);
      expect(winners.length).toBeLessThanOrEqual(1);
      if (winners.length === 1) expect(winners[0]).toBe(first);
      else expect(await holdOf(first, id)).toMatchObject({ status: 'offered' });
    });
  });

  describe('leaving', () => {
    it('takes one out of the queue; a declined offer passes on; anyone else’s hold is a 404', async () => {
      const [a, b, c, d] = people;
      const id = await book(1);
      const taken = await reserved(a, id);
      const bHold = await joined(b, id);
      const cHold = await joined(c, id);
      const dHold = await joined(d, id);

      expect((await a.client.delete(`/api/users/holds/${cHold.holdId}`)).statusCode).toBe(404);
      expect((await a.client.delete('/api/users/holds/nope')).statusCode).toBe(404);
      const left = await c.client.delete(`/api/users/holds/${cHold.holdId}`);
      expect(left.statusCode).toBe(200);
      expect(holdResponseSchema.parse(left.json()).hold.status).toBe('cancelled');
      const again = await c.client.delete(`/api/users/holds/${cHold.holdId}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('You have already left this waiting list.');
      expect(await holdOf(d, id)).toMatchObject({ position: 2 });

      await a.client.delete(`/api/users/reservations/${taken}`);
      expect(await holdOf(b, id)).toMatchObject({ status: 'offered' });
      expect((await b.client.delete(`/api/users/holds/${bHold.holdId}`)).statusCode).toBe(200);
      expect(await holdOf(d, id)).toMatchObject({ holdId: dHold.holdId, status: 'offered' });
      // Having left, C may join again, at the back.
      expect((await joined(c, id)).position).toBe(1);
    });

    it('lists offers first, then places in queues, then past holds', async () => {
      const [a, b] = people;
      const offered = await book(1);
      const waiting = await book(1, 1);
      const left = await book(1, 1);
      const taken = await reserved(a, offered);
      await joined(b, waiting);
      const gone = await joined(b, left);
      await b.client.delete(`/api/users/holds/${gone.holdId}`);
      await joined(b, offered);
      await a.client.delete(`/api/users/reservations/${taken}`);
      const { payload } = myHoldsResponseSchema.parse(
        (await b.client.get('/api/users/holds')).json(),
      );
      expect(payload.map((hold) => [hold.book.id, hold.status])).toEqual([
        [offered, 'offered'],
        [waiting, 'queued'],
        [left, 'cancelled'],
      ]);
    });
  });
});
