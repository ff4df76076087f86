import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relatedItemsSchema, type RelatedItems } from '#contract/http/catalogue.ts';
import { NO_SUCH_ITEM } from '../../catalogue/items.ts';
import { nearestStatement } from '../../catalogue/related.ts';
import { VECTOR_INDEX } from '../../db/vector.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import {
  insertItemWithMeaning,
  TEST_EMBEDDING_MODEL,
  unitVector as unit,
  type ItemWithMeaning,
} from '../../test/embedder.ts';
import { TestClient } from '../../test/http.ts';

const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

interface Made extends ItemWithMeaning {
  /** The app's embedder's model unless given. */
  model?: string;
}

/**
 * Issue 23, "More like this": nearest neighbours by hand-made unit vectors first, an author's other
 * items among them (never more than three), shared subjects after; withdrawn items and the item
 * itself never; without search by meaning or an embedding, authors and subjects only.
 */
describe.each(testDatabaseKinds())('GET /api/items/:id/related on %s', (kind) => {
  let testApp: TestApp;
  let guest: TestClient;
  const ids = new Map<string, string>();
  const id = (title: string) => ids.get(title)!;

  async function make(item: Made): Promise<void> {
    const { model, ...made } = item;
    ids.set(
      item.title,
      await insertItemWithMeaning(
        testApp.database.db,
        model ?? TEST_EMBEDDING_MODEL,
        'related-test',
        {
          kind: 'book',
          ...made,
        },
      ),
    );
  }

  async function related(title: string): Promise<RelatedItems> {
    const response = await guest.get(`/api/items/${id(title)}/related`);
    expect(response.statusCode, response.body).toBe(200);
    return relatedItemsSchema.parse(response.json());
  }
  const listed = (answer: RelatedItems) => answer.items.map((item) => [item.title, item.reason]);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    guest = new TestClient(testApp.app, testApp.config.publicUrl);
    const about = 'Tides, currents and the deep sea.';
    const items: Made[] = [
      {
        title: 'Ocean Currents',
        authors: ['Ada Quill'],
        subjects: ['Oceans'],
        description: about,
        embedding: unit(1, 0),
      },
      { title: 'Nearest paper', kind: 'paper', description: about, embedding: unit(1, 0.1) },
      { title: 'Withdrawn twin', description: about, embedding: unit(1, 0.01), withdrawn: true },
      { title: 'Second nearest', description: about, embedding: unit(1, 0.2) },
      { title: 'Third nearest', description: about, embedding: unit(1, 0.3) },
      { title: 'Fourth nearest', description: about, embedding: unit(1, 0.4) },
      { title: 'Fifth nearest', description: about, embedding: unit(1, 0.5) },
      { title: 'Sixth nearest', description: about, embedding: unit(1, 0.6) },
      // Nearest of all, but by another model: vectors of two models are never compared.
      {
        title: 'Another model’s twin',
        description: about,
        embedding: unit(1, 0.05),
        model: 'another-model',
      },
      // Nothing alike: at a right angle, a cosine distance of 1.
      { title: 'Unrelated', description: 'Knitting patterns.', embedding: unit(0, 1) },
      // Same author, ignoring case, and far by meaning: listed for the author alone.
      { title: 'Quill on Rivers', authors: ['ADA QUILL'], embedding: unit(0, 0, 1) },
      { title: 'Quill on Lakes', authors: ['ada quill'] },
      { title: 'Sea Shanties', subjects: ['oceans'] },
      // No embedding yet: answered by author and subject.
      { title: 'Printing Presses', authors: ['Ben Nib'], subjects: ['Printing'] },
      ...['One', 'Two', 'Three', 'Four', 'Five'].map((n) => ({
        title: `Nib ${n}`,
        authors: ['Ben Nib', 'Someone Else'],
      })),
      { title: 'Type Founding', subjects: ['printing'] },
      { title: 'Old Inks', subjects: ['Printing', 'Inks'], withdrawn: true },
    ];
    for (const item of items) await make(item);
  }, 120_000);
  afterAll(async () => testApp.close());

  it('lists the nearest first, an author’s other items high, at most 6, none withdrawn, not itself', async (context) => {
    if (!testApp.database.searchByMeaning.available && kind === 'postgres' && !CI) {
      context.skip('this PostgreSQL has no pgvector (scripts/install-pgvector.sh)');
    }
    const answer = await related('Ocean Currents');
    expect(answer.byMeaning).toBe(true);
    expect(listed(answer)).toEqual([
      ['Nearest paper', 'Similar abstract'],
      ['Quill on Lakes', 'Same author'],
      ['Second nearest', 'Similar description'],
      ['Quill on Rivers', 'Same author'],
      ['Third nearest', 'Similar description'],
      ['Fourth nearest', 'Similar description'],
    ]);
    // The neighbours come through the HNSW index: a handful of rows are cheaper to sort, so the
    // sequential scan is forbidden to see whether the index matches the statement at all.
    await testApp.database.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const statement = nearestStatement(id('Ocean Currents'), unit(1, 0), TEST_EMBEDDING_MODEL);
      const plan = await sql<Record<string, string>>`EXPLAIN ${statement}`.execute(trx);
      expect(plan.rows.map((row) => Object.values(row)[0]).join('\n')).toContain(
        `Index Scan using ${VECTOR_INDEX} on item_embeddings`,
      );
    });
    // Cards as the search results show them.
    expect(answer.items[0]).toMatchObject({
      id: id('Nearest paper'),
      type: 'paper',
      authors: [],
      hasContent: false,
    });
  });

  it('answers from authors and subjects alone when search by meaning is off', async () => {
    const before = testApp.database.searchByMeaning;
    testApp.database.searchByMeaning = { available: false, reason: 'Off for this test.' };
    try {
      const answer = await related('Ocean Currents');
      expect(answer.byMeaning).toBe(false);
      expect(listed(answer)).toEqual([
        ['Quill on Lakes', 'Same author'],
        ['Quill on Rivers', 'Same author'],
        ['Sea Shanties', 'Similar subject'],
      ]);
    } finally {
      testApp.database.searchByMeaning = before;
    }
  });

  it('answers from authors and subjects for an item not embedded yet, three by one author at most', async () => {
    const answer = await related('Printing Presses');
    expect(answer.byMeaning).toBe(false);
    expect(answer.items).toHaveLength(4);
    expect(answer.items.filter((item) => item.reason === 'Same author')).toHaveLength(3);
    expect(answer.items.at(-1)).toMatchObject({
      title: 'Type Founding',
      reason: 'Similar subject',
    });
    expect(listed(answer).map(([title]) => title)).not.toContain('Old Inks');
  });

  it('is a 404 for an unknown or withdrawn item and a 400 for a malformed id', async () => {
    for (const missing of [crypto.randomUUID(), id('Withdrawn twin')]) {
      const response = await guest.get(`/api/items/${missing}/related`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, message: NO_SUCH_ITEM });
    }
    const malformed = await guest.get('/api/items/not-an-id/related');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({
      success: false,
      errors: [{ path: 'id', message: 'id must be an item id (a UUID)' }],
    });
  });
});
