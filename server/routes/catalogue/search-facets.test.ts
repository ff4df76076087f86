import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_COUNT_LIMIT } from '#contract/http/catalogue.ts';
import { addNumberedCopies } from '../../catalogue/copies.ts';
import { seedDemoData } from '../../db/seed.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';
import { searchAs } from '../../test/search.ts';

/**
 * Books and a paper with a made-up word in their titles, so the searches below find exactly them:
 * their years, subjects and copies on the shelf (free, on loan, none).
 */
const FIXTURE = [
  { title: 'Vexillo Alpha', year: 1813, subjects: ['fiction', 'gothic'], copies: 2, onLoan: 0 },
  {
    title: 'Vexillo Beta',
    year: 1865,
    subjects: ['fiction', 'science fiction'],
    copies: 1,
    onLoan: 0,
  },
  { title: 'Vexillo Gamma', year: 1895, subjects: ['fiction', 'science'], copies: 1, onLoan: 1 },
  { title: 'Vexillo Delta', year: 1999, subjects: ['science'], copies: 0, onLoan: 0 },
  { title: 'Vexillo Epsilon', year: 2024, subjects: ['fiction'], copies: 1, onLoan: 0 },
  { title: 'Vexillo Zeta', year: null, subjects: ['fiction'], copies: 0, onLoan: 0 },
] as const;

describe.each(testDatabaseKinds())('search facets and sorts on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  const ids = new Map<string, string>();

  const search = (query: string) => searchAs(guest, query);
  const titles = async (query: string) => (await search(query)).items.map((item) => item.title);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    await seedDemoData(testApp.database.db);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    const db = testApp.database.db;
    for (const [index, item] of FIXTURE.entries()) {
      const row = await db
        .insertInto('items')
        .values({
          kind: 'book',
          title: item.title,
          authors: ['Ann Example'],
          year: item.year,
          subjects: [...item.subjects],
          source: 'facets-test',
          source_id: `vexillo-${index}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(item.title, row.id);
      if (item.copies > 0) {
        await addNumberedCopies(db, row.id, {
          count: item.copies,
          unavailable: item.onLoan,
          unavailableStatus: 'on_loan',
        });
      }
    }
    await db
      .insertInto('items')
      .values({
        kind: 'paper',
        title: 'Vexillo Survey',
        authors: ['Ann Example'],
        year: 2023,
        subjects: ['science'],
        source: 'facets-test',
        source_id: 'vexillo-paper',
      })
      .execute();
  });
  afterAll(async () => testApp.close());

  it('counts subjects, year ranges and free copies over the matches', async () => {
    const result = await search('q=vexillo&type=book');
    expect(result.total).toBe(6);
    expect(result.facetCounts).toEqual({
      subjects: [
        { value: 'fiction', count: 5 },
        { value: 'science', count: 2 },
        { value: 'gothic', count: 1 },
        { value: 'science fiction', count: 1 },
      ],
      years: [
        { from: 1800, to: 1899, count: 3 },
        { from: 1990, to: 1999, count: 1 },
        { from: 2020, to: 2029, count: 1 },
      ],
      // Alpha, Beta and Epsilon: Gamma's one copy is on loan, Delta and Zeta have none.
      available: 3,
    });
    // The counts follow the type searched: the paper is counted only without it.
    const all = await search('q=vexillo');
    expect(all.total).toBe(7);
    expect(all.facetCounts?.subjects[1]).toEqual({ value: 'science', count: 3 });
    expect(all.facetCounts?.years).toContainEqual({ from: 2020, to: 2029, count: 2 });
    // The free count agrees with the result cards' shelves.
    expect(result.items.filter((item) => (item.shelf?.available ?? 0) > 0)).toHaveLength(3);
  });

  it('filters by a subject exactly, not by a part of one', async () => {
    expect(await titles('q=vexillo&subject=gothic')).toEqual(['Vexillo Alpha']);
    // 'science' is a subject of its own and a part of 'science fiction': only the former counts.
    expect((await titles('q=vexillo&subject=science&sort=title')).sort()).toEqual([
      'Vexillo Delta',
      'Vexillo Gamma',
      'Vexillo Survey',
    ]);
    expect((await search('q=vexillo&subject=scien')).total).toBe(0);
    // A filter of its own, without words; the facet counts keep to it.
    const gothic = await search('subject=gothic');
    expect(gothic.items.map((item) => item.title)).toContain('Vexillo Alpha');
    expect(gothic.facetCounts?.subjects).toContainEqual({ value: 'gothic', count: gothic.total });
  });

  it('filters by a year range, both ends inclusive, alone or with words', async () => {
    expect((await titles('q=vexillo&yearFrom=1813&yearTo=1865')).sort()).toEqual([
      'Vexillo Alpha',
      'Vexillo Beta',
    ]);
    expect((await titles('q=vexillo&yearFrom=1990')).sort()).toEqual([
      'Vexillo Delta',
      'Vexillo Epsilon',
      'Vexillo Survey',
    ]);
    expect(await titles('q=vexillo&yearTo=1813')).toEqual(['Vexillo Alpha']);
    expect((await search('q=vexillo&yearFrom=2100')).total).toBe(0);
    const range = await search('yearFrom=1999&yearTo=1999');
    expect(range.items.map((item) => item.title)).toContain('Vexillo Delta');
    expect(range.items.every((item) => item.year === 1999)).toBe(true);
  });

  it('keeps to books with a copy free now, as the shelf counts it', async () => {
    const free = await search('q=vexillo&available=true');
    expect(free.items.map((item) => item.title).sort()).toEqual([
      'Vexillo Alpha',
      'Vexillo Beta',
      'Vexillo Epsilon',
    ]);
    expect(free.facetCounts?.available).toBe(3);
    // available=false filters nothing.
    expect((await search('q=vexillo&available=false')).total).toBe(7);

    // Someone waiting for Beta's one copy takes it: it is no longer free, in the list or counts.
    const beta = ids.get('Vexillo Beta')!;
    const reader = await signedInPerson(testApp);
    await sql`INSERT INTO queued_holds (user_id, item_id) VALUES (${reader.id}, ${beta})`.execute(
      testApp.database.db,
    );
    try {
      expect((await titles('q=vexillo&available=true')).sort()).toEqual([
        'Vexillo Alpha',
        'Vexillo Epsilon',
      ]);
      expect((await search('q=vexillo')).facetCounts?.available).toBe(2);
    } finally {
      await sql`DELETE FROM queued_holds WHERE item_id = ${beta}`.execute(testApp.database.db);
    }
    // A filter of its own: every book with a free copy, without words.
    const allFree = await search('available=true&yearFrom=1813&yearTo=1813');
    expect(allFree.items.map((item) => item.title)).toContain('Vexillo Alpha');
    expect(allFree.items.every((item) => (item.shelf?.available ?? 0) > 0)).toBe(true);
    expect(allFree.facetCounts?.available).toBe(allFree.total);
  });

  it('sorts by relevance, by year (newest first) and by title, with words or filters', async () => {
    expect(await titles('q=vexillo&type=book&sort=year')).toEqual([
      'Vexillo Epsilon',
      'Vexillo Delta',
      'Vexillo Gamma',
      'Vexillo Beta',
      'Vexillo Alpha',
      'Vexillo Zeta',
    ]);
    expect(await titles('q=vexillo&type=book&sort=title')).toEqual([
      'Vexillo Alpha',
      'Vexillo Beta',
      'Vexillo Delta',
      'Vexillo Epsilon',
      'Vexillo Gamma',
      'Vexillo Zeta',
    ]);
    // Relevance is the default: an exact title first.
    expect((await titles('q=vexillo%20gamma&sort=relevance'))[0]).toBe('Vexillo Gamma');
    expect((await titles('q=vexillo%20delta'))[0]).toBe('Vexillo Delta');
    // Filters alone: by title unless asked for years.
    const byYear = await search('category=fiction&sort=year&pageSize=50');
    const years = byYear.items.map((item) => item.year ?? Number.NEGATIVE_INFINITY);
    expect(years).toEqual([...years].sort((a, b) => b - a));
    const byTitle = await titles('category=fiction&pageSize=50');
    expect(byTitle).toEqual(await titles('category=fiction&sort=title&pageSize=50'));
    // Paging follows the order.
    const first = await titles('q=vexillo&type=book&sort=year&pageSize=2');
    const second = await titles('q=vexillo&type=book&sort=year&pageSize=2&page=2');
    expect([...first, ...second]).toEqual([
      'Vexillo Epsilon',
      'Vexillo Delta',
      'Vexillo Gamma',
      'Vexillo Beta',
    ]);
  });

  it('answers as before to a search without the new parameters', async () => {
    const result = await search('q=pride');
    expect(result.items[0]?.title).toBe('Pride and Prejudice');
    expect(Object.keys(result.facets)).toEqual(['type']);
    expect(result.facetCounts).toBeDefined();
  });

  it('refuses bad facet and sort parameters with clear 400s', async () => {
    for (const [query, message] of [
      ['q=x&yearFrom=2000&yearTo=1990', 'yearFrom must not be after yearTo'],
      ['q=x&yearFrom=abc', 'yearFrom must be a number'],
      ['q=x&yearTo=1999.5', 'yearTo must be a whole number'],
      ['q=x&yearTo=5000', 'yearTo is 3000 at the latest'],
      ['q=x&sort=popular', 'sort must be relevance, year or title'],
      ['q=x&available=yes', 'available must be true or false'],
      [`q=x&subject=${'s'.repeat(201)}`, 'subject'],
      ['available=false', 'Type something to search for, or choose a filter.'],
    ] as const) {
      const response = await guest.get(`/api/search?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toContain(message);
    }
    // Blank values mean "not given".
    expect((await search('q=pride&sort=&yearFrom=&subject=&available=')).items[0]?.title).toBe(
      'Pride and Prejudice',
    );
  });

  it('counts facets among the first matches of a broad search, and says so', async () => {
    await sql`
      INSERT INTO items (kind, title, year, subjects, source, source_id)
      SELECT 'paper', 'Qwxyz study ' || g, 1990 + g % 30, ARRAY['qwxyz', 'topic ' || (g % 3)],
             'test', 'qwxyz-' || g
      FROM generate_series(1, ${SEARCH_COUNT_LIMIT + 5}) AS g
    `.execute(testApp.database.db);
    try {
      const broad = await search('q=qwxyz');
      expect(broad.facetCounts?.capped).toBe(true);
      expect(broad.facetCounts?.subjects[0]).toEqual({ value: 'qwxyz', count: SEARCH_COUNT_LIMIT });
      expect(
        broad.facetCounts!.years.reduce((sum, range) => sum + range.count, 0),
      ).toBeLessThanOrEqual(SEARCH_COUNT_LIMIT + 1);
      // Narrowed below the limit, the counts are exact and not flagged.
      const narrow = await search('q=qwxyz&yearFrom=2010&yearTo=2019');
      expect(narrow.facetCounts?.capped).toBeUndefined();
      expect(narrow.total).toBe(
        Array.from(
          { length: SEARCH_COUNT_LIMIT + 5 },
          (_, index) => 1990 + ((index + 1) % 30),
        ).filter((year) => year >= 2010 && year <= 2019).length,
      );
      expect(narrow.facetCounts?.years).toEqual([{ from: 2010, to: 2019, count: narrow.total }]);
    } finally {
      await sql`DELETE FROM items WHERE source = 'test'`.execute(testApp.database.db);
    }
  });
});
