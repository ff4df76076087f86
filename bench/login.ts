/**
 * `npm run bench:login [-- --profile]`: a sign-in storm (issue 8, budget 6) and what it does to
 * the chat.
 *
 * Baseline: the raw password-verification rate of this machine, measured in this process with
 * better-auth's own default, `verifyPassword` from `better-auth/crypto` (Node's `crypto.scrypt`,
 * N = 16384, r = 16, p = 1, 64-byte key, 32 MiB per hash, on a hash made by its `hashPassword`),
 * 16 verifications in flight. Node runs `crypto.scrypt` on libuv's thread pool (4 threads unless
 * UV_THREADPOOL_SIZE says otherwise), so one process hashes on 4 threads here, on 2 cores; the
 * event loop's delay is measured meanwhile. The server uses the same scrypt in its own threads
 * (server/auth/password.ts). The machine is shared, so the baseline is measured for 3 s right
 * before every storm (and for 5 s at the start and the end, for the record).
 *
 * Then the server (`server/index.ts` as `npm start` runs it, in its own process): 200 people are
 * registered through `POST /api/users/register`, and 40 of them hold one chat socket each in
 * 5 rooms of 8 (the wire protocol over `ws`, bench/lib-socket.ts), every one sending a message
 * every 2 s (20 messages/s, 140 deliveries/s); every other member of the room timestamps the
 * delivery (the sender's `performance.now()` is in the text: one clock). Windows of 10 s, after
 * 2 s of warm-up each, alternate: quiet (chat only), storm (chat plus sign-ins), three times, and
 * a last quiet one. The storm is 16 clients signing in one after the other, as the web app does
 * (`POST /api/users/login` with `{ email, password }`, the page's route; better-auth's
 * `signInEmail` behind it), taking the 200 people in turn. On PostgreSQL a `SELECT 1` from this
 * process every 50 ms tells whether the database itself slows down.
 *
 * Rate limits: `/api/users/login` allows 300 failed attempts per address per 15 min and slows
 * an (e-mail, address) pair after 5 failures (server/http/sign-in-throttle.ts, decision 020);
 * a sign-in counts against neither. better-auth's own limiter applies to `/api/auth/*` only. The
 * storm keeps both on: the server runs with TRUST_PROXY=true, as behind the reverse proxy it is
 * meant for, and each person signs in from an address of their own (X-Forwarded-For, 198.18/15,
 * the benchmarking range), with the right password. Any answer other than 200 is counted and
 * printed.
 *
 * Budgets, each judged on the median of the three storms, so that one window disturbed by other
 * work on the machine does not decide: sign-ins per second ≥ 0.8 × the raw rate measured just
 * before that storm; chat p99 during the storm ≤ 2 × the mean p99 of the quiet windows either
 * side. Also printed: CPU time of the server (and database) per sign-in against the baseline's
 * per verification, which other work moves less. Engines: PGlite and, when installed, PostgreSQL
 * (`BENCH_ENGINES`). `--profile` writes a CPU profile of each server process
 * (`node --cpu-prof`) to a folder it prints.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import pg from 'pg';
import { registrationFactory } from '#server/test/factories.ts';
import {
  cpuSpent,
  percentile,
  postgresPids,
  processCpuMs,
  registerPeople,
  startAppServer,
  type ServerProcess,
  loadAverage,
  sleep,
  machineLine,
  privatePostgres,
} from './lib.ts';
import { connectSocketIo, type WireSocket, createRooms } from './lib-socket.ts';

const PROFILE = process.argv.includes('--profile');
const ENGINES = process.env.BENCH_ENGINES?.split(',');
const PEOPLE = 200;
const ROOMS = 5;
const PER_ROOM = 8;
const CHAT_INTERVAL_MS = 2_000;
const STORM_CLIENTS = 16;
const WARMUP_MS = 2_000;
const WINDOW_MS = 10_000;
const CYCLES = 3;
const BASELINE_MS = 5_000;
const CYCLE_BASELINE_MS = 3_000;
const BASELINE_IN_FLIGHT = 16;
const PASSWORD = 'correct horse battery';
const MARK = Buffer.from('BENCH|');
const profileDir = PROFILE ? mkdtempSync(path.join(os.tmpdir(), 'digi-login-profile-')) : undefined;

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '–');
const address = (index: number) => `198.18.${index >> 8}.${index & 255}`;

// ---------------------------------------------------------------------------------------------
// Baseline

interface Baseline {
  perSecond: number;
  cpuMsEach: number;
  loopDelayP99: number;
}

/** Verifications per second with BASELINE_IN_FLIGHT in flight, and CPU time per verification. */
async function measureHashing(durationMs = BASELINE_MS): Promise<Baseline> {
  const hash = await hashPassword(PASSWORD);
  for (let index = 0; index < 8; index += 1) await verifyPassword({ hash, password: PASSWORD });
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const end = started + durationMs;
  let done = 0;
  await Promise.all(
    Array.from({ length: BASELINE_IN_FLIGHT }, async () => {
      while (performance.now() < end) {
        if (!(await verifyPassword({ hash, password: PASSWORD }))) throw new Error('no match');
        done += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  delay.disable();
  return {
    perSecond: done / seconds,
    cpuMsEach: (cpu.user + cpu.system) / 1000 / done,
    loopDelayP99: delay.percentile(99) / 1e6,
  };
}

function printBaseline(label: string, baseline: Baseline) {
  console.log(
    `raw scrypt verification (${label}): ${fixed(baseline.perSecond)}/s, ${fixed(baseline.cpuMsEach)} ms of CPU each; ` +
      `event loop delay p99 meanwhile ${fixed(baseline.loopDelayP99)} ms`,
  );
}

// ---------------------------------------------------------------------------------------------
// Chat load

/** Chat latencies of the current phase (ms), recorded only inside its window. */
const chat = { recording: false, latencies: [] as number[], refused: 0, refusal: '', closed: 0 };

/** PostgreSQL only: `SELECT 1` round trips from this process every 50 ms (is the database slow?). */
const databaseProbe = { latencies: [] as number[] };

function startDatabaseProbe(url: string) {
  const client = new pg.Client({ connectionString: url });
  let running = true;
  const loop = (async () => {
    await client.connect();
    while (running) {
      const started = performance.now();
      await client.query('SELECT 1');
      if (chat.recording) databaseProbe.latencies.push(performance.now() - started);
      await sleep(50);
    }
    await client.end();
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/** Reads `BENCH|<sender>|<microseconds>|` from a delivery; the echo to the sender is not counted. */
function onChatEvent(receiver: number, frame: Buffer, now: number) {
  if (!chat.recording || frame[4] !== 0x72 || frame[5] !== 0x65) return; // receive_message only
  const at = frame.indexOf(MARK);
  if (at < 0) return;
  const [sender, micros] = frame
    .subarray(at + MARK.length, at + MARK.length + 40)
    .toString()
    .split('|')
    .map(Number);
  if (sender === receiver || micros === undefined) return;
  chat.latencies.push(now - micros / 1000);
}

/** Opens the chat sockets, one per person, and starts every one sending every CHAT_INTERVAL_MS. */
async function startChat(server: ServerProcess, cookies: string[], tag: string) {
  const rooms = Array.from({ length: ROOMS }, (_, index) => `login ${tag} ${index + 1}`);
  await createRooms(server.url, cookies, rooms);
  const sockets: WireSocket[] = [];
  for (let index = 0; index < ROOMS * PER_ROOM; index += 1) {
    const socket = await connectSocketIo(server.url, cookies[index]!, {
      onEvent: (frame, now) => onChatEvent(index, frame, now),
      onUnexpectedClose: () => (chat.closed += 1),
    });
    const room = rooms[Math.floor(index / PER_ROOM)]!;
    const joined = await socket.emit('join_room', { roomName: room });
    if (!joined.ok) throw new Error(`join_room: ${joined.message}`);
    sockets.push(socket);
  }
  let running = true;
  const loops = sockets.map(async (socket, index) => {
    const room = rooms[Math.floor(index / PER_ROOM)]!;
    let next = performance.now() + Math.random() * CHAT_INTERVAL_MS;
    while (running) {
      await sleep(Math.max(0, next - performance.now()));
      if (!running) break;
      const head = `BENCH|${index}|${Math.round(performance.now() * 1000)}|`;
      const answer = await socket.emit('send_message', {
        room,
        message: `${head} a question about the reading list for the seminar`,
      });
      if (!answer.ok) {
        chat.refused += 1;
        chat.refusal = answer.message;
      }
      next += CHAT_INTERVAL_MS;
    }
  });
  return async () => {
    running = false;
    await Promise.all(loops);
    for (const socket of sockets) socket.close();
  };
}

// ---------------------------------------------------------------------------------------------
// Storm

const storm = {
  running: false,
  recording: false,
  ok: 0,
  failed: new Map<string, number>(),
  latencies: [] as number[],
};

/** STORM_CLIENTS sign-in loops over `emails`, each person from their own forwarded address. */
function startStorm(url: string, emails: string[]) {
  storm.running = true;
  let next = 0;
  const loops = Array.from({ length: STORM_CLIENTS }, async () => {
    while (storm.running) {
      const person = next++ % emails.length;
      const started = performance.now();
      let outcome: string;
      try {
        const response = await fetch(`${url}/api/users/login`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            origin: url,
            'x-forwarded-for': address(person),
          },
          body: JSON.stringify({ email: emails[person], password: PASSWORD }),
        });
        await response.arrayBuffer();
        outcome = response.status === 200 ? 'ok' : `${response.status}`;
      } catch (error) {
        outcome = (error as Error).message;
      }
      if (!storm.recording) continue;
      if (outcome === 'ok') {
        storm.ok += 1;
        storm.latencies.push(performance.now() - started);
      } else storm.failed.set(outcome, (storm.failed.get(outcome) ?? 0) + 1);
    }
  });
  return async () => {
    storm.running = false;
    await Promise.all(loops);
  };
}

// ---------------------------------------------------------------------------------------------
// Runs

interface Phase {
  label: string;
  chatP50: number;
  chatP99: number;
  chatSamples: number;
  signInsPerSecond: number;
  signInP50: number;
  signInP99: number;
  serverCpu: number;
  databaseCpu: number;
  failed: string;
  /** The window's samples, for the totals over all windows of a kind. */
  chatLatencies: number[];
  signIns: number;
  signInLatencies: number[];
  /** `SELECT 1` from this process, PostgreSQL only. */
  databaseP99: number;
  /** Storms: the raw verification rate measured just before. */
  raw?: number;
}

/** One window: chat latencies and, during the storm, sign-ins; CPU of the server (and database). */
async function phase(label: string, pids: () => number[], databasePids: () => number[]) {
  await sleep(WARMUP_MS);
  Object.assign(chat, { latencies: [], recording: true });
  databaseProbe.latencies = [];
  Object.assign(storm, { ok: 0, failed: new Map(), latencies: [], recording: true });
  const serverBefore = processCpuMs(pids());
  const database = databasePids();
  const databaseBefore = processCpuMs(database);
  await sleep(WINDOW_MS);
  chat.recording = false;
  storm.recording = false;
  const result: Phase = {
    label,
    chatP50: percentile(chat.latencies, 50),
    chatP99: percentile(chat.latencies, 99),
    chatSamples: chat.latencies.length,
    signInsPerSecond: storm.ok / (WINDOW_MS / 1000),
    signInP50: percentile(storm.latencies, 50),
    signInP99: percentile(storm.latencies, 99),
    serverCpu: cpuSpent(serverBefore, processCpuMs(pids())) / WINDOW_MS,
    databaseCpu: cpuSpent(databaseBefore, processCpuMs(database)) / WINDOW_MS,
    failed: [...storm.failed].map(([outcome, count]) => `${count} × ${outcome}`).join(', '),
    chatLatencies: chat.latencies,
    signIns: storm.ok,
    signInLatencies: storm.latencies,
    databaseP99: percentile(databaseProbe.latencies, 99),
  };
  console.log(
    `  ${label.padEnd(8)} chat p50 ${fixed(result.chatP50).padStart(6)} ms, p99 ${fixed(result.chatP99).padStart(6)} ms (${result.chatSamples} deliveries)` +
      (result.signInsPerSecond > 0 || result.failed
        ? `; ${fixed(result.signInsPerSecond)} sign-ins/s, p50 ${fixed(result.signInP50, 0)} ms, p99 ${fixed(result.signInP99, 0)} ms`
        : '') +
      `; server CPU ${fixed(result.serverCpu * 100, 0)} %` +
      (result.databaseCpu > 0 ? `, database ${fixed(result.databaseCpu * 100, 0)} %` : '') +
      (Number.isFinite(result.databaseP99)
        ? `; SELECT 1 p99 ${fixed(result.databaseP99)} ms`
        : '') +
      (result.failed ? `; not signed in: ${result.failed}` : ''),
  );
  return result;
}

interface EngineResult {
  engine: string;
  quiet: Phase[];
  storms: Phase[];
}

async function measure(engine: string, env: Record<string, string>, databasePort?: string) {
  const server = await startAppServer(
    { DEMO_DATA: 'false', TRUST_PROXY: 'true', ...env },
    { profileDir },
  );
  const stopProbe = env.DATABASE_URL ? startDatabaseProbe(env.DATABASE_URL) : async () => {};
  try {
    console.log(`\n${engine}`);
    const emails: string[] = [];
    const cookies = await registerPeople(server, PEOPLE, () => {
      const account = registrationFactory({ firstName: 'Ada', password: PASSWORD });
      emails.push(account.email);
      return account;
    });
    const stopChat = await startChat(server, cookies, engine);
    const pids = () => [server.child.pid!];
    const databasePids = () => (databasePort ? postgresPids(databasePort) : []);
    const quiet: Phase[] = [];
    const storms: Phase[] = [];
    for (let cycle = 1; cycle <= CYCLES; cycle += 1) {
      quiet.push(await phase(`quiet ${cycle}`, pids, databasePids));
      const raw = await measureHashing(CYCLE_BASELINE_MS);
      console.log(`  raw scrypt verification: ${fixed(raw.perSecond)}/s`);
      const stopStorm = startStorm(server.url, emails);
      storms.push({ ...(await phase(`storm ${cycle}`, pids, databasePids)), raw: raw.perSecond });
      await stopStorm();
    }
    quiet.push(await phase(`quiet ${CYCLES + 1}`, pids, databasePids));
    await stopChat();
    if (chat.refused > 0) console.log(`  ${chat.refused} chat messages refused: ${chat.refusal}`);
    if (chat.closed > 0) console.log(`  ${chat.closed} chat sockets closed by the server`);
    return { engine, quiet, storms };
  } finally {
    await stopProbe();
    await server.stop();
  }
}

const wanted = (engine: string) => !ENGINES || ENGINES.includes(engine);
const benchStarted = performance.now();
console.log(machineLine());
console.log(
  `libuv thread pool: ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}; ${PEOPLE} people, ${STORM_CLIENTS} sign-in clients, chat ${ROOMS} rooms × ${PER_ROOM}, a message every ${CHAT_INTERVAL_MS / 1000} s each; windows ${WINDOW_MS / 1000} s after ${WARMUP_MS / 1000} s`,
);
const before = await measureHashing();
printBaseline('before', before);

const results: EngineResult[] = [];
if (wanted('PGlite')) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-login-'));
  try {
    results.push(await measure('PGlite', { DATA_DIR: dataDir }));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
const postgres = wanted('PostgreSQL') ? await privatePostgres('login') : undefined;
if (postgres) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-login-'));
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.url };
    results.push(await measure('PostgreSQL', env, postgres.port));
  } finally {
    postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
} else if (wanted('PostgreSQL')) {
  console.log('\nPostgreSQL is not installed (apt-get install -y postgresql): PGlite only.');
}

console.log('');
const after = await measureHashing();
printBaseline('after', after);
const rawCpu = (before.cpuMsEach + after.cpuMsEach) / 2;

console.log(
  `\nBudgets (issue 8): sign-ins/s ≥ 0.8 × the raw rate; chat p99 in the storm ≤ 2 × quiet (medians of the three storms)`,
);
const median = (values: number[]) => percentile(values, 50);
for (const { engine, quiet, storms } of results) {
  const all = (phases: Phase[], pick: (phase: Phase) => number[]) => phases.flatMap(pick);
  const rate =
    storms.reduce((sum, one) => sum + one.signIns, 0) / ((storms.length * WINDOW_MS) / 1000);
  const rateRatios = storms.map((one) => one.signInsPerSecond / (one.raw ?? NaN));
  const rateRatio = median(rateRatios);
  const cpu = storms.reduce((sum, one) => sum + one.serverCpu + one.databaseCpu, 0) / storms.length;
  const cpuEach = (cpu * 1000) / rate;
  // Each storm against the quiet windows either side of it: other work on the machine moves both.
  const latencyRatios = storms.map(
    (one, index) => one.chatP99 / ((quiet[index]!.chatP99 + quiet[index + 1]!.chatP99) / 2),
  );
  const latencyRatio = median(latencyRatios);
  const quietP99 = percentile(
    all(quiet, (one) => one.chatLatencies),
    99,
  );
  const stormP99 = percentile(
    all(storms, (one) => one.chatLatencies),
    99,
  );
  const signIns = all(storms, (one) => one.signInLatencies);
  console.log(
    `  ${engine}: ${fixed(rate)} sign-ins/s (p50 ${fixed(percentile(signIns, 50), 0)} ms, p99 ${fixed(percentile(signIns, 99), 0)} ms); ` +
      `each storm against the raw rate just before it: ${rateRatios.map((value) => fixed(value, 2)).join(', ')}; median ${fixed(rateRatio, 2)} (${rateRatio >= 0.8 ? 'met' : 'missed'}); ` +
      `${fixed(cpuEach)} ms of CPU per sign-in against ${fixed(rawCpu)} per verification = ${fixed(rawCpu / cpuEach, 2)} × per CPU-second`,
  );
  console.log(
    `    chat p99, each storm against the quiet windows either side: ${latencyRatios.map((value) => fixed(value, 2)).join(', ')}; median ${fixed(latencyRatio, 2)} (${latencyRatio <= 2 ? 'met' : 'missed'}); ` +
      `all storm windows ${fixed(stormP99)} ms against all quiet ones ${fixed(quietP99)} ms`,
  );
}
console.log(
  `\nload average ${loadAverage()}; ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`,
);
if (profileDir) console.log(`CPU profiles of the servers: ${profileDir}`);
