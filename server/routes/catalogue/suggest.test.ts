import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suggestResponseSchema, type Suggestion } from '#contract/http/suggestions.ts';
import { matchedRanges } from '../../presenters/suggestions.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { registrationFactory } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const ITEMS = [
  { title: 'Harry Potter and the Chamber of Secrets', authors: ['J. K. Rowling'], year: 1998 },
  { title: "Harry Potter and the Sorcerer's Stone", authors: ['J. K. Rowling'], year: 1997 },
  { title: 'Harry', authors: ['Ann Short'], year: 2001 },
  { title: 'The Potter’s Field', authors: ['Ellis Peters'], year: 1989 },
  { title: 'Pottery for Beginners', authors: ['Harriet Maker'], year: 2010 },
  { title: 'Harmonic Analysis', authors: ['Elias Stein'], year: 1993 },
  { title: 'Hidden Harvest', authors: ['Rowan Harper'], year: 2015 },
  { title: 'Harbour Lights (withdrawn)', authors: ['Gone Author'], year: 2000, withdrawn: true },
];

describe.each(testDatabaseKinds())('suggestions on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  const ids = new Map<string, string>();

  const suggestions = async (query: string): Promise<Suggestion[]> => {
    const response = await guest.get(`/api/search/suggest?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return suggestResponseSchema.parse(response.json()).suggestions;
  };
  const texts = (list: Suggestion[], kind: Suggestion['kind']) =>
    list.filter((entry) => entry.kind === kind).map((entry) => entry.text);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    for (const [index, item] of ITEMS.entries()) {
      const row = await testApp.database.db
        .insertInto('items')
        .values({
          kind: 'book',
          title: item.title,
          authors: item.authors,
          year: item.year,
          source: 'test',
          source_id: `suggest-${index}`,
          withdrawn_at: item.withdrawn ? new Date() : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(item.title, row.id);
    }
  });
  afterAll(async () => testApp.close());

  it('suggests titles that start with two letters, shorter titles first, opening their item', async () => {
    const found = await suggestions('q=ha');
    expect(texts(found, 'title')).toEqual([
      'Harry',
      'Harmonic Analysis',
      "Harry Potter and the Sorcerer's Stone",
      'Harry Potter and the Chamber of Secrets',
    ]);
    // Two letters: no later words and no authors yet.
    expect(texts(found, 'author')).toEqual([]);
    expect(found[0]).toEqual({
      kind: 'title',
      text: 'Harry',
      itemId: ids.get('Harry'),
      itemType: 'book',
      detail: 'Ann Short, 2001',
      matched: [[0, 2]],
    });
  });

  it('ranks a whole-title prefix before a later word, and finds authors by any name word', async () => {
    const found = await suggestions('q=Pott');
    expect(texts(found, 'title')).toEqual([
      'Pottery for Beginners',
      'The Potter’s Field',
      "Harry Potter and the Sorcerer's Stone",
      'Harry Potter and the Chamber of Secrets',
    ]);
    expect(found.find((entry) => entry.text === 'The Potter’s Field')?.matched).toEqual([[4, 8]]);

    const authors = texts(await suggestions('q=row'), 'author');
    // The surname first, then a first name.
    expect(authors).toEqual(['J. K. Rowling', 'Rowan Harper']);
  });

  it('matches several typed words, ignoring case and punctuation', async () => {
    const found = await suggestions('q=harry%20POTTER%20and%20the%20s');
    expect(texts(found, 'title')).toEqual(["Harry Potter and the Sorcerer's Stone"]);
    expect(found[0]?.matched).toEqual([
      [0, 5],
      [6, 12],
      [13, 16],
      [17, 20],
      [21, 22],
    ]);
  });

  it('never suggests a withdrawn item or its authors', async () => {
    const found = await suggestions('q=harbour');
    expect(found).toEqual([]);
    expect(texts(await suggestions('q=gone'), 'author')).toEqual([]);
  });

  it('keeps to the limit, authors at most a third while titles fill the rest', async () => {
    const found = await suggestions('q=har&limit=3');
    expect(found).toHaveLength(3);
    expect(found.map((entry) => entry.kind)).toEqual(['title', 'title', 'author']);
    expect(await suggestions('q=zzzz')).toEqual([]);
    // Punctuation alone keys to nothing: an empty answer, not an error.
    expect(await suggestions('q=%21%21%21')).toEqual([]);
  });

  it.each([
    ['q=h', 'Type at least 2 characters'],
    ['q=%20h%20', 'Type at least 2 characters'],
    ['', 'Type at least 2 characters'],
    [`q=${'a'.repeat(101)}`, 'The text is too long (100 characters at most)'],
    ['q=harry&limit=11', 'limit is at most 10'],
    ['q=harry&limit=0', 'limit is at least 1'],
    ['q=harry&limit=many', 'limit must be a number'],
  ])('refuses %s with a 400', async (query, message) => {
    const response = await guest.get(`/api/search/suggest?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(message);
  });

  it('answers a signed-in student as it answers a guest', async () => {
    const student = new TestClient(testApp.app, testApp.config.publicUrl);
    await student.post('/api/users/register', registrationFactory());
    const response = await student.get('/api/search/suggest?q=hidden');
    expect(response.statusCode).toBe(200);
    expect(texts(suggestResponseSchema.parse(response.json()).suggestions, 'title')).toEqual([
      'Hidden Harvest',
    ]);
  });
});

describe('matchedRanges', () => {
  it('marks the first run of words the typed words start', () => {
    expect(matchedRanges('The Lord of the Rings', ['lord', 'of'])).toEqual([
      [4, 8],
      [9, 11],
    ]);
    expect(matchedRanges('Élan Vital', ['éla'])).toEqual([[0, 3]]);
    expect(matchedRanges('Something else', ['xyz'])).toEqual([]);
    expect(matchedRanges('anything', [])).toEqual([]);
  });
});
