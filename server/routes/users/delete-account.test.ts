import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETED_MESSAGE,
  accountDeletionPreviewSchema,
  DELETED_ACCOUNT_NAME,
} from '#contract/http/users.ts';
import { setNumberedCopies } from '../../catalogue/copies.ts';
import { reservableDates } from '../../reservations/calendar.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { clearCirculation } from '../../test/circulation.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory, signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { connectChat, emitAck, listenOnFreePort, nextEvent } from '../../test/sockets.ts';

/** Monday 23 November 2026, 10:00 in New York. */
const START = new Date('2026-11-23T15:00:00Z');
const TIME_ZONE = 'America/New_York';
/** Every account `registrationFactory` makes has this password. */
const PASSWORD = registrationFactory().password;

describe.each(testDatabaseKinds())('deleting one’s own account on %s', (kind) => {
  let testApp: TestApp;
  let books = 0;
  const db = () => testApp.database.db;

  /** A new book with `copies` copies on the shelf. */
  async function book(copies: number, title = `Deletion Book ${++books}`): Promise<string> {
    const row = await db()
      .insertInto('items')
      .values({
        kind: 'book',
        title,
        authors: ['A. Writer'],
        source: 'test',
        source_id: crypto.randomUUID(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await setNumberedCopies(db(), row.id, copies, 0);
    return row.id;
  }

  async function reserved(person: SignedInPerson, id: string): Promise<string> {
    const response = await person.client.post('/api/users/reservation', {
      book: { id },
      reservation: { date: reservableDates(START, TIME_ZONE)[1], timeSlot: '9:00-9:30 AM' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().reservation.reservationId;
  }

  async function joined(person: SignedInPerson, bookId: string): Promise<string> {
    const response = await person.client.post('/api/users/holds', { bookId });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().hold.holdId;
  }

  /** A loan of one of `bookId`'s copies to `userId`, written as the desk would. */
  async function lent(userId: string, bookId: string, returned = false): Promise<string> {
    const copy = await db()
      .selectFrom('copies')
      .select('id')
      .where('item_id', '=', bookId)
      .where('status', '=', 'available')
      .executeTakeFirstOrThrow();
    if (!returned) {
      await db()
        .updateTable('copies')
        .set({ status: 'on_loan' })
        .where('id', '=', copy.id)
        .execute();
    }
    const row = await db()
      .insertInto('loans')
      .values({
        user_id: userId,
        item_id: bookId,
        copy_id: copy.id,
        checked_out_at: START,
        due_at: new Date('2026-12-14T15:00:00Z'),
        returned_at: returned ? START : null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  const remove = (client: TestClient, body: Record<string, unknown>) =>
    client.request({ method: 'DELETE', url: '/api/users/me', payload: body });

  async function preview(person: SignedInPerson) {
    const response = await person.client.get('/api/users/me/deletion');
    expect(response.statusCode, response.body).toBe(200);
    return accountDeletionPreviewSchema.parse(response.json());
  }

  const exists = async (id: string) =>
    (await db().selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !==
    undefined;

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { LIBRARY_TIME_ZONE: TIME_ZONE },
      now: () => START,
    });
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    await clearCirculation(db());
    await db().deleteFrom('rate_limits').execute();
  });

  it('is refused while a book is out on loan, naming it, and nothing changes', async () => {
    const person = await signedInPerson(testApp);
    const first = await book(1, 'Middlemarch');
    const second = await book(1, 'Bleak House');
    await lent(person.id, first);
    await lent(person.id, second);
    expect((await preview(person)).openLoans).toEqual([
      { title: 'Bleak House', dueAt: '2026-12-14T15:00:00.000Z' },
      { title: 'Middlemarch', dueAt: '2026-12-14T15:00:00.000Z' },
    ]);
    const refused = await remove(person.client, { password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'You have 2 books on loan ("Bleak House", "Middlemarch"): return them at the desk first.',
    );
    expect(await exists(person.id)).toBe(true);
    expect((await person.client.get('/api/users/me')).json().user?.id).toBe(person.id);
  });

  it('says what it would do, then cancels, frees, removes and keeps as it said', async () => {
    const person = await signedInPerson(testApp, 'faculty');
    const [next, other, later] = await Promise.all([
      signedInPerson(testApp),
      signedInPerson(testApp),
      signedInPerson(testApp),
    ]);
    // Their reservation of the only copy, with someone waiting for it.
    const scarce = await book(1);
    await reserved(person, scarce);
    const nextHold = await joined(next, scarce);
    // Their place in another queue, ahead of someone else.
    const queued = await book(1);
    await reserved(other, queued);
    await joined(person, queued);
    const laterHold = await joined(later, queued);
    // A loan they returned, kept by the desk.
    const returnedBook = await book(1);
    const loanId = await lent(person.id, returnedBook, true);
    await db()
      .insertInto('circulation_events')
      .values({
        at: START,
        action: 'return',
        actor_id: other.id,
        actor_name: 'Desk Person',
        borrower_id: person.id,
        borrower_name: 'Ada Lovelace',
        item_id: returnedBook,
        title: 'Returned',
        loan_id: loanId,
      })
      .execute();
    // A request, a room of theirs with someone else's message, their message in another's room.
    await db()
      .insertInto('resource_requests')
      .values({
        requester_id: person.id,
        requester_name: 'Ada Lovelace',
        title: 'A book to buy',
        resource_type: 'book',
        institution_name: 'Campus University',
      })
      .execute();
    const [theirs, others] = await db()
      .insertInto('chat_rooms')
      .values([
        { name: `Theirs ${kind}`, creator_id: person.id, creator_name: 'Ada' },
        { name: `Others ${kind}`, creator_id: other.id, creator_name: 'Other' },
      ])
      .returning('id')
      .execute();
    await db()
      .insertInto('chat_messages')
      .values([
        { room_id: theirs!.id, sender_id: other.id, sender_name: 'Other', content: 'Hi there' },
        { room_id: others!.id, sender_id: person.id, sender_name: 'Ada', content: 'Hello all' },
      ])
      .execute();
    // Course materials they published.
    const material = await db()
      .insertInto('items')
      .values({
        kind: 'course',
        title: 'Lecture Notes',
        authors: [],
        source: 'test',
        source_id: crypto.randomUUID(),
        created_by: person.id,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect(await preview(person)).toEqual({
      openLoans: [],
      reservations: 1,
      holds: 1,
      requests: 1,
      roomsCreated: 1,
      messagesSent: 1,
      messagesShownAs: DELETED_ACCOUNT_NAME,
      materialsPublished: 1,
      confirmWith: 'password',
      lastLibrarian: false,
    });

    const oldCookie = person.client.cookieHeader();
    const done = await remove(person.client, { password: PASSWORD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ success: true, message: ACCOUNT_DELETED_MESSAGE });
    // The answer clears the cookie; the old one names no session any more.
    expect(person.client.cookies.size).toBe(0);
    const stale = await testApp.app.inject({
      method: 'GET',
      url: '/api/users/me/deletion',
      headers: { cookie: oldCookie },
    });
    expect(stale.statusCode).toBe(401);
    const signIn = await new TestClient(testApp.app, testApp.config.publicUrl).post(
      '/api/users/login',
      { email: person.email, password: PASSWORD },
    );
    expect(signIn.statusCode).toBe(401);
    expect(await exists(person.id)).toBe(false);

    // The freed copy went to the next in line; the queue behind them moved up.
    const holds = await db()
      .selectFrom('queued_holds')
      .select(['id', 'status'])
      .where('id', 'in', [nextHold, laterHold])
      .orderBy('id')
      .execute();
    expect(Object.fromEntries(holds.map((hold) => [hold.id, hold.status]))).toEqual({
      [nextHold]: 'offered',
      [laterHold]: 'queued',
    });
    const laterList = await later.client.get('/api/users/holds');
    expect(laterList.json().payload[0]).toMatchObject({ status: 'queued', position: 1 });
    for (const table of ['reservations', 'queued_holds'] as const) {
      const left = await db()
        .selectFrom(table)
        .select('id')
        .where('user_id', '=', person.id)
        .execute();
      expect(left, table).toEqual([]);
    }
    expect(
      await db().selectFrom('resource_requests').where('requester_id', '=', person.id).execute(),
    ).toEqual([]);
    // Their room went with its messages; their message elsewhere stays, under the name said.
    const rooms = await db()
      .selectFrom('chat_rooms')
      .select('id')
      .where('id', 'in', [theirs!.id, others!.id])
      .execute();
    expect(rooms.map((room) => room.id)).toEqual([others!.id]);
    expect(
      await db()
        .selectFrom('chat_messages')
        .select(['room_id', 'sender_id', 'sender_name', 'content'])
        .where('room_id', 'in', [theirs!.id, others!.id])
        .execute(),
    ).toEqual([
      {
        room_id: others!.id,
        sender_id: null,
        sender_name: DELETED_ACCOUNT_NAME,
        content: 'Hello all',
      },
    ]);
    // The desk's history stays, without their name; the course material stays, unowned.
    const event = await db()
      .selectFrom('circulation_events')
      .select(['borrower_id', 'borrower_name', 'actor_name'])
      .where('loan_id', '=', loanId)
      .executeTakeFirstOrThrow();
    expect(event).toEqual({
      borrower_id: null,
      borrower_name: DELETED_ACCOUNT_NAME,
      actor_name: 'Desk Person',
    });
    const kept = await db()
      .selectFrom('items')
      .select(['title', 'created_by'])
      .where('id', '=', material.id)
      .executeTakeFirstOrThrow();
    expect(kept).toEqual({ title: 'Lecture Notes', created_by: null });
  });

  it('disconnects their sockets and closes their rooms for the people in them', async () => {
    const person = await signedInPerson(testApp);
    const other = await signedInPerson(testApp);
    const url = await listenOnFreePort(testApp);
    const origin = testApp.config.publicUrl;
    const theirs = await connectChat(url, person.client.cookieHeader(), origin);
    const visitor = await connectChat(url, other.client.cookieHeader(), origin);
    try {
      const roomName = `Leaving soon ${kind}`;
      expect((await emitAck(theirs, 'create_room', { roomName, description: '' })).ok).toBe(true);
      expect((await emitAck(visitor, 'join_room', { roomName })).ok).toBe(true);
      const oldCookie = person.client.cookieHeader();
      const disconnected = new Promise<string>((resolve) => theirs.once('disconnect', resolve));
      const closed = nextEvent(visitor, 'room_closed');
      const done = await remove(person.client, { password: PASSWORD });
      expect(done.statusCode, done.body).toBe(200);
      expect(await disconnected).toBe('io server disconnect');
      expect(await closed).toEqual([{ roomName }]);
      // The old cookie opens no new connection either.
      await expect(connectChat(url, oldCookie, origin)).rejects.toThrow();
    } finally {
      theirs.close();
      visitor.close();
    }
  });

  it('needs the right password, said beside the field', async () => {
    const person = await signedInPerson(testApp);
    const missing = await remove(person.client, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([
      { path: 'password', message: 'Your password is required.' },
    ]);
    const wrong = await remove(person.client, { password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([
      { path: 'password', message: 'That is not your password.' },
    ]);
    expect(await exists(person.id)).toBe(true);
    const guest = new TestClient(testApp.app, testApp.config.publicUrl);
    expect((await remove(guest, { password: PASSWORD })).statusCode).toBe(401);
  });

  it('asks an account without a password (Google) for its e-mail address instead', async () => {
    const person = await signedInPerson(testApp);
    // As a Google sign-up is: no credential account, only the provider's.
    await db()
      .deleteFrom('accounts')
      .where('user_id', '=', person.id)
      .where('provider_id', '=', 'credential')
      .execute();
    expect((await preview(person)).confirmWith).toBe('email');
    const withPassword = await remove(person.client, { password: PASSWORD });
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().errors[0].path).toBe('confirmEmail');
    const wrong = await remove(person.client, { confirmEmail: 'someone@else.example' });
    expect(wrong.statusCode).toBe(400);
    expect(await exists(person.id)).toBe(true);
    const done = await remove(person.client, { confirmEmail: ` ${person.email.toUpperCase()} ` });
    expect(done.statusCode, done.body).toBe(200);
    expect(await exists(person.id)).toBe(false);
  });

  it('refuses the last librarian, and lets one go once another is there', async () => {
    // Only this test's librarians count.
    await db()
      .updateTable('users')
      .set({ role: 'faculty' })
      .where('role', '=', 'librarian')
      .execute();
    const librarian = await signedInPerson(testApp, 'librarian');
    expect((await preview(librarian)).lastLibrarian).toBe(true);
    const refused = await remove(librarian.client, { password: PASSWORD });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/last librarian/);
    expect(await exists(librarian.id)).toBe(true);

    const another = await signedInPerson(testApp, 'librarian');
    expect((await preview(librarian)).lastLibrarian).toBe(false);
    expect((await remove(librarian.client, { password: PASSWORD })).statusCode).toBe(200);
    expect(await exists(librarian.id)).toBe(false);
    expect((await remove(another.client, { password: PASSWORD })).statusCode).toBe(409);
  });
});
