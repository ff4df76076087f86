import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  READING_LIST_NAME_MAX,
  readingListSchema,
  readingListsResponseSchema,
  savedItemsResponseSchema,
  sharedReadingListSchema,
  SHARE_TOKEN_PATTERN,
} from '#contract/http/shelf.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseKinds())('my shelf and reading lists on %s', (kind) => {
  let testApp: TestApp;
  let ada: SignedInPerson;
  let ben: SignedInPerson;
  let librarian: SignedInPerson;
  let books = 0;

  const db = () => testApp.database.db;
  const guest = () => new TestClient(testApp.app, testApp.config.publicUrl);
  const put = (person: SignedInPerson, url: string, payload?: unknown) =>
    person.client.request({
      method: 'PUT',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  /** A new book in the catalogue; answers its id. */
  async function book(title = `Shelf Book ${++books}`): Promise<string> {
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
    return row.id;
  }

  /** A new list of `person`'s; answers its id. */
  async function list(person: SignedInPerson, name = 'Reading for week 1'): Promise<string> {
    const response = await person.client.post('/api/lists', { name });
    expect(response.statusCode).toBe(201);
    return readingListSchema.parse(response.json()).id;
  }

  const itemIdsOf = (body: unknown) => readingListSchema.parse(body).items.map((item) => item.id);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    ada = await signedInPerson(testApp, 'student');
    ben = await signedInPerson(testApp, 'student');
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    await db().deleteFrom('saved_items').execute();
    await db().deleteFrom('reading_lists').execute();
  });

  describe('saved items', () => {
    it('saves, lists newest first as result cards, is idempotent and removes', async () => {
      const first = await book('Middlemarch');
      const second = await book('Persuasion');
      expect((await put(ada, `/api/shelf/${first}`)).json()).toEqual({
        itemId: first,
        saved: true,
      });
      expect((await put(ada, `/api/shelf/${second}`)).statusCode).toBe(200);
      // Saving again changes nothing (and keeps its place).
      expect((await put(ada, `/api/shelf/${first}`)).statusCode).toBe(200);
      const shelf = savedItemsResponseSchema.parse((await ada.client.get('/api/shelf')).json());
      expect(shelf.items.map((item) => item.title)).toEqual(['Persuasion', 'Middlemarch']);
      expect(shelf.items[0]).toMatchObject({ id: second, type: 'book', authors: ['A. Writer'] });
      expect(Date.parse(shelf.items[0]!.savedAt)).not.toBeNaN();

      // Nobody else sees it.
      expect(
        savedItemsResponseSchema.parse((await ben.client.get('/api/shelf')).json()).items,
      ).toEqual([]);

      const removed = await ada.client.delete(`/api/shelf/${first}`);
      expect(removed.json()).toEqual({ itemId: first, saved: false });
      // Removing what is not there is the same answer.
      expect((await ada.client.delete(`/api/shelf/${first}`)).statusCode).toBe(200);
      expect((await ada.client.delete('/api/shelf/not-an-id')).statusCode).toBe(200);
      const after = savedItemsResponseSchema.parse((await ada.client.get('/api/shelf')).json());
      expect(after.items.map((item) => item.id)).toEqual([second]);
    });

    it('refuses items that are not in the catalogue, and guests', async () => {
      expect((await put(ada, `/api/shelf/${MISSING}`)).statusCode).toBe(404);
      const notAnId = await put(ada, '/api/shelf/not-an-id');
      expect(notAnId.statusCode).toBe(404);
      expect(notAnId.json().message).toMatch(/no such item/i);
      const withdrawn = await book();
      await db()
        .updateTable('items')
        .set({ withdrawn_at: new Date() })
        .where('id', '=', withdrawn)
        .execute();
      expect((await put(ada, `/api/shelf/${withdrawn}`)).statusCode).toBe(404);
      const anon = guest();
      expect((await anon.get('/api/shelf')).statusCode).toBe(401);
      expect(
        (await anon.request({ method: 'PUT', url: `/api/shelf/${await book()}` })).statusCode,
      ).toBe(401);
      expect((await anon.get('/api/lists')).statusCode).toBe(401);
      expect((await anon.post('/api/lists', { name: 'x' })).statusCode).toBe(401);
    });

    it('marks a saved item that was withdrawn later, for its owner to remove', async () => {
      const id = await book();
      await put(ada, `/api/shelf/${id}`);
      await db()
        .updateTable('items')
        .set({ withdrawn_at: new Date() })
        .where('id', '=', id)
        .execute();
      const shelf = savedItemsResponseSchema.parse((await ada.client.get('/api/shelf')).json());
      expect(shelf.items[0]).toMatchObject({ id, withdrawn: true });
    });
  });

  describe('reading lists', () => {
    it('creates, lists with counts, renames and deletes', async () => {
      const created = await ada.client.post('/api/lists', {
        name: '  Week 1  ',
        description: 'Before the seminar',
      });
      expect(created.statusCode).toBe(201);
      const made = readingListSchema.parse(created.json());
      expect(made).toMatchObject({
        name: 'Week 1',
        description: 'Before the seminar',
        shared: false,
        shareToken: null,
        itemCount: 0,
        items: [],
      });
      await ada.client.post(`/api/lists/${made.id}/items`, { itemId: await book() });
      const second = await list(ada, 'Week 2');
      const lists = readingListsResponseSchema.parse((await ada.client.get('/api/lists')).json());
      expect(lists.lists.map((entry) => [entry.name, entry.itemCount])).toEqual([
        ['Week 2', 0],
        ['Week 1', 1],
      ]);

      const renamed = await ada.client.patch(`/api/lists/${made.id}`, { name: 'Week one' });
      expect(renamed.statusCode).toBe(200);
      expect(readingListSchema.parse(renamed.json())).toMatchObject({
        name: 'Week one',
        description: 'Before the seminar',
        itemCount: 1,
      });

      const deleted = await ada.client.delete(`/api/lists/${second}`);
      expect(deleted.json()).toEqual({ id: second, deleted: true });
      expect((await ada.client.get(`/api/lists/${second}`)).statusCode).toBe(404);
      expect((await ada.client.delete(`/api/lists/${second}`)).statusCode).toBe(404);
    });

    it('refuses bad input with a sentence', async () => {
      const blank = await ada.client.post('/api/lists', { name: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(JSON.stringify(blank.json().errors)).toMatch(/Give the list a name/);
      const long = await ada.client.post('/api/lists', {
        name: 'x'.repeat(READING_LIST_NAME_MAX + 1),
      });
      expect(long.statusCode).toBe(400);
      expect(JSON.stringify(long.json().errors)).toMatch(/at most 100 characters/);
      expect((await ada.client.post('/api/lists', {})).statusCode).toBe(400);
      expect((await ada.client.post('/api/lists', [])).statusCode).toBe(400);

      const id = await list(ada);
      const empty = await ada.client.patch(`/api/lists/${id}`, {});
      expect(empty.statusCode).toBe(400);
      expect(empty.json().message).toBeTruthy();
      expect((await ada.client.patch(`/api/lists/${id}`, { shared: 'yes' })).statusCode).toBe(400);
      const badItem = await ada.client.post(`/api/lists/${id}/items`, { itemId: 'nope' });
      expect(badItem.statusCode).toBe(400);
      expect(JSON.stringify(badItem.json().errors)).toMatch(/itemId must be a catalogue item id/);
      expect(
        (await ada.client.post(`/api/lists/${id}/items`, { itemId: MISSING })).statusCode,
      ).toBe(404);
      expect((await put(ada, `/api/lists/${id}/order`, { itemIds: 'x' })).statusCode).toBe(400);
      expect((await ada.client.get('/api/lists/not-an-id')).statusCode).toBe(404);
      expect((await ada.client.get(`/api/lists/${MISSING}`)).statusCode).toBe(404);
    });

    it('appends, refuses a duplicate with 409, removes and keeps the order by hand', async () => {
      const id = await list(ada);
      const [a, b, c] = [await book(), await book(), await book()];
      for (const itemId of [a, b, c]) {
        expect((await ada.client.post(`/api/lists/${id}/items`, { itemId })).statusCode).toBe(200);
      }
      const duplicate = await ada.client.post(`/api/lists/${id}/items`, { itemId: b });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json().message).toBe('That item is already in this list.');
      expect(itemIdsOf((await ada.client.get(`/api/lists/${id}`)).json())).toEqual([a, b, c]);

      const reordered = await put(ada, `/api/lists/${id}/order`, { itemIds: [c, a, b] });
      expect(reordered.statusCode).toBe(200);
      expect(itemIdsOf(reordered.json())).toEqual([c, a, b]);
      expect(itemIdsOf((await ada.client.get(`/api/lists/${id}`)).json())).toEqual([c, a, b]);

      // Not exactly the list's items: 422, and the order stays.
      for (const itemIds of [
        [c, a],
        [c, a, b, b],
        [c, a, MISSING],
        [c, a, b, MISSING],
      ]) {
        const refused = await put(ada, `/api/lists/${id}/order`, { itemIds });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().message).toMatch(/every item of the list exactly once/);
      }
      expect(itemIdsOf((await ada.client.get(`/api/lists/${id}`)).json())).toEqual([c, a, b]);

      const removed = await ada.client.delete(`/api/lists/${id}/items/${a}`);
      expect(itemIdsOf(removed.json())).toEqual([c, b]);
      expect((await ada.client.delete(`/api/lists/${id}/items/${a}`)).statusCode).toBe(404);
      // A new item goes to the end.
      const d = await book();
      const appended = await ada.client.post(`/api/lists/${id}/items`, { itemId: d });
      expect(itemIdsOf(appended.json())).toEqual([c, b, d]);
    });

    it("answers someone else's list exactly like a missing one, to a student and a librarian", async () => {
      const id = await list(ada);
      const itemId = await book();
      await ada.client.post(`/api/lists/${id}/items`, { itemId });
      const missing = await ada.client.get(`/api/lists/${MISSING}`);
      for (const other of [ben, librarian]) {
        const calls = [
          other.client.get(`/api/lists/${id}`),
          other.client.patch(`/api/lists/${id}`, { name: 'Mine now' }),
          other.client.post(`/api/lists/${id}/items`, { itemId: await book() }),
          other.client.delete(`/api/lists/${id}/items/${itemId}`),
          put(other, `/api/lists/${id}/order`, { itemIds: [itemId] }),
          other.client.delete(`/api/lists/${id}`),
        ];
        for (const response of await Promise.all(calls)) {
          expect(response.statusCode).toBe(404);
          expect(response.json()).toEqual(missing.json());
        }
        const theirs = readingListsResponseSchema.parse(
          (await other.client.get('/api/lists')).json(),
        );
        expect(theirs.lists).toEqual([]);
      }
      const mine = readingListSchema.parse((await ada.client.get(`/api/lists/${id}`)).json());
      expect(mine).toMatchObject({ name: 'Reading for week 1', itemCount: 1 });
    });
  });

  describe('sharing by link', () => {
    it('shares read-only, makes a new token each time and forgets the old one', async () => {
      const id = await list(ada, 'Seminar texts');
      await ada.client.patch(`/api/lists/${id}`, { description: 'For Thursday' });
      const [a, b] = [await book('Emma'), await book('Sanditon')];
      await ada.client.post(`/api/lists/${id}/items`, { itemId: a });
      await ada.client.post(`/api/lists/${id}/items`, { itemId: b });
      await put(ada, `/api/lists/${id}/order`, { itemIds: [b, a] });

      const shared = readingListSchema.parse(
        (await ada.client.patch(`/api/lists/${id}`, { shared: true })).json(),
      );
      expect(shared.shared).toBe(true);
      const token = shared.shareToken!;
      expect(token).toMatch(SHARE_TOKEN_PATTERN);
      // base64url of at least 128 random bits.
      expect(token.length).toBeGreaterThanOrEqual(22);
      // Sharing what is shared keeps the link.
      const again = readingListSchema.parse(
        (await ada.client.patch(`/api/lists/${id}`, { shared: true })).json(),
      );
      expect(again.shareToken).toBe(token);

      const seen = await ben.client.get(`/api/shared-lists/${token}`);
      expect(seen.statusCode).toBe(200);
      expect(seen.headers['cache-control']).toBe('no-store');
      const view = sharedReadingListSchema.parse(seen.json());
      expect(view).toMatchObject({
        name: 'Seminar texts',
        description: 'For Thursday',
        ownerName: 'Ada Lovelace',
        mine: false,
      });
      expect(view.items.map((item) => item.title)).toEqual(['Sanditon', 'Emma']);
      // Nothing in it names the list or its owner's account.
      expect(JSON.stringify(seen.json())).not.toContain(id);
      expect(JSON.stringify(seen.json())).not.toContain(ada.id);
      expect(
        sharedReadingListSchema.parse((await ada.client.get(`/api/shared-lists/${token}`)).json())
          .mine,
      ).toBe(true);
      expect((await librarian.client.get(`/api/shared-lists/${token}`)).statusCode).toBe(200);
      expect((await guest().get(`/api/shared-lists/${token}`)).statusCode).toBe(401);
      // Read-only: the link gives no way to change the list.
      expect(
        (await ben.client.post(`/api/lists/${id}/items`, { itemId: await book() })).statusCode,
      ).toBe(404);

      // A withdrawn item is left out of what others see, and stays in the owner's list.
      await db()
        .updateTable('items')
        .set({ withdrawn_at: new Date() })
        .where('id', '=', a)
        .execute();
      const without = sharedReadingListSchema.parse(
        (await ben.client.get(`/api/shared-lists/${token}`)).json(),
      );
      expect(without.items.map((item) => item.title)).toEqual(['Sanditon']);
      expect(itemIdsOf((await ada.client.get(`/api/lists/${id}`)).json())).toEqual([b, a]);

      const off = readingListSchema.parse(
        (await ada.client.patch(`/api/lists/${id}`, { shared: false })).json(),
      );
      expect(off).toMatchObject({ shared: false, shareToken: null });
      const dead = await ben.client.get(`/api/shared-lists/${token}`);
      expect(dead.statusCode).toBe(404);
      expect(dead.json().message).toMatch(/not shared/);

      const on = readingListSchema.parse(
        (await ada.client.patch(`/api/lists/${id}`, { shared: true })).json(),
      );
      expect(on.shareToken).not.toBe(token);
      expect((await ben.client.get(`/api/shared-lists/${token}`)).statusCode).toBe(404);
      expect((await ben.client.get(`/api/shared-lists/${on.shareToken}`)).statusCode).toBe(200);

      // Deleting the list ends its link.
      await ada.client.delete(`/api/lists/${id}`);
      expect((await ben.client.get(`/api/shared-lists/${on.shareToken}`)).statusCode).toBe(404);
    });

    it('answers unknown and malformed tokens with 404', async () => {
      for (const token of ['x', 'A'.repeat(32), 'bad%20token', '%E2%9C%93'.repeat(12)]) {
        expect((await ben.client.get(`/api/shared-lists/${token}`)).statusCode).toBe(404);
      }
    });
  });

  describe('the account', () => {
    it('exports the shelf and lists, and deletes them with the account', async () => {
      const person = await signedInPerson(testApp, 'faculty');
      const saved = await book('Cranford');
      await put(person, `/api/shelf/${saved}`);
      const id = await list(person, 'Victorian novels');
      const [a, b] = [await book('North and South'), await book('Mary Barton')];
      await person.client.post(`/api/lists/${id}/items`, { itemId: a });
      await person.client.post(`/api/lists/${id}/items`, { itemId: b });
      await put(person, `/api/lists/${id}/order`, { itemIds: [b, a] });
      await person.client.patch(`/api/lists/${id}`, { shared: true });

      const data = (await person.client.get('/api/users/me/data')).json();
      expect(data.savedItems).toEqual([
        expect.objectContaining({ itemId: saved, title: 'Cranford' }),
      ]);
      expect(data.readingLists).toEqual([
        expect.objectContaining({
          name: 'Victorian novels',
          shared: true,
          items: [
            expect.objectContaining({ title: 'Mary Barton' }),
            expect.objectContaining({ title: 'North and South' }),
          ],
        }),
      ]);
      expect(JSON.stringify(data)).not.toContain('share_token');

      const gone = await person.client.request({
        method: 'DELETE',
        url: '/api/users/me',
        payload: { password: 'correct horse battery' },
      });
      expect(gone.statusCode).toBe(200);
      const left = await Promise.all([
        db().selectFrom('saved_items').select('item_id').where('user_id', '=', person.id).execute(),
        db().selectFrom('reading_lists').select('id').where('user_id', '=', person.id).execute(),
        db().selectFrom('reading_list_items').select('item_id').where('list_id', '=', id).execute(),
      ]);
      expect(left).toEqual([[], [], []]);
      // The items themselves stay in the catalogue.
      const items = await db().selectFrom('items').select('id').where('id', 'in', [a, b]).execute();
      expect(items).toHaveLength(2);
    });
  });
});
