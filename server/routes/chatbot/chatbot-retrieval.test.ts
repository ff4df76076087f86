import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatbotResponseSchema, type ChatbotResponse } from '#contract/http/chatbot.ts';
import { seedDemoData } from '../../db/seed.ts';
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
const ITEM_LINK = /^\/userprofile\/openlibrary\?item=[0-9a-f-]{36}$/;

/** What the test's topics mean, by hand: the first axis is machine learning, the second gothic. */
const QUERY_MEANINGS = new Map<string, number[]>([['brain inspired computing', unit(1, 0.05)]]);

/** The test's topics as an embedder: what is near is decided here, not by a model. */
const handMade = () => handMadeEmbedder(QUERY_MEANINGS, { otherwise: unit(0, 0, 0, 1) });

type Made = ItemWithMeaning;

async function make(testApp: TestApp, model: string, item: Made): Promise<void> {
  await insertItemWithMeaning(testApp.database.db, model, 'chatbot-test', item);
}

/** Items described in other words than the questions use, with vectors that say what they mean. */
const ITEMS: Made[] = [
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
    title: 'The Pale Tower',
    kind: 'book',
    authors: ['Iris Vane'],
    subjects: ['Gothic'],
    description: 'A ruined abbey, a storm and a secret.',
    embedding: unit(0, 1),
  },
  {
    title: 'Candles in the Crypt',
    kind: 'book',
    authors: ['Otto Marsh'],
    description: 'A family and the thing under its chapel.',
    embedding: unit(0, 1, 0.1),
  },
  { title: 'Moors at Midnight', kind: 'book', authors: ['Lena Holt'], subjects: ['gothic'] },
  // Another edition of The Pale Tower, whose editor is listed among its authors.
  { title: 'The Pale Tower (Annotated Edition)', kind: 'book', authors: ['Iris Vane', 'Ed Itor'] },
  { title: 'A Ghost Anthology', kind: 'book', authors: ['Ed Itor'] },
  { title: 'Knitting for Beginners', kind: 'book', embedding: unit(0, 0, 1) },
];

const ask = async (client: TestClient, prompt: string) => {
  const response = await client.post('/api/chat', { prompt, sessionId: 's-1', history: [] });
  expect(response.statusCode, response.body).toBe(200);
  return chatbotResponseSchema.parse(response.json());
};
const hrefs = (answer: ChatbotResponse) => answer.links.map((link) => link.href);

/**
 * Issue 23, the chatbot's retrieval: topic questions are searched by words and meaning (the
 * catalogue's hybrid search, the app's one embedder), and "something like X" finds X and lists
 * its related items with why. Without search by meaning, topics go by words and recommendations
 * by author and subject.
 */
describe.each(testDatabaseKinds())('the Digi Chatbot’s retrieval on %s', (kind) => {
  let testApp: TestApp;
  let embedder: ReturnType<typeof handMade>;
  const fresh = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    embedder = handMade();
    testApp = await createTestApp(kind, { embedder });
    await seedDemoData(testApp.database.db);
    for (const item of ITEMS) await make(testApp, embedder.model, item);
  }, 120_000);
  afterAll(async () => testApp.close());

  const meaningHere = (context: { skip: (note: string) => void }) => {
    if (!testApp.database.searchByMeaning.available && kind === 'postgres' && !CI) {
      context.skip('this PostgreSQL has no pgvector (scripts/install-pgvector.sh)');
    }
  };

  it('answers a topic by meaning: items no word of the question names', async (context) => {
    meaningHere(context);
    const answer = await ask(fresh(), 'research about brain inspired computing');
    expect(answer.response).toContain('Convolutional Networks for Image Recognition');
    expect(answer.response).toContain('Backpropagation Explained');
    expect(answer.response).not.toContain('Knitting');
    const titles = answer.links.filter((link) => ITEM_LINK.test(link.href)).map((l) => l.label);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Convolutional Networks for Image Recognition',
        'Backpropagation Explained',
      ]),
    );
    expect(embedder.calls).toContain('brain inspired computing');
  });

  it('looks a title up by words alone: no embedding for "who wrote"', async () => {
    const before = embedder.calls.length;
    const answer = await ask(fresh(), 'Who wrote Frankenstein?');
    expect(answer.response).toContain('Mary Wollstonecraft Shelley');
    expect(embedder.calls.length).toBe(before);
  });

  it('lists items like a title with why, the nearest by meaning first, never the title', async (context) => {
    meaningHere(context);
    const answer = await ask(fresh(), 'something like The Pale Tower');
    const [lead, ...lines] = answer.response.split('\n');
    expect(lead).toBe('If you liked “The Pale Tower” by Iris Vane, you might like:');
    expect(lines[0]).toBe('• “Candles in the Crypt” by Otto Marsh (Similar description)');
    // Then the demo's gothic novels, which share its subject.
    expect(lines.slice(1).some((line) => /\(Similar subject: [^)]*gothic/.test(line))).toBe(true);
    expect(answer.response).not.toContain('Knitting');
    // Neither an edition of the title, nor a book its edition's editor worked on.
    expect(lines.filter((line) => line.includes('The Pale Tower'))).toEqual([]);
    expect(answer.response).not.toContain('A Ghost Anthology');
    // The title's own link first, then one per item listed.
    expect(answer.links).toHaveLength(lines.length + 1);
    expect(answer.links[0]!.label).toBe('The Pale Tower');
    expect(hrefs(answer).every((href) => ITEM_LINK.test(href))).toBe(true);
  });

  it('recommends by author and subject without embeddings, merging the title’s editions', async () => {
    const wells = await ask(fresh(), 'more like The Time Machine');
    expect(wells.response).toMatch(/^If you liked “The Time Machine” by H\. G\. Wells/);
    expect(wells.response).toContain(
      '“The War of the Worlds” by H. G. Wells (1898) (Same author: H. G. Wells)',
    );
    expect(wells.response).not.toMatch(/\n• “The Time Machine”/);

    const frankenstein = await ask(fresh(), 'books similar to frankenstein');
    expect(frankenstein.response).toContain('Frankenstein; or, The Modern Prometheus');
    expect(frankenstein.response).toMatch(/\(Similar subject: [^)]*science fiction/);
    expect(frankenstein.links.length).toBeGreaterThan(1);
  });

  it('says when it cannot find the title, and where to go instead', async () => {
    const answer = await ask(fresh(), 'something like the quantum teapot chronicles');
    expect(answer.response).toMatch(/^I couldn’t find “the quantum teapot chronicles”/);
    expect(answer.response).not.toMatch(/Similar|Same author/);
    expect(hrefs(answer)).toEqual(['/userprofile/openlibrary', '/resourse-req']);
  });
});

describe('the Digi Chatbot’s retrieval with search by meaning turned off', () => {
  let testApp: TestApp;
  let embedder: ReturnType<typeof handMade>;
  const fresh = () => new TestClient(testApp.app, testApp.config.publicUrl);

  beforeAll(async () => {
    embedder = handMade();
    testApp = await createTestApp('pglite', { embedder, env: { SEMANTIC_SEARCH: 'false' } });
    for (const item of ITEMS) await make(testApp, embedder.model, item);
  }, 120_000);
  afterAll(async () => testApp.close());

  it('answers topics by words and recommendations by author and subject, embedding nothing', async () => {
    const byWords = await ask(fresh(), 'research about deep learning');
    expect(byWords.response).toContain('Convolutional Networks for Image Recognition');
    const described = await ask(fresh(), 'research about brain inspired computing');
    expect(described.response).not.toContain('Convolutional Networks');

    const like = await ask(fresh(), 'something like The Pale Tower');
    expect(like.response).toContain('“Moors at Midnight” by Lena Holt (Similar subject: gothic)');
    // Near by meaning, but nearness was not measured: not offered as similar.
    expect(like.response).not.toContain('Candles in the Crypt');
    expect(embedder.calls).toEqual([]);
  });
});
