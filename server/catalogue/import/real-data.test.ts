import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { DEMO_ITEMS } from '../../db/demo-data.ts';
import { DEMO_SOURCE, seedDemoData } from '../../db/seed.ts';
import { openTestDatabase, testDatabaseKinds } from '../../test/databases.ts';
import type { SearchQuery } from '#contract/http/catalogue.ts';
import { searchCatalogue } from '../search.ts';
import { importFile } from './import-file.ts';

// The shared seed data lives next to the repository, not in it (see its README).
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const DATA = path.resolve(ROOT, '../shared/data');
const exists = existsSync(DATA);
if (!exists && ['true', '1'].includes(String(process.env.CI))) {
  // CI always has the shared data beside the clone: skipping there would hide a broken import.
  throw new Error(`CI: the shared data folder ${DATA} is missing`);
}
const SLOW = { timeout: 180_000 };

const file = (...parts: string[]) => path.join(DATA, ...parts);

async function count(handle: DatabaseHandle, where = sql`true`): Promise<number> {
  const { rows } = await sql<{
    n: number;
  }>`SELECT count(*)::int AS n FROM items WHERE ${where}`.execute(handle.db);
  return rows[0]?.n ?? 0;
}

describe.skipIf(!exists)(
  exists
    ? 'importing the real data files'
    : `importing the real data files: SKIPPED, ${DATA} does not exist`,
  () => {
    describe.each(testDatabaseKinds())('on %s', (kind) => {
      let handle: DatabaseHandle | undefined;
      afterEach(async () => {
        await handle?.close();
        handle = undefined;
      });

      it('imports the 10,000 goodbooks rows; a re-run inserts nothing', SLOW, async () => {
        handle = await openTestDatabase(kind);
        const books = file('books', 'goodbooks-10k_books.csv');
        const first = await importFile(handle.db, 'books', books);
        console.info(`goodbooks on ${kind}: ${Math.round(first.elapsedMs)} ms`);
        expect(first.counts.rows).toBe(10_000);
        expect(first.counts.inserted + first.counts.skipped).toBe(10_000);
        // Every row is a book; the 24 whose ISBN fails its check digit (or range) have none.
        expect(first.counts.skipped).toBe(0);
        expect(await count(handle)).toBe(first.counts.inserted);

        const hungerGames = await handle.db
          .selectFrom('items')
          .select(['title', 'authors', 'year', 'isbn', 'cover_url', 'description', 'kind'])
          .where('isbn', '=', '9780439023481')
          .executeTakeFirstOrThrow();
        expect(hungerGames).toEqual({
          title: 'The Hunger Games',
          authors: ['Suzanne Collins'],
          year: 2008,
          isbn: '9780439023481',
          cover_url: 'https://images.gr-assets.com/books/1447303603m/2767052.jpg',
          description: 'Series: The Hunger Games #1',
          kind: 'book',
        });
        expect(await count(handle, sql`isbn = '9780439655484'`)).toBe(1);
        expect(await count(handle, sql`isbn IS NULL`)).toBe(724);
        expect(await count(handle, sql`year < 0`)).toBe(31);
        expect(await count(handle, sql`cover_url IS NULL`)).toBe(3_332);
        expect(await count(handle, sql`cover_url LIKE '%nophoto%'`)).toBe(0);
        expect(await count(handle, sql`length(isbn) <> 13`)).toBe(0);

        const again = await importFile(handle.db, 'books', books);
        expect(again.counts).toMatchObject({
          inserted: 0,
          updated: 0,
          skipped: first.counts.skipped,
        });
        expect(await count(handle)).toBe(first.counts.inserted);
      });

      it(
        'imports 4,100 papers from the CSV and both JSON layouts; a re-run inserts nothing',
        SLOW,
        async () => {
          handle = await openTestDatabase(kind);
          const csv = file('papers', 'arxiv_sample_2000.csv');
          const json = file('papers', 'arxiv_metadata_2100.json');
          const fromCsv = await importFile(handle.db, 'papers', csv);
          const fromJson = await importFile(handle.db, 'papers', json);
          expect(fromCsv.counts).toMatchObject({ rows: 2_000, inserted: 2_000, skipped: 0 });
          expect(fromJson.counts).toMatchObject({ rows: 2_100, inserted: 2_100, skipped: 0 });
          expect(await count(handle, sql`kind = 'paper' AND source = 'arxiv'`)).toBe(4_100);

          const paper = (id: string) =>
            handle!.db
              .selectFrom('items')
              .select(['title', 'authors', 'year', 'subjects', 'url'])
              .where('arxiv_id', '=', id)
              .executeTakeFirstOrThrow();
          expect(await paper('0708.2003')).toEqual({
            title: 'The logarithmic Sobolev inequality along the Ricci flow in dimension 2',
            authors: ['Rugang Ye'],
            year: 2007,
            subjects: ['math.DG'],
            url: 'https://arxiv.org/abs/0708.2003',
          });
          // First JSON layout (key without version, {"@term"} categories)...
          expect(await paper('2303.11436')).toMatchObject({
            title: "Mind meets machine: Unravelling GPT-4's cognitive psychology",
            year: 2023,
            subjects: ['cs.CL', 'cs.AI'],
          });
          // ...and the second (key with version, categories as strings).
          expect(await paper('2002.04724')).toMatchObject({
            title: 'Improved Consistency Regularization for GANs',
            year: 2020,
            subjects: ['stat.ML', 'cs.LG'],
          });
          expect(await count(handle, sql`description ~ '^\\s|\\n|  '`)).toBe(0);
          expect(await count(handle, sql`year IS NULL OR year < 2007`)).toBe(0);

          expect((await importFile(handle.db, 'papers', csv)).counts).toMatchObject({
            inserted: 0,
            updated: 0,
          });
          expect((await importFile(handle.db, 'papers', json)).counts).toMatchObject({
            inserted: 0,
            updated: 0,
          });
          expect(await count(handle)).toBe(4_100);
        },
      );

      it(
        'imports both course lists, one item per URL; a re-run inserts nothing',
        SLOW,
        async () => {
          handle = await openTestDatabase(kind);
          const lists = ['free-courses-en.csv', 'free-programming-books-subjects.csv'].map((name) =>
            file('courses', name),
          );
          const first = [];
          for (const list of lists) first.push(await importFile(handle.db, 'courses', list));
          expect(first.map((result) => result.counts.rows)).toEqual([1_382, 829]);
          // Rows repeating a URL of the same list are skipped; six URLs are in both lists.
          expect(first.map((result) => result.counts.skipped)).toEqual([17, 9]);
          expect(await count(handle, sql`kind = 'course'`)).toBe(1_382 - 17 + 829 - 9 - 6);
          expect(await count(handle, sql`url IS NULL OR url <> source_id`)).toBe(0);
          const course = await handle.db
            .selectFrom('items')
            .select(['subjects', 'kind'])
            .where('url', '=', 'https://lillytechsystems.com/ai-school/')
            .executeTakeFirstOrThrow();
          expect(course).toEqual({ subjects: ['MOOC'], kind: 'course' });

          for (const list of lists) {
            expect((await importFile(handle.db, 'courses', list)).counts.inserted).toBe(0);
          }
          expect(await count(handle)).toBe(1_382 - 17 + 829 - 9 - 6);
        },
      );

      it(
        'attaches the six texts to the six demo classics, without a word of Project Gutenberg',
        SLOW,
        async () => {
          handle = await openTestDatabase(kind);
          await seedDemoData(handle.db);
          const texts = readdirSync(file('texts'))
            .filter((name) => name.endsWith('.txt'))
            .map((name) => file('texts', name));
          expect(texts).toHaveLength(6);
          for (const text of texts) {
            const result = await importFile(handle.db, 'text', text);
            expect(result.counts, path.basename(text)).toMatchObject({ inserted: 0, updated: 1 });
          }
          expect(await count(handle)).toBe(DEMO_ITEMS.length);

          const classics = await handle.db
            .selectFrom('items')
            .select(['id', 'title', 'page_count'])
            .select(
              sql<number>`(SELECT count(*)::int FROM item_pages WHERE item_id = items.id)`.as(
                'pages',
              ),
            )
            .where('source', '=', DEMO_SOURCE)
            .where('kind', '=', 'book')
            // The six classics with a reading guide (the other demo books hold no text).
            .where('page_count', '>', 0)
            .execute();
          expect(classics).toHaveLength(6);
          for (const classic of classics) {
            // More than the two reading-guide pages the demo seed gives them.
            expect(classic.page_count, classic.title).toBeGreaterThan(20);
            expect(classic.pages, classic.title).toBe(classic.page_count);
          }
          const { rows } = await sql<{ n: number; headed: number; longest: number }>`
          SELECT count(*) FILTER (WHERE content ILIKE '%gutenberg%')::int AS n,
                 count(*) FILTER (WHERE content ~ '(^|\\n)# ')::int AS headed,
                 max(length(content))::int AS longest
          FROM item_pages`.execute(handle.db);
          expect(rows[0]?.n).toBe(0);
          expect(rows[0]?.headed).toBeGreaterThan(100);
          expect(rows[0]?.longest).toBeLessThanOrEqual(3_500);

          for (const text of texts) {
            expect((await importFile(handle.db, 'text', text)).counts.unchanged).toBe(1);
          }
          expect(await count(handle)).toBe(DEMO_ITEMS.length);
        },
      );

      it(
        'searches the imported catalogue: titles, filters, paging and misspellings',
        SLOW,
        async () => {
          handle = await openTestDatabase(kind);
          await importFile(handle.db, 'books', file('books', 'goodbooks-10k_books.csv'));
          await importFile(handle.db, 'papers', file('papers', 'arxiv_metadata_2100.json'));
          const search = (query: Partial<SearchQuery>) =>
            searchCatalogue(handle!.db, {
              q: '',
              page: 1,
              pageSize: 20,
              featured: false,
              ...query,
            });

          const hunger = await search({ q: 'hunger games', type: 'book' });
          expect(hunger.rows[0]?.title).toBe('The Hunger Games');
          const rowling = await search({ author: 'rowling', type: 'book' });
          expect(rowling.total).toBeGreaterThan(5);
          expect(
            rowling.rows.every((row) => row.authors.some((author) => /rowling/i.test(author))),
          ).toBe(true);
          const year = await search({ q: 'harry potter', year: 1997 });
          expect(year.rows.every((row) => row.year === 1997)).toBe(true);
          expect(year.total).toBeGreaterThan(0);

          // Paging covers the whole result set exactly once.
          const all = await search({ q: 'war', type: 'book', pageSize: 50 });
          expect(all.total).toBeGreaterThan(20);
          const ids = new Set<string>();
          const pages = Math.ceil(all.total / 20);
          for (let page = 1; page <= pages; page += 1) {
            for (const row of (await search({ q: 'war', type: 'book', page })).rows)
              ids.add(row.id);
          }
          expect(ids.size).toBe(all.total);

          expect((await search({ q: 'transformer', type: 'paper' })).total).toBeGreaterThan(10);
          // No item holds both words as typed ('gmes' is no slip of 'games' it corrects): items
          // holding one of them, and the correction offered.
          const misspelt = await search({ q: 'hungr gmes' });
          expect(misspelt.partialMatch).toBe(true);
          expect(misspelt.suggestion).toBe('hunger games');
          // Exactly as typed, a misspelling finds nothing and is offered a correction.
          expect((await search({ q: 'frankenstien', exact: true })).suggestion).toBe(
            'frankenstein',
          );

          // Issue 22's known items, typed the way people type them.
          const known: [string, RegExp, string | undefined][] = [
            [
              'harry poter sorcerers stone',
              /^Harry Potter and the Sorcerer's Stone/,
              'harry potter sorcerers stone',
            ],
            ['pride prejudice austen', /^Pride and Prejudice$/, undefined],
            ['9780439023481', /^The Hunger Games/, undefined],
            ['978-0-439-02348-1', /^The Hunger Games/, undefined],
            ['frankenstien', /^Frankenstein/, 'frankenstein'],
          ];
          for (const [q, title, corrected] of known) {
            const found = await search({ q });
            expect(found.rows[0]?.title, q).toMatch(title);
            expect(found.correctedQuery, q).toBe(corrected);
          }
        },
      );
    });
  },
);
