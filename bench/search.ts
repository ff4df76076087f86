/**
 * `npm run bench:search [rows]`: loads the real catalogue files, multiplies them into `rows`
 * catalogue rows (default 1,000,000) on each engine, then times the product's search
 * (`searchCatalogue`: ranked page + facet counts, and "did you mean" when nothing matches) for
 * rare, common, prefix, filtered and misspelt queries, next to a sequential `ILIKE` scan of the
 * same table in the same run. Prints p50/p95 and the scan/search ratio.
 *
 * To measure again without loading again: `BENCH_KEEP=/tmp/bench` keeps PGlite's data in that
 * folder, and `BENCH_POSTGRES_URL` uses an existing PostgreSQL database instead of a private
 * cluster; a database that already holds rows is measured as it is (new migrations applied).
 * `BENCH_ENGINES=PGlite` (or `PostgreSQL`) measures one engine only; `BENCH_SCAN_RUNS=0` skips
 * the sequential scans (their ratios then read as zero).
 */
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import type { SearchQuery } from '#contract/http/catalogue.ts';
import { searchCatalogue } from '#server/catalogue/search.ts';
import { benchDatabasesFromEnv, ms, percentile, SHARED_DATA, timeRuns } from './lib.ts';
import { loadMultipliedCatalogue } from './multiplied-catalogue.ts';

const TARGET = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 40;
const SCAN_RUNS = Number(process.env.BENCH_SCAN_RUNS ?? 5);

const QUERIES: { label: string; query: Partial<SearchQuery>; scan: string }[] = [
  { label: 'rare word', query: { q: 'frankenstein' }, scan: 'frankenstein' },
  { label: 'common word', query: { q: 'history' }, scan: 'history' },
  { label: 'prefix while typing', query: { q: 'quant' }, scan: 'quant' },
  {
    label: 'two words + type',
    query: { q: 'neural networks', type: 'paper' },
    scan: 'neural networks',
  },
  { label: 'author filter', query: { author: 'tolkien', type: 'book' }, scan: 'tolkien' },
  { label: 'misspelt (did you mean)', query: { q: 'frankenstien' }, scan: 'frankenstien' },
];

if (!existsSync(SHARED_DATA)) {
  console.error(`No ${SHARED_DATA}: the shared data must sit beside the repository.`);
  process.exit(1);
}

const report: Record<string, Record<string, number>> = {};
const databases = await benchDatabasesFromEnv();
for (const { name, handle, dispose } of databases) {
  const db = handle.db;
  const started = performance.now();
  const { rows: present } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db);
  if (Number(present[0]?.n) === 0) await loadMultipliedCatalogue(db, TARGET);
  await sql`ANALYZE items`.execute(db);
  const { rows: totalRows } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db);
  console.log(
    `\n${name}: ${Number(totalRows[0]?.n).toLocaleString('en-US')} rows ready in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  console.log(
    'query                      | search p50 | search p95 | scan p50 | scan p95 | scan/search (p95) | total',
  );
  for (const { label, query, scan } of QUERIES) {
    const full: SearchQuery = { q: '', page: 1, pageSize: 20, featured: false, ...query };
    let total = 0;
    const searchTimes = await timeRuns(async () => {
      total = (await searchCatalogue(db, full)).total;
    }, RUNS);
    const pattern = `%${scan}%`;
    const scanTimes =
      SCAN_RUNS === 0
        ? [0]
        : await timeRuns(
            () =>
              sql`SELECT count(*) FROM items WHERE title ILIKE ${pattern} OR description ILIKE ${pattern}`.execute(
                db,
              ),
            SCAN_RUNS,
            1,
          );
    const searchP95 = percentile(searchTimes, 95);
    const scanP95 = percentile(scanTimes, 95);
    (report[label] ??= {})[name] = searchP95;
    console.log(
      `${label.padEnd(26)} | ${ms(percentile(searchTimes, 50)).padStart(10)} | ${ms(searchP95).padStart(10)} | ${ms(percentile(scanTimes, 50)).padStart(8)} | ${ms(scanP95).padStart(8)} | ${(scanP95 / searchP95).toFixed(1).padStart(17)} | ${total}`,
    );
  }
  await dispose();
}

const measured = Object.keys(Object.values(report)[0] ?? {});
if (measured.length === 2) {
  console.log('\nPGlite / PostgreSQL (search p95):');
  for (const [label, byEngine] of Object.entries(report)) {
    console.log(
      `  ${label.padEnd(26)} ${((byEngine.PGlite ?? NaN) / (byEngine.PostgreSQL ?? NaN)).toFixed(2)}`,
    );
  }
}
