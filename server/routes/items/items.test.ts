import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itemHistoryResponseSchema, managedItemSchema } from '#contract/http/items.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

describe.each(testDatabaseKinds())('librarians maintain items on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;
  let student: SignedInPerson;

  const guest = () => new TestClient(testApp.app, testApp.config.publicUrl);
  const search = async (client: TestClient, q: string) =>
    (await client.get(`/api/search?q=${encodeURIComponent(q)}`)).json().items as {
      id: string;
    }[];

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    librarian = await signedInPerson(testApp, 'librarian', { firstName: 'Dana' });
    student = await signedInPerson(testApp, 'student');
  });
  afterAll(async () => testApp.close());

  it('adds an item, found by search at once, its ISBN-10 kept as the ISBN-13', async () => {
    const response = await librarian.client.post('/api/items', {
      type: 'book',
      title: 'The Voyage Out',
      authors: ['Virginia Woolf'],
      year: 1915,
      isbn: '0-15-693480-9',
      subjects: ['fiction', 'modernism'],
      description: 'A first novel.',
      coverUrl: '',
    });
    expect(response.statusCode).toBe(201);
    const item = managedItemSchema.parse(response.json());
    expect(item).toMatchObject({
      type: 'book',
      title: 'The Voyage Out',
      authors: ['Virginia Woolf'],
      year: 1915,
      isbn: '9780156934800',
      copies: 0,
    });
    expect(item.withdrawnAt).toBeUndefined();
    expect((await search(guest(), 'voyage out')).map((hit) => hit.id)).toContain(item.id);
    const history = itemHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/items/${item.id}/history`)).json(),
    );
    expect(history.changes).toHaveLength(1);
    expect(history.changes[0]).toMatchObject({
      action: 'created',
      by: { name: expect.stringMatching(/^Dana /) },
    });
    expect(history.changes[0]!.changes.title).toEqual({ from: null, to: 'The Voyage Out' });
  });

  it('refuses a bad item field by field, an invalid ISBN, and a second item with one ISBN', async () => {
    const bad = await librarian.client.post('/api/items', {
      type: 'magazine',
      title: '  ',
      year: 'soon',
      coverUrl: 'javascript:alert(1)',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['coverUrl', 'title', 'type', 'year']);
    const checksum = await librarian.client.post('/api/items', {
      type: 'book',
      title: 'Wrong Digit',
      isbn: '0-15-693480-8',
    });
    expect(checksum.statusCode).toBe(400);
    expect(checksum.json().errors).toEqual([
      { path: 'isbn', message: expect.stringMatching(/not a valid ISBN/) },
    ]);
    const first = await librarian.client.post('/api/items', {
      type: 'book',
      title: 'Night and Day',
      isbn: '978-0-15-665600-9',
    });
    expect(first.statusCode).toBe(201);
    // The same book by its ISBN-10.
    const second = await librarian.client.post('/api/items', {
      type: 'book',
      title: 'Night and Day (again)',
      isbn: '0156656000',
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().message).toMatch(/"Night and Day" already has ISBN/);
  });

  it('edits fields and records each change from and to; a patch that changes nothing records nothing', async () => {
    const created = managedItemSchema.parse(
      (
        await librarian.client.post('/api/items', {
          type: 'paper',
          title: 'Draft Title',
          authors: ['A. Writer'],
        })
      ).json(),
    );
    const edited = await librarian.client.patch(`/api/items/${created.id}`, {
      title: 'Final Title',
      year: 2024,
      description: 'Now with an abstract.',
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ title: 'Final Title', year: 2024 });
    const same = await librarian.client.patch(`/api/items/${created.id}`, { title: 'Final Title' });
    expect(same.statusCode).toBe(200);
    const cleared = await librarian.client.patch(`/api/items/${created.id}`, { description: '' });
    expect(cleared.json().description).toBeUndefined();
    const { changes } = itemHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/items/${created.id}/history`)).json(),
    );
    expect(changes.map((change) => change.action)).toEqual(['edited', 'edited', 'created']);
    expect(changes[1]!.changes).toEqual({
      title: { from: 'Draft Title', to: 'Final Title' },
      year: { from: null, to: 2024 },
      description: { from: null, to: 'Now with an abstract.' },
    });
    expect(changes[0]!.changes).toEqual({
      description: { from: 'Now with an abstract.', to: null },
    });
    const empty = await librarian.client.patch(`/api/items/${created.id}`, {});
    expect(empty.statusCode).toBe(400);
  });

  it('withdraws an item: gone for everyone else, its reservation still readable; restored, back', async () => {
    const pride = await testApp.database.db
      .selectFrom('items')
      .select('id')
      .where('source_id', '=', 'book-pride-and-prejudice')
      .executeTakeFirstOrThrow();
    const days = (await student.client.get('/api/users/reservation-days')).json().days;
    const reserved = await student.client.post('/api/users/reservation', {
      book: { id: pride.id },
      reservation: { date: days[1].date, timeSlot: '9:00-9:30 AM' },
    });
    expect(reserved.statusCode).toBe(200);

    const withdrawn = await librarian.client.delete(`/api/items/${pride.id}`);
    expect(withdrawn.statusCode).toBe(200);
    expect(managedItemSchema.parse(withdrawn.json()).withdrawnAt).toBeDefined();
    expect((await librarian.client.delete(`/api/items/${pride.id}`)).statusCode).toBe(200);

    expect((await guest().get(`/api/items/${pride.id}`)).statusCode).toBe(404);
    expect((await student.client.get(`/api/items/${pride.id}`)).statusCode).toBe(404);
    expect((await student.client.get(`/api/items/${pride.id}/copies`)).statusCode).toBe(404);
    expect((await librarian.client.get(`/api/items/${pride.id}`)).statusCode).toBe(200);
    expect((await search(student.client, 'pride prejudice')).map((hit) => hit.id)).not.toContain(
      pride.id,
    );
    const books = (await student.client.get('/api/users/reservation-books')).json().payload;
    expect(books.map((book: { _id: string }) => book._id)).not.toContain(pride.id);
    const mine = (await student.client.get('/api/users/reservations')).json();
    expect(JSON.stringify(mine)).toContain('Pride and Prejudice');
    const again = await student.client.post('/api/users/reservation', {
      book: { id: pride.id },
      reservation: { date: days[2].date, timeSlot: '9:00-9:30 AM' },
    });
    expect(again.statusCode).toBe(404);

    // The desk's catalogue finds it, marked; anyone else asking for withdrawn items does not.
    const desk = (
      await librarian.client.get('/api/search?q=pride+prejudice&withdrawn=true')
    ).json();
    expect(desk.items.find((hit: { id: string }) => hit.id === pride.id)).toMatchObject({
      withdrawn: true,
    });
    const asked = (await student.client.get('/api/search?q=pride+prejudice&withdrawn=true')).json();
    expect(asked.items.map((hit: { id: string }) => hit.id)).not.toContain(pride.id);

    const restored = await librarian.client.post(`/api/items/${pride.id}/restore`, {});
    expect(restored.statusCode).toBe(200);
    expect(restored.json().withdrawnAt).toBeUndefined();
    expect((await guest().get(`/api/items/${pride.id}`)).statusCode).toBe(200);
    expect((await search(student.client, 'pride prejudice')).map((hit) => hit.id)).toContain(
      pride.id,
    );
    const { changes } = itemHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/items/${pride.id}/history`)).json(),
    );
    expect(changes.map((change) => change.action)).toEqual(['restored', 'withdrawn']);
  });

  it('records copy changes in the item history', async () => {
    const created = managedItemSchema.parse(
      (await librarian.client.post('/api/items', { type: 'book', title: 'Orlando' })).json(),
    );
    await librarian.client.post(`/api/items/${created.id}/copies`, {
      barcode: 'ORL-1',
      location: 'Stacks',
    });
    await librarian.client.patch('/api/copies/ORL-1', { status: 'missing' });
    const { changes } = itemHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/items/${created.id}/history`)).json(),
    );
    expect(changes.map((change) => change.action)).toEqual([
      'copy_changed',
      'copy_added',
      'created',
    ]);
    expect(changes[0]!.changes).toEqual({
      copy: { from: 'ORL-1', to: 'ORL-1' },
      status: { from: 'available', to: 'missing' },
    });
  });

  it('answers 404 for an unknown item and 403 to everyone but librarians', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await librarian.client.patch(`/api/items/${unknown}`, { title: 'X' })).statusCode).toBe(
      404,
    );
    expect((await librarian.client.delete(`/api/items/${unknown}`)).statusCode).toBe(404);
    expect((await librarian.client.get(`/api/items/not-an-id/history`)).statusCode).toBe(404);
    expect(
      (await student.client.post('/api/items', { type: 'book', title: 'Mine' })).statusCode,
    ).toBe(403);
    expect((await guest().post('/api/items', { type: 'book', title: 'Mine' })).statusCode).toBe(
      401,
    );
  });
});
