import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copySchema, itemCopiesResponseSchema } from '#contract/http/copies.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';

describe.each(testDatabaseKinds())('physical copies on %s', (kind) => {
  let testApp: TestApp;
  let librarian: SignedInPerson;
  let student: SignedInPerson;
  let pride: string;
  let time: string;

  const itemId = async (sourceId: string) =>
    (
      await testApp.database.db
        .selectFrom('items')
        .select('id')
        .where('source_id', '=', sourceId)
        .executeTakeFirstOrThrow()
    ).id;
  const counts = (id: string) =>
    testApp.database.db
      .selectFrom('items')
      .select(['copies', 'copies_unavailable'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    librarian = await signedInPerson(testApp, 'librarian');
    student = await signedInPerson(testApp, 'student');
    pride = await itemId('book-pride-and-prejudice');
    time = await itemId('book-the-time-machine');
  });
  afterAll(async () => testApp.close());

  it('gives the demo books copy rows, and the item counts follow them', async () => {
    expect(await counts(pride)).toEqual({ copies: 3, copies_unavailable: 0 });
    const carol = await itemId('book-a-christmas-carol');
    expect(await counts(carol)).toEqual({ copies: 1, copies_unavailable: 1 });
    const response = await librarian.client.get(`/api/items/${carol}/copies`);
    const body = itemCopiesResponseSchema.parse(response.json());
    expect(body).toMatchObject({ total: 1, available: 0 });
    expect(body.copies?.map((copy) => copy.status)).toEqual(['on_loan']);
  });

  it('adds a scanned copy: 201, counted at once, its barcode unique ignoring case', async () => {
    const added = await librarian.client.post(`/api/items/${time}/copies`, {
      barcode: ' 3901234567 ',
      location: 'Science Library, QB 500',
    });
    expect(added.statusCode).toBe(201);
    expect(copySchema.parse(added.json())).toMatchObject({
      barcode: '3901234567',
      location: 'Science Library, QB 500',
      status: 'available',
      note: '',
    });
    expect(await counts(time)).toEqual({ copies: 3, copies_unavailable: 0 });

    const again = await librarian.client.post(`/api/items/${pride}/copies`, {
      barcode: '3901234567',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already on another copy/);
    const label = await librarian.client.post(`/api/items/${pride}/copies`, { barcode: 'ab-77' });
    expect(label.statusCode).toBe(201);
    const shouted = await librarian.client.post(`/api/items/${pride}/copies`, { barcode: 'AB-77' });
    expect(shouted.statusCode).toBe(409);
  });

  it('refuses a bad barcode field by field, and an unknown item with 404', async () => {
    const bad = await librarian.client.post(`/api/items/${time}/copies`, {
      barcode: 'has space',
      status: 'lost',
    });
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .errors.map((error: { path: string }) => error.path)
        .sort(),
    ).toEqual(['barcode', 'status']);
    const unknown = await librarian.client.post(
      '/api/items/00000000-0000-4000-8000-000000000000/copies',
      { barcode: 'NEW-1' },
    );
    expect(unknown.statusCode).toBe(404);
  });

  it('changes a copy by its barcode, and the counts and the reservation list follow', async () => {
    await librarian.client.post(`/api/items/${time}/copies`, { barcode: 'REPAIR-1' });
    const before = await counts(time);
    const changed = await librarian.client.patch('/api/copies/repair-1', {
      status: 'in_repair',
      note: 'Spine loose',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ barcode: 'REPAIR-1', status: 'in_repair' });
    expect(await counts(time)).toEqual({
      copies: before.copies,
      copies_unavailable: before.copies_unavailable + 1,
    });
    const withdrawn = await librarian.client.patch('/api/copies/REPAIR-1', { status: 'withdrawn' });
    expect(withdrawn.statusCode).toBe(200);
    expect(await counts(time)).toEqual({
      copies: before.copies - 1,
      copies_unavailable: before.copies_unavailable,
    });
    const list = await student.client.get('/api/users/reservation-books');
    const book = list.json().payload.find((candidate: { _id: string }) => candidate._id === time);
    expect(book.copies).toBe(before.copies - 1);
  });

  it('answers 404 for an unknown barcode or one no label can carry, 409 for a taken one, 400 for nothing', async () => {
    await librarian.client.post(`/api/items/${time}/copies`, { barcode: 'MOVE-1' });
    await librarian.client.post(`/api/items/${time}/copies`, { barcode: 'MOVE-2' });
    expect((await librarian.client.patch('/api/copies/NOPE-404', { note: 'x' })).statusCode).toBe(
      404,
    );
    expect((await librarian.client.patch('/api/copies/%00bad', { note: 'x' })).statusCode).toBe(
      404,
    );
    const taken = await librarian.client.patch('/api/copies/MOVE-1', { barcode: 'move-2' });
    expect(taken.statusCode).toBe(409);
    const relabel = await librarian.client.patch('/api/copies/MOVE-1', { barcode: 'move-1' });
    expect(relabel.statusCode).toBe(200);
    expect(relabel.json().barcode).toBe('move-1');
    const empty = await librarian.client.patch('/api/copies/MOVE-2', {});
    expect(empty.statusCode).toBe(400);
  });

  it('shows students counts and places, never barcodes; librarians only may change copies', async () => {
    const response = await student.client.get(`/api/items/${pride}/copies`);
    expect(response.statusCode).toBe(200);
    const body = itemCopiesResponseSchema.parse(response.json());
    expect(body.copies).toBeUndefined();
    expect(response.body).not.toMatch(/DL\d{7}|ab-77/i);
    expect(body.total).toBe(body.locations.reduce((sum, place) => sum + place.total, 0));
    expect(body.available).toBeLessThanOrEqual(body.total);
    expect(
      (await student.client.post(`/api/items/${pride}/copies`, { barcode: 'MINE-1' })).statusCode,
    ).toBe(403);
    expect((await student.client.patch('/api/copies/AB-77', { note: 'mine' })).statusCode).toBe(
      403,
    );
  });

  it('never over-books: a copy taken out of service while people reserve counts at once', async () => {
    const alice = await itemId('book-alice-in-wonderland');
    const [copy] = itemCopiesResponseSchema.parse(
      (await librarian.client.get(`/api/items/${alice}/copies`)).json(),
    ).copies!;
    await librarian.client.patch(`/api/copies/${copy!.barcode}`, { status: 'missing' });
    const books = (await student.client.get('/api/users/reservation-books')).json().payload;
    expect(books.find((book: { _id: string }) => book._id === alice)).toMatchObject({
      available: false,
      freeCopies: 0,
    });
  });
});
