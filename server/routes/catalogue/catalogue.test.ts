import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getBooksResponseSchema,
  SEARCH_COUNT_LIMIT,
  itemDetailSchema,
  itemPageSchema,
} from '#contract/http/catalogue.ts';
import { openPostgres } from '../../db/client.ts';
import { DEMO_ITEMS, demoGuidePages } from '../../db/demo-data.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { statementsOf } from '../../test/statements.ts';
import { searchAs } from '../../test/search.ts';

const DRIVE = 'https://drive.google.com/file/d/1AbCdEfGhIjKlMnOpQrStUvWxYz012345/view';

/** The demo items the spec's category filter matches: a substring of a subject or the genre. */
const demoInCategory = (category: string) =>
  DEMO_ITEMS.filter((item) =>
    [...(item.subjects ?? []), item.genre ?? ''].some((subject) =>
      subject.toLowerCase().includes(category),
    ),
  );

/** How many of `items` there are of each type, as the facets count them. */
const typeCounts = (items: { kind: string }[]) => ({
  book: items.filter((item) => item.kind === 'book').length,
  paper: items.filter((item) => item.kind === 'paper').length,
  course: items.filter((item) => item.kind === 'course').length,
});

const DEMO_BOOKS = DEMO_ITEMS.filter((item) => item.kind === 'book');

describe.each(testDatabaseKinds())('the catalogue on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  let student: TestClient;
  let faculty: TestClient;

  const search = (query: string) => searchAs(guest, query);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    student = new TestClient(testApp.app, testApp.config.publicUrl);
    await student.post('/api/users/register', registrationFactory());
    faculty = new TestClient(testApp.app, testApp.config.publicUrl);
    await faculty.post('/api/users/register', registrationFactory({ role: 'faculty' }));
  });
  afterAll(async () => testApp.close());

  describe('GET /api/search', () => {
    it('finds by title, ranks the title match first, and matches prefixes while typing', async () => {
      const pride = await search('q=pride');
      expect(pride.items[0]?.title).toBe('Pride and Prejudice');
      expect(pride.items[0]).toMatchObject({
        type: 'book',
        authors: ['Jane Austen'],
        year: 1813,
        hasContent: true,
      });
      expect((await search('q=franken')).items[0]?.title).toMatch(/^Frankenstein/);
      expect((await search('q=time mach')).items[0]?.title).toBe('The Time Machine');
    });

    it('shows on each card the copies one can reserve and where they stand, on the detail too', async () => {
      const pride = (await search('q=pride')).items[0]!;
      expect(pride.shelf).toMatchObject({ total: 3, available: 3 });
      expect(pride.shelf!.locations.length).toBeGreaterThan(0);
      expect(pride.shelf!.locations.reduce((sum, place) => sum + place.total, 0)).toBe(3);
      const detail = await guest.get(`/api/items/${pride.id}`);
      expect(detail.json().shelf).toEqual(pride.shelf);
      // Every copy of A Christmas Carol is out: it shows, with none to reserve.
      const carol = (await search('q=christmas carol')).items[0]!;
      expect(carol.shelf).toMatchObject({ total: 1, available: 0 });
      // Papers are not on the shelves.
      const papers = await search('type=paper&q=learning');
      expect(papers.items.length).toBeGreaterThan(0);
      expect(papers.items.every((item) => item.shelf === undefined)).toBe(true);
    });

    it('finds by author, and stems names the same way in documents and queries', async () => {
      expect((await search('q=wells')).items.map((item) => item.title)).toContain(
        'The Time Machine',
      );
      expect((await search('q=dickens')).items[0]?.title).toBe('A Christmas Carol');
    });

    it('applies the spec filters on the server, with right totals and facets', async () => {
      const austen = await search('author=AUSTEN');
      expect(austen.total).toBe(1);
      expect((await search('year=1818')).items.map((item) => item.title)).toEqual([
        'Frankenstein; or, The Modern Prometheus',
      ]);
      const demoHistory = demoInCategory('history');
      const history = await search('category=history&pageSize=50');
      expect(demoHistory.length).toBeLessThanOrEqual(50);
      expect(history.total).toBe(demoHistory.length);
      expect(history.items.map((item) => item.title).sort()).toEqual(
        demoHistory.map((item) => item.title).sort(),
      );
      expect(history.items.map((item) => item.title)).toEqual(
        expect.arrayContaining(['A Christmas Carol', 'World History 101: Reading Pack']),
      );
      expect(history.facets.type).toEqual(typeCounts(demoHistory));
      const books = await search('category=history&type=book');
      expect(books.total).toBe(typeCounts(demoHistory).book);
      expect(books.items.every((item) => item.type === 'book')).toBe(true);
      expect(books.facets.type).toEqual(typeCounts(demoHistory));
      expect((await search('category=fiction&author=shelley')).total).toBe(1);
    });

    it('pages through the whole result set', async () => {
      // The spec's category filter is a substring: 'fiction' also matches 'non-fiction'.
      const total = demoInCategory('fiction').length;
      const all = [];
      for (let page = 1; page <= Math.ceil(total / 50); page += 1) {
        const result = await search(`category=fiction&pageSize=50&page=${page}`);
        expect(result.total).toBe(total);
        all.push(...result.items);
      }
      expect(all).toHaveLength(total);
      const pages = [];
      const lastPage = Math.ceil(total / 20);
      for (let page = 1; page <= lastPage; page += 1)
        pages.push(...(await search(`category=fiction&pageSize=20&page=${page}`)).items);
      expect(pages.map((item) => item.id)).toEqual(all.map((item) => item.id));
      expect(new Set(pages.map((item) => item.id)).size).toBe(total);
      expect((await search(`category=fiction&pageSize=20&page=${lastPage + 1}`)).items).toEqual([]);
    });

    it('shows the built-in sample books when asked for featured items without a query', async () => {
      const featured = await search('featured=true&type=book&pageSize=50');
      expect(featured.total).toBe(DEMO_BOOKS.length);
      expect(featured.items.every((item) => item.type === 'book')).toBe(true);
      // The books with a reading guide can be read online; the others are on the shelves.
      const guided = new Set(
        DEMO_BOOKS.filter((item) => demoGuidePages(item).length > 0).map((item) => item.title),
      );
      expect(guided.size).toBe(6);
      for (const item of featured.items)
        expect(item.hasContent, item.title).toBe(guided.has(item.title));
    });

    it('finds the title meant despite a typo, and says what it searched for', async () => {
      const result = await search('q=frankenstien');
      expect(result.items[0]?.title).toMatch(/^Frankenstein/);
      expect(result.correctedQuery).toBe('frankenstein');
      expect(result.suggestion).toBeUndefined();
      const prejudice = await search('q=pride prejudise');
      expect(prejudice.items[0]?.title).toBe('Pride and Prejudice');
      expect(prejudice.correctedQuery).toBe('pride prejudice');
    });

    it('searches the words as typed when asked, and then suggests the right title', async () => {
      const result = await search('q=frankenstien&exact=true');
      expect(result.total).toBe(0);
      expect(result.correctedQuery).toBeUndefined();
      expect(result.suggestion).toBe('frankenstein');
      expect((await search('q=prejudise&exact=true')).suggestion).toBe('prejudice');
    });

    it('refuses an empty search, an oversized page and bad filters with clear 400s', async () => {
      for (const [query, message] of [
        ['q=', 'Type something to search for, or choose a filter.'],
        ['', 'Type something to search for, or choose a filter.'],
        ['q=x&pageSize=51', 'pageSize is at most 50'],
        ['q=x&type=film', 'type must be book, paper or course'],
        ['q=x&year=soon', 'year must be a number'],
        [`q=${'x'.repeat(201)}`, 'The search is too long (200 characters at most)'],
      ]) {
        const response = await guest.get(`/api/search?${query}`);
        expect(response.statusCode, query).toBe(400);
        expect(
          response.json().errors.map((error: { message: string }) => error.message),
          query,
        ).toContain(message);
      }
    });

    // Found by the fuzzer: a NUL reached the SQL and failed it with a 500.
    it('refuses a NUL in the query or a filter with a 400 naming it', async () => {
      for (const name of ['q', 'author', 'category']) {
        const response = await guest.get(`/api/search?${name}=a%00b${name === 'q' ? '' : '&q=x'}`);
        expect(response.statusCode, name).toBe(400);
        expect(response.json().errors, name).toEqual([
          { path: name, message: 'Text cannot contain the NUL character (U+0000).' },
        ]);
      }
    });

    it('drops a query of stop words alone and keeps the filters', async () => {
      expect((await search('q=the&category=gothic')).total).toBe(demoInCategory('gothic').length);
      expect((await search('q=the%20of&type=book')).total).toBe(DEMO_BOOKS.length);
    });

    it('treats operators and quotes in the query as plain text', async () => {
      for (const q of [`'`, `"pride" & | ! :* ( )`, `\\`, '%_', 'a:b <-> c', '🙂']) {
        const response = await guest.get(`/api/search?q=${encodeURIComponent(q)}`);
        expect(response.statusCode, q).toBe(200);
      }
      expect((await search(`q=${encodeURIComponent('pride!!!')}`)).items[0]?.title).toBe(
        'Pride and Prejudice',
      );
      expect((await search(`author=${encodeURIComponent('%')}`)).total).toBe(0);
    });
    it('caps the count of a broad search at the limit, and says so', async () => {
      // 1,005 matches: 1,002 papers and 3 books with a made-up word in the title.
      await sql`
        INSERT INTO items (kind, title, source, source_id)
        SELECT CASE WHEN g <= 3 THEN 'book' ELSE 'paper' END, 'Zyxwv survey ' || g, 'test', 'zyxwv-' || g
        FROM generate_series(1, ${SEARCH_COUNT_LIMIT + 5}) AS g
      `.execute(testApp.database.db);
      try {
        const all = await search('q=zyxwv');
        expect(all).toMatchObject({ total: SEARCH_COUNT_LIMIT, totalCapped: true });
        expect(all.facetsCapped).toBe(true);
        expect(all.items).toHaveLength(20);
        // The searched type is counted exactly below the limit, even when others are capped.
        const books = await search('q=zyxwv&type=book');
        expect(books.total).toBe(3);
        expect(books.totalCapped).toBeUndefined();
        expect(books.facets.type.book).toBe(3);
        expect(books.facetsCapped).toBe(true);
        expect(books.items.map((item) => item.title).sort()).toEqual([
          'Zyxwv survey 1',
          'Zyxwv survey 2',
          'Zyxwv survey 3',
        ]);
        // The pages stop at the limit.
        const last = SEARCH_COUNT_LIMIT / 20;
        expect((await search(`q=zyxwv&page=${last}`)).items).toHaveLength(20);
        expect((await search(`q=zyxwv&page=${last + 1}`)).items).toEqual([]);
        // An exact title still comes first among the counted matches.
        expect((await search('q=zyxwv survey 7')).items[0]?.title).toBe('Zyxwv survey 7');
        // Below the limit, counts are exact and nothing is flagged.
        const few = await search('q=zyxwv survey 17');
        expect(few.totalCapped).toBeUndefined();
        expect(few.facetsCapped).toBeUndefined();
      } finally {
        await sql`DELETE FROM items WHERE source = 'test'`.execute(testApp.database.db);
      }
    });
  });

  describe('items and their pages', () => {
    it('answers the details of an item, and 404 for an unknown or malformed id', async () => {
      const { items } = await search('q=pride');
      const detail = itemDetailSchema.parse((await guest.get(`/api/items/${items[0]!.id}`)).json());
      expect(detail).toMatchObject({
        title: 'Pride and Prejudice',
        pageCount: 2,
        hasContent: true,
      });
      for (const id of ['00000000-0000-0000-0000-000000000000', 'not-an-id', "1' OR '1'='1"]) {
        const response = await guest.get(`/api/items/${encodeURIComponent(id)}`);
        expect(response.statusCode, id).toBe(404);
        expect(response.json().message).toBe('There is no such item in the catalogue.');
      }
    });

    it('serves a held text page by page to members, bounded by its page count', async () => {
      const { items } = await search('q=frankenstein');
      const id = items[0]!.id;
      expect((await guest.get(`/api/items/${id}/pages?page=1`)).statusCode).toBe(401);
      const first = itemPageSchema.parse(
        (await student.get(`/api/items/${id}/pages?page=1`)).json(),
      );
      // The reading guide's two pages, then the companion: Letters 1–4 and Chapters 1–24.
      expect(first).toMatchObject({ page: 1, pageCount: 30 });
      expect(first.content).toMatch(/^# About Frankenstein/);
      const contentOf = async (page: number) =>
        itemPageSchema.parse((await student.get(`/api/items/${id}/pages?page=${page}`)).json())
          .content;
      expect(await contentOf(2)).toMatch(/^# Study questions/);
      expect(await contentOf(3)).toMatch(/^# Letter 1\n/);
      expect(await contentOf(11)).toMatch(/^# Chapter 5\n/);
      expect(await contentOf(30)).toMatch(/^# Chapter 24\n/);
      expect((await student.get(`/api/items/${id}/pages?page=31`)).statusCode).toBe(404);
      expect((await student.get(`/api/items/${id}/pages?page=0`)).statusCode).toBe(400);
    });

    it('says "No content available for this book." for an item without text', async () => {
      const { items } = await search('type=paper&category=science');
      const response = await student.get(`/api/items/${items[0]!.id}/pages?page=1`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('No content available for this book.');
    });
  });

  describe('course materials', () => {
    it('faculty publish; members see the material first in get-books; search finds it', async () => {
      const published = await faculty.post('/api/faculty/post-book', {
        title: 'Quantum Mechanics Problem Sets',
        author: 'Dr. Lise Meitner',
        publishedDate: '2026-09-01',
        driveLink: DRIVE,
        instituteName: 'Campus University',
        genre: 'science',
      });
      expect(published.statusCode, published.body).toBe(200);
      expect(published.json()).toMatchObject({
        success: true,
        payload: {
          title: 'Quantum Mechanics Problem Sets',
          author: 'Dr. Lise Meitner',
          publishedDate: '2026-09-01',
          driveLink: DRIVE,
        },
      });
      const list = getBooksResponseSchema.parse((await student.get('/api/users/get-books')).json());
      expect(list.payload[0]).toMatchObject({
        title: 'Quantum Mechanics Problem Sets',
        instituteName: 'Campus University',
        genre: 'science',
      });
      expect(list.payload.length).toBeGreaterThanOrEqual(4);
      expect((await search('q=quantum')).items[0]).toMatchObject({
        type: 'course',
        driveLink: DRIVE,
      });
      const misspelt = await search('q=meitnr');
      expect(misspelt.correctedQuery).toBe('meitner');
      expect(misspelt.items[0]).toMatchObject({ type: 'course', driveLink: DRIVE });
    });

    it('refuses students and guests, and names each invalid field', async () => {
      const body = {
        title: 'T',
        author: 'A',
        publishedDate: '2026-01-01',
        driveLink: DRIVE,
        instituteName: 'I',
        genre: 'g',
      };
      expect((await student.post('/api/faculty/post-book', body)).statusCode).toBe(403);
      expect((await guest.post('/api/faculty/post-book', body)).statusCode).toBe(401);
      expect((await guest.get('/api/users/get-books')).statusCode).toBe(401);
      const response = await faculty.post('/api/faculty/post-book', {
        title: ' ',
        publishedDate: '2026-02-30',
        driveLink: 'ftp://files.example/x',
        instituteName: 'I',
        genre: 'g',
      });
      expect(response.statusCode).toBe(400);
      const byPath = Object.fromEntries(
        response
          .json()
          .errors.map((error: { path: string; message: string }) => [error.path, error.message]),
      );
      expect(byPath).toEqual({
        title: 'Title is required',
        author: 'Author is required',
        publishedDate: 'Publication date must be a real date',
        driveLink: 'Drive link must be an http:// or https:// URL',
      });
    });

    it('answers the list from memory until the items change, and shows any change at once', async () => {
      const titles = async (client: TestClient) =>
        getBooksResponseSchema
          .parse((await client.get('/api/users/get-books')).json())
          .payload.map((material) => material.title);
      const before = await titles(student);
      const cached = await statementsOf(() => student.get('/api/users/get-books'));
      // Who asks, and on PostgreSQL the items' version: the list itself comes from memory.
      expect(cached.statements).toBe(kind === 'pglite' ? 1 : 2);
      expect(
        getBooksResponseSchema.parse(cached.result.json()).payload.map((m) => m.title),
      ).toEqual(before);

      const published = await faculty.post('/api/faculty/post-book', {
        title: 'Thermodynamics Lecture Notes',
        author: 'Dr. Emmy Noether',
        publishedDate: '2026-10-01',
        driveLink: DRIVE,
        instituteName: 'Campus University',
        genre: 'science',
      });
      expect(published.statusCode, published.body).toBe(200);
      expect(await titles(student)).toEqual(['Thermodynamics Lecture Notes', ...before]);

      // Any other writer (the importer, the seed, an edit by hand) is seen as soon: a trigger.
      await testApp.database.db
        .insertInto('items')
        .values({
          kind: 'course',
          title: 'Imported Course',
          authors: ['Importer'],
          year: 2026,
          subjects: ['science'],
          source: 'test-import',
          source_id: 'imported-course',
        })
        .execute();
      expect((await titles(student))[0]).toBe('Imported Course');
    });

    it('shows a publish at once on another app instance sharing the database', async () => {
      // On PostgreSQL another pool, as another process has; PGlite is one process's (decision
      // 017), so the second app shares its handle, as a restart in the same process would.
      const other = await createTestApp(kind, {
        database:
          kind === 'postgres' ? openPostgres(testApp.database.connectionString!) : testApp.database,
      });
      try {
        const reader = new TestClient(other.app, other.config.publicUrl);
        await reader.post('/api/users/register', registrationFactory());
        const list = async () =>
          getBooksResponseSchema.parse((await reader.get('/api/users/get-books')).json()).payload;
        const before = await list();
        expect(await list()).toEqual(before);
        const published = await faculty.post('/api/faculty/post-book', {
          title: 'Relativity Reading Pack',
          author: 'Dr. Albert Einstein',
          publishedDate: '2026-11-01',
          driveLink: DRIVE,
          instituteName: 'Campus University',
          genre: 'science',
        });
        expect(published.statusCode, published.body).toBe(200);
        expect((await list())[0]?.title).toBe('Relativity Reading Pack');
      } finally {
        if (kind === 'postgres') await other.close();
        else await other.app.close();
      }
    });

    // Found by the fuzzer: on PGlite this text failed the INSERT ("invalid byte sequence"): a 500.
    it('refuses a lone surrogate or a NUL in a field with a 400 naming it', async () => {
      for (const [instituteName, message] of [
        ['\uD800\u202E\uDC00', 'Text must be valid Unicode (it holds a lone surrogate).'],
        ['Campus\u0000', 'Text cannot contain the NUL character (U+0000).'],
      ]) {
        const response = await faculty.post('/api/faculty/post-book', {
          title: 'T',
          author: 'A',
          publishedDate: '2026-01-01',
          driveLink: DRIVE,
          instituteName,
          genre: 'g',
        });
        expect(response.statusCode).toBe(400);
        expect(response.json().errors).toEqual([{ path: 'instituteName', message }]);
      }
    });
  });
});
