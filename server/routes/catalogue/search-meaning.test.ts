import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '#contract/http/catalogue.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import {
  handMadeEmbedder,
  insertItemWithMeaning,
  unitVector as unit,
  type ItemWithMeaning,
} from '../../test/embedder.ts';
import { TestClient } from '../../test/http.ts';

const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

/** What the queries mean, by hand: the first axis is machine learning, the second baking. */
const QUERY_MEANINGS = new Map<string, number[]>([
  ['brain inspired computing', unit(1, 0.05)],
  ['image recognition research', unit(1, 0.3)],
  ['neural networks', unit(1, 0)],
  ['bread', unit(0, 1)],
  // As near the learning items as any query: no word of it is in the catalogue, though.
  ['zzqx', unit(1, 0.05)],
]);

/**
 * The test's queries as an embedder (any starting "broken" fails): the items' vectors are written
 * by the test, so what is near is decided here, not by a model.
 */
const handMade = () =>
  handMadeEmbedder(QUERY_MEANINGS, { otherwise: unit(0, 0, 1), failsFor: /^broken/ });

type Made = ItemWithMeaning;

/**
 * Issue 23, hybrid ranking: the search route fuses the words' ranking with the items nearest the
 * query's meaning (reciprocal rank fusion), keeps a known item on top (and then asks nothing of
 * the model), and finds items holding most of the words when none holds them all.
 */
describe.each(testDatabaseKinds())('search by words and meaning on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  let embedder: ReturnType<typeof handMade>;

  async function make(item: Made): Promise<void> {
    await insertItemWithMeaning(testApp.database.db, embedder.model, 'meaning-test', item);
  }

  async function search(query: string): Promise<SearchResponse> {
    const response = await guest.get(`/api/search?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return searchResponseSchema.parse(response.json());
  }
  const titles = (answer: SearchResponse) => answer.items.map((item) => item.title);

  beforeAll(async () => {
    embedder = handMade();
    testApp = await createTestApp(kind, { embedder });
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    const items: Made[] = [
      {
        title: 'Convolutional Networks for Image Recognition',
        description: 'Deep learning with layers of artificial neurons.',
        embedding: unit(1, 0.1),
      },
      {
        title: 'Backpropagation Explained',
        description: 'How gradients train layered models.',
        embedding: unit(1, 0.2),
      },
      {
        title: 'Learning Representations',
        authors: ['Ada Quill'],
        description: 'Features learnt from data.',
        embedding: unit(1, 0.4),
      },
      { title: 'Neural Networks', kind: 'book', embedding: unit(1, 0, 0.6) },
      {
        title: 'Sourdough at Home',
        kind: 'book',
        description: 'Bread, starters and slow baking.',
        embedding: unit(0, 1),
      },
      { title: 'Rye and Spelt', kind: 'book', description: 'Baking with old grains.' },
      { title: 'A Recognition Survey', description: 'Image studies, old and new.' },
      // One word of "brain inspired computing", and no vector yet.
      { title: 'Computing Before Computers', kind: 'book' },
    ];
    for (const item of items) await make(item);
  }, 120_000);
  afterAll(async () => testApp.close());

  const meaningHere = (context: { skip: (note: string) => void }) => {
    if (!testApp.database.searchByMeaning.available && kind === 'postgres' && !CI) {
      context.skip('this PostgreSQL has no pgvector (scripts/install-pgvector.sh)');
    }
  };

  const BRAIN = [
    // The words' first (one word of three) and the meaning's first tie: the words' goes first.
    'Computing Before Computers',
    'Convolutional Networks for Image Recognition',
    'Backpropagation Explained',
    'Learning Representations',
    'Neural Networks',
  ];

  it('finds by meaning what no word of the query names, the nearest first', async (context) => {
    meaningHere(context);
    const answer = await search('q=brain%20inspired%20computing');
    expect(answer.byMeaning).toBe(true);
    expect(answer.partialMatch).toBe(true);
    expect(titles(answer)).toEqual(BRAIN);
    expect(answer.total).toBe(5);
    expect(answer.facets.type).toEqual({ book: 2, paper: 3, course: 0 });
    // Nothing about baking: too far to be called meant.
    expect(titles(answer)).not.toContain('Sourdough at Home');
  });

  it('ranks first what both the words and the meaning found', async (context) => {
    meaningHere(context);
    const answer = await search('q=image%20recognition%20research');
    // No item holds all three words: those holding two, fused with the nearest by meaning.
    expect(answer.partialMatch).toBe(true);
    expect(answer.byMeaning).toBe(true);
    expect(titles(answer)[0]).toBe('Convolutional Networks for Image Recognition');
    expect(titles(answer)).toContain('A Recognition Survey');
    expect(titles(answer)).toContain('Backpropagation Explained');
  });

  it('keeps a known item on top and then does not embed the query at all', async () => {
    embedder.calls.length = 0;
    const answer = await search('q=neural%20networks');
    expect(titles(answer)[0]).toBe('Neural Networks');
    expect(answer.byMeaning).toBeUndefined();
    expect(embedder.calls).toEqual([]);
  });

  it('takes an author and a title word for a known item: no meaning asked', async () => {
    embedder.calls.length = 0;
    const answer = await search('q=quill%20representations');
    expect(titles(answer)).toEqual(['Learning Representations']);
    expect(embedder.calls).toEqual([]);
  });

  it('keeps the filters and the type for items found by meaning', async (context) => {
    meaningHere(context);
    const books = await search('q=brain%20inspired%20computing&type=book');
    expect(titles(books)).toEqual(['Computing Before Computers', 'Neural Networks']);
    expect(books.total).toBe(2);
    const bread = await search('q=bread&type=book');
    expect(titles(bread)).toEqual(['Sourdough at Home']);
  });

  it('pages the fused list without showing an item twice', async (context) => {
    meaningHere(context);
    const first = await search('q=brain%20inspired%20computing&pageSize=2');
    const second = await search('q=brain%20inspired%20computing&pageSize=2&page=2');
    const third = await search('q=brain%20inspired%20computing&pageSize=2&page=3');
    expect([...titles(first), ...titles(second), ...titles(third)]).toEqual(BRAIN);
  });

  it('embeds a repeated query once', async (context) => {
    meaningHere(context);
    embedder.calls.length = 0;
    await search('q=Gradient%20Training');
    await search('q=gradient%20%20training&page=2');
    expect(embedder.calls).toEqual(['gradient training']);
  });

  it('offers nothing for nonsense, however near the nearest item is', async () => {
    embedder.calls.length = 0;
    const answer = await search('q=zzqx');
    expect(embedder.calls).toEqual([]);
    expect(answer.total).toBe(0);
    expect(answer.items).toEqual([]);
  });

  it('ranks by words alone when the query cannot be embedded', async () => {
    embedder.calls.length = 0;
    const answer = await search('q=broken%20computing');
    expect(embedder.calls).toEqual(['broken computing']);
    expect(titles(answer)).toEqual(['Computing Before Computers']);
    expect(answer.byMeaning).toBeUndefined();
  });

  it('ranks by words alone when sorted by year or title', async () => {
    const answer = await search('q=brain%20inspired%20computing&sort=year');
    expect(titles(answer)).toEqual(['Computing Before Computers']);
  });
});

/** With search by meaning turned off, the words alone: and "most words" still answer. */
describe.each(testDatabaseKinds())('search with SEMANTIC_SEARCH=false on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  const embedder = handMade();

  beforeAll(async () => {
    testApp = await createTestApp(kind, { embedder, env: { SEMANTIC_SEARCH: 'false' } });
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    await testApp.database.db
      .insertInto('items')
      .values(
        ['Deep Learning for Vision', 'Deep Sea Creatures', 'Learning to Bake'].map((title) => ({
          kind: 'book' as const,
          title,
          authors: [],
          subjects: [],
          source: 'meaning-off-test',
          source_id: title,
        })),
      )
      .execute();
  }, 120_000);
  afterAll(async () => testApp.close());

  it('finds the items with most of the words, the rarer words weighing more', async () => {
    const response = await guest.get('/api/search?q=deep%20learning%20vision%20research');
    expect(response.statusCode, response.body).toBe(200);
    const answer = searchResponseSchema.parse(response.json());
    expect(answer.partialMatch).toBe(true);
    expect(answer.byMeaning).toBeUndefined();
    expect(answer.items.map((item) => item.title)).toEqual(['Deep Learning for Vision']);
    expect(embedder.calls).toEqual([]);
  });
});
