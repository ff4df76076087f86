/**
 * `npm run bench:web [-- --no-build] [-- --runs=3]`: what the web app costs a first visit, and
 * Lighthouse's scores for it (issue 8).
 *
 * 1. Builds the app (`vite build` into dist/web) unless `--no-build`, then prints every chunk in
 *    dist/web/assets with its size and gzip size (zlib level 9, as Vite's own report).
 * 2. Starts the real server as `npm start` runs it (`node --import tsx server/index.ts`,
 *    NODE_ENV=production, a fresh DATA_DIR with the demo data, a free port) and registers one
 *    student through `POST /api/users/register`, keeping the session cookie; the student opens
 *    the verification link the server mailed (`registerPeople` in ./lib.ts), as a real one would.
 * 3. Loads every screen in Chromium (playwright-core, /usr/bin/chromium), each in a fresh
 *    context so nothing is cached, signed in for the screens that need it, and records every
 *    script and stylesheet response the page makes until the network is idle. Sizes per file:
 *    the body, what came over the wire (the body as the server encoded it) and the body gzipped
 *    here (level 9). The budget is on the gzipped figure, so it does not depend on whether or how
 *    the server compresses; the wire column shows whether it does. A screen's "own" chunks are
 *    those the landing page does not load. 1 kB = 1,000 bytes, as Vite prints.
 * 4. Measures layout shift on the landing page in the same browser: the sum of `layout-shift`
 *    entries (without recent input) over 4 s after load, while the counters animate (2 s), in a
 *    phone-sized and a desktop-sized window.
 * 5. Runs Lighthouse (its default config: mobile, simulated throttling; categories performance,
 *    accessibility, best practices) `--runs` times (3) on the landing, sign-in and library search
 *    pages, in one headless Chromium started by chrome-launcher. The library search is signed in
 *    through Lighthouse's `extraHeaders` (the session cookie). Reports the median of each score
 *    and metric, and, for a category under its budget, the audits that cost it points.
 *
 * Budgets: the landing's first visit downloads at most 170 kB of gzipped JavaScript; performance
 * ≥ 95, accessibility = 100, best practices = 100; the landing's CLS ≈ 0 (under 0.01 here).
 * Lighthouse on a shared 2-core machine is noisy: the load average is printed with the figures.
 * The median runs' reports are kept as JSON in a temporary folder the script prints.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync, constants as zlibConstants } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result as LighthouseResult } from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { roomPath, ROUTES, type RouteName } from '#contract/routes.ts';
import { freePort } from '../scripts/lib/free-port.ts';
import { registrationFactory } from '#server/test/factories.ts';
import { registerPeople, watchVerificationLinks } from './lib.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const ASSETS = path.join(ROOT, 'dist', 'web', 'assets');
const CHROMIUM = '/usr/bin/chromium';
const BUILD = !process.argv.includes('--no-build');
const RUNS = Number(process.argv.find((arg) => arg.startsWith('--runs='))?.slice(7) ?? 3);

const BUDGET = {
  landingJsKb: 170,
  performance: 95,
  accessibility: 100,
  bestPractices: 100,
  cls: 0.01,
};

/** Screens that need no session; every other screen is loaded signed in as a student. */
const PUBLIC: readonly RouteName[] = ['landing', 'guest', 'signIn', 'signUp', 'forgotPassword'];
/** The pages Lighthouse scores. */
const LIGHTHOUSE_PAGES: readonly { name: string; route: RouteName }[] = [
  { name: 'landing', route: 'landing' },
  { name: 'sign-in', route: 'signIn' },
  { name: 'library search', route: 'librarySearch' },
];

const kB = (bytes: number) => (bytes / 1000).toFixed(1);
const gzipSize = (body: Buffer) =>
  gzipSync(body, { level: zlibConstants.Z_BEST_COMPRESSION }).length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const load = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
const verdict = (pass: boolean) => (pass ? 'pass' : 'FAIL');

/** Prints rows as a Markdown table, columns padded, numbers right-aligned. */
function table(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => (row[column] ?? '').length)),
  );
  const numeric = header.map((_, column) =>
    rows.every((row) => /^[\d.,–-]+%?$|^$/.test(String(row[column] ?? ''))),
  );
  const line = (row: string[]) =>
    `| ${row
      .map((cell, column) =>
        numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join(' | ')} |`;
  console.log(line(header));
  console.log(
    `| ${widths.map((width, column) => (numeric[column] ? `${'-'.repeat(width - 1)}:` : '-'.repeat(width))).join(' | ')} |`,
  );
  for (const row of cells.slice(1)) console.log(line(row));
}

// ---------------------------------------------------------------------------------------------
// Build

function build(): void {
  console.log('Building the web app (vite build)…');
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`vite build failed (${result.status})`);
}

interface Chunk {
  file: string;
  bytes: number;
  gzip: number;
}

/** Every .js and .css file Vite wrote to dist/web/assets, largest first. */
function builtChunks(): Chunk[] {
  return readdirSync(ASSETS)
    .filter((file) => /\.(js|css)$/.test(file))
    .map((file) => {
      const body = readFileSync(path.join(ASSETS, file));
      return { file, bytes: body.length, gzip: gzipSize(body) };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

// ---------------------------------------------------------------------------------------------
// Server

interface Server {
  url: string;
  child: ChildProcess;
  dataDir: string;
  /** The verification link it mailed to `email` (logged at `info`, mail in its outbox folder). */
  verificationLink(email: string): Promise<string>;
  stop(): Promise<void>;
}

/** The real server in production mode, on a free port, with a fresh DATA_DIR and demo data. */
async function startServer(): Promise<Server> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-web-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_SECRET: 'bench-only-secret-0123456789abcdefghijklmn',
      // `info`: the level at which it logs the links of the mail it writes to its outbox folder.
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DEMO_DATA: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const verificationLink = watchVerificationLinks(child.stdout!);
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not start in 120 s:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    child,
    dataDir,
    verificationLink,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dataDir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * Registers a student, who opens the verification link the server mailed; the session as a
 * `Cookie` header value.
 */
async function signUp(server: Server): Promise<string> {
  const [cookie] = await registerPeople(server, 1, () => registrationFactory({ role: 'student' }));
  return cookie!;
}

// ---------------------------------------------------------------------------------------------
// What each screen downloads

interface Download {
  file: string;
  kind: 'js' | 'css';
  bytes: number;
  wire: number;
  gzip: number;
  encoding: string;
}

const PHONE = { width: 412, height: 823 };
const DESKTOP = { width: 1350, height: 940 };

/** What a first visit downloaded, and how much its layout shifted. */
interface Visit {
  downloads: Download[];
  /** Sum of all layout shifts without recent input: CLS or more (CLS takes the worst burst). */
  cls: number;
  /** The elements that moved, as `TAG.class`, in the order they first did. */
  shifted: string[];
}

/**
 * Loads `pathname` in a fresh context (empty cache; signed in when `cookie` is given), waits for
 * the network to be idle and `settleMs` more, and returns the scripts and stylesheets it
 * downloaded and the layout shifts it saw.
 */
async function firstVisit(
  browser: Browser,
  url: string,
  pathname: string,
  cookie: string | undefined,
  { viewport = PHONE, settleMs = 1_000 } = {},
): Promise<Visit> {
  const context = await browser.newContext({ viewport });
  if (cookie) {
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const at = pair.indexOf('=');
        return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
      }),
    );
  }
  const page = await context.newPage();
  const pending: Promise<Download | undefined>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      (async () => {
        const body = await response.body();
        const sizes = await response.request().sizes();
        return {
          file: new URL(response.url()).pathname.replace(/^\/assets\//, ''),
          kind: type === 'script' ? 'js' : 'css',
          bytes: body.length,
          wire: sizes.responseBodySize,
          gzip: gzipSize(body),
          encoding: (await response.headerValue('content-encoding')) ?? 'none',
        } satisfies Download;
      })().catch(() => undefined),
    );
  });
  await page.addInitScript(() => {
    const record = { cls: 0, shifted: [] as string[] };
    (window as unknown as { __benchShifts: typeof record }).__benchShifts = record;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources: { node?: Node | null }[];
      })[]) {
        if (entry.hadRecentInput) continue;
        record.cls += entry.value;
        for (const source of entry.sources) {
          const node = source.node;
          const name =
            node instanceof Element
              ? `${node.tagName}${node.classList.length ? `.${[...node.classList].join('.')}` : ''}`
              : (node?.nodeName ?? '?');
          if (!record.shifted.includes(name)) record.shifted.push(name);
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const response = await page.goto(`${url}${pathname}`, { waitUntil: 'networkidle' });
  if (!response?.ok()) throw new Error(`${pathname} answered ${response?.status()}`);
  // Let a late lazy import (a screen's chunk after the guard's session check) finish.
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(settleMs);
  const shifts = await page.evaluate(
    () =>
      (window as unknown as { __benchShifts: { cls: number; shifted: string[] } }).__benchShifts,
  );
  const downloads = (await Promise.all(pending)).filter((item) => item !== undefined);
  await context.close();
  return { downloads, ...shifts };
}

// ---------------------------------------------------------------------------------------------
// Lighthouse

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

interface Scored {
  lhr: LighthouseResult;
  scores: Record<(typeof CATEGORIES)[number], number>;
  metrics: Record<string, number>;
}

async function lighthouseRun(port: number, pageUrl: string, cookie?: string): Promise<Scored> {
  const result = await lighthouse(pageUrl, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...(cookie ? { extraHeaders: { cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${pageUrl}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.message}`);
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  return {
    lhr,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
    },
    metrics: Object.fromEntries(METRICS.map(([id]) => [id, lhr.audits[id]?.numericValue ?? NaN])),
  };
}

/** Audits of `category` that cost it points (score under 1, or under 0.9 for metrics), worst first. */
function failingAudits(lhr: LighthouseResult, category: string) {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .map((ref) => ({ ref, audit: lhr.audits[ref.id] }))
    .filter(({ ref, audit }) => {
      if (!audit || audit.score === null) return false;
      if (audit.scoreDisplayMode === 'informative' || audit.scoreDisplayMode === 'notApplicable')
        return false;
      if (audit.scoreDisplayMode === 'manual') return false;
      return ref.group === 'metrics' ? audit.score < 0.9 : audit.score < 1;
    })
    .sort((a, b) => (a.audit?.score ?? 0) - (b.audit?.score ?? 0))
    .map(({ ref, audit }) => ({
      id: ref.id,
      title: audit!.title,
      score: audit!.score,
      displayValue: audit!.displayValue ?? '',
      weight: ref.weight,
    }));
}

// ---------------------------------------------------------------------------------------------
// Run

const started = performance.now();
console.log(
  `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${spawnSync(CHROMIUM, ['--version']).stdout.toString().trim()}`,
);
console.log(`load average ${load()}`);

if (BUILD) build();
const chunks = builtChunks();

const server = await startServer();
const reportDir = mkdtempSync(path.join(os.tmpdir(), 'digi-web-lighthouse-'));
let browser: Browser | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  const cookie = await signUp(server);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });

  // --- What each screen downloads on a first visit.
  const screens = (Object.keys(ROUTES) as RouteName[]).filter(
    (name) => name !== 'resourceRequestAlias',
  );
  const visits = new Map<RouteName, Visit>();
  for (const name of screens) {
    const pathname = name === 'chatRoom' ? roomPath('General') : ROUTES[name];
    const session = PUBLIC.includes(name) ? undefined : cookie;
    // The landing page for 4 s: its counters animate for 2 s and must not move anything.
    const settleMs = name === 'landing' ? 4_000 : 1_000;
    visits.set(name, await firstVisit(browser, server.url, pathname, session, { settleMs }));
  }
  const landing = visits.get('landing')?.downloads ?? [];
  const landingFiles = new Set(landing.map((item) => item.file));
  const encodings = new Set(
    [...visits.values()].flatMap((visit) => visit.downloads.map((item) => item.encoding)),
  );
  const sum = (items: Download[], key: 'bytes' | 'wire' | 'gzip', kind?: 'js' | 'css') =>
    items
      .filter((item) => !kind || item.kind === kind)
      .reduce((total, item) => total + item[key], 0);

  console.log('\nBuilt chunks (dist/web/assets), largest first; * = loaded by a first visit to /');
  table(
    ['chunk', 'size kB', 'gzip kB'],
    chunks.map((chunk) => [
      `${landingFiles.has(chunk.file) ? '* ' : ''}${chunk.file}`,
      kB(chunk.bytes),
      kB(chunk.gzip),
    ]),
  );
  const allJs = chunks.filter((chunk) => chunk.file.endsWith('.js'));
  console.log(
    `all JavaScript: ${allJs.length} files, ${kB(allJs.reduce((total, chunk) => total + chunk.bytes, 0))} kB, ` +
      `${kB(allJs.reduce((total, chunk) => total + chunk.gzip, 0))} kB gzipped`,
  );

  const uncompressed = encodings.has('none') && encodings.size === 1;
  console.log(
    `\nFirst visit per screen (empty cache, ${PHONE.width}×${PHONE.height} window). Content-encoding ` +
      `of scripts and stylesheets: ${[...encodings].join(', ')}` +
      `${uncompressed ? ' (the server does not compress: "wire" is the plain size)' : ''}. ` +
      '"gzip" is each body gzipped here (zlib level 9), whatever the server sent; "own JS" is the ' +
      "scripts a first visit to / does not load (the screen's lazy chunks); CLS is the sum of all " +
      'layout shifts until 1 s after the network is idle (4 s for /).',
  );
  table(
    [
      'screen',
      'path',
      'session',
      'JS files',
      'JS kB',
      'JS wire kB',
      'JS gzip kB',
      'own JS gzip kB',
      'CSS gzip kB',
      'CLS',
    ],
    screens.map((name) => {
      const visit = visits.get(name);
      const items = visit?.downloads ?? [];
      const own = items.filter((item) => !landingFiles.has(item.file));
      return [
        name,
        name === 'chatRoom' ? roomPath('General') : ROUTES[name],
        PUBLIC.includes(name) ? 'guest' : 'student',
        items.filter((item) => item.kind === 'js').length,
        kB(sum(items, 'bytes', 'js')),
        kB(sum(items, 'wire', 'js')),
        kB(sum(items, 'gzip', 'js')),
        kB(sum(own, 'gzip', 'js')),
        kB(sum(items, 'gzip', 'css')),
        (visit?.cls ?? NaN).toFixed(3),
      ];
    }),
  );
  console.log('\nFiles per screen beyond the landing page (gzip kB):');
  for (const name of screens) {
    const own = (visits.get(name)?.downloads ?? []).filter((item) => !landingFiles.has(item.file));
    if (own.length === 0) continue;
    console.log(`  ${name}: ${own.map((item) => `${item.file} ${kB(item.gzip)}`).join(', ')}`);
  }
  console.log('\nWhat moved on screens with CLS ≥ 0.01:');
  for (const name of screens) {
    const visit = visits.get(name);
    if (visit && visit.cls >= 0.01) console.log(`  ${name}: ${visit.shifted.join(', ')}`);
  }
  const landingJsGzip = sum(landing, 'gzip', 'js');
  const landingDesktop = await firstVisit(browser, server.url, '/', undefined, {
    viewport: DESKTOP,
    settleMs: 4_000,
  });
  const cls = [
    { window: `phone ${PHONE.width}×${PHONE.height}`, cls: visits.get('landing')?.cls ?? NaN },
    { window: `desktop ${DESKTOP.width}×${DESKTOP.height}`, cls: landingDesktop.cls },
  ];
  console.log(
    '\nLayout shift on / until 4 s after the network is idle (counters animate for 2 s):',
  );
  table(
    ['window', 'CLS'],
    cls.map((row) => [row.window, row.cls.toFixed(4)]),
  );
  await browser.close();
  browser = undefined;

  // --- Lighthouse.
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ['--headless=new', '--no-sandbox'],
    logLevel: 'silent',
  });
  console.log(`\nLighthouse (default config: mobile, simulated throttling), ${RUNS} runs per page`);
  const lighthouseRows: {
    name: string;
    runs: Scored[];
    medianScores: Scored['scores'];
    medianMetrics: Record<string, number>;
    representative: Scored;
  }[] = [];
  for (const { name, route } of LIGHTHOUSE_PAGES) {
    const runs: Scored[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const scored = await lighthouseRun(
        chrome.port,
        `${server.url}${ROUTES[route]}`,
        PUBLIC.includes(route) ? undefined : cookie,
      );
      runs.push(scored);
      console.log(
        `  ${name} run ${run + 1}: performance ${scored.scores.performance}, accessibility ${scored.scores.accessibility}, ` +
          `best practices ${scored.scores['best-practices']}, ${METRICS.map(([id, short]) => `${short} ${format(id, scored.metrics[id]!)}`).join(', ')}; load ${load()}`,
      );
    }
    const medianScores = Object.fromEntries(
      CATEGORIES.map((category) => [category, median(runs.map((run) => run.scores[category]))]),
    ) as Scored['scores'];
    const medianMetrics = Object.fromEntries(
      METRICS.map(([id]) => [id, median(runs.map((run) => run.metrics[id]!))]),
    );
    // The run whose performance score is the median: its audits explain the median.
    const representative = [...runs].sort((a, b) => a.scores.performance - b.scores.performance)[
      Math.floor(runs.length / 2)
    ]!;
    const file = path.join(reportDir, `${name.replace(/\s+/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(representative.lhr, null, 1));
    lighthouseRows.push({ name, runs, medianScores, medianMetrics, representative });
  }

  console.log(`\nLighthouse medians of ${RUNS} runs (reports of the median runs in ${reportDir})`);
  table(
    [
      'page',
      'performance',
      'accessibility',
      'best practices',
      'FCP',
      'LCP',
      'TBT',
      'CLS',
      'SI',
      'bytes kB',
    ],
    lighthouseRows.map((row) => [
      row.name,
      row.medianScores.performance,
      row.medianScores.accessibility,
      row.medianScores['best-practices'],
      ...METRICS.map(([id]) => format(id, row.medianMetrics[id]!)),
      kB(row.representative.lhr.audits['total-byte-weight']?.numericValue ?? NaN),
    ]),
  );

  // --- Budgets.
  const landingRow = lighthouseRows.find((row) => row.name === 'landing');
  const landingCls = landingRow?.medianMetrics['cumulative-layout-shift'] ?? NaN;
  const worstObservedCls = Math.max(...cls.map((row) => row.cls));
  const budgetRows: (string | number)[][] = [
    [
      'JS of a first visit to / (gzip)',
      `${kB(landingJsGzip)} kB`,
      `≤ ${BUDGET.landingJsKb} kB`,
      verdict(landingJsGzip <= BUDGET.landingJsKb * 1000),
    ],
  ];
  for (const row of lighthouseRows) {
    budgetRows.push(
      [
        `performance, ${row.name}`,
        row.medianScores.performance,
        `≥ ${BUDGET.performance}`,
        verdict(row.medianScores.performance >= BUDGET.performance),
      ],
      [
        `accessibility, ${row.name}`,
        row.medianScores.accessibility,
        `= ${BUDGET.accessibility}`,
        verdict(row.medianScores.accessibility >= BUDGET.accessibility),
      ],
      [
        `best practices, ${row.name}`,
        row.medianScores['best-practices'],
        `= ${BUDGET.bestPractices}`,
        verdict(row.medianScores['best-practices'] >= BUDGET.bestPractices),
      ],
    );
  }
  budgetRows.push(
    [
      'CLS of / (Lighthouse, median)',
      landingCls.toFixed(3),
      `< ${BUDGET.cls}`,
      verdict(landingCls < BUDGET.cls),
    ],
    [
      'CLS of / (4 s in Chromium, worst window)',
      worstObservedCls.toFixed(3),
      `< ${BUDGET.cls}`,
      verdict(worstObservedCls < BUDGET.cls),
    ],
  );
  console.log(`\nBudgets (load average now ${load()})`);
  table(['budget', 'measured', 'target', 'verdict'], budgetRows);

  // --- Why a score is under its budget.
  const budgetOf = {
    performance: BUDGET.performance,
    accessibility: BUDGET.accessibility,
    'best-practices': BUDGET.bestPractices,
  };
  for (const row of lighthouseRows) {
    for (const category of CATEGORIES) {
      if (row.medianScores[category] >= budgetOf[category]) continue;
      const audits = failingAudits(row.representative.lhr, category);
      console.log(
        `\n${row.name}, ${category} ${row.medianScores[category]} < ${budgetOf[category]}: audits that cost points (median run)`,
      );
      table(
        ['audit', 'title', 'score', 'value', 'weight'],
        audits.map((audit) => [
          audit.id,
          audit.title,
          audit.score?.toFixed(2) ?? '–',
          audit.displayValue,
          audit.weight,
        ]),
      );
    }
  }
} finally {
  await browser?.close();
  chrome?.kill();
  await server.stop();
}
console.log(
  `\ndone in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${load()}`,
);

/** A Lighthouse metric for a table: milliseconds as seconds, CLS as it is. */
function format(id: string, value: number): string {
  if (id === 'cumulative-layout-shift') return value.toFixed(3);
  if (id === 'total-blocking-time') return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}
