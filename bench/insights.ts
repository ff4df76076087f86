/**
 * `npm run bench:insights`: what recording library insights (issue 27) costs a search. Two apps
 * on the same database, one recording and one not (`buildApp({ insightsRecording })`), answer
 * `GET /api/search` under the same load, in alternating rounds of the same run so the machine's
 * other work falls on both alike. Prints each side's p50 and p95 and its capacity (searches a
 * second at the given concurrency), and the ratios; the target is within 5% (issue 27).
 *
 * The catalogue is the demo one unless `BENCH_CATALOGUE=real` loads the shared catalogue files
 * (`bench/lib.ts`). `BENCH_ENGINES=PGlite` or `PostgreSQL` measures one engine; `BENCH_REQUESTS`
 * (per round, default 600), `BENCH_ROUNDS` (per side, default 4) and `BENCH_CONCURRENCY`
 * (default 8) change the load. Requests come from many client addresses, as people's would, so
 * the recorder's batch holds as many person keys as a busy library's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { seedDemoData } from '#server/db/seed.ts';
import {
  benchDatabasesFromEnv,
  forEachAtMost,
  loadCatalogue,
  machineLine,
  ms,
  percentile,
  SEARCH_QUERIES,
} from './lib.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

/** One round: `REQUESTS` searches at `CONCURRENCY`; each one's time, and the round's wall time. */
async function round(app: FastifyInstance, offset: number) {
  const times: number[] = [];
  const started = performance.now();
  await forEachAtMost(REQUESTS, CONCURRENCY, async (index) => {
    const query = SEARCH_QUERIES[(index + offset) % SEARCH_QUERIES.length]!;
    const begin = performance.now();
    const response = await app.inject({
      method: 'GET',
      url: `/api/search?${new URLSearchParams(query)}`,
      // A different person per request, as a library's traffic is.
      remoteAddress: `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`,
    });
    times.push(performance.now() - begin);
    if (response.statusCode !== 200) throw new Error(`search answered ${response.statusCode}`);
  });
  return { times, seconds: (performance.now() - started) / 1000 };
}

console.log(machineLine());
console.log(
  `${REQUESTS} searches a round at concurrency ${CONCURRENCY}, ${ROUNDS} rounds a side, alternating`,
);
for (const { name, handle, dispose } of await benchDatabasesFromEnv()) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'digi-bench-insights-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-only-secret-0123456789abcdefghijklmnop',
    // Words and authors: the model would measure itself, not the recorder.
    SEMANTIC_SEARCH: 'false',
  });
  if (process.env.BENCH_CATALOGUE === 'real') await loadCatalogue(handle);
  else await seedDemoData(handle.db);
  const apps = {
    on: await buildApp({ config, database: handle, insightsRecording: true }),
    off: await buildApp({ config, database: handle, insightsRecording: false }),
  };
  await Promise.all([apps.on.ready(), apps.off.ready()]);
  // A warm-up round each: prepared statements, caches, the JIT.
  await round(apps.on, 0);
  await round(apps.off, 0);
  const results = {
    on: { times: [] as number[], seconds: 0 },
    off: { times: [] as number[], seconds: 0 },
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    // Which side goes first alternates too, so neither always follows the other's flush.
    const order = index % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
    for (const side of order) {
      const { times, seconds } = await round(apps[side], index);
      results[side].times.push(...times);
      results[side].seconds += seconds;
    }
  }
  await apps.on.insights.flush();
  const counted = await handle.db
    .selectFrom('insight_events')
    .select((eb) => eb.fn.sum<number>('count').as('n'))
    .executeTakeFirst();
  const line = (side: 'on' | 'off') => {
    const { times, seconds } = results[side];
    return {
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      perSecond: times.length / seconds,
    };
  };
  const on = line('on');
  const off = line('off');
  console.log(`\n${name} (${Number(counted?.n ?? 0).toLocaleString('en-US')} events recorded)`);
  console.log('recording | p50 ms | p95 ms | searches/s');
  for (const [label, value] of [
    ['off', off],
    ['on', on],
  ] as const) {
    console.log(
      `${label.padEnd(9)} | ${ms(value.p50).padStart(6)} | ${ms(value.p95).padStart(6)} | ${value.perSecond.toFixed(0).padStart(10)}`,
    );
  }
  const p95Ratio = on.p95 / off.p95;
  const capacityRatio = on.perSecond / off.perSecond;
  console.log(
    `on/off: p95 × ${p95Ratio.toFixed(3)}, capacity × ${capacityRatio.toFixed(3)} (target: p95 ≤ 1.05, capacity ≥ 0.95) ${p95Ratio <= 1.05 && capacityRatio >= 0.95 ? 'within' : 'OUTSIDE'} 5%`,
  );
  await apps.on.close();
  await apps.off.close();
  await dispose();
  rmSync(dataDir, { recursive: true, force: true });
}
