import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pino from 'pino';
import type { DatabaseHandle } from '../db/client.ts';
import { JOB_SCHEMA } from '../jobs/queue.ts';
import {
  prepareVectorSearch,
  SEARCH_BY_MEANING_TURNED_OFF,
  searchByMeaningWarning,
} from '../db/vector.ts';
import { startJobQueue } from '../jobs/queue.ts';
import { presentHealth } from '../presenters/health.ts';
import { createTestApp } from '../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import { createTestEmbedder, TEST_EMBEDDING_MODEL } from '../test/embedder.ts';
import { signedInPerson } from '../test/factories.ts';
import {
  EMBED_ITEMS_JOB,
  embedItems,
  embedItemsJob,
  embeddingProgress as progressOf,
  queueItemEmbedding,
  type EmbedItemsResult,
} from './embed-items.ts';
import { healthResponseSchema } from '#contract/http/health.ts';
import { relatedItemsSchema } from '#contract/http/catalogue.ts';
import { managedItemSchema } from '#contract/http/items.ts';
import type { Embedder } from './embedder.ts';
import { embeddingText, textHash } from './item-text.ts';

const silent = { info: () => {}, warn: () => {} };
const FIXTURES = path.join(import.meta.dirname, '..', 'catalogue', 'import', 'fixtures');

// The pipeline, not meaning, is tested here: the test embedder stands in for the model, whose
// meaning server/embeddings/embedder.test.ts tests.
const embedder = createTestEmbedder();
/** Progress in the test embedder's vectors. */
const embeddingProgress = (db: DatabaseHandle['db']) => progressOf(db, TEST_EMBEDDING_MODEL);

describe.each(testDatabaseKinds())('embedding the catalogue on %s', (kind) => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await openTestDatabase(kind);
  });
  afterEach(() => handle.close());

  const run = (
    options: { batchSize?: number; scanWindow?: number; stopping?: () => boolean } = {},
  ) => embedItems(handle, { embedder, log: silent, ...options });

  async function addItem(
    title: string,
    fields: {
      authors?: string[];
      subjects?: string[];
      description?: string;
      id?: string;
      updated_at?: Date;
    } = {},
  ): Promise<string> {
    const { id } = await handle.db
      .insertInto('items')
      .values({
        kind: 'book',
        title,
        authors: [],
        source: 'embed-test',
        source_id: title,
        ...fields,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async function stored() {
    const rows = await handle.db
      .selectFrom('item_embeddings as e')
      .innerJoin('items as i', 'i.id', 'e.item_id')
      .select([
        'e.item_id',
        'e.model',
        'e.text_hash',
        'e.embedding',
        'e.embedded_at',
        'i.updated_at',
      ])
      .execute();
    return new Map(rows.map((row) => [row.item_id, row]));
  }

  const nothing: Omit<EmbedItemsResult, 'skipped'> = {
    embedded: 0,
    refreshed: 0,
    unfinished: false,
  };

  it('embeds every item, 512 unit numbers with the model and the hash of its text, then nothing', async () => {
    const ids = [
      await addItem('Pride and Prejudice', { authors: ['Jane Austen'], subjects: ['Courtship'] }),
      await addItem('A Brief History of Time', { description: 'Black holes and the big bang.' }),
      await addItem('Gardening for beginners'),
    ];
    // A held book's text: its first page is embedded with its fields.
    await handle.db
      .insertInto('item_pages')
      .values([
        { item_id: ids[2]!, page_number: 1, content: 'Tomatoes want sun and water.' },
        { item_id: ids[2]!, page_number: 2, content: 'Never embedded.' },
      ])
      .execute();
    await handle.db.updateTable('items').set({ page_count: 2 }).where('id', '=', ids[2]!).execute();

    // Batches of two, windows of two ids: the keyset walks on past the first batch and window.
    expect(await run({ batchSize: 2, scanWindow: 2 })).toEqual({
      ...nothing,
      embedded: 3,
      skipped: 0,
    });
    const rows = await stored();
    expect(rows.size).toBe(3);
    for (const row of rows.values()) {
      expect(row.model).toBe(TEST_EMBEDDING_MODEL);
      expect(row.embedding).toHaveLength(512);
      expect(Math.hypot(...row.embedding)).toBeCloseTo(1, 4);
      // The marker is the item's own `updated_at`, to the microsecond.
      expect(row.embedded_at.getTime()).toBe(row.updated_at.getTime());
    }
    const garden = embeddingText(
      { title: 'Gardening for beginners', authors: [], subjects: [], description: null },
      ['Tomatoes want sun and water.'],
    );
    expect(rows.get(ids[2]!)?.text_hash).toBe(textHash(garden, TEST_EMBEDDING_MODEL));

    expect(await run()).toEqual({ ...nothing, skipped: 0 });
    expect(await embeddingProgress(handle.db)).toEqual({ embedded: 3, total: 3 });
  });

  it('embeds again only the item whose text changed, and keeps the vector of one whose text did not', async () => {
    const [first, second] = [await addItem('Moby Dick'), await addItem('War and Peace')];
    await run();
    const before = await stored();

    // As editItem does (server/catalogue/editing.ts): the change bumps `updated_at`.
    await handle.db
      .updateTable('items')
      .set({ title: 'Moby-Dick; or, The Whale', updated_at: new Date() })
      .where('id', '=', first)
      .execute();
    expect(await run()).toEqual({ ...nothing, embedded: 1, skipped: 0 });
    const after = await stored();
    expect(after.get(first)?.text_hash).not.toBe(before.get(first)?.text_hash);
    expect(after.get(first)?.embedding).not.toEqual(before.get(first)?.embedding);
    expect(after.get(second)).toEqual(before.get(second));

    // A year changes no embedded word: only the marker moves, by the database's clock this time.
    await handle.db
      .updateTable('items')
      .set({ year: 1869, updated_at: new Date(Date.now() + 1) })
      .where('id', '=', second)
      .execute();
    expect(await run()).toEqual({ ...nothing, refreshed: 1, skipped: 0 });
    expect((await stored()).get(second)?.embedding).toEqual(before.get(second)?.embedding);
    expect(await run()).toEqual({ ...nothing, skipped: 0 });
  });

  it('forgets a deleted item, and skips an item with no text without reading it again and again', async () => {
    const gone = await addItem('Ulysses');
    await addItem('Dubliners');
    // A title of spaces and nothing else: nothing to embed.
    const blank = await addItem('   ');
    await run();
    await handle.db.deleteFrom('items').where('id', '=', gone).execute();
    const rows = await stored();
    expect(rows.size).toBe(1);
    expect(rows.has(blank)).toBe(false);
    // Each run passes it once and ends.
    expect(await run({ batchSize: 1 })).toEqual({ ...nothing, skipped: 1 });
    expect(await run({ batchSize: 1, scanWindow: 1 })).toEqual({ ...nothing, skipped: 1 });
    // It counts in the total (embeddingProgress says why): one of two ready.
    expect(await embeddingProgress(handle.db)).toEqual({ embedded: 1, total: 2 });

    // An item whose text is emptied loses its vector.
    await handle.db
      .updateTable('items')
      .set({ title: ' ', updated_at: new Date() })
      .where('title', '=', 'Dubliners')
      .execute();
    await run();
    expect((await stored()).size).toBe(0);
  });

  it('stops between batches when the server is stopping, and goes on from the table next time', async () => {
    for (const title of ['Emma', 'Persuasion', 'Sense and Sensibility']) await addItem(title);
    let stop = false;
    // The server begins stopping once the first batch's vectors are back.
    const stopsAfterOne: Embedder = {
      ...embedder,
      embed: async (texts) => {
        const vectors = await embedder.embed(texts);
        stop = true;
        return vectors;
      },
    };
    const first = await embedItems(handle, {
      embedder: stopsAfterOne,
      batchSize: 1,
      stopping: () => stop,
    });
    expect(first).toEqual({ embedded: 1, refreshed: 0, skipped: 0, unfinished: true });
    expect(await embeddingProgress(handle.db)).toEqual({ embedded: 1, total: 3 });
    expect(await run()).toEqual({ ...nothing, embedded: 2, skipped: 0 });
    expect(await embeddingProgress(handle.db)).toEqual({ embedded: 3, total: 3 });

    // A model that takes long is not waited for once the server is stopping.
    await handle.db
      .updateTable('items')
      .set({ title: 'Mansfield Park', updated_at: new Date() })
      .where('title', '=', 'Emma')
      .execute();
    const stuck: Embedder = { ...embedder, embed: () => new Promise(() => {}) };
    const started = performance.now();
    setTimeout(() => (stop = true), 50);
    stop = false;
    const given = await embedItems(handle, { embedder: stuck, stopping: () => stop });
    expect(given).toEqual({ embedded: 0, refreshed: 0, skipped: 0, unfinished: true });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  describe('new items first', () => {
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    /** Ids in the order the walk by id takes them. */
    const idOf = (digit: string) =>
      `${digit.repeat(8)}-${digit.repeat(4)}-4${digit.repeat(3)}-a${digit.repeat(3)}-${digit.repeat(12)}`;
    /** The test embedder, noting the title of every text it is asked for, in order. */
    function recording(onEmbed: (titles: string[]) => void | Promise<void> = () => {}) {
      const titles: string[] = [];
      const wrapped: Embedder = {
        ...embedder,
        embed: async (texts) => {
          const vectors = await embedder.embed(texts);
          const these = texts.map((text) => text.split('.')[0]!);
          titles.push(...these);
          await onEmbed(these);
          return vectors;
        },
      };
      return { titles, embedder: wrapped };
    }

    /** Three items last changed two hours ago, their ids first in the walk. */
    async function olderCatalogue() {
      await addItem('Emma', { id: idOf('1'), updated_at: ago(120) });
      await addItem('Persuasion', { id: idOf('2'), updated_at: ago(120) });
      await addItem('Sense and Sensibility', { id: idOf('3'), updated_at: ago(120) });
    }

    it('embeds the items added or changed in the last hour newest first, then walks the rest by id', async () => {
      await olderCatalogue();
      await addItem('Attention Is All You Need', { id: idOf('e'), updated_at: ago(10) });
      // The newest, its id the walk's last.
      const newest = await addItem('Deep Residual Learning', { id: idOf('f') });
      // An older item retitled five minutes ago counts as new.
      await handle.db
        .updateTable('items')
        .set({ title: 'Persuasion Revisited', updated_at: ago(5) })
        .where('id', '=', idOf('2'))
        .execute();

      // A run of one batch of one (a run whose budget ends there) embeds the newest item.
      let stop = false;
      const first = recording(() => {
        stop = true;
      });
      expect(
        await embedItems(handle, { embedder: first.embedder, batchSize: 1, stopping: () => stop }),
      ).toEqual({ embedded: 1, refreshed: 0, skipped: 0, unfinished: true });
      expect([...(await stored()).keys()]).toEqual([newest]);

      const rest = recording();
      expect(await embedItems(handle, { embedder: rest.embedder, batchSize: 1 })).toEqual({
        ...nothing,
        embedded: 4,
        skipped: 0,
      });
      expect(rest.titles).toEqual([
        'Persuasion Revisited',
        'Attention Is All You Need',
        'Emma',
        'Sense and Sensibility',
      ]);
      expect(await embeddingProgress(handle.db)).toEqual({ embedded: 5, total: 5 });
    });

    it('embeds an item added while the walk runs before the walk goes on', async () => {
      await olderCatalogue();
      let added = false;
      const { titles, embedder: adding } = recording(async () => {
        if (added) return;
        added = true;
        await addItem('Generative Adversarial Networks', { id: idOf('f') });
      });
      expect(
        await embedItems(handle, { embedder: adding, batchSize: 1, recheckMs: 0, log: silent }),
      ).toEqual({ ...nothing, embedded: 4, skipped: 0 });
      expect(titles).toEqual([
        'Emma',
        'Generative Adversarial Networks',
        'Persuasion',
        'Sense and Sensibility',
      ]);
    });

    it('tries a new item the model refuses, or one with no text, once a run, and ends', async () => {
      await olderCatalogue();
      await addItem('Refused by the model', { id: idOf('a') });
      await addItem('Accepted by the model', { id: idOf('b') });
      // A title of spaces: nothing to embed.
      await addItem('   ', { id: idOf('c') });
      const asked: string[][] = [];
      const refusing: Embedder = {
        ...embedder,
        embed: async (texts) => {
          asked.push([...texts]);
          if (texts.some((text) => text.startsWith('Refused'))) throw new Error('refused');
          return embedder.embed(texts);
        },
      };
      expect(
        await embedItems(handle, { embedder: refusing, batchSize: 3, recheckMs: 0, log: silent }),
      ).toEqual({ ...nothing, embedded: 4, skipped: 2 });
      // The new items' batch, each of its two texts alone, then the older items' batch: the walk
      // passes by the two new items still out of date.
      expect(asked).toHaveLength(4);
      expect(asked[3]).toEqual(['Emma.', 'Persuasion.', 'Sense and Sensibility.']);
    });

    it('finds the newest items by an index, however large the catalogue', async () => {
      const { rows } = await handle.executeSql(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'items' AND indexname = $1`,
        ['items_updated_idx'],
      );
      expect(rows).toEqual([{ indexdef: expect.stringContaining('(updated_at)') }]);
    });
  });

  it('does nothing where search by meaning is off', async () => {
    await addItem('Middlemarch');
    await prepareVectorSearch(handle, { availableExtensions: [] });
    expect(handle.searchByMeaning.available).toBe(false);
    expect(await run()).toEqual({ ...nothing, skipped: 0 });
    expect((await stored()).size).toBe(0);
  });

  it('runs as a job from the queue, one at a time, and health shows the progress', async () => {
    const log = pino({ level: 'silent' });
    await addItem('The Origin of Species');
    await addItem('The Voyage of the Beagle');
    const jobs = startJobQueue(
      handle,
      [embedItemsJob({ database: handle, log, embedder, requeue: async () => {} })],
      log,
    );
    try {
      await queueItemEmbedding({ jobs, database: handle });
      // A second send while the first waits or runs queues nothing (the 'stately' policy).
      await queueItemEmbedding({ jobs, database: handle });
      await expect
        .poll(() => embeddingProgress(handle.db), { timeout: 20_000, interval: 200 })
        .toEqual({ embedded: 2, total: 2 });
    } finally {
      await jobs.stop();
    }
    expect(presentHealth(kind, { available: true }, { embedded: 2, total: 2 })).toMatchObject({
      searchByMeaning: { available: true, embedded: 2, total: 2 },
    });
  });

  it('embeds an item a librarian adds or retitles, in the background, and health counts it', async () => {
    // The server's own job, with the app's embedder (the test one): as in production.
    const testApp = await createTestApp(kind);
    try {
      const librarian = await signedInPerson(testApp, 'librarian');
      const created = await librarian.client.post('/api/items', {
        type: 'book',
        title: 'The Waves',
        authors: ['Virginia Woolf'],
      });
      expect(created.statusCode).toBe(201);
      const { id } = managedItemSchema.parse(created.json());
      const hashOf = async () =>
        (
          await testApp.database.db
            .selectFrom('item_embeddings')
            .select('text_hash')
            .where('item_id', '=', id)
            .executeTakeFirst()
        )?.text_hash;
      await expect.poll(hashOf, { timeout: 20_000, interval: 200 }).toBeDefined();
      const first = await hashOf();

      const edited = await librarian.client.patch(`/api/items/${id}`, { title: 'The Years' });
      expect(edited.statusCode).toBe(200);
      await expect.poll(hashOf, { timeout: 20_000, interval: 200 }).not.toBe(first);

      const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
      expect(healthResponseSchema.parse(health.json()).searchByMeaning).toEqual({
        available: true,
        embedded: 1,
        total: 1,
      });

      // A librarian's upload: its four new records are embedded once the import is done.
      const xml = await readFile(path.join(FIXTURES, 'marc-sample.xml'));
      const uploaded = await librarian.client.post(
        '/api/imports?kind=marc&name=marc-sample.xml',
        xml,
        { 'content-type': 'application/octet-stream' },
      );
      expect(uploaded.statusCode).toBe(201);
      await expect
        .poll(() => embeddingProgress(testApp.database.db), { timeout: 30_000, interval: 200 })
        .toEqual({ embedded: 5, total: 5 });
    } finally {
      await testApp.close();
    }
  });

  it('with SEMANTIC_SEARCH=false embeds nothing, queues no job, says why, and relates by author', async () => {
    const own = createTestEmbedder();
    const testApp = await createTestApp(kind, {
      env: { SEMANTIC_SEARCH: 'false' },
      embedder: own,
    });
    try {
      expect(testApp.config.semanticSearch).toBe(false);
      const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
      expect(healthResponseSchema.parse(health.json()).searchByMeaning).toEqual(
        SEARCH_BY_MEANING_TURNED_OFF,
      );
      expect(SEARCH_BY_MEANING_TURNED_OFF.reason).toContain('SEMANTIC_SEARCH=false');
      // The start-up line (server/index.ts) reads the same answer.
      expect(searchByMeaningWarning(testApp.database.searchByMeaning)).toBe(
        'Search by meaning is off: turned off by SEMANTIC_SEARCH=false in the environment: set ' +
          'it to true (or leave it out) and restart to turn it on.',
      );

      const librarian = await signedInPerson(testApp, 'librarian');
      const ids: string[] = [];
      for (const title of ['The Waves', 'Orlando']) {
        const created = await librarian.client.post('/api/items', {
          type: 'book',
          title,
          authors: ['Virginia Woolf'],
        });
        expect(created.statusCode).toBe(201);
        ids.push(managedItemSchema.parse(created.json()).id);
      }
      // Both near by meaning, had anything measured it: related items go by author all the same.
      await testApp.database.db
        .insertInto('item_embeddings')
        .values(
          ids.map((id) => ({
            item_id: id,
            model: own.model,
            text_hash: `hash-${id}`,
            embedding: [1, ...Array<number>(511).fill(0)],
          })),
        )
        .execute();
      const related = await librarian.client.get(`/api/items/${ids[0]}/related`);
      expect(relatedItemsSchema.parse(related.json())).toMatchObject({
        byMeaning: false,
        items: [{ title: 'Orlando', reason: 'Same author' }],
      });

      // Asked directly, the queue and the job do nothing either.
      await queueItemEmbedding({ jobs: testApp.app.jobs, database: testApp.database });
      expect(await embedItems(testApp.database, { embedder: own })).toEqual({
        ...nothing,
        skipped: 0,
      });
      // Time for a job the creations might have queued to run: none was queued, none ran.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const { rows } = await testApp.database.executeSql(
        `SELECT count(*)::int AS n FROM ${JOB_SCHEMA}.job WHERE name = $1`,
        [EMBED_ITEMS_JOB.name],
      );
      expect(rows).toEqual([{ n: 0 }]);
      expect(own.textsEmbedded).toBe(0);
    } finally {
      await testApp.close();
    }
  });
});
