/**
 * `npx tsx bench/suggest.ts [rows]`: as-you-type suggestions (`suggest`, issue 22) on the search
 * bench's catalogue, the real files multiplied into `rows` rows (default 1,000,000) on each engine,
 * for what people type: two letters, three, a word, a title's first words, a later word, an
 * author's surname, a very common prefix and nothing that matches. Prints p50/p95 per text and
 * the worst p95 next to the target (issue 22: p95 < 30 ms at 1,000,000 rows on PostgreSQL).
 *
 * The same variables as `bench:search`, whose kept databases it can measure: `BENCH_KEEP`,
 * `BENCH_POSTGRES_URL`, `BENCH_ENGINES`.
 */
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { SUGGEST_LIMIT_MAX } from '#contract/http/suggestions.ts';
import { suggest } from '#server/catalogue/suggest.ts';
import {
  benchDatabasesFromEnv,
  formatNumber,
  loadAverage,
  ms,
  percentile,
  SHARED_DATA,
  timeRuns,
} from './lib.ts';
import { loadMultipliedCatalogue } from './multiplied-catalogue.ts';

const TARGET = Number(process.argv[2] ?? process.env.BENCH_ROWS ?? 1_000_000);
const RUNS = 60;
const BUDGET_MS = 30;

/** What a person has typed so far, and why it is here. */
const TYPED: { label: string; q: string }[] = [
  { label: 'two letters', q: 'ha' },
  { label: 'two letters, very common', q: 'th' },
  { label: 'three letters', q: 'har' },
  { label: 'three letters, very common', q: 'the' },
  { label: 'a word', q: 'quant' },
  { label: "a title's first words", q: 'harry potter and the' },
  { label: 'a later title word', q: 'mockingb' },
  { label: "an author's surname", q: 'tolk' },
  { label: 'a common word prefix', q: 'intro' },
  { label: 'no match', q: 'zqxj' },
];

if (!existsSync(SHARED_DATA)) {
  console.error(`No ${SHARED_DATA}: the shared data must sit beside the repository.`);
  process.exit(1);
}

const worst: Record<string, number> = {};
const databases = await benchDatabasesFromEnv();
for (const { name, handle, dispose } of databases) {
  const db = handle.db;
  const started = performance.now();
  const count = async () =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(db)).rows[0]?.n);
  if ((await count()) === 0) await loadMultipliedCatalogue(db, TARGET);
  await sql`ANALYZE items`.execute(db);
  console.log(
    `\n${name}: ${formatNumber(await count())} rows ready in ${((performance.now() - started) / 1000).toFixed(1)} s; load ${loadAverage()}`,
  );
  console.log('typed                          | text                 |  p50 ms |  p95 ms | found');
  for (const { label, q } of TYPED) {
    let found = 0;
    const times = await timeRuns(async () => {
      const result = await suggest(db, q, SUGGEST_LIMIT_MAX);
      found = result.titles.length + result.authors.length;
    }, RUNS);
    const p95 = percentile(times, 95);
    worst[name] = Math.max(worst[name] ?? 0, p95);
    console.log(
      `${label.padEnd(30)} | ${q.padEnd(20)} | ${ms(percentile(times, 50)).padStart(7)} | ${ms(p95).padStart(7)} | ${found}`,
    );
  }
  console.log(
    `${name}: worst p95 ${ms(worst[name] ?? NaN)} ms (target < ${BUDGET_MS} ms on PostgreSQL at 1,000,000 rows)`,
  );
  await dispose();
}
const postgres = worst.PostgreSQL;
if (postgres !== undefined)
  console.log(
    `\nSuggestions, PostgreSQL: worst p95 ${ms(postgres)} ms: ${postgres < BUDGET_MS ? 'met' : 'NOT met'} (< ${BUDGET_MS} ms)`,
  );
