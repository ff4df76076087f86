import { sql, type RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshSearchWords } from '../../catalogue/words.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { TestClient } from '../../test/http.ts';
import { searchAs } from '../../test/search.ts';

/** Issue 22: typo tolerance inside the search, ranking over every match, identifiers. */
describe.each(testDatabaseKinds())('search that forgives typos on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;

  const search = (query: string) => searchAs(guest, query);
  const titles = async (query: string) => (await search(query)).items.map((item) => item.title);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    const db = testApp.database.db;
    const book = (title: string, authors: string[], extra: object = {}) => ({
      kind: 'book' as const,
      title,
      authors,
      source: 'test',
      source_id: crypto.randomUUID(),
      ...extra,
    });
    await db
      .insertInto('items')
      .values([
        book('Wuthering Heights', ['Emily Brontë']),
        book('Withering Heights: A Parody', ['Anon Ymous']),
        book('The Lighthouse Keeper', ['Orla Quist']),
        book('Lighthouses of the World', ['Orla Quist']),
        book('Dune', ['Frank Herbert']),
        book('Done and Dusted', ['Mara Lind']),
        book('Catch-22', ['Joseph Heller'], { isbn: '9780684833392' }),
        book('Middlemarch', ['George Eliot'], { isbn: '9780141439549' }),
        {
          kind: 'paper' as const,
          title: 'Attention Is All You Need',
          authors: ['Ashish Vaswani'],
          source: 'test',
          source_id: crypto.randomUUID(),
          arxiv_id: '1706.03762',
        },
      ])
      .execute();
    // `count` books by one writer, titled by `title` (SQL over the number `g`), each described by
    // `description`.
    const many = (word: string, count: number, title: RawBuilder<string>, description: string) =>
      sql`
        INSERT INTO items (kind, title, authors, description, source, source_id)
        SELECT 'book', ${title}, ARRAY['A. Writer'], ${description}, 'test', ${word} || '-' || g
        FROM generate_series(1, ${count}::int) AS g
      `.execute(db);
    // Far more than the ranked limit mention 'history' somewhere, in table order before the one
    // titled exactly so: it must still come first.
    await many(
      'history',
      1100,
      sql`'Volume ' || g || ' of a Long History of Many Things'`,
      'A history.',
    );
    await db
      .insertInto('items')
      .values(book('History', ['Herodotus']))
      .execute();
    // More than are ranked mention 'gibbon' only in their descriptions, in table order before
    // the book by an author of that name.
    await many('gibbon', 300, sql`'Field Notebook ' || g`, 'Sightings of a gibbon.');
    await db
      .insertInto('items')
      .values(book('The Decline and Fall of the Roman Empire', ['Edward Gibbon']))
      .execute();
    // 'lemur': a page of titles, then more mentions than are ranked.
    await many(
      'lemur',
      330,
      sql`CASE WHEN g <= 30 THEN 'Lemur Diary ' || g ELSE 'Field Diary ' || g END`,
      'Sightings of a lemur.',
    );
    await refreshSearchWords(db);
  }, 120_000);
  afterAll(async () => testApp.close());

  it('finds a word with one mistake from 5 letters, and two from 9', async () => {
    expect((await titles('q=lighthuose keeper'))[0]).toBe('The Lighthouse Keeper');
    expect((await titles('q=midlemarhc'))[0]).toBe('Middlemarch');
    const corrected = await search('q=wutherign heights');
    expect(corrected.items[0]?.title).toBe('Wuthering Heights');
    expect(corrected.correctedQuery).toBe('wuthering heights');
  });

  it('corrects only swapped neighbours in a word of 4 letters, nothing shorter, and no number', async () => {
    const swapped = await search('q=dnue');
    expect(swapped.items[0]?.title).toBe('Dune');
    expect(swapped.correctedQuery).toBe('dune');
    // One letter wrong in four: too many words are that close to guess.
    expect((await search('q=dene')).total).toBe(0);
    expect((await search('q=dne')).total).toBe(0);
    // A number is not corrected: '23' is not read as '22'. (Catch-22 is still found by its
    // other word, as an item holding most of the words, and says so.)
    const number = await search('q=catch 23');
    expect(number.correctedQuery).toBeUndefined();
    expect(number.partialMatch).toBe(true);
  });

  it('ranks matches needing fewer corrections first', async () => {
    // 'withering' is a word of the catalogue: its own match comes before the corrected one.
    expect(await titles('q=withering heights')).toEqual(['Withering Heights: A Parody']);
    const both = await titles('q=wuthering heights');
    expect(both[0]).toBe('Wuthering Heights');
  });

  it('searches the words exactly as typed when asked', async () => {
    const exact = await search('q=lighthuose&exact=true');
    expect(exact.total).toBe(0);
    expect(exact.correctedQuery).toBeUndefined();
    expect(exact.suggestion).toBe('lighthouse');
  });

  it('puts an exact title first however many other items match the word', async () => {
    const history = await search('q=history');
    expect(history.totalCapped).toBe(true);
    expect(history.items[0]?.title).toBe('History');
  });

  it('ranks an author named by the query before items that only mention the word', async () => {
    // Its title and authors hold the word: a candidate wherever it sits in the table.
    const gibbon = await search('q=gibbon');
    expect(gibbon.total).toBe(301);
    expect(gibbon.items[0]?.title).toBe('The Decline and Fall of the Roman Empire');
  });

  it('pages a word search in one order, whatever the page size', async () => {
    // The first matches anywhere are ranked only for pages that reach past the title and
    // author matches (or never, when those are more than are ranked): pages cut either way
    // must still be one order, each match once.
    const read = async (q: string, total: number, size: number) => {
      const ids: string[] = [];
      for (let page = 1; page <= Math.ceil(total / size); page += 1) {
        const result = await search(`q=${q}&pageSize=${size}&page=${page}`);
        ids.push(...result.items.map((item) => `${item.title} / ${item.id}`));
      }
      return ids;
    };
    for (const [q, total] of [
      ['lemur', 330],
      ['history', 1000],
    ] as const) {
      const byFifty = await read(q, total, 50);
      expect(byFifty).toHaveLength(total);
      expect(new Set(byFifty).size).toBe(total);
      expect(await read(q, total, 20)).toEqual(byFifty);
    }
    // The titles first, then the other mentions, best ranked first.
    const lemurs = await read('lemur', 330, 20);
    expect(lemurs.slice(0, 30).every((item) => item.startsWith('Lemur Diary'))).toBe(true);
  });

  it('puts a title typed with its author first', async () => {
    expect((await titles('q=lighthouse keeper quist'))[0]).toBe('The Lighthouse Keeper');
    expect((await titles('q=world quist'))[0]).toBe('Lighthouses of the World');
  });

  it('answers every step of typing, a last word cut short included', async () => {
    for (const q of [
      'w',
      'wu',
      'wut',
      'wuth',
      'wuthe',
      'wuther',
      'wuthering h',
      'dune mess',
      'time mach',
    ]) {
      await search(`q=${encodeURIComponent(q)}`);
    }
    expect((await titles('q=wuthering hei'))[0]).toBe('Wuthering Heights');
  });

  it('finds a book by its ISBN with or without hyphens, and a paper by its arXiv id', async () => {
    for (const q of ['9780684833392', '978-0-684-83339-2', '0684833395']) {
      expect(await titles(`q=${q}`), q).toEqual(['Catch-22']);
    }
    for (const q of ['1706.03762', 'arXiv:1706.03762v5', 'arxiv:1706.03762']) {
      expect(await titles(`q=${encodeURIComponent(q)}`), q).toEqual(['Attention Is All You Need']);
    }
  });
});
