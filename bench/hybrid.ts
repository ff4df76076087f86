/**
 * `npm run bench:hybrid [-- --rows 100000 --rounds 6]`: the query cost of search by meaning (issue
 * 23, "Measured"): hybrid search p95 ≤ 3 × the words-only search p95 in the same run, at 100,000
 * items, on PGlite and PostgreSQL, the query's embedding included (repeated queries embedded once).
 *
 * The catalogue is the search bench's (`loadMultipliedCatalogue`: the real files multiplied to
 * `--rows`). Every item gets a synthetic unit vector of 512 numbers, written straight into
 * `item_embeddings` under the model name {@link SYNTHETIC_MODEL}: items of one source record
 * share a nearby vector, and a share of the records sit near one of the queries' own embeddings,
 * so every query has neighbours within `MEANT_MAX_DISTANCE` and the k-NN and the fusion run as on
 * a real catalogue. Then the HNSW index (`prepareVectorSearch`) and ANALYZE.
 *
 * The queries are the search benches' (`SEARCH_QUERIES`) and the descriptive ones of
 * `bench/topic-queries.ts`, each run `--rounds` times (the first untimed) through
 * `searchCatalogue` words only, hybrid with one `queryMeaning` for the whole run (as the server
 * keeps one: a repeated query is embedded once), and hybrid with a new `queryMeaning` per search
 * (every query embedded again: the cost of a query nobody asked before). The real model embeds the
 * queries (`createEmbedder`), under the synthetic model's name so the k-NN finds the vectors: the
 * cost is real, the hybrid ranking is not meaningful here (bench/topics.ts measures that).
 *
 * `BENCH_KEEP=<folder>` keeps PGlite's database (rows, vectors and index are reused),
 * `BENCH_POSTGRES_URL` uses an existing PostgreSQL database, `BENCH_ENGINES=PGlite` or `PostgreSQL`
 * one engine, `BENCH_SHARED_DATA` the data's folder. Exits 0 whatever it measures.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { searchQuerySchema, type SearchQuery } from '#contract/http/catalogue.ts';
import { queryMeaning, type QueryMeaning } from '#server/catalogue/meaning.ts';
import { searchCatalogue } from '#server/catalogue/search.ts';
import type { Database } from '#server/db/schema.ts';
import { EMBEDDING_DIMENSIONS, prepareVectorSearch, VECTOR_INDEX } from '#server/db/vector.ts';
import { createEmbedder, type Embedder } from '#server/embeddings/embedder.ts';
import {
  benchDatabasesFromEnv,
  formatNumber,
  loadAverage,
  machineLine,
  ms,
  percentile,
  SEARCH_QUERIES,
  SHARED_DATA,
} from './lib.ts';
import { loadMultipliedCatalogue } from './multiplied-catalogue.ts';
import { seededRandom } from './seeded-random.ts';
import { TOPIC_QUERIES } from './topic-queries.ts';

const { values: options } = parseArgs({
  options: {
    rows: { type: 'string' },
    rounds: { type: 'string' },
    seed: { type: 'string' },
  },
});
const ROWS = Number(options.rows ?? process.env.BENCH_ROWS ?? 100_000);
const ROUNDS = Math.max(2, Number(options.rounds ?? 6));
const SEED = Number(options.seed ?? process.env.BENCH_SEED ?? 23);
const DATA = process.env.BENCH_SHARED_DATA ?? SHARED_DATA;

/** Issue 23: hybrid p95 at most this many times the words-only p95. */
const TARGET_RATIO = 3;

/** The model name the synthetic vectors are stored under, and the bench's embedder reports. */
const SYNTHETIC_MODEL = 'synthetic-512';

/** Share of source records whose vector sits near one of the queries' embeddings. */
const NEAR_QUERY_SHARE = 0.3;

/** How far an item strays from its record's vector (noise's length before normalising). */
const ITEM_NOISE = 0.4;

/** Items written to `item_embeddings` per statement. */
const INSERT_CHUNK = 500;

const QUERIES: { group: 'search' | 'topic'; query: SearchQuery }[] = [
  ...SEARCH_QUERIES.map((query) => ({
    group: 'search' as const,
    query: searchQuerySchema.parse(query),
  })),
  ...TOPIC_QUERIES.map(({ q }) => ({
    group: 'topic' as const,
    query: searchQuerySchema.parse({ q }),
  })),
];

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** A vector of `length` standard normal numbers (Box–Muller) from `random`. */
function gaussian(random: () => number, length = EMBEDDING_DIMENSIONS): Float64Array {
  const vector = new Float64Array(length);
  for (let index = 0; index < length; index += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    vector[index] = radius * Math.cos(angle);
    if (index + 1 < length) vector[index + 1] = radius * Math.sin(angle);
  }
  return vector;
}

/** `vector` scaled to unit length, in place. */
function normalise(vector: Float64Array): Float64Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum) || 1;
  for (let index = 0; index < vector.length; index += 1) vector[index]! /= norm;
  return vector;
}

/** `a·x + b·y`, unit length: `x` and `y` unit vectors (or near enough). */
function mix(a: number, x: ArrayLike<number>, b: number, y: ArrayLike<number>): Float64Array {
  const result = new Float64Array(x.length);
  for (let index = 0; index < x.length; index += 1) result[index] = a * x[index]! + b * y[index]!;
  return normalise(result);
}

/**
 * Gives every item without one a synthetic vector of {@link SYNTHETIC_MODEL}: one per source
 * record (a multiplied row's `source_id` is its original's plus `:<n>`), near one of `near` for
 * {@link NEAR_QUERY_SHARE} of the records, and each item that vector plus a little noise.
 */
async function writeSyntheticVectors(
  db: Kysely<Database>,
  near: readonly Float32Array[],
): Promise<void> {
  const { rows: counts } = await sql<{ items: string; vectors: string }>`
    SELECT (SELECT count(*) FROM items) AS items,
           (SELECT count(*) FROM item_embeddings WHERE model = ${SYNTHETIC_MODEL}) AS vectors
  `.execute(db);
  if (Number(counts[0]?.items) === Number(counts[0]?.vectors)) {
    console.log('  synthetic vectors already there (BENCH_KEEP): not written again');
    return;
  }
  const started = performance.now();
  // The index goes while the rows are written (one by one into the graph is far slower than a
  // build over all of them); `prepareVectorSearch` builds it again.
  await sql`DROP INDEX IF EXISTS ${sql.raw(VECTOR_INDEX)}`.execute(db);
  await sql`DELETE FROM item_embeddings`.execute(db);
  const { rows: items } = await sql<{ id: string; source: string; source_id: string | null }>`
    SELECT id, source, source_id FROM items ORDER BY id
  `.execute(db);
  const random = seededRandom(SEED);
  const centres = new Map<string, Float64Array>();
  const centreOf = (key: string) => {
    let centre = centres.get(key);
    if (!centre) {
      const noise = normalise(gaussian(random));
      if (near.length > 0 && random() < NEAR_QUERY_SHARE) {
        // Cosine to the query from about 0.35 to 0.9 (before the item's own noise).
        const weight = 0.35 + 0.55 * random();
        const query = near[Math.floor(random() * near.length)]!;
        centre = mix(weight, query, Math.sqrt(1 - weight * weight), noise);
      } else {
        centre = noise;
      }
      centres.set(key, centre);
    }
    return centre;
  };
  for (let first = 0; first < items.length; first += INSERT_CHUNK) {
    const rows = items.slice(first, first + INSERT_CHUNK).map((item) => {
      const key =
        item.source === 'bench'
          ? (item.source_id ?? item.id).replace(/:\d+$/, '')
          : `${item.source}:${item.source_id ?? item.id}`;
      const vector = mix(1, centreOf(key), ITEM_NOISE, normalise(gaussian(random)));
      const literal = `{${Array.from(vector, (value) => value.toFixed(5)).join(',')}}`;
      return sql`(${item.id}::uuid, ${literal})`;
    });
    await sql`
      INSERT INTO item_embeddings (item_id, model, text_hash, embedding)
      SELECT v.item_id, ${SYNTHETIC_MODEL}, 'synthetic', v.embedding::real[]
      FROM (VALUES ${sql.join(rows)}) AS v (item_id, embedding)
    `.execute(db);
  }
  console.log(
    `  ${formatNumber(items.length)} synthetic vectors (${formatNumber(centres.size)} source records) written in ${seconds(started)}`,
  );
}

/** `meaning`, noting each search that asks it for the query's embedding (took the hybrid way). */
function noting(meaning: QueryMeaning, asked: () => void): QueryMeaning {
  return {
    model: meaning.model,
    embed(text) {
      asked();
      return meaning.embed(text);
    },
  };
}

interface Timings {
  words: number[];
  hybrid: number[];
  fresh: number[];
  /** Queries that asked for their embedding (not a known item, not a filter alone). */
  hybridWay: Set<number>;
  /** Queries whose first page held items found by meaning alone. */
  byMeaning: Set<number>;
  slowest: { label: string; hybrid: number; words: number }[];
}

async function measure(db: Kysely<Database>, embedder: Embedder, meaning: QueryMeaning) {
  const timings: Timings = {
    words: [],
    hybrid: [],
    fresh: [],
    hybridWay: new Set(),
    byMeaning: new Set(),
    slowest: [],
  };
  const perQuery = QUERIES.map(() => ({ words: [] as number[], hybrid: [] as number[] }));
  for (let round = 0; round < ROUNDS; round += 1) {
    const timed = round > 0;
    const roundStarted = performance.now();
    for (const [index, { query }] of QUERIES.entries()) {
      let start = performance.now();
      await searchCatalogue(db, query);
      const words = performance.now() - start;

      let asked = false;
      start = performance.now();
      const result = await searchCatalogue(db, query, {
        meaning: noting(meaning, () => (asked = true)),
      });
      const hybrid = performance.now() - start;
      if (asked) timings.hybridWay.add(index);
      if (result.byMeaning) timings.byMeaning.add(index);

      // A query nobody asked before: a memo of its own, so the model embeds it again.
      start = performance.now();
      await searchCatalogue(db, query, { meaning: queryMeaning(embedder) });
      const fresh = performance.now() - start;

      if (!timed) continue;
      timings.words.push(words);
      timings.hybrid.push(hybrid);
      timings.fresh.push(fresh);
      perQuery[index]!.words.push(words);
      perQuery[index]!.hybrid.push(hybrid);
    }
    console.log(
      `  round ${round + 1} of ${ROUNDS}${timed ? '' : ' (warm-up)'}: ${seconds(roundStarted)}, load average ${loadAverage()}`,
    );
  }
  timings.slowest = perQuery
    .map((times, index) => ({
      label: QUERIES[index]!.query.q || JSON.stringify(SEARCH_QUERIES[index]),
      hybrid: percentile(times.hybrid, 50),
      words: percentile(times.words, 50),
    }))
    .sort((a, b) => b.hybrid - a.hybrid)
    .slice(0, 5);
  return timings;
}

console.log(machineLine());
if (!existsSync(DATA)) {
  console.log(`Hybrid bench skipped: no ${DATA} (the shared data, or BENCH_SHARED_DATA=<folder>).`);
  process.exit(0);
}
console.log(
  `${QUERIES.length} queries (${SEARCH_QUERIES.length} of the search benches, ${TOPIC_QUERIES.length} topic queries), ` +
    `${ROUNDS} rounds (the first untimed), ${formatNumber(ROWS)} rows, seed ${SEED}`,
);

const real = createEmbedder();
// The real model under the synthetic vectors' name, so the k-NN finds them (the filter on
// `item_embeddings.model` in `nearestToVector`).
const embedder: Embedder = {
  model: SYNTHETIC_MODEL,
  dimensions: real.dimensions,
  embed: (texts, callOptions) => real.embed(texts, callOptions),
  close: () => real.close(),
};
const summary: string[] = [];
try {
  let started = performance.now();
  await real.embed(['warming up']);
  const loadMs = performance.now() - started;
  // The run's one memo, as the server keeps one: every query embedded here, once.
  const meaning = queryMeaning(embedder);
  const firstTimes: number[] = [];
  const queryVectors: Float32Array[] = [];
  for (const { query } of QUERIES) {
    if (!query.q) continue;
    started = performance.now();
    queryVectors.push(await meaning.embed(query.q));
    firstTimes.push(performance.now() - started);
  }
  console.log(
    `\nThe model: thread and load with a first text ${ms(loadMs)} ms; each query's first embedding ` +
      `(${firstTimes.length} queries) p50 ${ms(percentile(firstTimes, 50))} / p95 ${ms(percentile(firstTimes, 95))} ms; ` +
      `remembered afterwards.`,
  );

  for (const { name, handle, dispose } of await benchDatabasesFromEnv()) {
    try {
      const db = handle.db;
      console.log(`\n${name}`);
      started = performance.now();
      const { rows: present } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(
        db,
      );
      if (Number(present[0]?.n) === 0) {
        await loadMultipliedCatalogue(db, ROWS, DATA);
        console.log(`  catalogue loaded in ${seconds(started)}`);
      } else {
        console.log('  items already there (BENCH_KEEP / BENCH_POSTGRES_URL): not loaded again');
      }
      await writeSyntheticVectors(db, queryVectors);
      started = performance.now();
      // Room for the HNSW graph while it is built (PostgreSQL's default, 64 MB, holds a tenth of
      // it): on PostgreSQL the session the pool hands out next, which is the one just released.
      await handle.withSession((session) => session.exec("SET maintenance_work_mem = '512MB'"));
      const state = await prepareVectorSearch(handle);
      if (!state.available) {
        console.log(`  search by meaning is off here: ${state.reason} Not measured.`);
        continue;
      }
      console.log(`  HNSW index ready in ${seconds(started)}`);
      started = performance.now();
      await sql`ANALYZE items`.execute(db);
      await sql`ANALYZE item_embeddings`.execute(db);
      const { rows: counted } = await sql<{ items: string; vectors: string }>`
        SELECT (SELECT count(*) FROM items) AS items, (SELECT count(*) FROM item_embeddings) AS vectors
      `.execute(db);
      console.log(
        `  ${formatNumber(Number(counted[0]?.items))} items, ${formatNumber(Number(counted[0]?.vectors))} vectors; ANALYZE ${seconds(started)}; load average ${loadAverage()}`,
      );

      started = performance.now();
      const timings = await measure(db, embedder, meaning);
      const wordsP95 = percentile(timings.words, 95);
      const hybridP95 = percentile(timings.hybrid, 95);
      const freshP95 = percentile(timings.fresh, 95);
      const ratio = hybridP95 / wordsP95;
      const row = (label: string, times: number[]) =>
        `  ${label.padEnd(44)} ${ms(percentile(times, 50)).padStart(8)} ${ms(percentile(times, 95)).padStart(8)}`;
      console.log(
        `  measured in ${seconds(started)} (${ROUNDS - 1} timed rounds × ${QUERIES.length} queries); load average ${loadAverage()}`,
      );
      console.log(`  ${'search'.padEnd(44)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
      console.log(row('words only', timings.words));
      console.log(row('hybrid (repeated queries embedded once)', timings.hybrid));
      console.log(row('hybrid, every query embedded again', timings.fresh));
      console.log(
        `  hybrid p95 / words p95: ${ratio.toFixed(2)} (target ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'met' : 'missed'}); ` +
          `embedded again every time: ${(freshP95 / wordsP95).toFixed(2)}`,
      );
      console.log(
        `  ${timings.hybridWay.size} of ${QUERIES.length} queries went the hybrid way (the rest: known items, ` +
          `an author filter alone, words found nowhere); ${timings.byMeaning.size} showed items found by meaning alone`,
      );
      console.log(
        `  slowest hybrid (p50 ms, words' beside): ${timings.slowest
          .map((query) => `"${query.label}" ${ms(query.hybrid)} (${ms(query.words)})`)
          .join(', ')}`,
      );
      summary.push(
        `${name}: words ${ms(wordsP95)}, hybrid ${ms(hybridP95)} ms p95 = ${ratio.toFixed(2)} × ` +
          `(${ratio <= TARGET_RATIO ? 'met' : 'missed'}); every query embedded again ${ms(freshP95)} ms = ${(freshP95 / wordsP95).toFixed(2)} ×`,
      );
    } finally {
      await dispose();
    }
  }
} finally {
  await embedder.close();
}
console.log('\nSummary (p95 of every timed search; target hybrid ≤ 3 × words):');
for (const line of summary) console.log(`  ${line}`);
console.log(
  `The vectors are synthetic: the cost is hybrid search's, its ranking here means nothing ` +
    `(bench/topics.ts measures that). Load average ${loadAverage()}.`,
);
