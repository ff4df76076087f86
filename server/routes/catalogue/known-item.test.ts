import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountCirculation } from '../../catalogue/popularity.ts';
import { refreshSearchWords } from '../../catalogue/words.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson } from '../../test/factories.ts';
import { searchAs } from '../../test/search.ts';
import { TestClient } from '../../test/http.ts';

/**
 * Issue 22, second part: a book typed the way people remember it comes first. Titles read as
 * typed (apostrophes joined, marks as spaces), the title exactly as typed before one that only
 * stems alike, titles of stop words alone, slips of stop words, fewer mistakes first, a whole
 * word before a prefix, and popularity for ties.
 */
describe.each(testDatabaseKinds())('known-item search on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  const ids = new Map<string, string>();

  const search = (q: string) => searchAs(guest, `q=${encodeURIComponent(q)}`);
  const first = async (q: string) => {
    const item = (await search(q)).items[0];
    return item ? `${item.title} / ${item.authors[0] ?? ''}` : undefined;
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    const books: [string, string, number | null][] = [
      ["Who's Afraid of Virginia Woolf?", 'Edward Albee', 500],
      ['D.N.Angel, Vol. 1', 'Yukiru Sugisaki', 40],
      ['The Collected Poems', 'Sylvia Plath', 30],
      ['Collected Poems', 'Dylan Thomas', 9000],
      ['Rules', 'Cynthia Lord', 20],
      ['Rule', 'Jay Crownover', 8000],
      ['This Is How You Lose Her', 'Junot Díaz', 100],
      ['Losing It', 'Cora Carmack', 7000],
      ['It', 'Stephen King', 400_000],
      ['It Ends with Us', 'Colleen Hoover', 300_000],
      ['Me Before You', 'Jojo Moyes', 600_000],
      ['Once', 'Morris Gleitzman', 11_000],
      ['Once', 'Anna Carey', 15_000],
      ['A Modest Proposal and Other Satirical Works', 'Jonathan Swift', 900],
      ['Legend', 'David Gemmell', 18_000],
      ['Legend', 'Marie Lu', 300_000],
      ['Run for Your Life', 'James Patterson', 20],
      ['Lifeguard', 'James Patterson', 9000],
      ['Rumour Has It', 'Jill Mansell', 50],
      ['Rumors', 'Anna Godbersen', 40_000],
      ['حوجن [H\u0323awjan]', 'Ibraheem Abbas', 10],
      ['Kitchen Confidential', 'Anthony Bourdain', null],
      ['Kitchen Garden', 'Ada Quill', null],
    ];
    for (const [title, author, ratings] of books) {
      const row = await testApp.database.db
        .insertInto('items')
        .values({
          kind: 'book',
          title,
          authors: [author],
          ratings_count: ratings,
          source: 'test',
          source_id: crypto.randomUUID(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(`${title} / ${author}`, row.id);
    }
    await refreshSearchWords(testApp.database.db);
  }, 120_000);
  afterAll(async () => testApp.close());

  it('reads a title as typed: apostrophes join a word, other marks are spaces', async () => {
    for (const q of ['whos afraid of virginia woolf', "Who's Afraid of Virginia Woolf?"]) {
      expect(await first(q), q).toBe("Who's Afraid of Virginia Woolf? / Edward Albee");
    }
    for (const q of ['D.N.Angel, Vol. 1', 'd n angel vol 1', 'd.n. angel']) {
      expect(await first(q), q).toBe('D.N.Angel, Vol. 1 / Yukiru Sugisaki');
    }
  });

  it('puts the title exactly as typed before one whose words only stem alike', async () => {
    expect(await first('The Collected Poems')).toBe('The Collected Poems / Sylvia Plath');
    expect(await first('collected poems')).toBe('Collected Poems / Dylan Thomas');
    expect(await first('Rules')).toBe('Rules / Cynthia Lord');
    expect(await first('rule')).toBe('Rule / Jay Crownover');
    // All its words but 'lose' are stop words: 'Losing It' stems to the same one.
    expect(await first('This Is How You Lose Her')).toBe('This Is How You Lose Her / Junot Díaz');
  });

  it('finds a title of stop words alone by its words, the more popular of two first', async () => {
    expect(await first('It')).toBe('It / Stephen King');
    expect(await first('me before you')).toBe('Me Before You / Jojo Moyes');
    const once = await search('once');
    expect(once.items.map((item) => item.authors[0])).toEqual(['Anna Carey', 'Morris Gleitzman']);
    expect(once.total).toBe(2);
    expect(once.facets.type.book).toBe(2);
  });

  it('reads a slip of a stop word as that word, and says so', async () => {
    const modest = await search('A Modest Proposal and Otehr Satirical Works');
    expect(modest.items[0]?.title).toBe('A Modest Proposal and Other Satirical Works');
    expect(modest.correctedQuery).toBe('a modest proposal and other satirical works');
    const once = await search('nOce');
    expect(once.items[0]?.title).toBe('Once');
    expect(once.correctedQuery).toBe('once');
  });

  it('breaks ties between equally good matches by popularity', async () => {
    expect(await first('Legend')).toBe('Legend / Marie Lu');
    expect(await first('legned')).toBe('Legend / Marie Lu');
  });

  it('counts circulation here as popularity too, once recounted', async () => {
    // Neither has ratings: the title decides, until one is reserved.
    expect(await first('kitchen')).toBe('Kitchen Confidential / Anthony Bourdain');
    const reader = await signedInPerson(testApp);
    await sql`
      INSERT INTO reservations (user_id, item_id, pickup_date, time_slot, slot_starts_at, expires_at, status)
      VALUES (${reader.id}, ${ids.get('Kitchen Garden / Ada Quill')!}, '2026-01-05',
              '10:00 AM', '2026-01-05T10:00:00Z', '2026-01-06T10:00:00Z', 'returned')
    `.execute(testApp.database.db);
    expect(await recountCirculation(testApp.database.db)).toBe(1);
    expect(await recountCirculation(testApp.database.db)).toBe(0);
    expect(await first('kitchen')).toBe('Kitchen Garden / Ada Quill');
  });

  it('puts a whole word before a prefix of a longer one', async () => {
    expect(await first('patterson life')).toBe('Run for Your Life / James Patterson');
    expect(await first('patterson lifeg')).toBe('Lifeguard / James Patterson');
  });

  it('offers the title each correction of a word stands for, not only the commonest', async () => {
    // 'rumuor' is one mistake from 'rumour' and from 'rumor' (Rumors, the commoner word).
    const found = await search('Rumuor Has It');
    expect(found.items[0]?.title).toBe('Rumour Has It');
  });

  it('keeps accents that are separate marks with their letters', async () => {
    // H followed by a combining dot below, as the record spells it: one word, not 'h' + 'awjan'.
    expect(await first('H\u0323awjan')).toBe('حوجن [H\u0323awjan] / Ibraheem Abbas');
    expect(await first('حوجن')).toBe('حوجن [H\u0323awjan] / Ibraheem Abbas');
  });
});
