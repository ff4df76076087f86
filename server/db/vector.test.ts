import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it, type TestContext } from 'vitest';
import { healthResponseSchema } from '#contract/http/health.ts';
import { withDatabase } from '../test/global-setup.ts';
import { openTestDatabase, testDatabaseKinds, testPostgresUrl } from '../test/databases.ts';
import { startServerProcess } from '../test/process.ts';
import type { DatabaseHandle } from './client.ts';
import {
  EMBEDDING_DIMENSIONS,
  prepareVectorSearch,
  searchByMeaningWarning,
  VECTOR_INDEX,
} from './vector.ts';

const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());

/** A unit vector of 512 numbers with `weights` at the start and zeros after. */
function unit(...weights: number[]): number[] {
  const vector = Array.from({ length: EMBEDDING_DIMENSIONS }, (_, i) => weights[i] ?? 0);
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** pgvector's text form, as vectors travel: `[0.1,0.2,…]`. */
function vectorText(vector: readonly number[]): string {
  return `[${vector.join(',')}]`;
}

async function addItem(handle: DatabaseHandle, title: string, embedding: number[]) {
  const { id } = await handle.db
    .insertInto('items')
    .values({ kind: 'book', title, authors: [], source: 'vector-test', source_id: title })
    .returning('id')
    .executeTakeFirstOrThrow();
  await handle.db
    .insertInto('item_embeddings')
    .values({ item_id: id, model: 'test-512', text_hash: 'hash-' + title, embedding })
    .execute();
  return id;
}

/**
 * Outside CI a PostgreSQL without pgvector skips the tests that need it (`npm test` names what is
 * then untested and how to install it); in CI it fails them, as the runner does.
 */
async function skipWithoutPgvector(handle: DatabaseHandle, context: TestContext): Promise<void> {
  if (handle.kind !== 'postgres' || CI) return;
  const { rows } = await sql<{ name: string }>`
    SELECT name FROM pg_available_extensions WHERE name = 'vector'`.execute(handle.db);
  if (rows.length === 0)
    context.skip('this PostgreSQL has no pgvector (scripts/install-pgvector.sh)');
}

describe('pgvector on PGlite', () => {
  it('loads at the version the pairing was built for, in every PGlite createPglite opens', async () => {
    // Decision 036: pglite-pgvector 0.0.15 is built against PGlite 0.5.14 exactly. On 0.5.16 it
    // loaded and measured distances, but pg_trgm's `%` then answered no row at all and the next
    // statement spun forever: every typo search hung. Both extensions are exercised here.
    const handle = await openTestDatabase('pglite');
    try {
      const { rows } = await handle.executeSql(
        "SELECT extversion, '[3,4]'::vector <-> '[0,0]'::vector AS distance FROM pg_extension WHERE extname = 'vector'",
      );
      expect(rows).toEqual([{ extversion: '0.8.7', distance: 5 }]);
      const { rows: trigrams } = await handle.executeSql(
        "SELECT 'frankenstein' % 'frankenstien' AS similar, similarity('ab', 'ab') AS same",
      );
      expect(trigrams).toEqual([{ similar: true, same: 1 }]);
      expect((await handle.executeSql('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
      const root = path.resolve(import.meta.dirname, '..', '..', 'node_modules', '@electric-sql');
      const version = (name: string) =>
        (
          JSON.parse(readFileSync(path.join(root, name, 'package.json'), 'utf8')) as {
            version: string;
          }
        ).version;
      expect([version('pglite'), version('pglite-pgvector')]).toEqual(['0.5.14', '0.0.15']);
    } finally {
      await handle.close();
    }
  });
});

describe.each(testDatabaseKinds())('search by meaning on %s', (kind) => {
  const handles: DatabaseHandle[] = [];
  afterEach(async () => {
    for (const handle of handles.splice(0)) await handle.close();
  });
  async function database(): Promise<DatabaseHandle> {
    const handle = await openTestDatabase(kind);
    handles.push(handle);
    return handle;
  }

  it('is available: the extension and the HNSW index over the cast exist', async (context) => {
    const handle = await database();
    await skipWithoutPgvector(handle, context);
    expect(handle.searchByMeaning).toEqual({ available: true });
    // Idempotent: a second start finds everything in place.
    expect(await prepareVectorSearch(handle)).toEqual({ available: true });
    const { rows } = await sql<{ indexdef: string }>`
      SELECT indexdef FROM pg_indexes WHERE indexname = ${VECTOR_INDEX}`.execute(handle.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.indexdef).toMatch(
      /USING hnsw \(\(\(?embedding\)?::vector\(512\)\) vector_cosine_ops\)/,
    );
  });

  it('stores real[] and answers a k-NN query nearest first, through the index', async (context) => {
    const handle = await database();
    await skipWithoutPgvector(handle, context);
    const stored = unit(1, 0.25, 0.125);
    const ids = {
      east: await addItem(handle, 'east', stored),
      northEast: await addItem(handle, 'north-east', unit(1, 1)),
      north: await addItem(handle, 'north', unit(0, 1)),
      west: await addItem(handle, 'west', unit(-1, 0)),
      up: await addItem(handle, 'up', unit(0, 0, 1)),
    };
    const read = await handle.db
      .selectFrom('item_embeddings')
      .select('embedding')
      .where('item_id', '=', ids.east)
      .executeTakeFirstOrThrow();
    expect(read.embedding).toHaveLength(EMBEDDING_DIMENSIONS);
    read.embedding.forEach((value, i) => expect(value).toBeCloseTo(stored[i]!, 6));

    const query = vectorText(unit(1, 0.1));
    const nearest = (limit: number) => sql<{ item_id: string }>`
      SELECT item_id FROM item_embeddings
      ORDER BY embedding::vector(512) <=> ${query}::vector(512) LIMIT ${limit}`;
    await handle.db.transaction().execute(async (trx) => {
      // Five rows are cheaper to sort than to look up: forbid the sequential scan so the plan
      // shows whether the index matches the query's expression at all (with a catalogue's
      // thousands of rows the planner picks it unforced).
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      const plan = await sql<Record<string, string>>`EXPLAIN ${nearest(3)}`.execute(trx);
      expect(plan.rows.map((row) => Object.values(row)[0]).join('\n')).toContain(
        `Index Scan using ${VECTOR_INDEX} on item_embeddings`,
      );
      const { rows } = await nearest(3).execute(trx);
      expect(rows.map((row) => row.item_id)).toEqual([ids.east, ids.northEast, ids.north]);
    });
    const { rows } = await nearest(5).execute(handle.db);
    expect(rows.map((row) => row.item_id)).toEqual([
      ids.east,
      ids.northEast,
      ids.north,
      ids.up,
      ids.west,
    ]);
  });

  it("deletes an item's embedding with the item", async () => {
    const handle = await database();
    const id = await addItem(handle, 'gone', unit(1));
    const kept = await addItem(handle, 'kept', unit(0, 1));
    await handle.db.deleteFrom('items').where('id', '=', id).execute();
    const left = await handle.db.selectFrom('item_embeddings').select('item_id').execute();
    expect(left).toEqual([{ item_id: kept }]);
  });

  it('is off, with a reason and one warning line, where the extension is not available', async () => {
    const handle = await database();
    const answer = await prepareVectorSearch(handle, { availableExtensions: ['pg_trgm'] });
    expect(answer.available).toBe(false);
    expect(handle.searchByMeaning).toEqual(answer);
    const reason = answer.available ? '' : answer.reason;
    expect(reason).toMatch(
      kind === 'postgres' ? /pgvector extension is not installed/ : /pgvector/,
    );
    expect(searchByMeaningWarning(answer)).toBe(
      `Search by meaning is off: ${reason.charAt(0).toLowerCase()}${reason.slice(1)}`,
    );
    expect(searchByMeaningWarning({ available: true })).toBeUndefined();
  });
});

describe.runIf(testDatabaseKinds().includes('postgres'))(
  'the server on a PostgreSQL where its user may not create the extension',
  () => {
    it('starts, warns once at start-up, and says why in /api/health', async (context) => {
      const url = testPostgresUrl()!;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const suffix = randomBytes(4).toString('hex');
      const role = `digi_plain_${suffix}`;
      // `digi_test_` names are dropped by the test run's teardown should this test not finish.
      const name = `digi_test_plain_${suffix}`;
      try {
        const { rows } = await admin.query(
          "SELECT 1 FROM pg_available_extensions WHERE name = 'vector'",
        );
        if (rows.length === 0 && !CI) context.skip('this PostgreSQL has no pgvector');
        // pgvector is not a trusted extension: only a superuser creates it, even for the owner.
        await admin.query(`CREATE ROLE ${role} LOGIN`);
        await admin.query(`CREATE DATABASE ${name} OWNER ${role} TEMPLATE template0`);
        const database = new URL(withDatabase(url, name));
        database.username = role;
        const server = await startServerProcess({
          DATABASE_URL: database.toString(),
          DATA_DIR: '/nonexistent',
        });
        try {
          const body = healthResponseSchema.parse(
            await (await fetch(`${server.url}/api/health`)).json(),
          );
          expect(body.status).toBe('ok');
          expect(body.searchByMeaning?.available).toBe(false);
          expect(body.searchByMeaning?.reason).toMatch(/refused/);
          expect(body.searchByMeaning?.reason).toContain(
            `runs \`CREATE EXTENSION vector;\` as a superuser in the database "${name}"`,
          );
          const warnings = server
            .logs()
            .filter((line) => String(line.msg).startsWith('Search by meaning is off'));
          expect(warnings).toHaveLength(1);
          expect(warnings[0]).toMatchObject({ level: 40 });
          // Search answers by its words alone there, and says nothing was found by meaning;
          // "More like this" by authors and subjects.
          const search = await fetch(
            `${server.url}/api/search?q=${encodeURIComponent('stories about monsters made by science')}`,
          );
          expect(search.status).toBe(200);
          const found = (await search.json()) as {
            items: { id: string }[];
            byMeaning?: boolean;
          };
          expect(found.byMeaning).toBeUndefined();
          if (found.items[0]) {
            const related = await fetch(`${server.url}/api/items/${found.items[0].id}/related`);
            expect(related.status).toBe(200);
            expect(((await related.json()) as { byMeaning: boolean }).byMeaning).toBe(false);
          }
        } finally {
          expect(await server.stop('SIGTERM')).toBe(0);
        }
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.query(`DROP ROLE IF EXISTS ${role}`);
        await admin.end();
      }
    });
  },
);
