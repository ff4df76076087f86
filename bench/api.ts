/**
 * `npm run bench:api [-- --quick] [-- --profile]`: requests per second and latency of three read
 * routes of the API, `GET /api/search` (varied, realistic queries; open to guests),
 * `GET /api/users/get-books` (the course materials list; signed in) and `GET /api/users/me` (who
 * is signed in: the cost of knowing who asks, which every signed-in call pays), next to a bare Fastify
 * server (`bench/api-bare-server.ts`) answering the same paths with a constant body, in the same
 * run. Every server runs in its own process, as `npm start` runs it; the load generator
 * (autocannon) runs in this one.
 *
 * The catalogue is the real one: the shared data's books, papers and courses are imported (the
 * code `npm run import` runs) into a fresh database before the server starts. Ten people register
 * through `POST /api/users/register`; the signed-in requests take their session cookies in turn.
 * The bare server serves real answers captured from the app first (the search answer of median
 * size and the course list), so both put the same bodies on the wire; Fastify serialises them on
 * every request, as the app does.
 *
 * Per route and server, after a warm-up of the same shape:
 * - saturation: autocannon with 50 connections, one request in flight each, for the window;
 * - half of each server's own saturated requests per second, with autocannon's `overallRate`
 *   (the app is not paced at half the bare route's rate: no route that reads the database carries
 *   that, and the point would only measure saturation again; docs/decisions/012).
 * autocannon's `overallRate` gives each connection a quota per second that it sends as fast as
 *   it can when the second starts, so its paced points are bursts of up to 50 requests at once
 *   followed by idle time; the latency it reports there is close to the latency at saturation.
 *   Each paced point is therefore measured a second time ("even") with an open-loop client in
 *   this file that starts requests evenly spaced in time, through up to 50 keep-alive
 *   connections, and times each from when it was due (so a queue in front of the server is
 *   counted; no coordinated omission); not above the server's saturated rate (the queue would
 *   only grow) nor above 5,000/s (Node's HTTP client then falls behind its own schedule).
 *   autocannon's own correction for coordinated omission is off: it assumes 1 ms between the
 *   requests of a connection whatever the rate, which inflates the upper percentiles.
 * Counted: requests per second, p50/p99 latency, responses other than 2xx and errors (both must
 * be 0), and CPU time of the server process and, for PostgreSQL, the database's processes, per
 * request (from /proc), with this process's own CPU time: on two cores the client competes with
 * the server. Beside the CPU, the statements the app sent to its database per request (its
 * process preloads `bench/count-statements.ts`; `npm start` does not): on PGlite each costs a
 * fixed 0.1–0.4 ms of CPU (prepared or not), most of a small request's cost (docs/decisions/019).
 *
 * Engines: PGlite (the default) and, when Debian's PostgreSQL is installed, a private cluster.
 * `BENCH_ENGINES=PGlite` or `PostgreSQL` measures one, `BENCH_ROUTES=me,get-books` only those
 * routes (of search, get-books, me). `--quick` shortens the windows and measures PGlite only; `--profile` writes a CPU profile of each app server process
 * (`node --cpu-prof`) to a folder it prints.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { findPostgresBin } from '../scripts/lib/postgres-cluster.ts';
import { openDatabase, openPostgres } from '#server/db/client.ts';
import {
  cpuSpent,
  loadCatalogue,
  percentile,
  postgresPids,
  processCpuMs,
  registerPeople,
  ROOT,
  SHARED_DATA,
  startAppServer,
  stopChild,
  type ServerProcess,
  formatNumber as format,
  loadAverage,
  sleep,
  SEARCH_QUERIES,
  machineLine,
  privatePostgres,
} from './lib.ts';

const QUICK = process.argv.includes('--quick');
const PROFILE = process.argv.includes('--profile');
const ENGINES = process.env.BENCH_ENGINES?.split(',') ?? (QUICK ? ['PGlite'] : undefined);
const WARMUP_S = QUICK ? 1 : 3;
const WINDOW_S = QUICK ? 4 : 10;
const CONNECTIONS = 50;
const PEOPLE = 10;
/** Above this many requests per second the open-loop client falls behind its own schedule. */
const EVEN_MAX_RATE = 5_000;
/**
 * Budget 2 of issue 8 as restated in docs/decisions/012: requests per second one process carries
 * per route and engine, and p99 under 50 ms at half of that, evenly paced. The ratio to the bare
 * route is printed beside them (the issue's first wording) so per-request cost stays visible.
 */
const CAPACITY_TARGETS: Record<string, Record<string, number>> = {
  search: { 'app PGlite': 150, 'app PostgreSQL': 400 },
  'get-books': { 'app PGlite': 150, 'app PostgreSQL': 250 },
};
const P99_TARGET_MS = 50;
/**
 * CPU per request of the app process on PGlite (docs/decisions/019): knowing who asks and the
 * course list, whose cost was mostly statements.
 */
const CPU_TARGETS_MS: Record<string, Record<string, number>> = {
  me: { 'app PGlite': 1.5 },
  'get-books': { 'app PGlite': 3 },
};
/**
 * Search by meaning is off in the app servers unless `SEMANTIC_SEARCH=true` is given: with it
 * on, a server that has just imported the catalogue spends the next half hour embedding its
 * 16,000 items on the second core, and a query's first embedding waits behind a batch of
 * them, so the run would measure that import's aftermath, not a search. What meaning adds to
 * a search is `bench:hybrid`'s to measure (issue 23).
 */
const SEMANTIC_SEARCH = process.env.SEMANTIC_SEARCH ?? 'false';
const profileDir = PROFILE ? mkdtempSync(path.join(os.tmpdir(), 'digi-api-profile-')) : undefined;

const SEARCHES = SEARCH_QUERIES.map((query) => `/api/search?${new URLSearchParams(query)}`);

interface Route {
  name: 'search' | 'get-books' | 'me';
  paths: string[];
  signedIn: boolean;
}

const ROUTE_NAMES = process.env.BENCH_ROUTES?.split(',');
const ROUTES: Route[] = (
  [
    { name: 'search', paths: SEARCHES, signedIn: false },
    { name: 'get-books', paths: ['/api/users/get-books'], signedIn: true },
    { name: 'me', paths: ['/api/users/me'], signedIn: true },
  ] satisfies Route[]
).filter((route) => !ROUTE_NAMES || ROUTE_NAMES.includes(route.name));

// ---------------------------------------------------------------------------------------------
// Servers

interface Target {
  name: string;
  url: string;
  /** Session cookies for the signed-in routes (the bare server needs none). */
  cookies: string[];
  pids(): number[];
  /** The database server's processes, when it has its own (PostgreSQL). */
  databasePids(): number[];
  /** Statements the app has sent to its database so far (the bare server has none). */
  statements?(): Promise<number>;
  stop(): Promise<void>;
}

/** `bench/api-bare-server.ts` in its own process, serving the answers in `answersFile`. */
function startBareServer(answersFile: string): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/api-bare-server.ts'], {
    cwd: ROOT,
    env: { ...process.env, BARE_ANSWERS: answersFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the bare server exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const port = /listening on (\d+)/.exec(chunk.toString())?.[1];
      if (!port) return;
      resolve({
        name: 'bare Fastify',
        url: `http://127.0.0.1:${port}`,
        cookies: [''],
        pids: () => [child.pid!],
        databasePids: () => [],
        stop: () => stopChild(child),
      });
    });
  });
}

function appTarget(
  name: string,
  server: ServerProcess,
  cookies: string[],
  databasePort?: string,
): Target {
  return {
    name,
    url: server.url,
    cookies,
    pids: () => [server.child.pid!],
    databasePids: () => (databasePort ? postgresPids(databasePort) : []),
    statements: () => server.statements(),
    stop: () => server.stop(),
  };
}

/**
 * One answer of each route from the app, to check they succeed and to give the bare server
 * bodies of the same size: the search answer of median size, the course list and who is signed in.
 */
async function captureAnswers(
  target: Target,
): Promise<{ search: unknown; books: unknown; me: unknown }> {
  const fetchJson = async (route: string, cookie = '') => {
    const response = await fetch(`${target.url}${route}`, { headers: { cookie } });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${route}: ${response.status} ${text}`);
    return { text, body: JSON.parse(text) as unknown };
  };
  const searches = [];
  for (const route of SEARCHES) searches.push(await fetchJson(route));
  searches.sort((a, b) => a.text.length - b.text.length);
  const search = searches[Math.floor(searches.length / 2)]!;
  const books = await fetchJson('/api/users/get-books', target.cookies[0]);
  const me = await fetchJson('/api/users/me', target.cookies[0]);
  const sizes = searches.map(({ text }) => Buffer.byteLength(text));
  console.log(
    `  answer sizes: search ${Math.min(...sizes).toLocaleString('en-US')} to ${Math.max(...sizes).toLocaleString('en-US')} bytes (median ${Buffer.byteLength(search.text).toLocaleString('en-US')}), get-books ${Buffer.byteLength(books.text).toLocaleString('en-US')} bytes`,
  );
  return { search: search.body, books: books.body, me: me.body };
}

// ---------------------------------------------------------------------------------------------
// Load

/** The paths (and cookies) of a route, in turn across all connections. */
function requestCycle(route: Route, target: Target) {
  let next = 0;
  return () => {
    const index = next++;
    const cookie = route.signedIn ? target.cookies[index % target.cookies.length]! : '';
    return {
      path: route.paths[index % route.paths.length]!,
      headers: cookie ? { cookie } : {},
    };
  };
}

interface Run {
  /** Requests per second completed. */
  rate: number;
  p50: number;
  p99: number;
  completed: number;
  non2xx: number;
  errors: number;
  /** Open loop: requests still unanswered 5 s after the last was due. */
  unanswered?: number;
}

/** autocannon for `seconds`, closed loop (`overallRate` unset) or with its per-second quotas. */
async function autocannonRun(
  route: Route,
  target: Target,
  seconds: number,
  overallRate?: number,
): Promise<Run> {
  const next = requestCycle(route, target);
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: seconds,
    ...(overallRate
      ? { overallRate: Math.round(overallRate), ignoreCoordinatedOmission: true }
      : {}),
    requests: [
      {
        setupRequest: (request) => {
          const { path: requestPath, headers } = next();
          return { ...request, path: requestPath, headers: { ...request.headers, ...headers } };
        },
      },
    ],
  });
  return {
    rate: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    completed: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/**
 * Open loop: starts `rate` requests per second, evenly spaced, for `seconds`, through up to
 * CONNECTIONS keep-alive connections; each is timed from when it was due. What has not been
 * answered 5 s after the last start counts as unanswered (an infinite latency).
 */
async function pacedRun(route: Route, target: Target, seconds: number, rate: number) {
  const next = requestCycle(route, target);
  const { hostname, port } = new URL(target.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const total = Math.max(1, Math.round(rate * seconds));
  const start = performance.now() + 5;
  let sent = 0;
  let outstanding = 0;
  let non2xx = 0;
  let errors = 0;
  let lastEnd = start;
  let abandoned = false;
  await new Promise<void>((resolve) => {
    const settle = () => {
      outstanding -= 1;
      if (sent === total && outstanding === 0) resolve();
    };
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - start) * rate) / 1000) + 1);
      while (sent < due) {
        const dueAt = start + (sent * 1000) / rate;
        sent += 1;
        outstanding += 1;
        const { path: requestPath, headers } = next();
        const request = http.get(
          { hostname, port, path: requestPath, headers, agent },
          (response) => {
            const status = response.statusCode ?? 0;
            if (status < 200 || status >= 300) non2xx += 1;
            response.resume();
            response.once('end', () => {
              lastEnd = performance.now();
              latencies.push(lastEnd - dueAt);
              settle();
            });
          },
        );
        request.once('error', () => {
          if (!abandoned) errors += 1;
        });
      }
      if (sent < total) setTimeout(tick, 1);
      else setTimeout(resolve, 5_000);
    };
    setTimeout(tick, 5);
  });
  abandoned = true;
  const unanswered = total - latencies.length;
  agent.destroy();
  const answeredRate = latencies.length / ((lastEnd - start) / 1000);
  for (let index = 0; index < unanswered; index += 1) latencies.push(Infinity);
  return {
    rate: answeredRate,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    completed: total - unanswered,
    non2xx,
    errors,
    unanswered,
  } satisfies Run;
}

interface Row extends Run {
  server: string;
  route: Route['name'];
  load: string;
  /** Requests per second asked for (paced points). */
  offered: number | undefined;
  client: 'autocannon' | 'even';
  serverCpuMs: number;
  databaseCpuMs: number;
  benchCpuMs: number;
  /** Statements the app sent to its database during the run (undefined for the bare server). */
  statements: number | undefined;
  /** The machine's 1-minute load average when the run ended (other work on it shows here). */
  loadAverage: number;
}

const rows: Row[] = [];

/**
 * Waits until the server is idle (under 10 % of a core for 250 ms; at most 10 s): when a run
 * ends, the server still works off the requests it had queued, and the next run would start
 * behind them.
 */
async function settle(target: Target): Promise<void> {
  const pids = [...target.pids(), ...target.databasePids()];
  for (let waited = 0; waited < 10_000; waited += 250) {
    const before = processCpuMs(pids);
    await sleep(250);
    if (cpuSpent(before, processCpuMs(pids)) < 25) return;
  }
}

/**
 * Runs `run`, once the server is idle, while reading the CPU time of the server, its database
 * and this process.
 */
async function measured(
  target: Target,
  route: Route,
  load: string,
  client: Row['client'],
  offered: number | undefined,
  run: () => Promise<Run>,
): Promise<Row> {
  await settle(target);
  const databasePids = target.databasePids();
  const serverBefore = processCpuMs(target.pids());
  const databaseBefore = processCpuMs(databasePids);
  const statementsBefore = await target.statements?.();
  const benchBefore = process.cpuUsage();
  const result = await run();
  const bench = process.cpuUsage(benchBefore);
  const statementsAfter = await target.statements?.();
  const row: Row = {
    ...result,
    server: target.name,
    route: route.name,
    load,
    offered,
    client,
    serverCpuMs: cpuSpent(serverBefore, processCpuMs(target.pids())),
    databaseCpuMs: cpuSpent(databaseBefore, processCpuMs(databasePids)),
    benchCpuMs: (bench.user + bench.system) / 1000,
    statements:
      statementsBefore === undefined || statementsAfter === undefined
        ? undefined
        : statementsAfter - statementsBefore,
    loadAverage: os.loadavg()[0] ?? NaN,
  };
  rows.push(row);
  printRow(row);
  return row;
}

/**
 * Both paced measurements of one load point. The open loop only at a rate the server reached at
 * saturation (above it, the queue and the latency grow for as long as the run lasts) and that
 * the client can send on time (Node's HTTP client costs far more per request than autocannon's).
 */
async function pacedPoint(
  target: Target,
  route: Route,
  load: string,
  rate: number,
  saturatedRate: number,
) {
  const viaAutocannon = await measured(target, route, load, 'autocannon', rate, () =>
    autocannonRun(route, target, WINDOW_S, rate),
  );
  if (rate > saturatedRate || rate > EVEN_MAX_RATE) {
    console.log(
      `  (no open-loop run: ${format(rate)}/s is over ${rate > saturatedRate ? 'the saturated rate' : 'what the open-loop client sends evenly'})`,
    );
    return { viaAutocannon, even: undefined };
  }
  const even = await measured(target, route, load, 'even', rate, () =>
    pacedRun(route, target, WINDOW_S, rate),
  );
  return { viaAutocannon, even };
}

const bareSaturated = (route: Route['name']) =>
  rows.find(
    (row) => row.server === 'bare Fastify' && row.route === route && row.load === 'saturation',
  );

/** Every load point of one route on one server. */
async function measureRoute(target: Target, route: Route): Promise<void> {
  await autocannonRun(route, target, WARMUP_S);
  const saturated = await measured(target, route, 'saturation', 'autocannon', undefined, () =>
    autocannonRun(route, target, WINDOW_S),
  );
  const bare = bareSaturated(route.name);
  if (!bare || bare === saturated) {
    await pacedPoint(target, route, 'half', saturated.rate / 2, saturated.rate);
    return;
  }
  // Half the bare route's rate is far beyond any route that reads the database (decision 012):
  // it would only measure saturation again, so the app is paced at half of its own rate.
  await pacedPoint(target, route, 'half of own', saturated.rate / 2, saturated.rate);
}

async function measure(target: Target): Promise<void> {
  console.log(`\n${target.name}`);
  for (const route of ROUTES) await measureRoute(target, route);
}

// ---------------------------------------------------------------------------------------------
// Report

const HEADER =
  'server         | route     | load         | client     | offered/s |  req/s | p50 ms | p99 ms | vs bare | server CPU | ms/req | stmt/req | db CPU | db ms/req | bench CPU | load | non-2xx | errors | unanswered';

function printRow(row: Row) {
  const seconds = row.completed / row.rate;
  const bare = bareSaturated(row.route);
  const ratio = row.load === 'saturation' && bare ? format(row.rate / bare.rate, 3) : '';
  const percent = (cpuMs: number) => `${format(cpuMs / 10 / seconds)} %`;
  const database = row.databaseCpuMs > 0;
  console.log(
    [
      row.server.padEnd(14),
      row.route.padEnd(9),
      row.load.padEnd(12),
      row.client.padEnd(10),
      format(row.offered).padStart(9),
      format(row.rate).padStart(6),
      format(row.p50, 1).padStart(6),
      format(row.p99, 1).padStart(6),
      ratio.padStart(7),
      percent(row.serverCpuMs).padStart(10),
      format(row.serverCpuMs / row.completed, 2).padStart(6),
      (row.statements === undefined ? '' : format(row.statements / row.completed, 2)).padStart(8),
      (database ? percent(row.databaseCpuMs) : '').padStart(6),
      (database ? format(row.databaseCpuMs / row.completed, 2) : '').padStart(9),
      percent(row.benchCpuMs).padStart(9),
      format(row.loadAverage, 1).padStart(4),
      String(row.non2xx).padStart(7),
      String(row.errors).padStart(6),
      row.unanswered === undefined ? '' : String(row.unanswered).padStart(10),
    ].join(' | '),
  );
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(SHARED_DATA)) {
  console.error(`No ${SHARED_DATA}: the shared data must sit beside the repository.`);
  process.exit(1);
}
const wanted = (engine: string) => !ENGINES || ENGINES.includes(engine);
const benchStarted = performance.now();
console.log(machineLine());
console.log(
  `${CONNECTIONS} connections, warm-up ${WARMUP_S} s, window ${WINDOW_S} s${QUICK ? ' (--quick)' : ''}; ` +
    `search by meaning ${SEMANTIC_SEARCH === 'false' ? 'off' : `SEMANTIC_SEARCH=${SEMANTIC_SEARCH}`}`,
);

const work = mkdtempSync(path.join(os.tmpdir(), 'digi-api-bench-'));
const engines: { name: string; start(): Promise<Target>; dispose(): void }[] = [];
if (wanted('PGlite')) {
  const dataDir = path.join(work, 'pglite');
  engines.push({
    name: 'PGlite',
    async start() {
      console.log('\napp, PGlite');
      const database = await openDatabase({ dataDir });
      await loadCatalogue(database);
      await database.close();
      const server = await startAppServer(
        { DATA_DIR: dataDir, SEMANTIC_SEARCH },
        { profileDir, countStatements: true },
      );
      return appTarget('app PGlite', server, await registerPeople(server, PEOPLE));
    },
    dispose: () => {},
  });
}
if (wanted('PostgreSQL') && findPostgresBin()) {
  let stopCluster = () => {};
  engines.push({
    name: 'PostgreSQL',
    async start() {
      console.log('\napp, PostgreSQL');
      const postgres = await privatePostgres('bench');
      if (!postgres) throw new Error('PostgreSQL is not installed');
      stopCluster = postgres.stop;
      const { url, port } = postgres;
      const database = openPostgres(url);
      await loadCatalogue(database);
      await database.close();
      const server = await startAppServer(
        { DATA_DIR: path.join(work, 'postgres'), DATABASE_URL: url, SEMANTIC_SEARCH },
        { profileDir, countStatements: true },
      );
      return appTarget('app PostgreSQL', server, await registerPeople(server, PEOPLE), port);
    },
    dispose: () => {
      const stop = stopCluster;
      stopCluster = () => {};
      stop();
    },
  });
} else if (wanted('PostgreSQL')) {
  console.log(
    'PostgreSQL is not installed (apt-get install -y postgresql): measuring PGlite only.',
  );
}

let running: Target | undefined;
try {
  let first = true;
  for (const engine of engines) {
    const target = (running = await engine.start());
    if (first) {
      // The baseline first, with the first app's answers; that app waits, idle, meanwhile.
      first = false;
      const answersFile = path.join(work, 'answers.json');
      writeFileSync(answersFile, JSON.stringify(await captureAnswers(target)));
      const bare = await startBareServer(answersFile);
      console.log(`\n${HEADER}`);
      await measure(bare);
      await bare.stop();
    }
    await measure(target);
    await target.stop();
    running = undefined;
    engine.dispose();
  }
} finally {
  await running?.stop();
  for (const engine of engines) engine.dispose();
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${HEADER}`);
for (const row of rows) printRow(row);

console.log('\nTargets (issue 8, budget 2 as restated in docs/decisions/012; CPU: decision 019):');
for (const route of ROUTES) {
  const bare = bareSaturated(route.name);
  for (const server of ['app PGlite', 'app PostgreSQL']) {
    const of = (loadName: string, client: Row['client']) =>
      rows.find(
        (row) =>
          row.server === server &&
          row.route === route.name &&
          row.load === loadName &&
          row.client === client,
      );
    const saturated = of('saturation', 'autocannon');
    const ownEven = of('half of own', 'even');
    if (!bare || !saturated || !ownEven) continue;
    const capacity = CAPACITY_TARGETS[route.name]?.[server];
    const cpuTarget = CPU_TARGETS_MS[route.name]?.[server];
    const perRequest = (row: Row) => (row.serverCpuMs + row.databaseCpuMs) / row.completed;
    const verdict = (met: boolean) => (met ? 'met' : 'missed');
    const appCpu = saturated.serverCpuMs / saturated.completed;
    console.log(
      `  ${route.name}, ${server}: ${format(saturated.rate, 0)} requests/s` +
        (capacity === undefined
          ? '; '
          : ` (target ≥ ${capacity}: ${verdict(saturated.rate >= capacity)}); `) +
        `p99 ${format(ownEven.p99, 1)} ms at half of that, evenly paced (target < ${P99_TARGET_MS} ms: ${verdict(ownEven.p99 < P99_TARGET_MS)}); ` +
        `${format(saturated.rate / bare.rate, 3)} × the bare route; CPU per request ${format(perRequest(saturated), 2)} ms (bare ${format(perRequest(bare), 2)} ms)` +
        (cpuTarget === undefined
          ? ''
          : `, app ${format(appCpu, 2)} ms (target ≤ ${cpuTarget}: ${verdict(appCpu <= cpuTarget)})`) +
        (saturated.statements === undefined
          ? ''
          : `; ${format(saturated.statements / saturated.completed, 2)} statements per request`),
    );
  }
}
const failures = rows.reduce((sum, row) => sum + row.non2xx + row.errors, 0);
const unanswered = rows.reduce((sum, row) => sum + (row.unanswered ?? 0), 0);
console.log(
  failures === 0
    ? '  every response was 2xx, no errors'
    : `  ${failures} responses other than 2xx or errors: the figures above do not count`,
);
if (unanswered > 0) console.log(`  ${unanswered} open-loop requests unanswered (over capacity)`);
console.log(
  `\nload average ${loadAverage()}; ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`,
);
if (profileDir) console.log(`CPU profiles of the app processes: ${profileDir}`);
if (failures > 0) process.exitCode = 1;
