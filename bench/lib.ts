import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { sql } from 'kysely';
import pg from 'pg';
import { importFile } from '#server/catalogue/import/import-file.ts';
import { createPglite, openPostgres, wrapPglite, type DatabaseHandle } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { findPostgresBin, startPostgresCluster } from '../scripts/lib/postgres-cluster.ts';
import { freePort } from '../scripts/lib/free-port.ts';
import { registrationFactory } from '#server/test/factories.ts';
import { followVerificationLink, verificationLinkIn } from '#server/test/process.ts';

/** The shared data beside the repository (see its README). */
export const SHARED_DATA = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data');

/** The real catalogue files in SHARED_DATA: 10k books, 4,100 papers, 2,211 courses. */
export const CATALOGUE_FILES = [
  ['books', 'books/goodbooks-10k_books.csv'],
  ['papers', 'papers/arxiv_sample_2000.csv'],
  ['papers', 'papers/arxiv_metadata_2100.json'],
  ['courses', 'courses/free-courses-en.csv'],
  ['courses', 'courses/free-programming-books-subjects.csv'],
] as const;

/**
 * Migrates the database and imports the real catalogue files with `importFile`, the code
 * `npm run import` runs; prints how many rows and how long.
 */
export async function loadCatalogue(handle: DatabaseHandle): Promise<void> {
  const started = performance.now();
  await migrate(handle);
  for (const [kind, file] of CATALOGUE_FILES) {
    await importFile(handle.db, kind, path.join(SHARED_DATA, file));
  }
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM items`.execute(handle.db);
  console.log(
    `  imported ${Number(rows[0]?.n).toLocaleString('en-US')} catalogue rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * {@link benchDatabases} as the environment asks: `BENCH_KEEP` (a folder for PGlite's data, kept
 * and reused), `BENCH_POSTGRES_URL` (an existing database) and `BENCH_ENGINES` (a comma list).
 */
export function benchDatabasesFromEnv(): ReturnType<typeof benchDatabases> {
  return benchDatabases({
    keep: process.env.BENCH_KEEP,
    postgresUrl: process.env.BENCH_POSTGRES_URL,
    engines: process.env.BENCH_ENGINES?.split(','),
  });
}

/**
 * A migrated database of each engine this machine has, with a way to drop it. Fresh unless
 * `keep` names a folder (PGlite's data is kept there and reused) and `postgresUrl` an existing
 * PostgreSQL database (used as it is): for measuring again without loading the rows again.
 */
export async function benchDatabases(
  options: {
    keep?: string | undefined;
    postgresUrl?: string | undefined;
    /** Only these engines ('PGlite', 'PostgreSQL'); all by default. */
    engines?: string[] | undefined;
  } = {},
): Promise<{ name: string; handle: DatabaseHandle; dispose(): Promise<void> }[]> {
  const result = [];
  const wanted = (name: string) => !options.engines || options.engines.includes(name);
  if (wanted('PGlite')) {
    const folder = options.keep ?? mkdtempSync(path.join(tmpdir(), 'digi-bench-'));
    // PGlite makes its own folder, not the ones above it: a kept folder may not exist yet.
    mkdirSync(folder, { recursive: true });
    const pglite = wrapPglite(await createPglite({ dataDir: path.join(folder, 'pglite') }));
    await migrate(pglite);
    result.push({
      name: 'PGlite',
      handle: pglite,
      dispose: async () => {
        await pglite.close();
        if (!options.keep) rmSync(folder, { recursive: true, force: true });
      },
    });
  }
  if (!wanted('PostgreSQL')) return result;
  if (options.postgresUrl) {
    const handle = openPostgres(options.postgresUrl);
    await migrate(handle);
    result.push({ name: 'PostgreSQL', handle, dispose: () => handle.close() });
    return result;
  }
  const postgres = await privatePostgres('bench');
  if (!postgres) {
    console.log(
      'PostgreSQL is not installed (apt-get install -y postgresql): measuring PGlite only.',
    );
    return result;
  }
  const handle = openPostgres(postgres.url);
  await migrate(handle);
  result.push({
    name: 'PostgreSQL',
    handle,
    dispose: async () => {
      await handle.close();
      postgres.stop();
    },
  });
  return result;
}

/** The p-th percentile (0–100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ??
    NaN
  );
}

/** Times `fn` `runs` times after `warmups` untimed runs; milliseconds per run. */
export async function timeRuns(
  fn: () => Promise<unknown>,
  runs: number,
  warmups = 3,
): Promise<number[]> {
  for (let index = 0; index < warmups; index += 1) await fn();
  const times: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

/** A number with two decimals for tables. */
export const ms = (value: number) => value.toFixed(2);

/** The repository's root, where child processes run. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/** CPU time (ms) used so far by each of these processes, from /proc (Linux). */
export function processCpuMs(pids: number[]): Map<number, number> {
  const times = new Map<number, number>();
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      times.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1000) / 100); // utime + stime, 100 Hz
    } catch {
      // Gone (a database backend that ended): not counted.
    }
  }
  return times;
}

/** CPU time used between two readings by the processes present in both. */
export function cpuSpent(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, time] of after) total += time - (before.get(pid) ?? time);
  return total;
}

/** The processes of the PostgreSQL server listening on `port`: its postmaster and children. */
export function postgresPids(port: string): number[] {
  const stats = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        return {
          pid: Number(pid),
          parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
          cmdline,
        };
      } catch {
        return undefined;
      }
    })
    .filter((entry) => entry !== undefined);
  const postmaster = stats.find((entry) => entry.cmdline.includes(`-p ${port} `));
  if (!postmaster) return [];
  return [
    postmaster.pid,
    ...stats.filter((entry) => entry.parent === postmaster.pid).map((entry) => entry.pid),
  ];
}

/** Resident memory of a process now and at its highest so far (VmRSS, VmHWM), in MB. */
export function processMemory(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]);
    const rss = kb('VmRSS');
    return Number.isFinite(rss) ? { rss: rss / 1024, hwm: kb('VmHWM') / 1024 } : undefined;
  } catch {
    return undefined; // gone
  }
}

/** Stops a child process with SIGTERM and waits for it to exit. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Runs `work(index)` for every index below `count`, at most `concurrency` at a time. */
export async function forEachAtMost(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

/** How long a registration's verification mail may take to show in its server's log. */
const VERIFICATION_MAIL_TIMEOUT_MS = 30_000;

/**
 * Registers `count` people on `server`, a few at a time, each from its own forwarded address, and
 * verifies each address as its person would (decision 026): by opening the link the server
 * mailed, which it logs when it writes mail to its outbox folder (no SMTP_URL). Their session
 * cookies in order. `account` makes each registration (to keep their e-mails).
 */
export async function registerPeople(
  server: Pick<ServerProcess, 'url' | 'verificationLink'>,
  count: number,
  account: () => Record<string, unknown> = () => registrationFactory({ firstName: 'Ada' }),
): Promise<string[]> {
  const { url } = server;
  const started = performance.now();
  const cookies: string[] = new Array<string>(count);
  await forEachAtMost(count, 8, async (index) => {
    const registration = account();
    const forwarded = { 'x-forwarded-for': `198.18.${index >> 8}.${index & 255}` };
    const response = await fetch(`${url}/api/users/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url, ...forwarded },
      body: JSON.stringify(registration),
    });
    if (response.status !== 200) {
      throw new Error(`registration failed (${response.status}): ${await response.text()}`);
    }
    const cookie = response.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const link = await server.verificationLink(String(registration.email));
    await followVerificationLink(link, cookie, forwarded);
    cookies[index] = cookie;
  });
  console.log(
    `  registered ${count} people (e-mail verified) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return cookies;
}

/**
 * The verification links a server process mails (decision 026), read from its JSON log on
 * `stdout` as it writes it (`verificationLinkIn`); from the start, so no line is read in part.
 * Returns the wait for the link mailed to an address, which takes it (a link is opened once).
 */
export function watchVerificationLinks(stdout: Readable): (email: string) => Promise<string> {
  const MARKER = 'mail written to the outbox';
  const links = new Map<string, string>();
  const waiting = new Map<string, (link: string) => void>();
  const decoder = new StringDecoder('utf8'); // a character split between chunks stays whole
  let partial = '';
  stdout.on('data', (chunk: Buffer) => {
    const text = partial + decoder.write(chunk);
    const end = text.lastIndexOf('\n');
    const complete = end < 0 ? '' : text.slice(0, end);
    partial = text.slice(end + 1);
    // Most lines are requests' logs: only those naming the outbox are parsed.
    if (!complete.includes(MARKER)) return;
    for (const line of complete.split('\n')) {
      if (!line.includes(MARKER) || !line.startsWith('{')) continue;
      const found = verificationLinkIn(JSON.parse(line) as Record<string, unknown>);
      if (!found) continue;
      const waiter = waiting.get(found.to);
      if (waiter) {
        waiting.delete(found.to);
        waiter(found.link);
      } else links.set(found.to, found.link);
    }
  });
  return (email) => {
    const to = email.toLowerCase();
    const link = links.get(to);
    if (link !== undefined) {
      links.delete(to);
      return Promise.resolve(link);
    }
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(to);
        reject(new Error(`no verification mail to ${to} in the server's log`));
      }, VERIFICATION_MAIL_TIMEOUT_MS);
      waiting.set(to, (found) => {
        clearTimeout(timer);
        resolve(found);
      });
    });
  };
}

/** A server child process and how to stop it. */
export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /**
   * How many statements it has sent to its database so far; only when started with
   * `countStatements` (otherwise it rejects).
   */
  statements(): Promise<number>;
  /**
   * The p99 and the longest of its event-loop delay since the last `resetLoopDelay()`, ms; only
   * when started with `loopDelay` (otherwise it rejects).
   */
  loopDelay(): Promise<{ p99: number; max: number }>;
  resetLoopDelay(): void;
  /**
   * The verification link the server mailed to `email` (`watchVerificationLinks`); it logs the
   * links only at `info` and without SMTP_URL, as `startAppServer` runs it.
   */
  verificationLink(email: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * `server/index.ts` as `npm start` runs it (production, JSON logs at `info`), on a free port;
 * `env` adds to or overrides that (DATA_DIR, DATABASE_URL, …). `profileDir` adds `--cpu-prof`
 * (not allowed in NODE_OPTIONS), writing the profile there when the process exits.
 * `countStatements` preloads `./count-statements.ts`, which counts the statements the server
 * sends to its database, and opens an IPC channel to ask it (`statements()`); `loopDelay`
 * preloads `./loop-delay.ts` likewise (`loopDelay()`).
 */
export async function startAppServer(
  env: Record<string, string>,
  options: { profileDir?: string | undefined; countStatements?: boolean; loopDelay?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const profile = options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [];
  // Preloaded after tsx, which it needs to be TypeScript.
  const counting = options.countStatements
    ? ['--import', path.join(import.meta.dirname, 'count-statements.ts')]
    : [];
  const watching = options.loopDelay
    ? ['--import', path.join(import.meta.dirname, 'loop-delay.ts')]
    : [];
  const ipc = options.countStatements || options.loopDelay;
  const args = [...profile, '--import', 'tsx', ...counting, ...watching, 'server/index.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      AUTH_SECRET: 'bench-only-secret-0123456789abcdefghijklmn',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      // Node or V8 options for the app's processes only, to compare settings without changing the
      // bench's own process (e.g. BENCH_SERVER_NODE_OPTIONS=--max-semi-space-size=32).
      ...(process.env.BENCH_SERVER_NODE_OPTIONS
        ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS }
        : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc' as const] : [])],
  });
  const verificationLink = watchVerificationLinks(child.stdout!);
  let tail = '';
  let listening = () => {};
  const onData = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-20_000);
    if (tail.includes('Digi Library is running at')) listening();
  };
  await new Promise<void>((resolve, reject) => {
    listening = resolve;
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${tail}`)));
  });
  // Keep reading its logs (a line per request), or it would block on a full pipe; stdout flows
  // into `verificationLink` from now on.
  child.stdout?.off('data', onData);
  child.stderr?.off('data', onData);
  child.stderr?.on('data', (chunk: Buffer) => {
    if (/error/i.test(chunk.toString())) process.stderr.write(chunk);
  });
  /** Sends `request` over the IPC channel; resolves with the first answer that has `key`. */
  const ask = <Answer>(request: string, key: string, refusal: string) =>
    new Promise<Answer>((resolve, reject) => {
      if (!child.connected) {
        reject(new Error(refusal));
        return;
      }
      const onMessage = (message: unknown) => {
        if (typeof message !== 'object' || message === null || !(key in message)) return;
        child.off('message', onMessage);
        resolve(message as Answer);
      };
      child.on('message', onMessage);
      child.send(request);
    });
  const statements = async () =>
    (
      await ask<{ statements: number }>(
        'statements',
        'statements',
        'this server does not count its statements',
      )
    ).statements;
  const loopDelay = async () => {
    const answer = await ask<{ loopDelayP99: number; loopDelayMax: number }>(
      'loop-delay',
      'loopDelayP99',
      'this server does not watch its event loop',
    );
    return { p99: answer.loopDelayP99, max: answer.loopDelayMax };
  };
  const resetLoopDelay = () => {
    if (child.connected) child.send('loop-delay:reset');
  };
  return {
    url,
    child,
    statements,
    loopDelay,
    resetLoopDelay,
    verificationLink,
    stop: () => stopChild(child),
  };
}

/** A number as the benches' tables print it: thousands separated, `digits` decimals, '–' if none. */
export const formatNumber = (value: number | undefined, digits = 0) =>
  value !== undefined && Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : '–';

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What people search for, in the benches that search the real catalogue: rare and common words,
 * a prefix, types, an author filter, a misspelling, page 2.
 */
export const SEARCH_QUERIES: readonly Record<string, string>[] = [
  { q: 'frankenstein' },
  { q: 'history' },
  { q: 'quant' },
  { q: 'neural networks', type: 'paper' },
  { author: 'tolkien', type: 'book' },
  { q: 'frankenstien' },
  { q: 'python', type: 'course' },
  { q: 'harry potter' },
  { q: 'machine learning' },
  { q: 'pride and prejudice' },
  { q: 'love', page: '2' },
  { q: 'data science', type: 'course' },
];

/** The load average over 1, 5 and 15 minutes, as `1.2 0.9 0.8`. */
export const loadAverage = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

/** The line a bench prints first: cores, memory, Node and the load average (machines are shared). */
export function machineLine(): string {
  return `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}; load average ${loadAverage()}`;
}

/**
 * A private PostgreSQL cluster (`startPostgresCluster`) holding one new, empty database named
 * `database` (a plain identifier); undefined when Debian's PostgreSQL is not installed.
 */
export async function privatePostgres(
  database: string,
): Promise<{ url: string; port: string; stop(): void } | undefined> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  const cluster = await startPostgresCluster(bin);
  try {
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  } catch (error) {
    cluster.stop();
    throw error;
  }
  return {
    url: cluster.url.replace(/\/postgres$/, `/${database}`),
    port: new URL(cluster.url).port,
    stop: () => cluster.stop(),
  };
}

/** Reads a process's RSS (MB) from /proc every `everyMs` until `stop()`; `samples` so far. */
export function watchMemory(pid: number, everyMs = 100) {
  const samples: { at: number; rss: number }[] = [];
  const read = () => {
    const memory = processMemory(pid);
    if (memory) samples.push({ at: performance.now(), rss: memory.rss });
  };
  read();
  const timer = setInterval(read, everyMs);
  return { samples, stop: () => clearInterval(timer) };
}
