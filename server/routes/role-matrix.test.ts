import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePlainText } from '#contract/page-text.ts';
import { sql } from 'kysely';
import { addCopy } from '../catalogue/copies.ts';
import { createRoom, insertMessage } from '../chat/store.ts';
import { seedDemoData } from '../db/seed.ts';
import { reservableDates } from '../reservations/calendar.ts';
import { unsubscribeToken } from '../notices/unsubscribe.ts';
import { createTestApp, ROOMS_BUDGET_LIFTED, TEST_AUTH_SECRET, type TestApp } from '../test/app.ts';
import { registrationFactory } from '../test/factories.ts';
import { TestClient } from '../test/http.ts';
import { matrixRows, WHO, type Who } from '../test/role-matrix.ts';
import { connectChat, emitAck, listenOnFreePort, type ChatClient } from '../test/sockets.ts';

/** One caller: its browser-like client and the account it holds (a guest holds one it does not use). */
interface Caller {
  client: TestClient;
  account: ReturnType<typeof registrationFactory>;
}

type Driver = (caller: Caller) => Promise<LightMyRequestResponse>;

/** Usernames the chat-username driver has chosen so far. */
let readers = 0;

/** How to make a typical well-formed call to each documented route. */
const DRIVERS: Record<string, Driver> = {
  'GET /api/health': ({ client }) => client.get('/api/health'),
  'GET /api/library': ({ client }) => client.get('/api/library'),
  'GET /api/docs': ({ client }) => client.get('/api/docs'),
  'GET /api/docs/openapi.json': ({ client }) => client.get('/api/docs/openapi.json'),
  'GET /api/users/me': ({ client }) => client.get('/api/users/me'),
  'GET /api/users/providers': ({ client }) => client.get('/api/users/providers'),
  'POST /api/users/check-user': ({ client }) =>
    client.post('/api/users/check-user', { email: 'someone@uni.example' }),
  'POST /api/users/register': ({ client }) =>
    client.post('/api/users/register', registrationFactory()),
  'POST /api/users/login': ({ client, account }) =>
    client.post('/api/users/login', { email: account.email, password: account.password }),
  'POST /api/users/signin': ({ client, account }) =>
    client.post('/api/users/signin', { email: account.email }),
  'POST /api/users/logout': ({ client }) => client.post('/api/users/logout', {}),
  'GET /api/users/me/data': ({ client }) => client.get('/api/users/me/data'),
  'PATCH /api/users/me': ({ client }) => client.patch('/api/users/me', { department: 'Maths' }),
  'GET /api/users/me/deletion': ({ client }) => client.get('/api/users/me/deletion'),
  // Each caller is a throwaway account of its own, confirmed with its own password; another
  // librarian stays, so the librarian is never the last.
  'DELETE /api/users/me': async ({ client, account }) => {
    await testApp.database.db
      .updateTable('users')
      .set({ role: 'librarian' })
      .where('id', '=', await someoneElse())
      .execute();
    return client.request({
      method: 'DELETE',
      url: '/api/users/me',
      payload: { password: account.password },
    });
  },
  'POST /api/users/change-password': ({ client }) =>
    client.post('/api/users/change-password', {
      currentPassword: 'not the password',
      newPassword: 'a quiet lighthouse keeps seven lamps',
    }),
  'POST /api/users/verification-email': ({ client }) =>
    client.post('/api/users/verification-email', {}),
  'POST /api/users/forgot-password': ({ client, account }) =>
    client.post('/api/users/forgot-password', { email: account.email }),
  'POST /api/users/reset-password': ({ client }) =>
    client.post('/api/users/reset-password', {
      token: 'not-a-real-token-0000',
      password: 'a fine passphrase',
    }),
  'GET /api/search': ({ client }) => client.get('/api/search?q=pride'),
  'GET /api/search/suggest': ({ client }) => client.get('/api/search/suggest?q=pri'),
  'GET /api/items/:id': async ({ client }) => client.get(`/api/items/${await bookWithPages()}`),
  'GET /api/items/:id/related': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/related`),
  'GET /api/items/:id/pages': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/pages?page=1`),
  'GET /api/items/:id/contents': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/contents`),
  'GET /api/items/:id/search-inside': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/search-inside?q=chapter`),
  'GET /api/items/:id/reading': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/reading`),
  'PUT /api/items/:id/progress': async ({ client }) =>
    client.request({
      method: 'PUT',
      url: `/api/items/${await bookWithPages()}/progress`,
      payload: { page: 1 },
    }),
  'PUT /api/items/:id/bookmarks/:page': async ({ client }) =>
    client.request({ method: 'PUT', url: `/api/items/${await bookWithPages()}/bookmarks/1` }),
  // Each caller removes a bookmark of its own, made first (a guest's making is refused too).
  'DELETE /api/items/:id/bookmarks/:page': async ({ client }) => {
    const url = `/api/items/${await bookWithPages()}/bookmarks/2`;
    await client.request({ method: 'PUT', url });
    return client.delete(url);
  },
  'POST /api/items/:id/highlights': async ({ client }) =>
    client.post(`/api/items/${await bookWithPages()}/highlights`, await firstWordsOfBook()),
  // Each caller changes a highlight of its own (anyone else's is a 404, tested in
  // server/routes/reading/reading.test.ts); a guest, who cannot make one, gets a made-up id.
  'PATCH /api/highlights/:highlightId': async ({ client }) =>
    client.patch(`/api/highlights/${await ownHighlight(client)}`, { note: 'Matrix note' }),
  'DELETE /api/highlights/:highlightId': async ({ client }) =>
    client.delete(`/api/highlights/${await ownHighlight(client)}`),
  'GET /api/items/:id/notes.md': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/notes.md`),
  'GET /api/items/:id/citation': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/citation?format=ris`),
  'GET /api/reading/preferences': ({ client }) => client.get('/api/reading/preferences'),
  'PUT /api/reading/preferences': ({ client }) =>
    client.request({ method: 'PUT', url: '/api/reading/preferences', payload: { theme: 'sepia' } }),
  'GET /api/reading/recent': ({ client }) => client.get('/api/reading/recent'),
  'POST /api/items': ({ client }) =>
    client.post('/api/items', { type: 'book', title: 'Matrix Algebra', authors: ['A. Cayley'] }),
  'GET /api/items/mine': ({ client }) => client.get('/api/items/mine'),
  // Faculty change only the course materials they published (403 for any other item, tested in
  // server/routes/items/faculty-materials.test.ts), so each caller's typical call is on one of
  // its own; a caller who cannot publish gets someone else's.
  'PATCH /api/items/:id': async (caller) =>
    caller.client.patch(`/api/items/${await ownCourseMaterial(caller)}`, {
      subjects: ['science', 'matrix'],
    }),
  'DELETE /api/items/:id': async (caller) =>
    caller.client.delete(`/api/items/${await ownCourseMaterial(caller)}`),
  'POST /api/items/:id/restore': async (caller) =>
    caller.client.post(
      `/api/items/${await ownCourseMaterial(caller, { withdrawn: true })}/restore`,
      {},
    ),
  'GET /api/items/:id/history': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/history`),
  'GET /api/export/catalogue.csv': ({ client }) =>
    client.get('/api/export/catalogue.csv?type=book'),
  'GET /api/export/catalogue.xml': ({ client }) => client.get('/api/export/catalogue.xml?q=matrix'),
  'GET /api/insights': ({ client }) => client.get('/api/insights?period=7'),
  'GET /api/insights/export.csv': ({ client }) =>
    client.get('/api/insights/export.csv?panel=searches-top&period=30'),
  'GET /api/insights/my-materials': ({ client }) => client.get('/api/insights/my-materials'),
  'GET /api/insights/today': ({ client }) => client.get('/api/insights/today'),
  'POST /api/items/:id/opened': async (caller) =>
    caller.client.post(`/api/items/${await ownCourseMaterial(caller)}/opened`, {}),
  'POST /api/imports': ({ client }) =>
    client.post('/api/imports?kind=holdings&name=matrix.csv', 'isbn,barcode,location\n', {
      'content-type': 'application/octet-stream',
    }),
  'GET /api/imports': ({ client }) => client.get('/api/imports'),
  'GET /api/imports/:id': async ({ client }) =>
    client.get(`/api/imports/${await finishedImport()}`),
  'GET /api/items/:id/copies': async ({ client }) =>
    client.get(`/api/items/${await bookWithPages()}/copies`),
  'POST /api/items/:id/copies': async ({ client }) =>
    client.post(`/api/items/${await bookWithPages()}/copies`, {
      barcode: `MATRIX-${++barcodes}`,
      location: 'Main library',
    }),
  'PATCH /api/copies/:barcode': async ({ client }) => {
    const barcode = `MATRIX-${++barcodes}`;
    await addCopy(
      testApp.database.db,
      await bookWithPages(),
      {
        barcode,
        location: '',
        status: 'available',
        note: '',
      },
      null,
    );
    return client.patch(`/api/copies/${barcode}`, { location: 'Stacks, floor 2' });
  },
  'GET /api/admin/users': ({ client }) => client.get('/api/admin/users?q=matrix'),
  'PATCH /api/admin/users/:id': async ({ client }) =>
    client.patch(`/api/admin/users/${await someoneElse()}`, { role: 'faculty' }),
  'GET /api/admin/users/:id/history': async ({ client }) =>
    client.get(`/api/admin/users/${await someoneElse()}/history`),
  'GET /api/users/get-books': ({ client }) => client.get('/api/users/get-books'),
  'POST /api/faculty/post-book': ({ client }) =>
    client.post('/api/faculty/post-book', {
      title: 'Matrix Methods',
      author: 'Dr. Test',
      publishedDate: '2025-09-01',
      driveLink: 'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz012345/view',
      instituteName: 'Campus University',
      genre: 'science',
    }),
  'GET /api/users/requests': ({ client }) => client.get('/api/users/requests'),
  'POST /api/users/requests': ({ client }) => client.post('/api/users/requests', REQUEST),
  'GET /api/users/requests/similar': ({ client }) =>
    client.get('/api/users/requests/similar?title=quantum'),
  'POST /api/users/requests/:id/support': async ({ client }) =>
    client.post(`/api/users/requests/${await pendingRequest()}/support`, {}),
  'GET /api/faculty/get-req': ({ client }) => client.get('/api/faculty/get-req'),
  'PATCH /api/faculty/requests/:id': async ({ client }) =>
    client.patch(`/api/faculty/requests/${await pendingRequest()}`, { status: 'accepted' }),
  'GET /api/users/reservation-books': ({ client }) => client.get('/api/users/reservation-books'),
  'GET /api/users/reservation-days': ({ client }) => client.get('/api/users/reservation-days'),
  'POST /api/users/reservation': async ({ client }) =>
    client.post('/api/users/reservation', await reservationBody('book-pride-and-prejudice')),
  'GET /api/users/reservations': ({ client }) => client.get('/api/users/reservations'),
  'DELETE /api/users/reservations/:id': async ({ client }) => {
    const made = await client.post(
      '/api/users/reservation',
      await reservationBody('book-the-time-machine'),
    );
    const id = made.statusCode === 200 ? made.json().reservation.reservationId : 'RES-1';
    return client.delete(`/api/users/reservations/${id}`);
  },
  'GET /api/users/holds': ({ client }) => client.get('/api/users/holds'),
  'GET /api/items/cards': async ({ client }) =>
    client.get(`/api/items/cards?ids=${await bookIdOf('book-a-christmas-carol')}`),
  'POST /api/items/:id/room': async ({ client }) =>
    client.post(`/api/items/${await bookIdOf('book-a-christmas-carol')}/room`, {}),
  // The demo's A Christmas Carol has its only copy out: a waiting list anyone may join.
  'POST /api/users/holds': async ({ client }) =>
    client.post('/api/users/holds', { bookId: await bookIdOf('book-a-christmas-carol') }),
  'DELETE /api/users/holds/:id': async ({ client }) => {
    const joined = await client.post('/api/users/holds', {
      bookId: await bookIdOf('book-a-christmas-carol'),
    });
    const id = joined.statusCode === 200 ? joined.json().hold.holdId : 'HOLD-1';
    return client.delete(`/api/users/holds/${id}`);
  },
  'GET /api/notices': ({ client }) => client.get('/api/notices'),
  'GET /api/moderation/queue': ({ client }) => client.get('/api/moderation/queue'),
  // Dismissing may be done to any message, reported or not, any number of times.
  'POST /api/moderation/actions': async ({ client }) =>
    client.post('/api/moderation/actions', {
      messageId: await aChatMessageId(),
      action: 'dismiss',
      reason: 'Looked at it: nothing wrong.',
    }),
  // A fresh mute for each call: ending one that has ended is a 409.
  'POST /api/moderation/sanctions/:id/end': async ({ client }) =>
    client.post(`/api/moderation/sanctions/${await aSanctionId()}/end`, {
      reason: 'Apologised.',
    }),
  'POST /api/notices/read': ({ client }) => client.post('/api/notices/read', { all: true }),
  'GET /api/users/me/notices': ({ client }) => client.get('/api/users/me/notices'),
  'PUT /api/users/me/notices': ({ client }) =>
    client.request({
      method: 'PUT',
      url: '/api/users/me/notices',
      payload: { email: { due_soon: false } },
    }),
  // The link of an e-mail to the caller's account (a guest's too: the token is the key).
  'POST /api/notices/unsubscribe': async ({ client, account }) => {
    const row = await testApp.database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', account.email.toLowerCase())
      .executeTakeFirstOrThrow();
    return client.post('/api/notices/unsubscribe', {
      token: unsubscribeToken(TEST_AUTH_SECRET, row.id, 'overdue'),
    });
  },
  'GET /api/shelf': ({ client }) => client.get('/api/shelf'),
  'PUT /api/shelf/:itemId': async ({ client }) =>
    client.request({ method: 'PUT', url: `/api/shelf/${await bookWithPages()}` }),
  'DELETE /api/shelf/:itemId': async ({ client }) =>
    client.delete(`/api/shelf/${await bookWithPages()}`),
  'GET /api/lists': ({ client }) => client.get('/api/lists'),
  'POST /api/lists': ({ client }) => client.post('/api/lists', { name: 'Matrix reading' }),
  // Each caller's typical call is on a list of its own (anyone else's is a 404, tested in
  // server/routes/shelf/shelf.test.ts); a guest, who cannot make one, gets someone else's.
  'GET /api/lists/:listId': async (caller) =>
    caller.client.get(`/api/lists/${(await ownReadingList(caller)).listId}`),
  'PATCH /api/lists/:listId': async (caller) =>
    caller.client.patch(`/api/lists/${(await ownReadingList(caller)).listId}`, { shared: true }),
  'DELETE /api/lists/:listId': async (caller) =>
    caller.client.delete(`/api/lists/${(await ownReadingList(caller)).listId}`),
  'POST /api/lists/:listId/items': async (caller) =>
    caller.client.post(`/api/lists/${(await ownReadingList(caller)).listId}/items`, {
      itemId: await bookWithPages(),
    }),
  'DELETE /api/lists/:listId/items/:itemId': async (caller) => {
    const { listId, itemId } = await ownReadingList(caller, { withItem: true });
    return caller.client.delete(`/api/lists/${listId}/items/${itemId}`);
  },
  'PUT /api/lists/:listId/order': async (caller) => {
    const { listId, itemId } = await ownReadingList(caller, { withItem: true });
    return caller.client.request({
      method: 'PUT',
      url: `/api/lists/${listId}/order`,
      payload: { itemIds: [itemId] },
    });
  },
  'GET /api/shared-lists/:token': async ({ client }) =>
    client.get(`/api/shared-lists/${await someoneElsesList({ shared: true })}`),
  'GET /api/desk/pickups': ({ client }) => client.get('/api/desk/pickups'),
  'GET /api/users/loans': ({ client }) => client.get('/api/users/loans'),
  'POST /api/users/loans/:id/renew': async ({ client, account }) =>
    client.post(`/api/users/loans/${await loanOf(await userIdOf(account.email))}/renew`, {}),
  'GET /api/desk/loans': ({ client }) => client.get('/api/desk/loans?overdue=true'),
  // A walk-in: a copy nobody has claimed, lent to someone else by their e-mail.
  'POST /api/desk/loans': async ({ client }) => {
    const borrower = await someoneElse();
    return client.post('/api/desk/loans', {
      barcode: (await freshCopy()).barcode,
      email: `${borrower}@uni.example`,
    });
  },
  'POST /api/desk/returns': async ({ client }) => {
    const loanId = await loanOf(await someoneElse());
    const row = await testApp.database.db
      .selectFrom('loans')
      .innerJoin('copies', 'copies.id', 'loans.copy_id')
      .select('copies.barcode')
      .where('loans.id', '=', loanId)
      .executeTakeFirstOrThrow();
    return client.post('/api/desk/returns', { barcode: row.barcode });
  },
  'POST /api/desk/loans/:id/renew': async ({ client }) =>
    client.post(`/api/desk/loans/${await loanOf(await someoneElse())}/renew`, {}),
  'GET /api/desk/activity': ({ client }) => client.get('/api/desk/activity'),
  'PATCH /api/desk/reservations/:id': async ({ client }) =>
    client.patch(`/api/desk/reservations/${await activeReservation()}`, { status: 'collected' }),
  'PUT /api/users/chat-username': ({ client }) =>
    client.request({
      method: 'PUT',
      url: '/api/users/chat-username',
      // Usernames are unique: one of its own for each caller.
      payload: { username: `reader ${++readers}` },
    }),
  'GET /api/chat/moderation-words': ({ client }) => client.get('/api/chat/moderation-words'),
  'POST /api/chat': ({ client }) =>
    client.post('/api/chat', { prompt: 'When are you open?', sessionId: 'matrix', history: [] }),
  'GET /api/auth/*': ({ client }) => client.get('/api/auth/get-session'),
  'POST /api/auth/*': ({ client }) =>
    client.post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/' }),
};

let testApp: TestApp;
/** Barcodes made so far: each call of a copy driver labels a new copy. */
let barcodes = 0;

const REQUEST = {
  student: 'Ada Lovelace',
  title: 'Quantum Computing: An Applied Approach',
  resourceType: 'book',
  institutionName: 'Campus University',
};

/** A new account of someone else, for rows that need another person's data. */
async function someoneElse(): Promise<string> {
  const id = crypto.randomUUID();
  await testApp.database.db
    .insertInto('users')
    .values({ id, name: 'Someone Else', email: `${id}@uni.example` })
    .execute();
  return id;
}

/** An import that has run (written directly: the queue is not the point here). */
async function finishedImport(): Promise<string> {
  const row = await testApp.database.db
    .insertInto('catalogue_imports')
    .values({ kind: 'holdings', file_name: 'matrix.csv', size_bytes: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  await testApp.database.db
    .updateTable('catalogue_imports')
    .set({ state: 'done' })
    .where('id', '=', row.id)
    .execute();
  return row.id;
}

/** A fresh pending request filed by someone else. */
async function pendingRequest(): Promise<string> {
  const row = await testApp.database.db
    .insertInto('resource_requests')
    .values({
      requester_id: await someoneElse(),
      requester_name: REQUEST.student,
      title: REQUEST.title,
      resource_type: 'book',
      institution_name: REQUEST.institutionName,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the account with `email`. */
async function userIdOf(email: string): Promise<string> {
  const row = await testApp.database.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', email)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A new book with one copy on the shelf, for loans nobody else's rows touch. */
async function freshCopy(): Promise<{ itemId: string; copyId: string; barcode: string }> {
  const item = await testApp.database.db
    .insertInto('items')
    .values({
      kind: 'book',
      title: 'Matrix Loans',
      authors: ['A. Cayley'],
      source: 'matrix',
      source_id: crypto.randomUUID(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const barcode = `MATRIX-${++barcodes}`;
  await addCopy(
    testApp.database.db,
    item.id,
    { barcode, location: 'Main library', status: 'available', note: '' },
    null,
  );
  const copy = await testApp.database.db
    .selectFrom('copies')
    .select('id')
    .where('barcode', '=', barcode)
    .executeTakeFirstOrThrow();
  return { itemId: item.id, copyId: copy.id, barcode };
}

/** A loan of a fresh copy to `userId`, due in a week (written directly). */
async function loanOf(userId: string): Promise<string> {
  const { itemId, copyId } = await freshCopy();
  await testApp.database.db
    .updateTable('copies')
    .set({ status: 'on_loan' })
    .where('id', '=', copyId)
    .execute();
  const now = Date.now();
  const row = await testApp.database.db
    .insertInto('loans')
    .values({
      user_id: userId,
      item_id: itemId,
      copy_id: copyId,
      checked_out_at: new Date(now),
      due_at: new Date(now + 7 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of the demo item `sourceId`. */
/** Some chat message's id (a room and a message made once when there is none). */
async function aChatMessageId(): Promise<string> {
  const db = testApp.database.db;
  const found = await db
    .selectFrom('chat_messages')
    .select(sql<string>`id::text`.as('id'))
    .limit(1)
    .executeTakeFirst();
  if (found) return found.id;
  const owner = await db.selectFrom('users').select(['id']).limit(1).executeTakeFirstOrThrow();
  const room = await createRoom(db, {
    name: 'Matrix moderation',
    description: '',
    creatorId: owner.id,
    creatorName: 'Owner',
  });
  const message = await insertMessage(db, {
    roomId: room!.id,
    senderId: owner.id,
    senderName: 'Owner',
    content: 'A message to moderate',
  });
  return message.id;
}

/** A new mute in force of some person, everywhere, for an hour. */
async function aSanctionId(): Promise<string> {
  const db = testApp.database.db;
  const person = await db.selectFrom('users').select(['id']).limit(1).executeTakeFirstOrThrow();
  const row = await db
    .insertInto('chat_sanctions')
    .values({
      user_id: person.id,
      room_id: null,
      kind: 'mute',
      reason: 'For the matrix.',
      ends_at: new Date(Date.now() + 3_600_000),
    })
    .returning(sql<string>`id::text`.as('id'))
    .executeTakeFirstOrThrow();
  return row.id;
}

async function bookIdOf(sourceId: string): Promise<string> {
  const book = await testApp.database.db
    .selectFrom('items')
    .select('id')
    .where('source_id', '=', sourceId)
    .executeTakeFirstOrThrow();
  return book.id;
}

/** The spec's reservation payload for a demo book, tomorrow at 9:00. */
async function reservationBody(sourceId: string) {
  const book = { id: await bookIdOf(sourceId) };
  const tomorrow = reservableDates(new Date(), testApp.config.library.timeZone)[1]!;
  return { book: { id: book.id }, reservation: { date: tomorrow, timeSlot: '9:00-9:30 AM' } };
}

/** A fresh active reservation held by someone else (written directly: it takes no copy check). */
async function activeReservation(): Promise<string> {
  const body = await reservationBody('book-frankenstein');
  const row = await testApp.database.db
    .insertInto('reservations')
    .values({
      user_id: await someoneElse(),
      item_id: body.book.id,
      pickup_date: body.reservation.date,
      time_slot: body.reservation.timeSlot,
      slot_starts_at: new Date(Date.now() + 86_400_000),
      expires_at: new Date(Date.now() + 2 * 86_400_000),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A course material `caller` published (as faculty and librarians may), or, for a caller who
 * cannot publish, one someone else did; withdrawn when `withdrawn` is set.
 */
async function ownCourseMaterial(
  { client }: Caller,
  { withdrawn = false }: { withdrawn?: boolean } = {},
): Promise<string> {
  const published = await client.post('/api/faculty/post-book', {
    title: 'Matrix Lecture Notes',
    author: 'Dr. Test',
    publishedDate: '2025-09-01',
    driveLink: 'https://drive.google.com/file/d/matrix-notes/view',
    instituteName: 'Campus University',
    genre: 'science',
  });
  const id =
    published.statusCode === 200
      ? (published.json().payload._id as string)
      : (
          await testApp.database.db
            .insertInto('items')
            .values({
              kind: 'course',
              title: 'Someone Else’s Notes',
              authors: [],
              source: 'matrix',
              source_id: crypto.randomUUID(),
              created_by: await someoneElse(),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
  if (withdrawn) {
    await testApp.database.db
      .updateTable('items')
      .set({ withdrawn_at: new Date() })
      .where('id', '=', id)
      .execute();
  }
  return id;
}

/**
 * A list of someone else's holding a demo book, shared when `shared`: answers its share token
 * when shared, else its id.
 */
async function someoneElsesList({ shared = false }: { shared?: boolean } = {}): Promise<string> {
  const token = crypto.randomUUID().replaceAll('-', '');
  const list = await testApp.database.db
    .insertInto('reading_lists')
    .values({
      user_id: await someoneElse(),
      name: 'Someone Else’s Reading',
      share_token: shared ? token : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await testApp.database.db
    .insertInto('reading_list_items')
    .values({ list_id: list.id, item_id: await bookWithPages(), position: 1 })
    .execute();
  return shared ? token : list.id;
}

/**
 * A reading list `caller` made, holding a demo book when `withItem`; for a caller who cannot
 * make one (a guest), someone else's.
 */
async function ownReadingList(
  { client }: Caller,
  { withItem = false }: { withItem?: boolean } = {},
): Promise<{ listId: string; itemId: string }> {
  const itemId = await bookWithPages();
  const made = await client.post('/api/lists', { name: 'Matrix reading' });
  if (made.statusCode !== 201) return { listId: await someoneElsesList(), itemId };
  const listId = made.json().id as string;
  if (withItem) await client.post(`/api/lists/${listId}/items`, { itemId });
  return { listId, itemId };
}

/** A demo book that holds pages. */
/** A highlight of the first words of page 1 of {@link bookWithPages}, as its creation takes it. */
async function firstWordsOfBook() {
  const row = await testApp.database.db
    .selectFrom('item_pages')
    .select('content')
    .where('item_id', '=', await bookWithPages())
    .where('page_number', '=', 1)
    .executeTakeFirstOrThrow();
  const quote = pagePlainText(row.content).slice(0, 12);
  return { page: 1, start: 0, end: quote.length, quote, note: 'Matrix' };
}

/** The id of a new highlight of the caller's own; a made-up one when they may not make one. */
async function ownHighlight(client: TestClient): Promise<string> {
  const response = await client.post(
    `/api/items/${await bookWithPages()}/highlights`,
    await firstWordsOfBook(),
  );
  return response.statusCode === 201 ? (response.json() as { id: string }).id : crypto.randomUUID();
}

async function bookWithPages(): Promise<string> {
  const row = await testApp.database.db
    .selectFrom('items')
    .select('id')
    .where('page_count', '>', 0)
    // Never the book whose only copy is out: the waiting-list drivers need it to stay so, and
    // the copy drivers add copies to this one.
    .where('source_id', '<>', 'book-a-christmas-carol')
    .orderBy('title')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('the role matrix in docs/role-matrix.md', () => {
  beforeAll(async () => {
    // With a provider configured, signing in with it answers where to send the browser (200).
    testApp = await createTestApp('pglite', {
      env: { GOOGLE_CLIENT_ID: 'matrix-client', GOOGLE_CLIENT_SECRET: 'matrix-secret' },
      // One owner makes a room for each socket event and caller, faster than anyone would.
      socketBudgets: ROOMS_BUDGET_LIFTED,
    });
    await seedDemoData(testApp.database.db);
  });
  afterAll(async () => testApp.close());

  /** A fresh caller of the given kind, signed in unless a guest. */
  async function caller(who: Who): Promise<Caller> {
    const account = registrationFactory({ role: who === 'student' ? 'student' : 'faculty' });
    const setUp = new TestClient(testApp.app, testApp.config.publicUrl);
    await setUp.post('/api/users/register', account);
    // Verified, as if the mailed link had been opened: the cells are the roles' (decision 026).
    await testApp.database.db
      .updateTable('users')
      .set({ email_verified: true, ...(who === 'librarian' ? { role: 'librarian' as const } : {}) })
      .where('email', '=', account.email)
      .execute();
    if (who === 'guest')
      return { client: new TestClient(testApp.app, testApp.config.publicUrl), account };
    return { client: setUp, account };
  }

  it('lists every API route the server has, each with a driver', () => {
    const documented = matrixRows('HTTP').map((row) => row.call);
    expect([...new Set(testApp.app.apiRoutes)].sort()).toEqual([...documented].sort());
    expect(Object.keys(DRIVERS).sort()).toEqual([...documented].sort());
  });

  for (const row of matrixRows('HTTP')) {
    it(`${row.call}: ${WHO.map((who) => `${who} ${row.cells[who]}`).join(', ')}`, async () => {
      const driver = DRIVERS[row.call];
      expect(driver, `no driver for ${row.call}`).toBeDefined();
      const answers: Record<string, number> = {};
      for (const who of WHO) answers[who] = (await driver!(await caller(who))).statusCode;
      expect(answers).toEqual(Object.fromEntries(WHO.map((who) => [who, Number(row.cells[who])])));
    });
  }

  it('every socket event matches the socket table', async () => {
    const url = await listenOnFreePort(testApp);
    // Someone else's room, restricted, for the events that need one.
    const owner = await caller('student');
    const ownerSocket = await connectChat(
      url,
      owner.client.cookieHeader(),
      testApp.config.publicUrl,
    );
    let rooms = 0;
    const someoneElsesRoom = async () => {
      const roomName = `Matrix room ${++rooms}`;
      await emitAck(ownerSocket, 'create_room', { roomName, description: '' });
      return roomName;
    };
    const join = async (socket: ChatClient, roomName: string) =>
      emitAck(socket, 'join_room', { roomName });
    // A message in another person's room (the owner's open rooms are counted), which each
    // caller reports once; its room is also the one whose rules each caller tries to set.
    const poster = await caller('student');
    const posterSocket = await connectChat(
      url,
      poster.client.cookieHeader(),
      testApp.config.publicUrl,
    );
    const reported = { roomName: 'Matrix reported', id: '' };
    await emitAck(posterSocket, 'create_room', { roomName: reported.roomName, description: '' });
    await join(posterSocket, reported.roomName);
    const sent = await emitAck(posterSocket, 'send_message', {
      room: reported.roomName,
      message: 'Report me',
    });
    reported.id = (sent as { id: string }).id;
    posterSocket.close();
    /** A typical well-formed use of each event; `ok` when acknowledged as done. */
    const SOCKET_DRIVERS: Record<string, (socket: ChatClient) => Promise<{ ok: boolean }>> = {
      connect: async () => ({ ok: true }),
      create_room: (socket) =>
        emitAck(socket, 'create_room', { roomName: `Matrix new ${++rooms}`, description: '' }),
      join_room: async (socket) => join(socket, await someoneElsesRoom()),
      send_message: async (socket) => {
        const roomName = await someoneElsesRoom();
        await join(socket, roomName);
        return emitAck(socket, 'send_message', { room: roomName, message: 'Hello' });
      },
      load_history: async (socket) =>
        emitAck(socket, 'load_history', { roomName: await someoneElsesRoom(), before: '999999' }),
      leave_room: async (socket) => {
        await join(socket, await someoneElsesRoom());
        return emitAck(socket, 'leave_room');
      },
      close_room: async (socket) =>
        emitAck(socket, 'close_room', { roomName: await someoneElsesRoom() }),
      lift_restriction: async (socket) =>
        emitAck(socket, 'lift_restriction', { roomName: await someoneElsesRoom() }),
      report_abuse: async (socket) => {
        const roomName = await someoneElsesRoom();
        await join(socket, roomName);
        return emitAck(socket, 'report_abuse', { roomName });
      },
      report_message: async (socket) => {
        await join(socket, reported.roomName);
        return emitAck(socket, 'report_message', { messageId: reported.id, reason: 'spam' });
      },
      // In a room that exists already: the owner's open rooms are capped (20).
      typing: async (socket) => {
        await join(socket, reported.roomName);
        return emitAck(socket, 'typing', { roomName: reported.roomName });
      },
      set_room_rules: async (socket) =>
        emitAck(socket, 'set_room_rules', {
          roomName: reported.roomName,
          slowModeSeconds: 10,
          words: [],
          membersOnly: false,
          rules: 'Be kind.',
        }),
      edit_message: async (socket) => {
        // The reported message's room: the owner's open rooms are counted.
        const roomName = reported.roomName;
        await join(socket, roomName);
        const own = (await emitAck(socket, 'send_message', { room: roomName, message: 'Hi' })) as {
          id: string;
        };
        return emitAck(socket, 'edit_message', { roomName, messageId: own.id, text: 'Hello' });
      },
      delete_message: async (socket) => {
        // The reported message's room: the owner's open rooms are counted.
        const roomName = reported.roomName;
        await join(socket, roomName);
        const own = (await emitAck(socket, 'send_message', { room: roomName, message: 'Hi' })) as {
          id: string;
        };
        return emitAck(socket, 'delete_message', { roomName, messageId: own.id });
      },
      react_message: async (socket) => {
        await join(socket, reported.roomName);
        return emitAck(socket, 'react_message', {
          roomName: reported.roomName,
          messageId: reported.id,
          emoji: '👍',
        });
      },
      mark_read: async (socket) => {
        await join(socket, reported.roomName);
        return emitAck(socket, 'mark_read', {
          roomName: reported.roomName,
          messageId: reported.id,
        });
      },
      unread_counts: (socket) => emitAck(socket, 'unread_counts'),
      watch_items: async (socket) =>
        emitAck(socket, 'watch_items', { itemIds: [await bookIdOf('book-a-christmas-carol')] }),
      unwatch_items: async (socket) =>
        emitAck(socket, 'unwatch_items', { itemIds: [await bookIdOf('book-a-christmas-carol')] }),
      room_members: async (socket) => {
        await join(socket, reported.roomName);
        return emitAck(socket, 'room_members', { roomName: reported.roomName });
      },
    };
    const rows = matrixRows('Socket');
    expect(rows.map((row) => row.call).sort()).toEqual(Object.keys(SOCKET_DRIVERS).sort());
    for (const row of rows) {
      for (const who of WHO) {
        const { client } = await caller(who);
        const socket = await connectChat(
          url,
          client.cookieHeader(),
          testApp.config.publicUrl,
        ).catch(() => null);
        const outcome = socket && (await SOCKET_DRIVERS[row.call]!(socket)).ok ? 'ok' : 'refused';
        socket?.close();
        expect(outcome, `${row.call} as ${who}`).toBe(row.cells[who]);
      }
    }
    ownerSocket.close();
  });
});
