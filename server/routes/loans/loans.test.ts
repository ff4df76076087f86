import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  deskActivityResponseSchema,
  deskLoanResponseSchema,
  deskLoansResponseSchema,
  LOAN_RENEWALS_MAX,
  loanResponseSchema,
  myLoansResponseSchema,
  type DeskLoan,
} from '#contract/http/loans.ts';
import { reservationBooksResponseSchema } from '#contract/http/reservations.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { clearCirculation } from '../../test/circulation.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';

/** Monday 23 November 2026, 10:00 in New York. */
const START = new Date('2026-11-23T15:00:00Z');
const TIME_ZONE = 'America/New_York';
const DAY = 86_400_000;

describe.each(testDatabaseKinds())('loans at the desk on %s', (kind) => {
  let testApp: TestApp;
  let clock = START;
  let ada: SignedInPerson;
  let ben: SignedInPerson;
  let cy: SignedInPerson;
  let desk: SignedInPerson;
  let books = 0;

  /** A new book with `copies` copies on the shelf; answers its id and barcodes. */
  async function book(copies: number): Promise<{ id: string; barcodes: string[] }> {
    const row = await testApp.database.db
      .insertInto('items')
      .values({
        kind: 'book',
        title: `Loan Book ${++books}`,
        authors: ['A. Writer'],
        source: 'test',
        source_id: crypto.randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setNumberedCopies(testApp.database.db, row.id, copies);
    const rows = await testApp.database.db
      .selectFrom('copies')
      .select('barcode')
      .where('item_id', '=', row.id)
      .orderBy('barcode')
      .execute();
    return { id: row.id, barcodes: rows.map((copy) => copy.barcode) };
  }

  async function reserved(person: SignedInPerson, id: string): Promise<string> {
    const response = await person.client.post('/api/users/reservation', {
      book: { id },
      reservation: { date: reservableDates(clock, TIME_ZONE)[0], timeSlot: '3:00-3:30 PM' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().reservation.reservationId;
  }

  const checkOut = (body: object) => desk.client.post('/api/desk/loans', body);

  async function checkedOut(body: object): Promise<DeskLoan> {
    const response = await checkOut(body);
    expect(response.statusCode, response.body).toBe(200);
    return deskLoanResponseSchema.parse(response.json()).loan;
  }

  const returned = (barcode: string) => desk.client.post('/api/desk/returns', { barcode });

  async function myLoans(person: SignedInPerson) {
    const response = await person.client.get('/api/users/loans');
    expect(response.statusCode).toBe(200);
    return myLoansResponseSchema.parse(response.json()).payload;
  }

  async function freeCopies(person: SignedInPerson, id: string): Promise<number> {
    const response = await person.client.get(`/api/users/reservation-books?id=${id}`);
    return reservationBooksResponseSchema.parse(response.json()).payload[0]!.freeCopies;
  }

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => clock,
    });
    [ada, ben, cy] = (await signedInPeople(testApp, 3)) as [
      SignedInPerson,
      SignedInPerson,
      SignedInPerson,
    ];
    desk = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    clock = START;
    await clearCirculation(testApp.database.db);
    await testApp.database.db.deleteFrom('rate_limits').execute();
  });

  describe('checking out', () => {
    it('lends the scanned copy to the only reservation of its book, due at the end of the 21st day', async () => {
      const { id, barcodes } = await book(2);
      const reservationId = await reserved(ada, id);
      const loan = await checkedOut({ barcode: barcodes[1]!.toLowerCase() });
      expect(loan).toMatchObject({
        status: 'on_loan',
        checkedOutAt: START.toISOString(),
        // 14 December 2026, 23:59 in New York (EST, UTC-5).
        dueAt: '2026-12-15T04:59:00.000Z',
        overdue: false,
        renewals: 0,
        renewalsLeft: LOAN_RENEWALS_MAX,
        renewBlockedBecause: null,
        returnedAt: null,
        reservationId,
        copy: { barcode: barcodes[1] },
        book: { id, author: 'A. Writer' },
        borrower: { email: ada.email },
      });
      expect(loan.loanId).toMatch(/^LOAN-\d+$/);
      const copy = await testApp.database.db
        .selectFrom('copies')
        .select('status')
        .where('barcode', '=', barcodes[1]!)
        .executeTakeFirstOrThrow();
      expect(copy.status).toBe('on_loan');
      const mine = await ada.client.get('/api/users/reservations');
      expect(mine.json().payload[0]).toMatchObject({ reservationId, status: 'collected' });
      expect(await myLoans(ada)).toEqual([expect.objectContaining({ loanId: loan.loanId })]);
      expect(await myLoans(ben)).toEqual([]);
      // One copy out, one on the shelf: the loan is counted once, not as a hold and a loan.
      expect(await freeCopies(ben, id)).toBe(1);
    });

    it('says who has a copy already out, and refuses copies in repair, missing or unknown', async () => {
      const { id, barcodes } = await book(2);
      await reserved(ada, id);
      await checkedOut({ barcode: barcodes[0] });
      const again = await checkOut({ barcode: barcodes[0] });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already on loan to .+, due Monday, December 14, 2026/);
      await testApp.database.db
        .updateTable('copies')
        .set({ status: 'in_repair' })
        .where('barcode', '=', barcodes[1]!)
        .execute();
      const repair = await checkOut({ barcode: barcodes[1] });
      expect([repair.statusCode, repair.json().message]).toEqual([
        409,
        expect.stringContaining('is marked in repair; it cannot be lent'),
      ]);
      const unknown = await checkOut({ barcode: 'NO-SUCH-COPY' });
      expect([unknown.statusCode, unknown.json().message]).toEqual([
        404,
        'No copy has the barcode NO-SUCH-COPY.',
      ]);
      const blank = await checkOut({ barcode: '  ' });
      expect([blank.statusCode, blank.json().errors]).toEqual([
        400,
        [{ path: 'barcode', message: 'Scan or type the barcode' }],
      ]);
    });

    it('asks whose pickup it is when several people reserved the book; a reservation id or an e-mail answers', async () => {
      const { id, barcodes } = await book(3);
      const adaReservation = await reserved(ada, id);
      await reserved(ben, id);
      const unsure = await checkOut({ barcode: barcodes[0] });
      expect(unsure.statusCode).toBe(409);
      expect(unsure.json().message).toContain(`Several people have reserved`);
      expect(unsure.json().message).toContain(adaReservation);
      const byId = await checkedOut({ barcode: barcodes[0], reservationId: adaReservation });
      expect(byId.borrower.email).toBe(ada.email);
      const byEmail = await checkedOut({ barcode: barcodes[1], email: ben.email.toUpperCase() });
      expect(byEmail.borrower.email).toBe(ben.email);
      expect(byEmail.reservationId).not.toBeNull();
    });

    it('refuses a reservation of another book, or one no longer active', async () => {
      const first = await book(1);
      const second = await book(1);
      const reservationId = await reserved(ada, first.id);
      const wrong = await checkOut({ barcode: second.barcodes[0], reservationId });
      expect(wrong.statusCode).toBe(409);
      expect(wrong.json().message).toContain('Scan a copy of that book');
      await ada.client.delete(`/api/users/reservations/${reservationId}`);
      const cancelled = await checkOut({ barcode: first.barcodes[0], reservationId });
      expect([cancelled.statusCode, cancelled.json().message]).toEqual([
        409,
        `${reservationId} is no longer active; it cannot be collected.`,
      ]);
      const none = await checkOut({ barcode: first.barcodes[0] });
      expect(none.statusCode).toBe(409);
      expect(none.json().message).toContain('Nobody has an active reservation');
    });

    it('lends a walk-in an unclaimed copy by e-mail, never one someone holds, is offered or waits for', async () => {
      const { id, barcodes } = await book(2);
      const walkIn = await checkedOut({ barcode: barcodes[0], email: cy.email });
      expect([walkIn.reservationId, walkIn.borrower.email]).toEqual([null, cy.email]);
      // The other copy is reserved by Ada: Ben cannot walk off with it.
      await reserved(ada, id);
      const claimed = await checkOut({ barcode: barcodes[1], email: ben.email });
      expect(claimed.statusCode).toBe(409);
      expect(claimed.json().message).toContain('can join its waiting list');
      const stranger = await checkOut({ barcode: barcodes[1], email: 'nobody@uni.example' });
      expect(stranger.statusCode).toBe(404);
      // A walk-in borrower holds the book: they cannot queue for another copy of it.
      const join = await cy.client.post('/api/users/holds', { bookId: id });
      expect(join.statusCode).toBe(409);
    });

    it('lends a copy once when two desks scan it at the same moment', async () => {
      const { id, barcodes } = await book(1);
      await reserved(ada, id);
      const answers = await Promise.all([
        checkOut({ barcode: barcodes[0] }),
        checkOut({ barcode: barcodes[0] }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      const loans = await testApp.database.db.selectFrom('loans').select('id').execute();
      expect(loans).toHaveLength(1);
    });
  });

  describe('returning', () => {
    it('puts the copy back, closes the loan and the reservation, and offers it to the first in the queue', async () => {
      const { id, barcodes } = await book(1);
      await reserved(ada, id);
      const loan = await checkedOut({ barcode: barcodes[0] });
      const joined = await ben.client.post('/api/users/holds', { bookId: id });
      expect(joined.json().hold).toMatchObject({ status: 'queued', position: 1 });
      clock = new Date(START.getTime() + 3 * DAY);
      const back = await returned(barcodes[0]!);
      expect(back.statusCode, back.body).toBe(200);
      expect(deskLoanResponseSchema.parse(back.json()).loan).toMatchObject({
        loanId: loan.loanId,
        status: 'returned',
        returnedAt: clock.toISOString(),
        renewBlockedBecause: 'This book has been returned.',
      });
      const mine = await ada.client.get('/api/users/reservations');
      expect(mine.json().payload[0].status).toBe('returned');
      const holds = await ben.client.get('/api/users/holds');
      expect(holds.json().payload[0]).toMatchObject({ status: 'offered' });
      // Offered to Ben: nobody else sees it free.
      expect(await freeCopies(cy, id)).toBe(0);
      const twice = await returned(barcodes[0]!);
      expect([twice.statusCode, twice.json().message]).toEqual([
        409,
        expect.stringContaining('is not on loan'),
      ]);
    });
  });

  describe('renewing', () => {
    it('lets the borrower renew twice, from the due date, and refuses a third time', async () => {
      const { id, barcodes } = await book(1);
      await reserved(ada, id);
      const loan = await checkedOut({ barcode: barcodes[0] });
      const renew = () => ada.client.post(`/api/users/loans/${loan.loanId}/renew`, {});
      const first = loanResponseSchema.parse((await renew()).json()).loan;
      expect([first.renewals, first.renewalsLeft, first.dueAt]).toEqual([
        1,
        1,
        // 4 January 2027, 23:59 in New York.
        '2027-01-05T04:59:00.000Z',
      ]);
      const second = loanResponseSchema.parse((await renew()).json()).loan;
      expect(second.renewBlockedBecause).toBe(
        `Renewed ${LOAN_RENEWALS_MAX} times, the most allowed.`,
      );
      const third = await renew();
      expect(third.statusCode).toBe(409);
      expect(third.json().message).toContain('It cannot be renewed; please return it by');
    });

    it('refuses while someone waits for the book, and answers 404 for anyone else’s loan', async () => {
      const { id, barcodes } = await book(1);
      await reserved(ada, id);
      const loan = await checkedOut({ barcode: barcodes[0] });
      const others = await ben.client.post(`/api/users/loans/${loan.loanId}/renew`, {});
      expect([others.statusCode, others.json().message]).toEqual([
        404,
        'You have no loan with that id.',
      ]);
      await ben.client.post('/api/users/holds', { bookId: id });
      expect((await myLoans(ada))[0]!.renewBlockedBecause).toBe(
        'Someone is waiting for this book.',
      );
      const refused = await ada.client.post(`/api/users/loans/${loan.loanId}/renew`, {});
      expect(refused.statusCode).toBe(409);
      const atDesk = await desk.client.post(`/api/desk/loans/${loan.loanId}/renew`, {});
      expect(atDesk.statusCode).toBe(409);
      const malformed = await ada.client.post('/api/users/loans/LOAN-x/renew', {});
      expect(malformed.statusCode).toBe(404);
    });

    it('renews an overdue loan from today, at the desk too', async () => {
      const { id, barcodes } = await book(1);
      await reserved(ada, id);
      const loan = await checkedOut({ barcode: barcodes[0] });
      clock = new Date(START.getTime() + 30 * DAY);
      expect((await myLoans(ada))[0]!.overdue).toBe(true);
      const response = await desk.client.post(`/api/desk/loans/${loan.loanId}/renew`, {});
      expect(response.statusCode, response.body).toBe(200);
      // From 23 December: due 13 January 2027, 23:59 in New York.
      expect(deskLoanResponseSchema.parse(response.json()).loan).toMatchObject({
        overdue: false,
        renewals: 1,
        dueAt: '2027-01-14T04:59:00.000Z',
      });
    });
  });

  describe('the desk lists', () => {
    it('lists the copies out soonest due first, the overdue ones on their own, and finds by words', async () => {
      const first = await book(1);
      const second = await book(1);
      await reserved(ada, first.id);
      await checkedOut({ barcode: first.barcodes[0] });
      clock = new Date(START.getTime() + 5 * DAY);
      await reserved(ben, second.id);
      await checkedOut({ barcode: second.barcodes[0] });
      clock = new Date(START.getTime() + 24 * DAY);
      const all = deskLoansResponseSchema.parse((await desk.client.get('/api/desk/loans')).json());
      expect([all.total, all.overdue]).toEqual([2, 1]);
      expect(all.payload.map((loan) => [loan.borrower.email, loan.overdue])).toEqual([
        [ada.email, true],
        [ben.email, false],
      ]);
      const overdue = deskLoansResponseSchema.parse(
        (await desk.client.get('/api/desk/loans?overdue=true')).json(),
      );
      expect(overdue.payload.map((loan) => loan.borrower.email)).toEqual([ada.email]);
      const found = deskLoansResponseSchema.parse(
        (await desk.client.get(`/api/desk/loans?q=${second.barcodes[0]}`)).json(),
      );
      expect(found.payload.map((loan) => loan.borrower.email)).toEqual([ben.email]);
      const student = await ada.client.get('/api/desk/loans');
      expect(student.statusCode).toBe(403);
    });

    it('records every desk action with who did it and which copy', async () => {
      const { id, barcodes } = await book(2);
      const adaReservation = await reserved(ada, id);
      const benReservation = await reserved(ben, id);
      const loan = await checkedOut({ barcode: barcodes[0], reservationId: adaReservation });
      await desk.client.post(`/api/desk/loans/${loan.loanId}/renew`, {});
      await returned(barcodes[0]!);
      await desk.client.patch(`/api/desk/reservations/${benReservation}`, { status: 'no_show' });
      const activity = deskActivityResponseSchema.parse(
        (await desk.client.get('/api/desk/activity')).json(),
      ).payload;
      const librarian = await testApp.database.db
        .selectFrom('users')
        .select('name')
        .where('id', '=', desk.id)
        .executeTakeFirstOrThrow();
      expect(activity.map((event) => [event.action, event.barcode, event.actor])).toEqual([
        ['no_show', null, librarian.name],
        ['return', barcodes[0], librarian.name],
        ['renew', barcodes[0], librarian.name],
        ['check_out', barcodes[0], librarian.name],
      ]);
      expect(activity[3]).toMatchObject({ loanId: loan.loanId, reservationId: adaReservation });
    });
  });

  describe('the reservation status buttons', () => {
    it('"collected" lends a copy on the shelf and "returned" takes it back, as barcodes would', async () => {
      const { id, barcodes } = await book(1);
      const reservationId = await reserved(ada, id);
      const collected = await desk.client.patch(`/api/desk/reservations/${reservationId}`, {
        status: 'collected',
      });
      expect(collected.statusCode, collected.body).toBe(200);
      expect((await myLoans(ada))[0]).toMatchObject({
        status: 'on_loan',
        copy: { barcode: barcodes[0] },
      });
      const back = await desk.client.patch(`/api/desk/reservations/${reservationId}`, {
        status: 'returned',
      });
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().reservation.status).toBe('returned');
      expect((await myLoans(ada))[0]!.status).toBe('returned');
      expect(await freeCopies(ben, id)).toBe(1);
    });

    it('"collected" says so when no copy is on the shelf', async () => {
      const { id, barcodes } = await book(1);
      const reservationId = await reserved(ada, id);
      await testApp.database.db
        .updateTable('copies')
        .set({ status: 'missing' })
        .where('barcode', '=', barcodes[0]!)
        .execute();
      const response = await desk.client.patch(`/api/desk/reservations/${reservationId}`, {
        status: 'collected',
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('No copy of');
    });
  });
});
