/**
 * `npm run bench:memory`: resident memory of the processes a library runs (issue 8, budget 5),
 * read from /proc every 50 ms (VmRSS, and VmHWM, the kernel's own high-water mark, which also
 * catches what happens between two samples).
 *
 * 1. Import: `scripts/import.ts` (`npm run import -- books <file>`) in its own process, started
 *    with the very `node` command line of package.json's `import` script (npm's own process
 *    around it is left out), into a fresh DATA_DIR (PGlite) and, separately, a fresh PostgreSQL
 *    database. Budget: peak under 300 MB and flat. The importer's own short-lived child processes
 *    (esbuild while scripts/run-compiled.mjs compiles it; for a new DATA_DIR, PGlite's initdb,
 *    `createDataDir` in server/db/client.ts) are watched too, and their peak reported beside. The phases are told apart without touching the importer: "rows" is while the
 *    CSV file is open in the child (its /proc/<pid>/fd), so "before rows" is start-up, creating the
 *    database and migrating. The child also loads a one-line `--import` that writes
 *    `process.memoryUsage()` to stderr every 50 ms (heap used, external, array buffers), and the
 *    largest anonymous mapping of /proc/<pid>/smaps is read when the rows start: on PGlite, that
 *    is PostgreSQL's WebAssembly memory.
 * 2. Sockets: the server (`server/index.ts`, production, as `npm start` runs it) on the database
 *    the import just filled, holding 2,000 signed-in Socket.IO connections spread over 100 chat
 *    rooms (20 each, every one joined). Budget: under 500 MB. One person may hold many sockets
 *    (every tab is one; nothing limits them), so 200 people are registered
 *    (`POST /api/users/register`, scrypt each) and each opens 10 sockets, in 10 different rooms;
 *    `BENCH_PEOPLE` changes that. Clients speak the wire protocol over `ws` (bench/lib-socket.ts).
 *    Resident memory is read after registering (before connecting), once all 2,000 are connected
 *    and joined, after traffic (5 rounds of one message into every room, 1.1 s apart, each from a
 *    different person within its round, so the per-person rule holds: 500 messages, 10,000
 *    deliveries with the echo to the sender; after each, every socket sends `typing` and reacts to
 *    its room's new message, issue 26), and 2 s and 20 s after every socket disconnected.
 *    No chat username is set: the chat falls back to the first name (`chatName` in
 *    server/realtime/index.ts); the web page asks for one, the server does not.
 *
 * 3. Model: the server with the sentence embedding model loaded (issue 23: under 600 MB), as
 *    `npm start` runs it on a fresh database: the demo library, embedded at first start by the
 *    embedding job, then searches whose queries the model embeds (descriptive ones, so the
 *    search goes the hybrid way). Twice on one new database: first with SEMANTIC_SEARCH=false
 *    (no model: the same server and searches without it), then with search by meaning on.
 *    Resident memory is read after start-up, once `GET /api/health` says every item is embedded,
 *    and after the searches; VmHWM is the peak of the whole run.
 *
 * Engines: PGlite (the default) and, when Debian's PostgreSQL is installed, a private cluster
 * (the database's own processes are not counted: the budget is the app's process).
 * `BENCH_ENGINES=PGlite` or `PostgreSQL` measures one; `BENCH_PARTS=import`, `sockets` or `model`
 * (a comma list) the parts named.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  forEachAtMost,
  processMemory,
  registerPeople,
  ROOT,
  SHARED_DATA,
  startAppServer,
  type ServerProcess,
  loadAverage,
  sleep,
  machineLine,
  privatePostgres,
} from './lib.ts';
import { connectSocketIo, type WireSocket, createRooms } from './lib-socket.ts';
import { findPostgresBin } from '../scripts/lib/postgres-cluster.ts';

const ENGINES = process.env.BENCH_ENGINES?.split(',');
const PARTS = process.env.BENCH_PARTS?.split(',') ?? ['import', 'sockets', 'model'];
/** `BENCH_SIDE_LOAD=false`: the sockets' traffic without typing and reactions (to compare). */
const SIDE_LOAD = process.env.BENCH_SIDE_LOAD !== 'false';
const FILE = path.join(SHARED_DATA, 'books', 'goodbooks-10k_books.csv');
const SAMPLE_MS = 50;
const SOCKETS = 2_000;
const ROOMS = 100;
const PER_ROOM = SOCKETS / ROOMS;
const PEOPLE = Number(process.env.BENCH_PEOPLE ?? 200);
const ROUNDS = 5;
const ROUND_GAP_MS = 1_100;
const IMPORT_BUDGET_MB = 300;
const SERVER_BUDGET_MB = 500;
const MODEL_BUDGET_MB = 600;
/** How long the model part waits for the demo library's embeddings. */
const EMBEDDING_WAIT_MS = 600_000;
/** Descriptive queries (bench/topic-queries.ts): not known items, so each is embedded. */
const MODEL_QUERIES = [
  'research about neural networks',
  'how do computers understand human language',
  'dark matter and galaxies',
  'something like Frankenstein',
  'learning to program in python',
  'stories about growing up',
  'the history of the roman empire',
  'quantum computers and qubits',
];

const mb = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? '–' : `${Math.round(value)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

interface Usage {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/**
 * package.json's `npm run import` command, split into node's options and the rest (the script and
 * its arguments): the bench runs that same command, with its own `--import` among the options.
 */
function importCommand(): { nodeOptions: string[]; script: string[] } {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [program, ...words] = pkg.scripts.import!.trim().split(/\s+/);
  if (program !== 'node') throw new Error(`npm run import does not start with node: ${program}`);
  const first = words.findIndex((word) => !word.startsWith('-'));
  return { nodeOptions: words.slice(0, first), script: words.slice(first) };
}

/** The live child processes of `pid` (Linux). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/** Writes the child's `process.memoryUsage()` to stderr every 50 ms, as `MEM {…}` lines. */
const USAGE_REPORTER = `data:text/javascript,setInterval(()=>process.stderr.write("MEM "+JSON.stringify(process.memoryUsage())+"\\n"),${SAMPLE_MS}).unref()`;

const usageLine = (usage: Usage | undefined) =>
  usage
    ? `heap used ${mb(usage.heapUsed / 2 ** 20)}, external ${mb(usage.external / 2 ** 20)} (of which array buffers ${mb(usage.arrayBuffers / 2 ** 20)})`
    : 'no process.memoryUsage() reading';

/** True while `pid` holds `file` open (Linux). */
function holdsOpen(pid: number, file: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === file;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** The resident size of the process's largest anonymous mapping (MB), from /proc/<pid>/smaps. */
function largestAnonymousMapping(pid: number): number | undefined {
  try {
    let largest = 0;
    let anonymous = false;
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (mapping) anonymous = mapping[1] === '';
      const rss = /^Rss:\s+(\d+) kB/.exec(line);
      if (rss && anonymous) largest = Math.max(largest, Number(rss[1]));
    }
    return largest / 1024;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Import

interface ImportResult {
  engine: string;
  elapsedMs: number;
  exitCode: number | null;
  /** Highest sampled RSS before the CSV was opened (start-up, creating the database, migrations). */
  startPeak: number;
  /** The last sample before the rows started. */
  baseline: number;
  baselineUsage: Usage | undefined;
  wasm: number | undefined;
  /** Highest sampled RSS while the CSV was open, and the process's usage at that moment. */
  rowsPeak: number;
  rowsPeakUsage: Usage | undefined;
  rowsEnd: number;
  /** Growth in the second half of the rows over the first half's peak: none when memory is flat. */
  lateGrowth: number;
  /** VmHWM at the last reading: the true peak of the whole run. */
  hwm: number;
  /** The highest VmHWM of the importer's own child processes (esbuild; initdb of a new DATA_DIR). */
  helperHwm: number;
  summary: string;
}

/** Runs the importer in its own process and watches its memory. */
async function runImport(engine: string, env: Record<string, string>): Promise<ImportResult> {
  const started = performance.now();
  const { nodeOptions, script } = importCommand();
  const child = spawn(
    process.execPath,
    [...nodeOptions, '--import', USAGE_REPORTER, ...script, 'books', FILE],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const pid = child.pid!;
  const realFile = realpathSync(FILE);
  let usage: Usage | undefined;
  let stdout = '';
  let errors = '';
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('MEM ')) usage = JSON.parse(line.slice(4)) as Usage;
      else if (!/ rows…$/.test(line)) errors += `${line}\n`;
    }
  });
  const result: ImportResult = {
    engine,
    elapsedMs: 0,
    exitCode: null,
    startPeak: 0,
    baseline: 0,
    baselineUsage: undefined,
    wasm: undefined,
    rowsPeak: 0,
    rowsPeakUsage: undefined,
    rowsEnd: 0,
    lateGrowth: 0,
    hwm: 0,
    helperHwm: 0,
    summary: '',
  };
  let phase = 'start' as 'start' | 'rows' | 'after';
  let last = 0;
  const rows: { at: number; rss: number }[] = [];
  const sample = () => {
    const memory = processMemory(pid);
    if (!memory) return;
    result.hwm = memory.hwm;
    for (const helper of childrenOf(pid)) {
      result.helperHwm = Math.max(result.helperHwm, processMemory(helper)?.hwm ?? 0);
    }
    const open = holdsOpen(pid, realFile);
    if (phase === 'start' && open) {
      phase = 'rows';
      result.baseline = last;
      result.baselineUsage = usage;
      result.wasm = largestAnonymousMapping(pid);
    } else if (phase === 'rows' && !open) {
      phase = 'after';
      result.rowsEnd = last;
    }
    if (phase === 'start') result.startPeak = Math.max(result.startPeak, memory.rss);
    if (phase === 'rows') rows.push({ at: performance.now(), rss: memory.rss });
    if (phase === 'rows' && memory.rss > result.rowsPeak) {
      result.rowsPeak = memory.rss;
      result.rowsPeakUsage = usage;
    }
    last = memory.rss;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  sample();
  result.exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(timer);
  result.elapsedMs = performance.now() - started;
  if (phase === 'rows') result.rowsEnd = last;
  if (rows.length > 1) {
    const middle = (rows[0]!.at + rows.at(-1)!.at) / 2;
    const peakOf = (part: typeof rows) => Math.max(...part.map((sample) => sample.rss));
    result.lateGrowth = Math.max(
      0,
      peakOf(rows.filter((sample) => sample.at > middle)) -
        peakOf(rows.filter((sample) => sample.at <= middle)),
    );
  }
  result.summary = stdout.trim();
  if (result.exitCode !== 0 || errors.trim()) console.log(errors.trim());
  return result;
}

function printImport(row: ImportResult) {
  const growth = row.rowsPeak - row.baseline;
  console.log(
    `\nImport, ${row.engine}: exit code ${row.exitCode}, ${seconds(row.elapsedMs)} in all`,
  );
  console.log(
    `  ${row.summary
      .split('\n')
      .map((line) => line.trim())
      .join('; ')}`,
  );
  console.log(`  start-up, database and migrations: peak ${mb(row.startPeak)} (sampled)`);
  console.log(
    `  when the rows start: ${mb(row.baseline)}; ${usageLine(row.baselineUsage)}` +
      (row.engine.startsWith('PGlite')
        ? `; largest anonymous mapping (PGlite's WebAssembly memory) ${mb(row.wasm)} resident`
        : ''),
  );
  console.log(
    `  while the rows are read: peak ${mb(row.rowsPeak)} (${growth >= 0 ? '+' : ''}${Math.round(growth)} MB), ${mb(row.rowsEnd)} at the end, second half ${Math.round(row.lateGrowth)} MB over the first; at the peak ${usageLine(row.rowsPeakUsage)}`,
  );
  console.log(`  VmHWM (true peak of the process): ${mb(row.hwm)}`);
  if (row.helperHwm > 0) {
    console.log(
      `  its child processes (esbuild compiling the script; PGlite's initdb for a new DATA_DIR), highest sampled VmHWM: ${mb(row.helperHwm)}`,
    );
  }
  const peak = Math.max(row.hwm, row.rowsPeak, row.startPeak);
  console.log(
    `  budget: peak < ${IMPORT_BUDGET_MB} MB: ${peak < IMPORT_BUDGET_MB ? 'met' : 'missed'} (${mb(peak)}); ` +
      `flat while importing (the second half of the rows no higher than the first, within 10 MB): ${row.lateGrowth <= 10 ? 'met' : 'missed'}`,
  );
}

// ---------------------------------------------------------------------------------------------
// 2. Sockets

/** Resets the kernel's VmHWM of `pid` to its current RSS (Linux: `echo 5 > clear_refs`). */
function resetHighWaterMark(pid: number) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

/** Samples a process's memory; `phase()` returns the peak since the previous call. */
function watch(pid: number) {
  let peak = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, processMemory(pid)?.rss ?? 0);
  }, SAMPLE_MS);
  return {
    phase() {
      const now = processMemory(pid) ?? { rss: NaN, hwm: NaN };
      const result = { ...now, peak: Math.max(peak, now.rss) };
      peak = 0;
      return result;
    },
    stop: () => clearInterval(timer),
  };
}

interface Reading {
  label: string;
  rss: number;
  peak: number;
  hwm: number;
}

async function measureSockets(engine: string, server: ServerProcess): Promise<Reading[]> {
  const pid = server.child.pid!;
  const memory = watch(pid);
  const readings: Reading[] = [];
  const read = (label: string) => {
    const { rss, peak, hwm } = memory.phase();
    readings.push({ label, rss, peak, hwm });
    console.log(
      `  ${label.padEnd(34)} RSS ${mb(rss).padStart(7)}   peak since last ${mb(peak).padStart(7)}   VmHWM ${mb(hwm).padStart(7)}`,
    );
  };
  console.log(`\nSockets, ${engine} (server pid ${pid})`);
  await sleep(2_000);
  read('started (idle 2 s)');
  const cookies = await registerPeople(server, PEOPLE);
  await sleep(2_000);
  read(`${PEOPLE} people registered`);
  // Registering hashes passwords (scrypt, 32 MiB each, four at a time on libuv's threads): its
  // peak is not the sockets'. From here VmHWM counts from the RSS before connecting.
  resetHighWaterMark(pid);

  const rooms = Array.from({ length: ROOMS }, (_, index) => `memory room ${index + 1}`);
  await createRooms(server.url, cookies, rooms);

  let delivered = 0;
  let droppedByServer = 0;
  const onEvent = (frame: Buffer) => {
    // `42["receive_message",…`: room_history and room_metadata start with "ro", reactions_batch
    // and reactions_changed with "rea".
    if (frame[4] === 0x72 && frame[5] === 0x65 && frame[6] === 0x63) delivered += 1;
  };
  const onUnexpectedClose = () => (droppedByServer += 1);
  const sockets: WireSocket[] = new Array<WireSocket>(SOCKETS);
  const connectStarted = performance.now();
  await forEachAtMost(SOCKETS, 20, async (index) => {
    const socket = await connectSocketIo(server.url, cookies[index % PEOPLE]!, {
      onEvent,
      onUnexpectedClose,
    });
    const joined = await socket.emit('join_room', {
      roomName: rooms[Math.floor(index / PER_ROOM)],
    });
    if (!joined.ok) throw new Error(`join_room: ${joined.message}`);
    sockets[index] = socket;
  });
  console.log(
    `  ${SOCKETS} sockets connected and joined in ${seconds(performance.now() - connectStarted)}`,
  );
  await sleep(3_000); // the room list goes to every socket after a burst of joins
  read(`${SOCKETS} connected, ${ROOMS} rooms`);

  // Traffic: every round, one message into every room, each from a person not yet sending in
  // that round; rounds 1.1 s apart keep everyone within 5 messages per 5 s.
  let refused = 0;
  let refusal = '';
  let sideRefused = 0;
  let sideRefusal = '';
  const sendStarted = performance.now();
  for (let round = 0; round < ROUNDS; round += 1) {
    const busy = new Set<number>();
    const sends: Promise<void>[] = [];
    /** Each room's message of this round, which its members then react to. */
    const sent: (string | undefined)[] = new Array<string | undefined>(ROOMS);
    for (let room = 0; room < ROOMS; room += 1) {
      for (let offset = 0; offset < PER_ROOM; offset += 1) {
        const index = room * PER_ROOM + ((offset + round) % PER_ROOM);
        const person = index % PEOPLE;
        if (busy.has(person)) continue;
        busy.add(person);
        const text = `Round ${round + 1}: notes on chapter ${room + 1} of the reading list, pages 10 to 24, for Thursday's seminar.`;
        sends.push(
          sockets[index]!.emit('send_message', { room: rooms[room], message: text }).then(
            (answer) => {
              if (!answer.ok) {
                refused += 1;
                refusal = answer.message;
              } else sent[room] = answer.id;
            },
          ),
        );
        break;
      }
    }
    await Promise.all(sends);
    if (!SIDE_LOAD) {
      await sleep(ROUND_GAP_MS);
      continue;
    }
    // Issue 26's features held too: every socket types and reacts to its room's new message
    // (typing lists, reaction batches and the writer's queue are in the figure).
    const side = sockets.map(async (socket, index) => {
      const room = Math.floor(index / PER_ROOM);
      const roomName = rooms[room]!;
      const answers = [await socket.emit('typing', { roomName })];
      const messageId = sent[room];
      if (messageId)
        answers.push(await socket.emit('react_message', { roomName, messageId, emoji: '👍' }));
      for (const answer of answers) {
        if (answer.ok) continue;
        sideRefused += 1;
        sideRefusal = answer.message;
      }
    });
    await Promise.all(side);
    await sleep(ROUND_GAP_MS);
  }
  const expected = (ROUNDS * ROOMS - refused) * PER_ROOM;
  const deadline = performance.now() + 30_000;
  while (delivered < expected && performance.now() < deadline) await sleep(100);
  console.log(
    `  traffic: ${ROUNDS * ROOMS} messages (${refused} refused${refusal ? `: ${refusal}` : ''}), ${delivered.toLocaleString('en-US')} of ${expected.toLocaleString('en-US')} deliveries in ${seconds(performance.now() - sendStarted)}`,
  );
  if (SIDE_LOAD)
    console.log(
      `  and ${(ROUNDS * SOCKETS).toLocaleString('en-US')} typing and ${(ROUNDS * SOCKETS).toLocaleString('en-US')} reactions (${sideRefused} refused${sideRefusal ? `: ${sideRefusal}` : ''})`,
    );
  await sleep(2_000);
  read(`after ${ROUNDS * ROOMS} messages`);

  const closed = sockets.map(
    (socket) => new Promise<void>((resolve) => socket.socket.once('close', () => resolve())),
  );
  for (const socket of sockets) socket.close();
  await Promise.all(closed);
  await sleep(2_000);
  read('all disconnected, 2 s later');
  await sleep(18_000);
  read('all disconnected, 20 s later');
  if (droppedByServer > 0) console.log(`  ${droppedByServer} sockets closed by the server`);
  memory.stop();
  return readings;
}

function printSocketVerdict(engine: string, readings: Reading[]) {
  const connected = readings.slice(2, 4);
  const peak = Math.max(...connected.map((reading) => reading.peak));
  const hwm = Math.max(...readings.slice(2).map((reading) => reading.hwm));
  const registering = readings[1]!;
  const before = registering.rss;
  const grown = readings[2]!.rss - before;
  const after = readings.at(-1)!.rss;
  console.log(
    `  ${engine}: connecting added ${Math.round(grown)} MB of RSS (${Math.round((grown * 1024) / SOCKETS)} KB per socket; memory freed after registering is reused first); back to ${mb(after)} after disconnecting (${mb(before)} before connecting); ` +
      `while registering ${PEOPLE} people: peak ${mb(registering.peak)}, VmHWM ${mb(registering.hwm)}`,
  );
  console.log(
    `  budget: < ${SERVER_BUDGET_MB} MB with ${SOCKETS} sockets: ${Math.max(peak, hwm) < SERVER_BUDGET_MB ? 'met' : 'missed'} (sampled peak ${mb(peak)}, VmHWM ${mb(hwm)})`,
  );
}

// ---------------------------------------------------------------------------------------------
// 3. Model

interface ModelReading {
  semantic: boolean;
  readings: Reading[];
  /** Items embedded of all, when the job was done (or the wait ended); why not, when off. */
  embedded: string;
  embeddingMs: number;
  searchMs: number[];
}

/** The server on `env`'s database with the demo library, measured with or without the model. */
async function measureModel(
  engine: string,
  env: Record<string, string>,
  semantic: boolean,
): Promise<ModelReading> {
  const server = await startAppServer({
    DEMO_DATA: 'true',
    SEMANTIC_SEARCH: String(semantic),
    ...env,
  });
  const pid = server.child.pid!;
  const memory = watch(pid);
  const result: ModelReading = {
    semantic,
    readings: [],
    embedded: '',
    embeddingMs: 0,
    searchMs: [],
  };
  const read = (label: string) => {
    const { rss, peak, hwm } = memory.phase();
    result.readings.push({ label, rss, peak, hwm });
    console.log(
      `  ${label.padEnd(34)} RSS ${mb(rss).padStart(7)}   peak since last ${mb(peak).padStart(7)}   VmHWM ${mb(hwm).padStart(7)}`,
    );
  };
  try {
    console.log(
      `\nModel, ${engine}, SEMANTIC_SEARCH=${semantic} (server pid ${pid}, ${os.cpus().length} cores, load ${loadAverage()})`,
    );
    const started = performance.now();
    await sleep(2_000);
    read('started (idle 2 s)');
    // The embedding job of the demo library, as `GET /api/health` reports it.
    for (;;) {
      const health = (await (await fetch(`${server.url}/api/health`)).json()) as {
        searchByMeaning?: {
          available: boolean;
          reason?: string;
          embedded?: number;
          total?: number;
        };
      };
      const meaning = health.searchByMeaning;
      if (!meaning?.available) {
        result.embedded = `off: ${meaning?.reason ?? 'not said'}`;
        break;
      }
      result.embedded = `${meaning.embedded ?? '?'} of ${meaning.total ?? '?'} items embedded`;
      if (meaning.total !== undefined && meaning.embedded === meaning.total && meaning.total > 0) {
        break;
      }
      if (performance.now() - started > EMBEDDING_WAIT_MS) {
        result.embedded += ' (gave up waiting)';
        break;
      }
      await sleep(500);
    }
    result.embeddingMs = performance.now() - started;
    console.log(`  ${result.embedded} after ${seconds(result.embeddingMs)}`);
    await sleep(2_000);
    read('embedding job done (2 s later)');
    for (const q of MODEL_QUERIES) {
      const searchStarted = performance.now();
      const response = await fetch(`${server.url}/api/search?${new URLSearchParams({ q })}`);
      if (!response.ok) throw new Error(`GET /api/search: ${response.status}`);
      await response.json();
      result.searchMs.push(performance.now() - searchStarted);
    }
    console.log(
      `  ${MODEL_QUERIES.length} searches: ${result.searchMs.map((time) => Math.round(time)).join(', ')} ms`,
    );
    await sleep(2_000);
    read(`after ${MODEL_QUERIES.length} searches (2 s later)`);
    await sleep(10_000);
    read('idle 10 s more');
  } finally {
    memory.stop();
    await server.stop();
  }
  return result;
}

async function modelOn(engine: string, env: Record<string, string>) {
  const without = await measureModel(engine, env, false);
  const withModel = await measureModel(engine, env, true);
  const verdict = () => printModelVerdict(engine, without, withModel);
  verdict();
  verdicts.push(verdict);
}

function printModelVerdict(engine: string, without: ModelReading, withModel: ModelReading) {
  const idle = (result: ModelReading) => result.readings.at(-1)!.rss;
  const searched = (result: ModelReading) => result.readings.at(-2)!.rss;
  const peak = (result: ModelReading) =>
    Math.max(...result.readings.map((reading) => Math.max(reading.peak, reading.hwm)));
  console.log(
    `  ${engine}, model: ${withModel.embedded}; RSS after the searches ${mb(searched(withModel))} ` +
      `(${mb(searched(without))} with SEMANTIC_SEARCH=false), idle 10 s later ${mb(idle(withModel))} ` +
      `(${mb(idle(without))}), peak (VmHWM) ${mb(peak(withModel))} (${mb(peak(without))})`,
  );
  const highest = Math.max(searched(withModel), idle(withModel), peak(withModel));
  console.log(
    `  budget: < ${MODEL_BUDGET_MB} MB with the model loaded: ${highest < MODEL_BUDGET_MB ? 'met' : 'missed'} (highest ${mb(highest)}, the peak included)`,
  );
}

// ---------------------------------------------------------------------------------------------

const wanted = (engine: string) => !ENGINES || ENGINES.includes(engine);
if (!existsSync(FILE)) {
  console.error(`No ${FILE}: the shared data must sit beside the repository.`);
  process.exit(1);
}
console.log(machineLine());
const benchStarted = performance.now();
const verdicts: (() => void)[] = [];

/** Prepares a migrated database as an operator would (`npm run db:migrate`). */
function migrateDatabase(env: Record<string, string>) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/db-migrate.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`db:migrate failed: ${result.stderr}`);
}

async function importInto(engine: string, env: Record<string, string>) {
  const result = await runImport(engine, env);
  printImport(result);
  verdicts.push(() => printImport(result));
}

/** The server on `env`'s database, holding the sockets. */
async function socketsOn(engine: string, env: Record<string, string>) {
  const server = await startAppServer({ DEMO_DATA: 'false', TRUST_PROXY: 'true', ...env });
  try {
    const readings = await measureSockets(engine, server);
    printSocketVerdict(engine, readings);
    verdicts.push(() => printSocketVerdict(engine, readings));
  } finally {
    await server.stop();
  }
}

if (wanted('PGlite')) {
  const folders: string[] = [];
  const folder = () => {
    folders.push(mkdtempSync(path.join(os.tmpdir(), 'digi-memory-')));
    return folders.at(-1)!;
  };
  try {
    // A first import creates the database (PGlite's initdb) in the same process.
    if (PARTS.includes('import')) await importInto('PGlite, new DATA_DIR', { DATA_DIR: folder() });
    // The usual case: the library's database exists (created by the server or db:migrate).
    const env = { DATA_DIR: folder() };
    migrateDatabase(env);
    if (PARTS.includes('import')) await importInto('PGlite, existing DATA_DIR', env);
    if (PARTS.includes('sockets')) await socketsOn('PGlite', env);
    // A new database, as `npm start` on a fresh clone makes: the demo library alone.
    if (PARTS.includes('model')) await modelOn('PGlite', { DATA_DIR: folder() });
  } finally {
    for (const name of folders) rmSync(name, { recursive: true, force: true });
  }
}

const installed = wanted('PostgreSQL') && findPostgresBin() !== undefined;
if (installed && (PARTS.includes('import') || PARTS.includes('sockets'))) {
  const postgres = (await privatePostgres('memory'))!;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-memory-'));
  try {
    const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.url };
    if (PARTS.includes('import')) await importInto('PostgreSQL', env);
    else migrateDatabase(env);
    if (PARTS.includes('sockets')) await socketsOn('PostgreSQL', env);
  } finally {
    postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (installed && PARTS.includes('model')) {
  // A new database (the demo library alone), in a cluster of its own.
  const postgres = (await privatePostgres('memory_model'))!;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-memory-'));
  try {
    await modelOn('PostgreSQL', { DATA_DIR: dataDir, DATABASE_URL: postgres.url });
  } finally {
    postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
if (wanted('PostgreSQL') && !installed) {
  console.log('\nPostgreSQL is not installed (apt-get install -y postgresql): PGlite only.');
}

console.log('\nSummary');
for (const verdict of verdicts) verdict();
console.log(
  `\nload average ${loadAverage()}; ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`,
);
