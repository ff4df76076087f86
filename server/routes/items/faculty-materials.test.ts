import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBooksResponseSchema, type PostBookRequest } from '#contract/http/catalogue.ts';
import {
  itemHistoryResponseSchema,
  managedItemSchema,
  myItemsResponseSchema,
} from '#contract/http/items.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const NOT_YOURS = 'You can change only the course materials you published.';

describe.each(testDatabaseKinds())('faculty change their own course materials on %s', (kind) => {
  let testApp: TestApp;
  let faculty: SignedInPerson;
  let colleague: SignedInPerson;
  let librarian: SignedInPerson;
  let student: SignedInPerson;
  let published = 0;

  const guest = () => new TestClient(testApp.app, testApp.config.publicUrl);
  const courseList = async (client: TestClient) =>
    getBooksResponseSchema.parse((await client.get('/api/users/get-books')).json()).payload;
  /** Publishes a course material as `person`; its id. */
  const publish = async (person: SignedInPerson, title = `Lecture Notes ${++published}`) => {
    const body: PostBookRequest = {
      title,
      author: 'A. Lecturer',
      publishedDate: '2026-09-01',
      driveLink: 'https://drive.google.com/file/d/notes/view',
      instituteName: 'Institute of Mathematics',
      genre: 'science',
    };
    const response = await person.client.post('/api/faculty/post-book', body);
    expect(response.statusCode).toBe(200);
    return response.json().payload._id as string;
  };
  const demoBook = async () =>
    (
      await testApp.database.db
        .selectFrom('items')
        .select('id')
        .where('kind', '=', 'book')
        .executeTakeFirstOrThrow()
    ).id;

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    faculty = await signedInPerson(testApp, 'faculty', { firstName: 'Farah' });
    colleague = await signedInPerson(testApp, 'faculty');
    librarian = await signedInPerson(testApp, 'librarian', { firstName: 'Dana' });
    student = await signedInPerson(testApp, 'student');
  });
  afterAll(async () => testApp.close());

  it('edits and unpublishes their own material: it leaves the course list, its history names them', async () => {
    const id = await publish(faculty, 'Linear Algebra Notes');
    const edited = await faculty.client.patch(`/api/items/${id}`, {
      title: 'Linear Algebra, Week 1',
      authors: ['Farah Lecturer'],
      genre: 'mathematics',
    });
    expect(edited.statusCode).toBe(200);
    expect(managedItemSchema.parse(edited.json())).toMatchObject({
      title: 'Linear Algebra, Week 1',
      authors: ['Farah Lecturer'],
      genre: 'mathematics',
    });
    expect((await courseList(student.client)).map((book) => book.title)).toContain(
      'Linear Algebra, Week 1',
    );

    const unpublished = await faculty.client.delete(`/api/items/${id}`);
    expect(unpublished.statusCode).toBe(200);
    expect(managedItemSchema.parse(unpublished.json()).withdrawnAt).toBeDefined();
    expect((await courseList(student.client)).map((book) => book._id)).not.toContain(id);

    // Their list keeps it, marked; a colleague's list does not show it.
    const mine = myItemsResponseSchema.parse((await faculty.client.get('/api/items/mine')).json());
    expect(mine.items.find((item) => item.id === id)?.withdrawnAt).toBeDefined();
    const theirs = myItemsResponseSchema.parse(
      (await colleague.client.get('/api/items/mine')).json(),
    );
    expect(theirs.items.map((item) => item.id)).not.toContain(id);

    const again = await faculty.client.post(`/api/items/${id}/restore`, {});
    expect(again.statusCode).toBe(200);
    expect(again.json().withdrawnAt).toBeUndefined();
    expect((await courseList(student.client)).map((book) => book._id)).toContain(id);

    const history = itemHistoryResponseSchema.parse(
      (await librarian.client.get(`/api/items/${id}/history`)).json(),
    );
    expect(history.changes.map((change) => change.action)).toEqual([
      'restored',
      'withdrawn',
      'edited',
      'created',
    ]);
    // Publishing is the item's first entry, with what was published.
    expect(history.changes.at(-1)?.changes).toMatchObject({
      type: { from: null, to: 'course' },
      title: { from: null, to: 'Linear Algebra Notes' },
      institution: { from: null, to: 'Institute of Mathematics' },
    });
    for (const change of history.changes) {
      expect(change.by).toEqual({ id: faculty.id, name: expect.stringMatching(/^Farah /) });
    }
  });

  it('lists their own materials newest first, and nothing for someone who published none', async () => {
    const person = await signedInPerson(testApp, 'faculty');
    expect((await person.client.get('/api/items/mine')).json()).toEqual({ items: [] });
    const first = await publish(person);
    const second = await publish(person);
    const mine = myItemsResponseSchema.parse((await person.client.get('/api/items/mine')).json());
    expect(mine.items.map((item) => item.id)).toEqual([second, first]);
    expect(mine.items.every((item) => item.type === 'course')).toBe(true);
  });

  it("cannot touch a colleague's material or a book, nor change a material's type", async () => {
    const theirs = await publish(colleague);
    const book = await demoBook();
    const own = await publish(faculty);
    const refusals = [
      await faculty.client.patch(`/api/items/${theirs}`, { title: 'Mine now' }),
      await faculty.client.delete(`/api/items/${theirs}`),
      await faculty.client.post(`/api/items/${theirs}/restore`, {}),
      await faculty.client.patch(`/api/items/${book}`, { title: 'Mine now' }),
      await faculty.client.delete(`/api/items/${book}`),
      await faculty.client.patch(`/api/items/${own}`, { type: 'book' }),
      await faculty.client.patch(`/api/items/${own}`, { type: 'paper', title: 'Mine now' }),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode).toBe(403);
      expect(refusal.json().message).toBe(NOT_YOURS);
    }
    // Nothing changed, nothing recorded.
    const row = await testApp.database.db
      .selectFrom('items')
      .select(['kind', 'title', 'withdrawn_at'])
      .where('id', 'in', [theirs, own])
      .execute();
    expect(row.every((item) => item.kind === 'course' && item.title !== 'Mine now')).toBe(true);
    expect(row.every((item) => item.withdrawn_at === null)).toBe(true);
    const bookHistory = (await librarian.client.get(`/api/items/${book}/history`)).json();
    expect(bookHistory.changes).toEqual([]);
    // Naming its own type is no change of type.
    const same = await faculty.client.patch(`/api/items/${own}`, { type: 'course', genre: 'x' });
    expect(same.statusCode).toBe(200);
  });

  it("librarians still change anyone's material and any book", async () => {
    const theirs = await publish(colleague);
    const edited = await librarian.client.patch(`/api/items/${theirs}`, { title: 'Checked' });
    expect(edited.statusCode).toBe(200);
    expect((await librarian.client.delete(`/api/items/${theirs}`)).statusCode).toBe(200);
    expect((await librarian.client.post(`/api/items/${theirs}/restore`, {})).statusCode).toBe(200);
    const book = await librarian.client.patch(`/api/items/${await demoBook()}`, {
      subjects: ['fiction', 'checked'],
    });
    expect(book.statusCode).toBe(200);
  });

  it('students get 403 and guests 401', async () => {
    const own = await publish(faculty);
    for (const client of [student.client, guest()]) {
      const status = client === student.client ? 403 : 401;
      expect((await client.get('/api/items/mine')).statusCode).toBe(status);
      expect((await client.patch(`/api/items/${own}`, { title: 'No' })).statusCode).toBe(status);
      expect((await client.delete(`/api/items/${own}`)).statusCode).toBe(status);
      expect((await client.post(`/api/items/${own}/restore`, {})).statusCode).toBe(status);
    }
  });
});
