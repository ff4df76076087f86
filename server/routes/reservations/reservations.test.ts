import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  deskPickupsResponseSchema,
  myReservationsResponseSchema,
  reservationBooksResponseSchema,
  reservationDaysResponseSchema,
  reservationResponseSchema,
} from '#contract/http/reservations.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { DEMO_ITEMS, demoHoldings } from '../../db/demo-data.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPeople, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { startTestSmtpServer } from '../../test/mail.ts';
import { clearCirculation } from '../../test/circulation.ts';

/** Monday 23 November 2026, 10:00 in New York (15:00 UTC): the 9:00 slot is over, 10:00 is not. */
const START = new Date('2026-11-23T15:00:00Z');
const TODAY = '2026-11-23';
const TOMORROW = '2026-11-24';

describe.each(testDatabaseKinds())('reservations on %s', (kind) => {
  let testApp: TestApp;
  let clock = START;
  let smtp: Awaited<ReturnType<typeof startTestSmtpServer>>;
  let student: SignedInPerson;
  let other: SignedInPerson;
  let books: Record<'pride' | 'frankenstein' | 'time' | 'alice' | 'carol' | 'jekyll', string>;

  const bookId = async (sourceId: string) =>
    (
      await testApp.database.db
        .selectFrom('items')
        .select('id')
        .where('source_id', '=', sourceId)
        .executeTakeFirstOrThrow()
    ).id;

  const payload = (id: string, date = TOMORROW, timeSlot = '9:00-9:30 AM') => ({
    user: { email: 'someone.else@uni.example', firstName: 'Mallory', phoneNumber: '1' },
    book: { id, title: 'ignored', author: 'ignored', genre: 'ignored' },
    reservation: {
      date,
      formattedDate: 'ignored',
      timeSlot,
      reservationId: 'RES-0001',
      status: 'collected',
      createdAt: '2020-01-01T00:00:00Z',
    },
  });

  const reserve = (
    person: SignedInPerson,
    id: string,
    date = TOMORROW,
    timeSlot = '9:00-9:30 AM',
    headers: Record<string, string> = {},
  ) => person.client.post('/api/users/reservation', payload(id, date, timeSlot), headers);

  const activeRows = async (itemId?: string) => {
    let query = testApp.database.db
      .selectFrom('reservations')
      .select(['id', 'user_id', 'item_id'])
      .where('status', '=', 'active');
    if (itemId) query = query.where('item_id', '=', itemId);
    return query.execute();
  };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: 'America/New_York', SMTP_URL: smtp.url },
      now: () => clock,
    });
    await seedDemoData(testApp.database.db);
    student = await signedInPerson(testApp);
    other = await signedInPerson(testApp);
    books = {
      pride: await bookId('book-pride-and-prejudice'),
      frankenstein: await bookId('book-frankenstein'),
      time: await bookId('book-the-time-machine'),
      alice: await bookId('book-alice-in-wonderland'),
      carol: await bookId('book-a-christmas-carol'),
      jekyll: await bookId('book-jekyll-and-hyde'),
    };
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });
  beforeEach(async () => {
    clock = START;
    await clearCirculation(testApp.database.db);
    await testApp.database.db.deleteFrom('idempotency_keys').execute();
    await testApp.database.db.deleteFrom('rate_limits').execute();
  });

  describe('GET /api/users/reservation-books and reservation-days', () => {
    it('lists the demo books with copies, those with none free unavailable; guests are refused', async () => {
      const guest = new TestClient(testApp.app, testApp.config.publicUrl);
      expect((await guest.get('/api/users/reservation-books')).statusCode).toBe(401);
      const response = await student.client.get('/api/users/reservation-books');
      expect(response.statusCode).toBe(200);
      const { payload: list } = reservationBooksResponseSchema.parse(response.json());
      // Every demo book with copies, and nothing else (the demo without copies, papers, courses).
      const shelved = DEMO_ITEMS.filter((item) => demoHoldings(item).length > 0);
      expect(list.map((book) => book.title).sort()).toEqual(
        shelved.map((item) => item.title).sort(),
      );
      expect(list.every((book) => book.copies > 0)).toBe(true);
      // The five books the other tests reserve, with their copies and free copies.
      const counts = Object.fromEntries(
        list.map((book) => [book._id, [book.copies, book.freeCopies, book.available]]),
      );
      expect(
        [books.pride, books.frankenstein, books.time, books.alice, books.carol].map(
          (id) => counts[id],
        ),
      ).toEqual([
        [3, 3, true],
        [2, 2, true],
        [2, 2, true],
        [1, 1, true],
        [1, 0, false],
      ]);
      expect(counts[books.jekyll]).toBeUndefined();
      // Unavailable: exactly the books whose every copy is on loan or in repair.
      const noneFree = shelved.filter((item) =>
        demoHoldings(item).every(
          (holding) => (holding.unavailable ?? 0) + (holding.inRepair ?? 0) === holding.copies,
        ),
      );
      expect(
        list
          .filter((book) => !book.available)
          .map((book) => book.title)
          .sort(),
      ).toEqual(noneFree.map((item) => item.title).sort());
      expect(noneFree.map((item) => item.title)).toContain('A Christmas Carol');
      expect(list.find((book) => book._id === books.pride)).toMatchObject({
        author: 'Jane Austen',
        copies: 3,
        freeCopies: 3,
        genre: 'fiction',
      });
    });

    it('searches, narrows to free copies and pages the books, answering the seed shape too', async () => {
      const page = async (query: string) => {
        const response = await student.client.get(`/api/users/reservation-books?${query}`);
        expect(response.statusCode, response.body).toBe(200);
        return reservationBooksResponseSchema.parse(response.json());
      };
      const all = await page('');
      expect(all).toMatchObject({ page: 1, pageSize: 200 });
      expect(all.total).toBe(all.payload.length);

      // Every word, in the title or the authors, any case; an ISBN in any form.
      const austen = await page('q=PRIDE%20austen');
      expect(austen.payload.map((book) => book._id)).toEqual([books.pride]);
      expect((await page('q=prejudice%20dickens')).payload).toEqual([]);
      expect((await page('author=shelley')).payload.map((book) => book._id)).toContain(
        books.frankenstein,
      );
      // LIKE's wildcards are letters like any other.
      expect((await page('q=%25')).payload).toEqual([]);
      expect((await page('q=_')).payload).toEqual([]);

      expect((await page(`id=${books.alice}`)).payload.map((book) => book._id)).toEqual([
        books.alice,
      ]);
      const carol = await page('q=christmas%20carol');
      expect(carol.payload.map((book) => book._id)).toEqual([books.carol]);
      expect((await page('q=christmas%20carol&availableOnly=true')).payload).toEqual([]);
      const free = await page('availableOnly=true');
      expect(free.payload.every((book) => book.available)).toBe(true);
      expect(free.total).toBe(all.payload.filter((book) => book.available).length);

      // Pages of two, by title, together the whole list.
      const first = await page('pageSize=2');
      const second = await page('pageSize=2&page=2');
      expect(first).toMatchObject({ total: all.total, page: 1, pageSize: 2 });
      expect([...first.payload, ...second.payload].map((book) => book._id)).toEqual(
        all.payload.slice(0, 4).map((book) => book._id),
      );
      expect((await page(`pageSize=2&page=${all.total}`)).payload).toEqual([]);

      for (const bad of [
        'page=0',
        'pageSize=201',
        'pageSize=two',
        `q=${'x'.repeat(201)}`,
        'id=7',
      ]) {
        const response = await student.client.get(`/api/users/reservation-books?${bad}`);
        expect(response.statusCode, bad).toBe(400);
        expect(response.json().errors[0].path, bad).toMatch(/^(page|pageSize|q|id)$/);
      }
    });

    it('offers today and the next six days in the library time zone, today without past slots', async () => {
      const response = await student.client.get('/api/users/reservation-days');
      const { timeZone, days } = reservationDaysResponseSchema.parse(response.json());
      expect(timeZone).toBe('America/New_York');
      expect(days.map((day) => day.date)).toEqual([
        TODAY,
        TOMORROW,
        '2026-11-25',
        '2026-11-26',
        '2026-11-27',
        '2026-11-28',
        '2026-11-29',
      ]);
      expect(days[0]!.formattedDate).toBe('Monday, November 23, 2026');
      expect(days[0]!.slots).toEqual([
        { timeSlot: '9:00-9:30 AM', open: false },
        { timeSlot: '10:00-10:30 AM', open: true },
        { timeSlot: '11:00-11:30 AM', open: true },
        { timeSlot: '2:00-2:30 PM', open: true },
        { timeSlot: '3:00-3:30 PM', open: true },
      ]);
      expect(days[1]!.slots.every((slot) => slot.open)).toBe(true);
    });
  });

  describe('POST /api/users/reservation', () => {
    it('reserves for the signed-in person whatever the payload says, with a server-made id', async () => {
      const response = await reserve(student, books.pride);
      expect(response.statusCode, response.body).toBe(200);
      const { reservation } = reservationResponseSchema.parse(response.json());
      expect(reservation).toMatchObject({
        status: 'active',
        date: TOMORROW,
        formattedDate: 'Tuesday, November 24, 2026',
        timeSlot: '9:00-9:30 AM',
        // 9:00 in New York in November is 14:00 UTC; the hold lasts 24 hours from then.
        slotStartsAt: '2026-11-24T14:00:00.000Z',
        expiresAt: '2026-11-25T14:00:00.000Z',
        book: { id: books.pride, title: 'Pride and Prejudice', author: 'Jane Austen' },
      });
      expect(reservation.reservationId).toMatch(/^RES-\d+$/);
      expect(reservation.reservationId).not.toBe('RES-0001');
      const rows = await activeRows();
      expect(rows).toEqual([
        { id: reservation.reservationId, user_id: student.id, item_id: books.pride },
      ]);
      // The person the payload named sees nothing; the holder sees it in their list.
      const mine = myReservationsResponseSchema.parse(
        (await student.client.get('/api/users/reservations')).json(),
      );
      expect(mine.payload.map((row) => row.reservationId)).toEqual([reservation.reservationId]);
      const theirs = myReservationsResponseSchema.parse(
        (await other.client.get('/api/users/reservations')).json(),
      );
      expect(theirs.payload).toEqual([]);
    });

    it('gives unique ids to many reservations', async () => {
      const people = await signedInPeople(testApp, 4);
      const ids = new Set<string>();
      for (const person of people) {
        for (const book of [books.pride, books.frankenstein]) {
          const response = await reserve(person, book, '2026-11-25', '2:00-2:30 PM');
          if (response.statusCode === 200) {
            ids.add(reservationResponseSchema.parse(response.json()).reservation.reservationId);
          }
        }
      }
      expect(ids.size).toBe((await activeRows()).length);
      expect(ids.size).toBeGreaterThanOrEqual(5);
    });

    it('accepts the old client ISO date-time, read as the day it is in the library', async () => {
      // Local midnight of 25 November in New York, as Date.toISOString() wrote it.
      const response = await reserve(student, books.time, '2026-11-25T05:00:00.000Z');
      expect(response.statusCode, response.body).toBe(200);
      expect(reservationResponseSchema.parse(response.json()).reservation.date).toBe('2026-11-25');
    });

    it('refuses bad fields with 400 and a message a person understands', async () => {
      const cases: [unknown, RegExp][] = [
        [{}, /missing or invalid/],
        [{ ...payload(books.pride), book: undefined }, /missing or invalid/],
        [payload(books.pride, TOMORROW, '9:15-9:45 AM'), /missing or invalid/],
        [payload(books.pride, '2026-02-30'), /not a real date/],
        [payload(books.pride, '2026-11-30'), /Choose a date from Monday, November 23, 2026/],
        [payload(books.pride, '2026-11-22'), /Choose a date from/],
        [payload(books.pride, TODAY, '9:00-9:30 AM'), /already over today/],
      ];
      for (const [body, message] of cases) {
        const response = await student.client.post('/api/users/reservation', body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(response.json().message).toMatch(message);
      }
      const schema = await student.client.post('/api/users/reservation', {
        ...payload(books.pride),
        reservation: { date: TOMORROW, timeSlot: 'noon' },
      });
      expect(schema.json().errors[0].message).toMatch(/Choose one of the time slots/);
      expect(await activeRows()).toEqual([]);
    });

    it('answers 404 for a book that is not reservable and 409 when no copy is free', async () => {
      for (const id of ['not-a-uuid', books.jekyll, '00000000-0000-4000-8000-000000000000']) {
        const response = await reserve(student, id);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe('That book is not in the reservation catalogue.');
      }
      const carol = await reserve(student, books.carol);
      expect(carol.statusCode).toBe(409);
      expect(carol.json().message).toMatch(
        /Every copy of "A Christmas Carol" is reserved or on loan/,
      );
      expect((await reserve(student, books.alice)).statusCode).toBe(200);
      const second = await reserve(other, books.alice, '2026-11-26');
      expect(second.statusCode).toBe(409);
    });

    it('holds at most 3 active reservations per person and never two of one book', async () => {
      expect((await reserve(student, books.pride)).statusCode).toBe(200);
      const twice = await reserve(student, books.pride, '2026-11-26', '3:00-3:30 PM');
      expect(twice.statusCode).toBe(409);
      expect(twice.json().message).toMatch(/You already have "Pride and Prejudice" reserved/);
      expect((await reserve(student, books.frankenstein)).statusCode).toBe(200);
      expect((await reserve(student, books.time)).statusCode).toBe(200);
      const fourth = await reserve(student, books.alice);
      expect(fourth.statusCode).toBe(409);
      expect(fourth.json().message).toMatch(/3 active reservations/);
      expect(await activeRows()).toHaveLength(3);
    });

    it('frees the copy by itself 24 hours after the slot begins', async () => {
      expect((await reserve(student, books.alice)).statusCode).toBe(200);
      expect((await reserve(other, books.alice, '2026-11-25')).statusCode).toBe(409);
      // Tuesday 9:00 + 24 h = Wednesday 9:00 in New York (14:00 UTC).
      clock = new Date('2026-11-25T14:00:01Z');
      expect((await reserve(other, books.alice, '2026-11-25', '2:00-2:30 PM')).statusCode).toBe(
        200,
      );
      const mine = myReservationsResponseSchema.parse(
        (await student.client.get('/api/users/reservations')).json(),
      );
      expect(mine.payload.map((row) => row.status)).toEqual(['expired']);
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same key and body, and creates nothing new', async () => {
      const headers = { 'idempotency-key': 'key-0001-abcdef' };
      const first = await reserve(student, books.pride, TOMORROW, '9:00-9:30 AM', headers);
      const again = await reserve(student, books.pride, TOMORROW, '9:00-9:30 AM', headers);
      expect(first.statusCode).toBe(200);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(await activeRows()).toHaveLength(1);
      // A refusal is replayed too: the same key on a full book keeps its 409.
      const refused = { 'idempotency-key': 'key-0002-abcdef' };
      const carol = await reserve(student, books.carol, TOMORROW, '9:00-9:30 AM', refused);
      const carolAgain = await reserve(student, books.carol, TOMORROW, '9:00-9:30 AM', refused);
      expect([carol.statusCode, carolAgain.statusCode]).toEqual([409, 409]);
      expect(carolAgain.json()).toEqual(carol.json());
    });

    it('refuses the same key with another body (422) and a malformed key (400)', async () => {
      const headers = { 'idempotency-key': 'key-0003-abcdef' };
      expect(
        (await reserve(student, books.pride, TOMORROW, '9:00-9:30 AM', headers)).statusCode,
      ).toBe(200);
      const changed = await reserve(student, books.time, TOMORROW, '9:00-9:30 AM', headers);
      expect(changed.statusCode).toBe(422);
      expect(changed.json().message).toMatch(/already used for a different request/);
      const short = await reserve(student, books.time, TOMORROW, '9:00-9:30 AM', {
        'idempotency-key': 'x',
      });
      expect(short.statusCode).toBe(400);
      // Keys are per person: another person's use of the same key is their own.
      expect(
        (await reserve(other, books.pride, TOMORROW, '9:00-9:30 AM', headers)).statusCode,
      ).toBe(200);
    });

    // Found by the fuzzer: hashing a deeply nested body for the key ran out of stack (a 500).
    it('refuses a deeply nested body with a key as a 400, and reserves nothing', async () => {
      const body = JSON.stringify(payload(books.pride));
      const deep = `{"extra":${'['.repeat(20_000)}${']'.repeat(20_000)},${body.slice(1)}`;
      const response = await student.client.request({
        method: 'POST',
        url: '/api/users/reservation',
        payload: deep,
        headers: { 'content-type': 'application/json', 'idempotency-key': 'key-0005-abcdef' },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('The request body is nested too deeply.');
      expect(await activeRows()).toEqual([]);
    });

    it('lets concurrent duplicates create one reservation and all get its answer', async () => {
      const headers = { 'idempotency-key': 'key-0004-abcdef' };
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          reserve(student, books.pride, TOMORROW, '9:00-9:30 AM', headers),
        ),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(200));
      expect(new Set(answers.map((answer) => answer.body)).size).toBe(1);
      expect(await activeRows()).toHaveLength(1);
    });
  });

  it('200 students racing for the last free copy: exactly one wins, 199 get 409, no 5xx', async () => {
    await setNumberedCopies(testApp.database.db, books.time, 3);
    // Two of the three copies are already held.
    expect((await reserve(student, books.time)).statusCode).toBe(200);
    expect((await reserve(other, books.time)).statusCode).toBe(200);
    const racers = await signedInPeople(testApp, 200);
    const answers = await Promise.all(racers.map((racer) => reserve(racer, books.time)));
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((code) => code === 200)).toHaveLength(1);
    expect(codes.filter((code) => code === 409)).toHaveLength(199);
    expect(answers.find((answer) => answer.statusCode === 409)?.json().message).toMatch(
      /Every copy of "The Time Machine"/,
    );
    expect(await activeRows(books.time)).toHaveLength(3);
    await setNumberedCopies(testApp.database.db, books.time, 2);
  }, 120_000);

  it('one person firing parallel requests cannot pass the 3-reservation limit', async () => {
    const answers = await Promise.all(
      [books.pride, books.frankenstein, books.time, books.alice].flatMap((book) =>
        ['2026-11-25', '2026-11-26'].map((date) => reserve(student, book, date)),
      ),
    );
    expect(answers.filter((answer) => answer.statusCode === 200)).toHaveLength(3);
    expect(answers.every((answer) => [200, 409].includes(answer.statusCode))).toBe(true);
    const rows = await activeRows();
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((row) => row.item_id)).size).toBe(3);
  });

  describe('GET and DELETE /api/users/reservations', () => {
    it('cancels one of one’s own, which frees the copy; not twice, and not someone else’s', async () => {
      const made = reservationResponseSchema.parse((await reserve(student, books.alice)).json());
      const id = made.reservation.reservationId;
      expect((await other.client.delete(`/api/users/reservations/${id}`)).statusCode).toBe(404);
      const cancelled = await student.client.delete(`/api/users/reservations/${id}`);
      expect(cancelled.statusCode).toBe(200);
      expect(reservationResponseSchema.parse(cancelled.json()).reservation.status).toBe(
        'cancelled',
      );
      const again = await student.client.delete(`/api/users/reservations/${id}`);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe(
        'This reservation is cancelled and can no longer be cancelled.',
      );
      expect((await reserve(other, books.alice)).statusCode).toBe(200);
      expect((await student.client.delete('/api/users/reservations/RES-1')).statusCode).toBe(404);
    });
  });

  // Found by the fuzzer: an id holding a NUL reached the query and failed it with a 500.
  it('answers 404 for an id that cannot be a reservation, for its holder and at the desk', async () => {
    const librarian = await signedInPerson(testApp, 'librarian');
    for (const id of ['%00RES-1', 'RES-1%00', 'nope', 'RES-']) {
      const cancel = await student.client.delete(`/api/users/reservations/${id}`);
      expect(cancel.statusCode, id).toBe(404);
      expect(cancel.json().message).toBe('You have no reservation with that id.');
      const mark = await librarian.client.patch(`/api/desk/reservations/${id}`, {
        status: 'collected',
      });
      expect(mark.statusCode, id).toBe(404);
      expect(mark.json().message).toBe('There is no reservation with that id.');
    }
  });

  describe('the library desk', () => {
    it('shows the day by slot to librarians only, and moves reservations on', async () => {
      const librarian = await signedInPerson(testApp, 'librarian');
      const faculty = await signedInPerson(testApp, 'faculty');
      const made = reservationResponseSchema.parse(
        (await reserve(student, books.pride, TOMORROW, '10:00-10:30 AM')).json(),
      );
      const id = made.reservation.reservationId;
      expect((await faculty.client.get('/api/desk/pickups')).statusCode).toBe(403);
      expect((await student.client.get(`/api/desk/pickups?date=${TOMORROW}`)).statusCode).toBe(403);

      const day = deskPickupsResponseSchema.parse(
        (await librarian.client.get(`/api/desk/pickups?date=${TOMORROW}`)).json(),
      );
      expect(day.slots.map((slot) => slot.timeSlot)).toEqual([
        '9:00-9:30 AM',
        '10:00-10:30 AM',
        '11:00-11:30 AM',
        '2:00-2:30 PM',
        '3:00-3:30 PM',
      ]);
      expect(day.slots[1]!.reservations[0]).toMatchObject({
        reservationId: id,
        holder: { email: student.email },
      });
      const today = deskPickupsResponseSchema.parse(
        (await librarian.client.get('/api/desk/pickups')).json(),
      );
      expect(today.date).toBe(TODAY);
      expect((await librarian.client.get('/api/desk/pickups?date=2026-13-01')).statusCode).toBe(
        400,
      );

      expect(
        (await librarian.client.patch(`/api/desk/reservations/${id}`, { status: 'returned' }))
          .statusCode,
      ).toBe(409);
      const collected = await librarian.client.patch(`/api/desk/reservations/${id}`, {
        status: 'collected',
      });
      expect(collected.statusCode).toBe(200);
      const onLoan = deskPickupsResponseSchema.parse(
        (await librarian.client.get(`/api/desk/pickups?date=${TOMORROW}`)).json(),
      ).onLoan;
      expect(onLoan.map((row) => row.reservationId)).toEqual([id]);
      // A copy out on loan is still not free, even after the hold's 24 hours.
      clock = new Date('2026-11-27T15:00:00Z');
      const list = reservationBooksResponseSchema.parse(
        (await student.client.get('/api/users/reservation-books')).json(),
      );
      expect(list.payload.find((book) => book._id === books.pride)?.freeCopies).toBe(2);
      expect(
        (await librarian.client.patch(`/api/desk/reservations/${id}`, { status: 'no_show' }))
          .statusCode,
      ).toBe(409);
      expect(
        (await librarian.client.patch(`/api/desk/reservations/${id}`, { status: 'returned' }))
          .statusCode,
      ).toBe(200);
      expect(
        (await librarian.client.patch('/api/desk/reservations/RES-1', { status: 'returned' }))
          .statusCode,
      ).toBe(404);
      expect(
        (await librarian.client.patch(`/api/desk/reservations/${id}`, { status: 'lost' }))
          .statusCode,
      ).toBe(400);
    });
  });

  it('mails a confirmation with the details and an .ics calendar entry for the slot', async () => {
    const made = reservationResponseSchema.parse(
      (await reserve(student, books.frankenstein, TOMORROW, '2:00-2:30 PM')).json(),
    );
    const id = made.reservation.reservationId;
    const mail = await vi.waitFor(() => {
      const found = smtp.messages.find((message) => message.text.includes(`Reservation: ${id}`));
      if (!found) throw new Error('no confirmation yet');
      return found;
    });
    expect(mail.to).toEqual([student.email]);
    expect(mail.text).toContain(`Reservation: ${made.reservation.reservationId}`);
    expect(mail.text).toContain('Pickup: Tuesday, November 24, 2026, 2:00-2:30 PM');
    const attachment = mail.parsed.attachments.find(
      (entry) => entry.contentType === 'text/calendar',
    );
    expect(attachment, mail.raw).toBeDefined();
    const ics = attachment!.content.toString('utf8');
    expect(ics).toContain('BEGIN:VEVENT');
    // 2:00 PM in New York is 19:00 UTC; the event lasts the 30-minute slot.
    expect(ics).toContain('DTSTART:20261124T190000Z');
    expect(ics).toContain('DTEND:20261124T193000Z');
    expect(ics).toContain(`UID:${made.reservation.reservationId}@`);
    // A reminder an hour before the slot, in the calendar's own alarm.
    expect(ics).toContain('BEGIN:VALARM');
    expect(ics).toMatch(/TRIGGER:-PT1H\r\n/);
    expect(ics).toContain('ACTION:DISPLAY');
    // Every line folded to 75 octets and ended with CRLF, as calendar programs expect.
    for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });
});
