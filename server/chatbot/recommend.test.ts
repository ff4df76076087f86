import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFile } from '../catalogue/import/import-file.ts';
import type { QueryMeaning } from '../catalogue/meaning.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { seedDemoData } from '../db/seed.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { unitVector } from '../test/embedder.ts';
import {
  recommend,
  RECOMMENDATIONS_MAX,
  topicSignals,
  workKey,
  type Recommendation,
} from './recommend.ts';

const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());
const MODEL = 'recommend-test-model';

interface Fixture {
  title: string;
  kind?: 'book' | 'paper' | 'course';
  authors?: string[];
  subjects?: string[];
  year?: number;
  description?: string;
  ratings?: number;
  circulation?: number;
  withdrawn?: boolean;
  embedding?: number[];
}

/** A small catalogue of our own: each case below names the items it is about. */
const FIXTURES: Fixture[] = [
  // "Like" Tide Tables: the same author, a series, editions and a box set of it, shared subjects.
  {
    title: 'Tide Tables',
    authors: ['Ada Quill'],
    subjects: ['oceans', 'tides', 'fiction'],
    description: 'Series: The Sea #1',
    embedding: unitVector(1, 0),
  },
  { title: 'Tide Tables', authors: ['Ada Quill'], year: 2001, description: 'Series: The Sea #1' },
  { title: 'Tide Tables Box Set', authors: ['Ada Quill'], ratings: 900_000 },
  { title: 'Low Water', authors: ['Ada Quill'], description: 'Series: The Sea #2', ratings: 10 },
  { title: 'Slack Water', authors: ['Ada Quill'], description: 'Series: The Sea #3', ratings: 5 },
  { title: 'Garden Notes', authors: ['Ada Quill'], ratings: 50_000 },
  { title: 'Garden Notes: Revised', authors: ['Ada Quill'], ratings: 40_000 },
  { title: 'Kitchen Notes', authors: ['Ada Quill'], ratings: 30_000 },
  { title: 'Withdrawn Quill', authors: ['Ada Quill'], ratings: 9_999_999, withdrawn: true },
  { title: 'Currents', authors: ['Bo Reed'], subjects: ['Oceans', 'Tides'], ratings: 100 },
  { title: 'Salt Marsh', authors: ['Cy Moss'], subjects: ['tides'], ratings: 5_000 },
  { title: 'Only fiction', authors: ['Di Lane'], subjects: ['fiction'], ratings: 8_000_000 },
  {
    title: 'Deep Water Stories',
    authors: ['Ed Fox'],
    description: 'Waves and the deep sea.',
    embedding: unitVector(1, 0.2),
  },
  // Romance, classic and not.
  {
    title: 'Hearts of Bath',
    authors: ['Fay Grey'],
    subjects: ['romance', 'classics'],
    year: 1815,
    ratings: 200_000,
  },
  { title: 'Letters from Bath', authors: ['Fay Grey'], year: 1818, ratings: 90_000 },
  {
    title: 'Swipe Right',
    authors: ['Gus Holt'],
    subjects: ['romance'],
    year: 2019,
    ratings: 300_000,
  },
  { title: 'Moorland Romance', authors: ['Hal Ivy'], year: 1870, ratings: 20_000 },
  { title: 'The Old Mill', authors: ['Ida Jay'], subjects: ['history'], year: 1850 },
  // Machine learning, for beginners and not.
  {
    title: 'Advanced Machine Learning Theory',
    kind: 'paper',
    authors: ['Jo Kim'],
    subjects: ['machine learning'],
    ratings: 0,
  },
  {
    title: 'Introduction to Machine Learning',
    authors: ['Kai Lee'],
    subjects: ['machine learning', 'computer science'],
  },
  {
    title: 'Learning from Data',
    authors: ['Lu Ma'],
    subjects: ['statistics'],
    description: 'A first course in machine learning, for readers new to it.',
  },
  { title: 'Machine Shop Practice', authors: ['Mo Ng'], subjects: ['engineering'] },
  // Popularity breaks a tie: the same match, one borrowed here often.
  { title: 'Beekeeping Basics', authors: ['Ned Oak'], subjects: ['beekeeping'] },
  { title: 'Beekeeping Year', authors: ['Ola Pym'], subjects: ['beekeeping'], circulation: 12 },
];

describe.each(testDatabaseKinds())('recommend on %s', (kind) => {
  let handle: DatabaseHandle;
  const ids = new Map<string, string>();
  const id = (title: string) => {
    const found = ids.get(title);
    if (!found) throw new Error(`no fixture ${title}`);
    return found;
  };
  const titles = (list: Recommendation[]) => list.map((row) => row.title);

  beforeAll(async () => {
    handle = await openTestDatabase(kind);
    for (const [index, item] of FIXTURES.entries()) {
      const row = await handle.db
        .insertInto('items')
        .values({
          kind: item.kind ?? 'book',
          title: item.title,
          authors: item.authors ?? [],
          subjects: item.subjects ?? [],
          year: item.year ?? null,
          description: item.description ?? null,
          ratings_count: item.ratings ?? null,
          circulation: item.circulation ?? 0,
          withdrawn_at: item.withdrawn ? new Date() : null,
          source: 'recommend-test',
          source_id: String(index),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The first of two rows of one title is the one the cases name.
      if (!ids.has(item.title)) ids.set(item.title, row.id);
      if (item.embedding) {
        await handle.db
          .insertInto('item_embeddings')
          .values({
            item_id: row.id,
            model: MODEL,
            text_hash: `hash-${index}`,
            embedding: item.embedding,
          })
          .execute();
      }
    }
  });
  afterAll(async () => {
    await handle.close();
  });

  const checkList = (list: Recommendation[]) => {
    expect(list.length).toBeLessThanOrEqual(RECOMMENDATIONS_MAX);
    expect(new Set(list.map(workKey)).size).toBe(list.length);
    for (const row of list) {
      expect(row.withdrawn_at).toBeNull();
      expect(row.reason).toMatch(/^[A-Z]/);
    }
  };

  it('likes an item: the same author and series first, then shared subjects', async () => {
    const list = await recommend(handle.db, { like: id('Tide Tables') });
    checkList(list);
    // The two editions of Garden Notes share the work's ratings: either stands for it.
    const named = list.map((row) => [row.title.replace(': Revised', ''), row.reason]);
    expect(named).toEqual([
      ['Low Water', 'Same author: Ada Quill; same series: The Sea'],
      ['Slack Water', 'Same author: Ada Quill; same series: The Sea'],
      ['Garden Notes', 'Same author: Ada Quill'],
      ['Currents', 'Shares the subjects Oceans, Tides'],
      ['Salt Marsh', 'Shares the subject tides'],
    ]);
    // Never the item, its other edition or its box set, nor a withdrawn item.
    expect(titles(list)).not.toContain('Tide Tables');
    expect(titles(list)).not.toContain('Tide Tables Box Set');
  });

  it('answers "any others?" without the items shown, nor other editions of them', async () => {
    const first = await recommend(handle.db, { like: id('Tide Tables') });
    const more = await recommend(
      handle.db,
      { like: id('Tide Tables') },
      { exclude: first.map((row) => row.id) },
    );
    checkList(more);
    expect(titles(more)).toEqual(['Kitchen Notes']);
    expect(titles(more).some((title) => title.startsWith('Garden Notes'))).toBe(false);
  });

  it('adds the nearest by meaning when the database can search by meaning', async (context) => {
    const meaning: QueryMeaning = {
      model: MODEL,
      embed: () => Promise.resolve(Float32Array.from(unitVector(1, 0))),
    };
    if (!handle.searchByMeaning.available) {
      if (kind === 'postgres' && !CI) context.skip('this PostgreSQL has no pgvector');
    }
    const list = await recommend(handle.db, { like: id('Tide Tables') }, { meaning });
    checkList(list);
    expect(titles(list).slice(0, 2)).toEqual(['Low Water', 'Slack Water']);
    expect(list.find((row) => row.title === 'Deep Water Stories')?.reason).toBe(
      'Similar description',
    );
  });

  it('answers an unknown, malformed or withdrawn item with nothing', async () => {
    expect(await recommend(handle.db, { like: 'not-an-id' })).toEqual([]);
    expect(await recommend(handle.db, { like: '00000000-0000-4000-8000-000000000000' })).toEqual(
      [],
    );
    expect(await recommend(handle.db, { like: id('Withdrawn Quill') })).toEqual([]);
    expect(await recommend(handle.db, { like: id('Tide Tables') }, { limit: 0 })).toEqual([]);
  });

  it('recommends a classic romance: old romances first, their authors’ other books', async () => {
    const list = await recommend(handle.db, { topic: 'a classic romance novel' });
    checkList(list);
    expect(titles(list)[0]).toBe('Hearts of Bath');
    expect(list[0]!.reason).toBe(
      'Shares the subjects romance, classics; a classic (1815); popular with readers (200,000 ratings)',
    );
    const letters = list.find((row) => row.title === 'Letters from Bath');
    expect(letters?.reason).toMatch(/^By Fay Grey, who wrote Hearts of Bath \(romance\)/);
    expect(titles(list)).toContain('Moorland Romance');
    // The modern romance ranks after the classics; the old book on history is not a romance.
    expect(titles(list).indexOf('Swipe Right')).toBeGreaterThan(
      titles(list).indexOf('Hearts of Bath'),
    );
    expect(titles(list)).not.toContain('The Old Mill');
  });

  it('recommends for beginners: an introduction first, the advanced paper last', async () => {
    const list = await recommend(handle.db, {
      topic: 'good books on machine learning for beginners',
    });
    checkList(list);
    // "books" prefers books, not only books; the advanced research paper comes last.
    expect(titles(list)).toEqual([
      'Introduction to Machine Learning',
      'Learning from Data',
      'Advanced Machine Learning Theory',
    ]);
    expect(list[0]!.reason).toMatch(/shares the subject machine learning; for beginners/i);
    expect(list[1]!.reason).toMatch(/for beginners/);
    const any = await recommend(handle.db, { topic: 'machine learning', audience: 'beginner' });
    expect(titles(any)[0]).toBe('Introduction to Machine Learning');
    expect(titles(any)).toContain('Advanced Machine Learning Theory');
    expect(titles(any)).not.toContain('Machine Shop Practice');
    // A type the request names is a filter.
    const papers = await recommend(handle.db, { topic: 'machine learning', type: 'paper' });
    expect(titles(papers)).toEqual(['Advanced Machine Learning Theory']);
  });

  it('breaks a tie by the library’s own use and never lists an excluded item', async () => {
    const list = await recommend(handle.db, { topic: 'beekeeping' });
    expect(titles(list)).toEqual(['Beekeeping Year', 'Beekeeping Basics']);
    expect(list[0]!.reason).toBe('Shares the subject beekeeping; often borrowed here');
    const others = await recommend(
      handle.db,
      { topic: 'beekeeping' },
      { exclude: [id('Beekeeping Year')] },
    );
    expect(titles(others)).toEqual(['Beekeeping Basics']);
  });

  it('answers a request of framing alone with popular items, at most five', async () => {
    const list = await recommend(handle.db, { topic: 'a good book' });
    checkList(list);
    expect(list).toHaveLength(RECOMMENDATIONS_MAX);
    expect(titles(list)[0]).toBe('Only fiction');
    expect(list[0]!.reason).toMatch(/^Popular with readers/);
    expect(await recommend(handle.db, { topic: 'zzzz qqqq' })).toEqual([]);
  });
});

describe('topicSignals', () => {
  it('reads the topic, the type, beginners and classics out of a request', () => {
    expect(topicSignals('a classic romance novel')).toEqual({
      words: ['romance'],
      type: 'book',
      beginner: false,
      classic: true,
    });
    expect(topicSignals('good books on machine learning for beginners')).toEqual({
      words: ['machine', 'learning'],
      type: 'book',
      beginner: true,
      classic: false,
    });
    expect(topicSignals('Python for dummies')).toMatchObject({ words: ['python'], beginner: true });
    expect(topicSignals('classical mechanics papers')).toEqual({
      words: ['classical', 'mechanics'],
      type: 'paper',
      beginner: false,
      classic: false,
    });
  });
});

// The shared seed data lives next to the repository, not in it (see its README).
const DATA = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'data');
const BOOKS = path.join(DATA, 'books', 'goodbooks-10k_books.csv');
const exists = existsSync(BOOKS);
if (!exists && CI) throw new Error(`CI: the shared data file ${BOOKS} is missing`);

describe.skipIf(!exists)(
  exists
    ? 'recommend over the real goodbooks data'
    : `recommend over the real goodbooks data: SKIPPED, ${BOOKS} does not exist`,
  () => {
    // PGlite only: the import is the slow part, and the statements are the same on both engines.
    let handle: DatabaseHandle;
    beforeAll(async () => {
      handle = await openTestDatabase('pglite');
      // As the app starts: its demo library (DEMO_DATA defaults to on), then the import.
      await seedDemoData(handle.db);
      await importFile(handle.db, 'books', BOOKS);
    }, 240_000);
    afterAll(async () => {
      await handle.close();
    });

    it('answers "something like The Hunger Games" without it or its editions', async () => {
      const seed = await handle.db
        .selectFrom('items')
        .select('id')
        .where('isbn', '=', '9780439023481')
        .executeTakeFirstOrThrow();
      const list = await recommend(handle.db, { like: seed.id });
      expect(list.length).toBeGreaterThan(0);
      expect(list.length).toBeLessThanOrEqual(RECOMMENDATIONS_MAX);
      expect(new Set(list.map(workKey)).size).toBe(list.length);
      for (const row of list) {
        expect(row.title).not.toMatch(/^The Hunger Games\b/);
        expect(row.reason).not.toBe('');
      }
      expect(list.slice(0, 2).map((row) => [row.title, row.reason])).toEqual([
        ['Catching Fire', 'Same author: Suzanne Collins; same series: The Hunger Games'],
        ['Mockingjay', 'Same author: Suzanne Collins; same series: The Hunger Games'],
      ]);
    });

    it('answers "something like Pride and Prejudice" from its work’s subjects too', async () => {
      // Goodbooks' edition has no subjects; the demo library's edition of the work says romance.
      const seed = await handle.db
        .selectFrom('items')
        .select('id')
        .where('source', '=', 'goodbooks')
        .where('title', '=', 'Pride and Prejudice')
        .executeTakeFirstOrThrow();
      const list = await recommend(handle.db, { like: seed.id });
      expect(list).toHaveLength(RECOMMENDATIONS_MAX);
      expect(new Set(list.map(workKey)).size).toBe(list.length);
      expect(list.filter((row) => row.reason === 'Same author: Jane Austen')).toHaveLength(3);
      expect(list.some((row) => /^Shares the subjects? .*romance/.test(row.reason))).toBe(true);
      expect(list.map((row) => row.title)).not.toContain('Pride and Prejudice');
    });

    it('answers "a classic romance" with classic romances, Pride and Prejudice first', async () => {
      const list = await recommend(handle.db, { topic: 'a classic romance novel' });
      expect(list.length).toBeLessThanOrEqual(RECOMMENDATIONS_MAX);
      expect(new Set(list.map(workKey)).size).toBe(list.length);
      expect(list[0]).toMatchObject({ title: 'Pride and Prejudice', authors: ['Jane Austen'] });
      // Goodbooks has no subjects: the demo library's catalogue says romance, goodbooks' ratings
      // of the same works rank them.
      expect(list.map((row) => row.title)).toContain('Jane Eyre');
      for (const row of list) {
        expect(row.reason).toMatch(/romance/i);
        expect(row.year).toBeLessThanOrEqual(1950);
      }
    });
  },
);
