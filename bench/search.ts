/**
 * `npm run bench:search [rows]`: loads the real catalogue files, multiplies them into `rows`
 * catalogue rows (default 1,000,000) on each engine, then times the product's search
 * (`searchCatalogue`: ranked page + facet counts, and "did you mean" when nothing matches) for
 * rare, common, prefix, filtered and misspelt queries, next to a sequential `ILIKE` scan of the
 * same table in the same run. Prints p50/p95 and the scan/search ratio.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import type { SearchQuery } from '../contract/http/catalogue.ts';
import { importFile } from '../server/catalogue/import/import-file.ts';
import { searchCatalogue } from '../server/catalogue/search.ts';
import { refreshSearchWords } from '../server/catalogue/words.ts';
import { benchDatabases, ms, percentile, SHARED_DATA, timeRuns } from './lib.ts';

const TARGET = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 40;
const SCAN_RUNS = 5;
const FILES = [
  ['books', 'books/goodbooks-10k_books.csv'],
  ['papers', 'papers/arxiv_sample_2000.csv'],
  ['papers', 'papers/arxiv_metadata_2100.json'],
  ['courses', 'courses/free-courses-en.csv'],
  ['courses', 'courses/free-programming-books-subjects.csv'],
] as const;

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
for (const { name, handle, dispose } of await benchDatabases()) {
  const db = handle.db;
  const started = performance.now();
  for (const [kind, file] of FILES) await importFile(db, kind, path.join(SHARED_DATA, file));
  const { rows: baseRows } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db);
  const base = Number(baseRows[0]?.n);
  // Variations of the real rows: the same words, so the index sees a realistic vocabulary.
  const copies = Math.max(0, Math.ceil((TARGET - base) / base));
  for (let first = 1; first <= copies; first += 5) {
    const last = Math.min(copies, first + 4);
    await sql`
      INSERT INTO items (kind, title, authors, year, subjects, description, source, source_id)
      SELECT kind,
             title || ' (' || (ARRAY['Revised', 'Annotated', 'Illustrated', 'Abridged', 'Student', 'Collected'])[1 + g % 6] || ' ' || g || ')',
             authors, year, subjects, description, 'bench', source || ':' || source_id || ':' || g
      FROM items, generate_series(${first}::int, ${last}::int) AS g
      WHERE source <> 'bench'
    `.execute(db);
  }
  await sql`DELETE FROM items WHERE id IN (SELECT id FROM items WHERE source = 'bench' OFFSET ${Math.max(0, TARGET - base)})`.execute(
    db,
  );
  await refreshSearchWords(db);
  await sql`ANALYZE items`.execute(db);
  const { rows: totalRows } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db);
  console.log(
    `\n${name}: ${Number(totalRows[0]?.n).toLocaleString('en-US')} rows loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
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
    const scanTimes = await timeRuns(
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

const engines = Object.keys(Object.values(report)[0] ?? {});
if (engines.length === 2) {
  console.log('\nPGlite / PostgreSQL (search p95):');
  for (const [label, byEngine] of Object.entries(report)) {
    console.log(
      `  ${label.padEnd(26)} ${((byEngine.PGlite ?? NaN) / (byEngine.PostgreSQL ?? NaN)).toFixed(2)}`,
    );
  }
}
