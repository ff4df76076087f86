/**
 * `npm run bench:chat [-- --quick] [-- --profile]`: the chat's delivered messages per second and
 * delivery latency (p50/p99), for 1 room × 500 clients and 50 rooms × 10 clients, next to a bare
 * `ws` broadcast server (`bench/chat-ws-server.ts`) in the same run.
 *
 * Every server runs in its own process, as `npm start` runs it; the 500 clients run in this one.
 * Each client is its own signed-in person (registered through `POST /api/users/register` before
 * any timing) with one WebSocket, so the per-person rule of 5 messages per 5 s stays as it is:
 * a chat sender sends at most one message per 1.01 s. The baseline has no such rule.
 *
 * The clients speak the wire protocols directly over `ws` (Engine.IO 4 / Socket.IO 5 framing for
 * the chat: `42[…]` events, `43<id>[…]` acks, ping/pong), so receiving costs the same small amount
 * for both servers: a delivery is found by a marker in the frame, never JSON-parsed. Messages are
 * 100 characters; the baseline pads its frames to the size of the chat's `receive_message` frame,
 * so both put the same bytes on the wire. A sender writes its `performance.now()` into the text,
 * and every other member of the room computes the latency when the frame arrives (one clock).
 * Counted: deliveries to the other members (the chat also echoes each message to its sender).
 *
 * Each sender has one message in flight: it sends again only once the previous one is
 * acknowledged and has reached every other member of its room (the chat: and at least 1.01 s
 * after that). So no backlog outlives a load point, and an acknowledgement that runs ahead of the
 * deliveries (it can: the chat acknowledges once the frames are queued) cannot hide a queue.
 * Load points per scenario and server:
 * - saturation: every client sends again as soon as it may;
 * - half load: paced senders offering half of the baseline's saturated deliveries per second (the
 *   chat: at most one message per 1.01 s each; when that is less, the table says "capped");
 * - for the chat, also half of its own saturated throughput: its latency at a load it can carry;
 * - for the baseline in small rooms, "rule's load": every member sending as often as the chat's
 *   rule allows, the load the small-room target compares with (docs/decisions/010).
 * "per CPU-s" is deliveries per second of CPU time of the server processes and, for PostgreSQL,
 * of the database's processes ("db CPU"), from /proc: on a shared machine a server may not get a
 * whole core, and this ratio moves less than the raw one.
 *
 * Servers: the bare `ws` baseline; the chat on PGlite (the default); when Debian's PostgreSQL is
 * installed, the chat on a private PostgreSQL cluster, one process, then two processes on the same
 * database (Socket.IO's Postgres adapter), clients split between them. `BENCH_ENGINES=PGlite` or
 * `PostgreSQL` measures one engine, `BENCH_ROOMS=1` or `50` one scenario, `BENCH_PROCESSES=1`
 * skips the two-process runs. `--quick` shortens the windows and skips PostgreSQL.
 * `--profile` writes a CPU profile of each chat server process (`node --cpu-prof`) to a folder it
 * prints.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import {
  cpuSpent,
  forEachAtMost,
  postgresPids,
  processCpuMs,
  registerPeople,
  ROOT,
  startAppServer,
  stopChild,
  type ServerProcess,
  formatNumber as format,
  loadAverage,
  sleep,
  machineLine,
  privatePostgres,
} from './lib.ts';
import {
  closeWebSocket,
  connectSocketIo,
  openWebSocket,
  type WireSocket,
  createRooms,
} from './lib-socket.ts';

const QUICK = process.argv.includes('--quick');
const PROFILE = process.argv.includes('--profile');
const ENGINES = process.env.BENCH_ENGINES?.split(',') ?? (QUICK ? ['PGlite'] : undefined);
const WARMUP_MS = QUICK ? 1_500 : 3_000;
const WINDOW_MS = QUICK ? 4_000 : 10_000;
const CLIENTS = 500;
const ALL_SCENARIOS = [
  { label: '1 room × 500', rooms: 1, perRoom: 500 },
  { label: '50 rooms × 10', rooms: 50, perRoom: 10 },
] as const;
type Scenario = (typeof ALL_SCENARIOS)[number];
/** `BENCH_ROOMS=1` or `50` measures one scenario only (with its baseline). */
const SCENARIOS: readonly Scenario[] = ALL_SCENARIOS.filter(
  (scenario) => !process.env.BENCH_ROOMS || String(scenario.rooms) === process.env.BENCH_ROOMS,
);
/** `BENCH_PROCESSES=1` skips the two-process runs on PostgreSQL. */
const TWO_PROCESSES = process.env.BENCH_PROCESSES !== '1';

/** The chat's rule is 5 messages per 5 s per person; 1.01 s apart never breaks it. */
const CHAT_MIN_GAP_MS = 1_010;
const MESSAGE_LENGTH = 100;
const FILLER = 'notes on chapter three of the reading list for the seminar on Thursday, ';
const MARK = Buffer.from('BENCH|');
const profileDir = PROFILE ? mkdtempSync(path.join(os.tmpdir(), 'digi-chat-profile-')) : undefined;

// ---------------------------------------------------------------------------------------------
// Measurement

/** Latencies in buckets of 0.05 ms up to 60 s: percentiles without keeping every sample. */
class Histogram {
  static readonly STEP_MS = 0.05;
  private counts = new Uint32Array(Math.ceil(60_000 / Histogram.STEP_MS));
  count = 0;
  add(ms: number) {
    const bucket = Math.min(
      this.counts.length - 1,
      Math.max(0, Math.floor(ms / Histogram.STEP_MS)),
    );
    this.counts[bucket] = (this.counts[bucket] ?? 0) + 1;
    this.count += 1;
  }
  percentile(p: number): number {
    const wanted = Math.max(1, Math.ceil((p / 100) * this.count));
    let seen = 0;
    for (let bucket = 0; bucket < this.counts.length; bucket += 1) {
      seen += this.counts[bucket] ?? 0;
      if (seen >= wanted) return (bucket + 0.5) * Histogram.STEP_MS;
    }
    return NaN;
  }
}

/** What the clients saw in the current phase; `window*` only inside the measured window. */
const stats = {
  windowStart: Infinity,
  windowEnd: Infinity,
  windowDelivered: 0,
  windowBytes: 0,
  windowSent: 0,
  histogram: new Histogram(),
  sent: 0,
  acked: 0,
  refused: 0,
  closed: 0,
  refusal: '',
};

function resetStats() {
  Object.assign(stats, {
    windowStart: Infinity,
    windowEnd: Infinity,
    windowDelivered: 0,
    windowBytes: 0,
    windowSent: 0,
    histogram: new Histogram(),
    sent: 0,
    acked: 0,
    refused: 0,
  });
}

const inWindow = (at: number) => at >= stats.windowStart && at < stats.windowEnd;

/**
 * Per sender: the sequence number of its one message in flight, how many other members have not
 * received it yet, and what to call when they all have.
 */
const inFlight = new Int32Array(CLIENTS).fill(-1);
const awaiting = new Int32Array(CLIENTS);
const whenDelivered: ((() => void) | undefined)[] = new Array<undefined>(CLIENTS);
const lastSeq = new Int32Array(CLIENTS);

/** Reads `BENCH|<sender>|<seq>|<microseconds>|` from a delivered frame; echoes are not counted. */
function onDelivery(receiver: number, data: Buffer, now: number) {
  const at = data.indexOf(MARK);
  if (at < 0) return;
  const numbers = [0, 0, 0];
  let index = at + MARK.length;
  for (let field = 0; field < 3; field += 1) {
    let value = 0;
    for (let byte = data[index]; byte !== undefined && byte !== 0x7c; byte = data[++index]) {
      value = value * 10 + byte - 0x30;
    }
    numbers[field] = value;
    index += 1;
  }
  const [sender = -1, seq = -1, micros = 0] = numbers;
  if (sender === receiver) return;
  if (inFlight[sender] === seq && --awaiting[sender]! === 0) {
    const done = whenDelivered[sender];
    whenDelivered[sender] = undefined;
    done?.();
  }
  if (!inWindow(now)) return;
  stats.windowDelivered += 1;
  stats.windowBytes += data.length;
  stats.histogram.add(now - micros / 1000);
}

/** A message of MESSAGE_LENGTH characters carrying its sender, sequence number and send time. */
function messageText(sender: number, seq: number, at: number): string {
  const head = `BENCH|${sender}|${seq}|${Math.round(at * 1000)}|`;
  return head + FILLER.repeat(2).slice(0, MESSAGE_LENGTH - head.length);
}

// ---------------------------------------------------------------------------------------------
// Clients

interface BenchClient {
  index: number;
  room: string;
  /** When its last message was acknowledged (the chat's per-person gap runs across phases). */
  lastAck: number;
  /** Sends one message; true when acknowledged, false when refused. */
  send(text: string): Promise<boolean>;
  /**
   * The chat's side load of issue 26 (decision 044): one `typing` and, with `reactions`, one
   * reaction to the room's latest message, unanswered-for. Absent on the baseline.
   */
  sideLoad?(reactions: boolean): void;
  /** True when the server answers `react_message` (within 2 s). */
  reacts?(): Promise<boolean>;
  close(): void;
}

/** The latest message id acknowledged in each room: what the side load reacts to. */
const latestIds = new Map<string, string>();

interface Target {
  name: string;
  /** Chat servers keep the per-person rule; the baseline does not. */
  minGapMs: number;
  pids(): number[];
  /** The database server's processes, when it has its own (PostgreSQL). */
  databasePids(): number[];
  /** Starts a window of the servers' own event-loop delay (chat servers only). */
  resetLoopDelay?(): void;
  /** The highest p99 of the servers' event-loop delay in the window, ms. */
  loopDelayP99?(): Promise<number>;
  prepareRooms(names: string[]): Promise<void>;
  connect(index: number, room: string): Promise<BenchClient>;
  stop(): Promise<void>;
}

/** A connection the server closes counts as a failure. */
const openSocket = (url: string, headers: Record<string, string>) =>
  openWebSocket(url, headers, () => (stats.closed += 1));

/** The size of the chat's `receive_message` frame for a message to `room`, to pad the baseline to. */
function chatFrameSize(room: string): number {
  const message = {
    id: '1000000',
    room,
    sender: 'Ada',
    senderId: randomUUID(),
    content: messageText(0, 0, 0),
    time: new Date().toISOString(),
    isSystemMessage: false,
  };
  return Buffer.byteLength(`42${JSON.stringify(['receive_message', message])}`);
}

async function connectBare(url: string, index: number, room: string): Promise<BenchClient> {
  const socket = openSocket(`${url.replace(/^http/, 'ws')}/?room=${encodeURIComponent(room)}`, {
    origin: url,
  });
  const size = chatFrameSize(room);
  const padding = 'x'.repeat(
    Math.max(
      0,
      size - Buffer.byteLength(JSON.stringify({ room, content: '', pad: '' })) - MESSAGE_LENGTH,
    ),
  );
  let pending: ((ok: boolean) => void) | undefined;
  socket.on('message', (raw) => {
    const now = performance.now();
    const data = raw as Buffer;
    if (data.length === 1) {
      const resolve = pending;
      pending = undefined;
      resolve?.(true);
    } else onDelivery(index, data, now);
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return {
    index,
    room,
    lastAck: -Infinity,
    send: (text) =>
      new Promise((resolve) => {
        pending = resolve;
        socket.send(JSON.stringify({ room, content: text, pad: padding }));
      }),
    close: () => closeWebSocket(socket),
  };
}

/** A chat client (`connectSocketIo`) handing `receive_message` frames to `onDelivery`. */
function connectChat(url: string, index: number, cookie: string): Promise<WireSocket> {
  return connectSocketIo(url, cookie, {
    // Only `42["receive_message",…`: room_history and room_metadata also start with "r", and
    // reactions_batch with "re" (a frame of some KB a second to every member, not to be scanned).
    onEvent: (data, now) => {
      if (data[4] === 0x72 && data[5] === 0x65 && data[6] === 0x63) onDelivery(index, data, now);
    },
    onUnexpectedClose: () => (stats.closed += 1),
  });
}

// ---------------------------------------------------------------------------------------------
// Servers

function startBareServer(): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/chat-ws-server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the ws server exited with ${code}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      const port = /listening on (\d+)/.exec(chunk.toString())?.[1];
      if (!port) return;
      const url = `http://127.0.0.1:${port}`;
      resolve({
        name: 'bare ws',
        minGapMs: 0,
        pids: () => [child.pid!],
        databasePids: () => [],
        prepareRooms: async () => {},
        connect: (index, room) => connectBare(url, index, room),
        stop: () => stopChild(child),
      });
    });
  });
}

/** The chat on `servers` (one or more processes on one database); client i uses server i mod n. */
function chatTarget(
  name: string,
  servers: ServerProcess[],
  cookies: string[],
  databasePort?: string,
): Target {
  const urlOf = (index: number) => servers[index % servers.length]!.url;
  return {
    name,
    minGapMs: CHAT_MIN_GAP_MS,
    pids: () => servers.map((server) => server.child.pid!),
    databasePids: () => (databasePort ? postgresPids(databasePort) : []),
    resetLoopDelay() {
      for (const server of servers) server.resetLoopDelay();
    },
    async loopDelayP99() {
      const delays = await Promise.all(servers.map((server) => server.loopDelay()));
      return Math.max(...delays.map((delay) => delay.p99));
    },
    async prepareRooms(names) {
      await createRooms(urlOf(0), cookies, names);
    },
    async connect(index, room) {
      const chat = await connectChat(urlOf(index), index, cookies[index]!);
      const joined = await chat.emit('join_room', { roomName: room });
      if (!joined.ok) throw new Error(`join_room ${room}: ${joined.message}`);
      // A connection the server drops (a member too far behind, decision 013) answers nothing more.
      const closed = new Promise<{ ok: false; message: string }>((resolve) =>
        chat.socket.once('close', () =>
          resolve({ ok: false, message: 'the server closed the connection' }),
        ),
      );
      return {
        index,
        room,
        lastAck: -Infinity,
        async send(text) {
          const answer = await Promise.race([
            chat.emit('send_message', { room, message: text }),
            closed,
          ]);
          if (!answer.ok && !stats.refusal) stats.refusal = answer.message;
          if (answer.ok && answer.id) latestIds.set(room, answer.id);
          return answer.ok;
        },
        sideLoad(reactions) {
          void chat.emit('typing', { roomName: room });
          const messageId = latestIds.get(room);
          if (reactions && messageId) {
            void chat.emit('react_message', { roomName: room, messageId, emoji: '👍' });
          }
        },
        async reacts() {
          const messageId = latestIds.get(room);
          if (!messageId) return false;
          const answer = await Promise.race([
            chat.emit('react_message', { roomName: room, messageId, emoji: '🎉' }),
            sleep(2_000).then(() => undefined),
          ]);
          return answer?.ok === true;
        },
        close: chat.close,
      };
    },
    async stop() {
      for (const server of servers) await server.stop();
    },
  };
}

/** The chat server as `npm start` runs it; each registration from its own forwarded address. */
const startChatServer = (env: Record<string, string>) =>
  startAppServer(
    { DEMO_DATA: 'false', TRUST_PROXY: 'true', ...env },
    { profileDir, loopDelay: true },
  );

// ---------------------------------------------------------------------------------------------
// Runs

interface PhaseResult {
  scenario: string;
  server: string;
  load: string;
  offered: number;
  delivered: number;
  p50: number;
  p99: number;
  serverCpu: number;
  /** PostgreSQL's processes (PGlite runs inside the server process). */
  databaseCpu: number;
  benchCpu: number;
  /**
   * The 99th percentile of this process's own event-loop delay in the window, ms: latency the
   * 500 clients' side (parsing frames, timers) adds to what is measured, not the server's.
   */
  benchLagP99: number;
  /** The same of the chat servers' own loops (the highest of them); undefined for bare ws. */
  serverLagP99: number | undefined;
  frameBytes: number;
  refused: number;
  lost: number;
}

const results: PhaseResult[] = [];

/** Connects CLIENTS clients, a few at a time, client i in room floor(i / perRoom). */
async function connectAll(target: Target, scenario: Scenario, rooms: string[]) {
  const clients: BenchClient[] = new Array<BenchClient>(CLIENTS);
  await forEachAtMost(CLIENTS, 20, async (index) => {
    clients[index] = await target.connect(index, rooms[Math.floor(index / scenario.perRoom)]!);
  });
  return clients;
}

/**
 * One load point: every client sends, one message in flight each; `intervalMs` paces each sender
 * (0: again as soon as acknowledged). Measures deliveries inside the window after a warm-up.
 */
async function phase(
  target: Target,
  scenario: Scenario,
  clients: BenchClient[],
  load: string,
  intervalMs: number,
): Promise<PhaseResult> {
  resetStats();
  const others = scenario.perRoom - 1;
  let running = true;
  const stagger = Math.max(intervalMs, target.minGapMs, 50);
  const loops = clients.map(async (client) => {
    let next = Math.max(
      performance.now() + Math.random() * stagger,
      client.lastAck + target.minGapMs,
    );
    while (running) {
      const wait = next - performance.now();
      if (wait > 0) await sleep(wait);
      if (!running) break;
      const at = performance.now();
      const sender = client.index;
      const seq = (lastSeq[sender] = lastSeq[sender]! + 1);
      inFlight[sender] = seq;
      awaiting[sender] = others;
      const delivered = new Promise<void>((resolve) => (whenDelivered[sender] = resolve));
      stats.sent += 1;
      if (inWindow(at)) stats.windowSent += 1;
      const ok = await client.send(messageText(sender, seq, at));
      if (ok) {
        stats.acked += 1;
        await delivered;
      } else {
        stats.refused += 1;
        whenDelivered[sender] = undefined;
      }
      const done = performance.now();
      client.lastAck = done;
      next =
        intervalMs > 0
          ? Math.max(next + intervalMs, done + target.minGapMs)
          : done + target.minGapMs;
    }
  });
  await sleep(WARMUP_MS);
  const databasePids = target.databasePids();
  const serverBefore = processCpuMs(target.pids());
  const databaseBefore = processCpuMs(databasePids);
  const benchBefore = process.cpuUsage();
  const benchLag = monitorEventLoopDelay({ resolution: 5 });
  benchLag.enable();
  target.resetLoopDelay?.();
  stats.windowStart = performance.now();
  stats.windowEnd = stats.windowStart + WINDOW_MS;
  await sleep(WINDOW_MS);
  benchLag.disable();
  const serverLagP99 = await target.loopDelayP99?.();
  const serverMs = cpuSpent(serverBefore, processCpuMs(target.pids()));
  const databaseMs = cpuSpent(databaseBefore, processCpuMs(databasePids));
  const bench = process.cpuUsage(benchBefore);
  running = false;
  // Let the messages in flight arrive; what has not after 20 s counts as lost.
  await Promise.race([Promise.all(loops), sleep(20_000)]);
  let lost = 0;
  for (let sender = 0; sender < CLIENTS; sender += 1) {
    const done = whenDelivered[sender];
    if (done) lost += awaiting[sender]!;
    whenDelivered[sender] = undefined;
    inFlight[sender] = -1;
    done?.();
  }
  await Promise.all(loops);
  await sleep(500);
  const seconds = WINDOW_MS / 1000;
  const result: PhaseResult = {
    scenario: scenario.label,
    server: target.name,
    load,
    offered: (stats.windowSent * others) / seconds,
    delivered: stats.windowDelivered / seconds,
    p50: stats.histogram.percentile(50),
    p99: stats.histogram.percentile(99),
    serverCpu: serverMs / WINDOW_MS,
    databaseCpu: databaseMs / WINDOW_MS,
    benchCpu: (bench.user + bench.system) / 1000 / WINDOW_MS,
    benchLagP99: benchLag.percentile(99) / 1e6,
    serverLagP99,
    frameBytes: stats.windowDelivered ? stats.windowBytes / stats.windowDelivered : NaN,
    refused: stats.refused,
    lost,
  };
  results.push(result);
  printRow(result);
  if (stats.refusal) console.log(`  refused: ${stats.refusal}`);
  if (stats.closed > 0) console.log(`  ${stats.closed} connections closed by the server so far`);
  stats.refusal = '';
  return result;
}

/** Both load points of one scenario on one server; `half` is the baseline's half load. */
async function runScenario(
  target: Target,
  scenario: Scenario,
  tag: string,
  half: number | undefined,
): Promise<number> {
  const rooms = Array.from(
    { length: scenario.rooms },
    (_, index) => `bench ${tag} ${scenario.rooms}x${scenario.perRoom} #${index + 1}`,
  );
  const started = performance.now();
  await target.prepareRooms(rooms);
  const clients = await connectAll(target, scenario, rooms);
  console.log(
    `  ${scenario.label}: ${CLIENTS} clients connected and joined in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  await sleep(1_000); // the room list pushes after a burst of joins
  const saturated = await phase(target, scenario, clients, 'saturation', 0);
  // Each sender's interval for `delivered` deliveries per second in all.
  const intervalFor = (delivered: number) => (1000 * CLIENTS * (scenario.perRoom - 1)) / delivered;
  const paced = (label: string, delivered: number) => {
    const interval = intervalFor(delivered);
    return phase(
      target,
      scenario,
      clients,
      interval < target.minGapMs ? `${label} (capped)` : label,
      interval,
    );
  };
  await paced('half', half ?? saturated.delivered / 2);
  // The baseline under the load people can send in small rooms: every member as often as the
  // chat's rule allows. The small-room target compares the chat with this (decision 010).
  if (target.minGapMs === 0 && scenario.rooms > 1) {
    await phase(target, scenario, clients, "rule's load", CHAT_MIN_GAP_MS);
  }
  // A chat slower than half the baseline cannot carry that load; its latency at a load it can.
  if (half !== undefined) await paced('half of own', saturated.delivered / 2);
  // Issue 26: every member also typing and reacting once a second; the message p99 at the same
  // load without and then with it, back to back in the same run (decision 044). The load is issue
  // 6's "half load" (half the baseline's throughput), the point its p99 budget is set at: at half
  // the chat's own saturation the server's core is already full (97 % measured), so any extra
  // event there raises the tail whatever it costs.
  // One phase's p99 moves by more than the 20 % margin from run to run on a shared machine, so
  // the three loads alternate for SIDE_ROUNDS rounds, in a rotated order each round (no load
  // always follows another), and the verdict compares their medians.
  const first = clients[0];
  if (first?.sideLoad && scenario.rooms === 1) {
    const sideRate = half ?? saturated.delivered / 2;
    const reacts = (await first.reacts?.()) === true;
    const loads = [SIDE_QUIET, SIDE_TYPING, ...(reacts ? [SIDE_BUSY] : [])];
    for (let round = 0; round < SIDE_ROUNDS; round += 1) {
      for (let step = 0; step < loads.length; step += 1) {
        const load = loads[(round + step) % loads.length]!;
        const stop = load === SIDE_QUIET ? () => {} : startSideLoad(clients, load === SIDE_BUSY);
        await paced(load, sideRate);
        stop();
      }
    }
  }
  for (const client of clients) client.close();
  await sleep(2_000);
  return saturated.delivered;
}

/** The side-load comparison's load points (issue 26). */
const SIDE_QUIET = 'half, no side load';
const SIDE_BUSY = 'half + typing/react';
const SIDE_TYPING = 'half + typing';
/** The side load may raise the message p99 by at most this factor (issue 26). */
const SIDE_P99_FACTOR = 1.2;
/** Rounds of the three side-load phases (`BENCH_SIDE_ROUNDS`, default 5; 1 with `--quick`). */
const SIDE_ROUNDS = Math.max(1, Number(process.env.BENCH_SIDE_ROUNDS ?? (QUICK ? 1 : 5)) || 1);

/** The median of `values` (the mean of the middle two when even). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Every client sends its side load once a second, spread over the second; returns the stop.
 * (The server drops a second `typing` within a second, so this is the most typing that counts.)
 */
function startSideLoad(clients: BenchClient[], reactions: boolean): () => void {
  const timers: NodeJS.Timeout[] = [];
  const starts = clients.map((client, index) =>
    setTimeout(
      () => {
        client.sideLoad?.(reactions);
        timers.push(setInterval(() => client.sideLoad?.(reactions), 1_000));
      },
      Math.floor((index * 1_000) / clients.length),
    ),
  );
  return () => {
    for (const timer of starts) clearTimeout(timer);
    for (const timer of timers) clearInterval(timer);
  };
}

const HEADER =
  'scenario       | server                 | load                | offered/s | delivered/s | p50 ms | p99 ms | vs ws | server CPU | db CPU | per CPU-s | vs ws/CPU | bench CPU | bench lag | server lag | frame B | refused | lost';

/** Deliveries per second of server CPU: capacity, less sensitive to other work on the machine. */
const perCpu = (row: PhaseResult) => row.delivered / (row.serverCpu + row.databaseCpu);

function printRow(row: PhaseResult) {
  const baseline = results.find(
    (other) =>
      other.scenario === row.scenario && other.server === 'bare ws' && other.load === 'saturation',
  );
  const saturated = row.load === 'saturation' && baseline;
  const ratio = saturated ? format(row.delivered / baseline.delivered, 2) : '';
  const cpuRatio = saturated ? format(perCpu(row) / perCpu(baseline), 2) : '';
  console.log(
    [
      row.scenario.padEnd(14),
      row.server.padEnd(22),
      row.load.padEnd(19),
      format(row.offered).padStart(9),
      format(row.delivered).padStart(11),
      format(row.p50, 1).padStart(6),
      format(row.p99, 1).padStart(6),
      ratio.padStart(5),
      `${format(row.serverCpu * 100)} %`.padStart(10),
      (row.databaseCpu > 0 ? `${format(row.databaseCpu * 100)} %` : '').padStart(6),
      format(perCpu(row)).padStart(9),
      cpuRatio.padStart(9),
      `${format(row.benchCpu * 100)} %`.padStart(9),
      `${format(row.benchLagP99, 1)} ms`.padStart(9),
      (row.serverLagP99 === undefined ? '' : `${format(row.serverLagP99, 1)} ms`).padStart(10),
      format(row.frameBytes).padStart(7),
      String(row.refused).padStart(7),
      String(row.lost).padStart(4),
    ].join(' | '),
  );
}

async function measure(target: Target, tag: string) {
  console.log(`\n${target.name}`);
  for (const scenario of SCENARIOS) {
    const baseline = results.find(
      (row) =>
        row.scenario === scenario.label && row.server === 'bare ws' && row.load === 'saturation',
    );
    await runScenario(target, scenario, tag, baseline ? baseline.delivered / 2 : undefined);
  }
}

// ---------------------------------------------------------------------------------------------

const wanted = (engine: string) => !ENGINES || ENGINES.includes(engine);
const benchStarted = performance.now();
console.log(machineLine());
console.log(
  `${CLIENTS} clients, ${MESSAGE_LENGTH}-character messages, warm-up ${WARMUP_MS / 1000} s, window ${WINDOW_MS / 1000} s${QUICK ? ' (--quick)' : ''}`,
);
console.log(`\n${HEADER}`);

const bare = await startBareServer();
await measure(bare, 'ws');
await bare.stop();

if (wanted('PGlite')) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-chat-bench-'));
  const server = await startChatServer({ DATA_DIR: dataDir });
  console.log('\nchat, PGlite, 1 process');
  const cookies = await registerPeople(server, CLIENTS);
  const target = chatTarget('chat PGlite', [server], cookies);
  await measure(target, 'pglite');
  await target.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const postgres = wanted('PostgreSQL') ? await privatePostgres('bench') : undefined;
if (postgres) {
  try {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-chat-bench-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: postgres.url };
    const one = await startChatServer(env);
    console.log('\nchat, PostgreSQL, 1 process');
    const cookies = await registerPeople(one, CLIENTS);
    const { port } = postgres;
    const single = chatTarget('chat PostgreSQL', [one], cookies, port);
    await measure(single, 'pg1');
    if (TWO_PROCESSES) {
      const two = await startChatServer(env);
      const pair = chatTarget('chat PostgreSQL × 2', [one, two], cookies, port);
      await measure(pair, 'pg2');
      await pair.stop();
    } else await single.stop();
    rmSync(dataDir, { recursive: true, force: true });
  } finally {
    postgres.stop();
  }
} else if (wanted('PostgreSQL')) {
  console.log(
    '\nPostgreSQL is not installed (apt-get install -y postgresql): chat on PGlite only.',
  );
}

console.log(`\n${HEADER}`);
for (const row of results) printRow(row);

console.log('\nTargets (issues 6 and 8):');
for (const scenario of SCENARIOS) {
  const of = (server: string, loadName: string) =>
    results.find(
      (row) =>
        row.scenario === scenario.label && row.server === server && row.load.startsWith(loadName),
    );
  const baseline = of('bare ws', 'saturation');
  for (const server of ['chat PGlite', 'chat PostgreSQL']) {
    const saturated = of(server, 'saturation');
    const half = of(server, 'half');
    const own = of(server, 'half of own');
    if (!baseline || !saturated || !half || !own) continue;
    const ratio = saturated.delivered / baseline.delivered;
    const ruled = of('bare ws', "rule's load");
    if (scenario.rooms > 1 && ruled) {
      // Decision 010: small rooms are compared at the most the rule lets people send, where the
      // chat's saturation is that load itself.
      const paced = saturated.delivered / ruled.delivered;
      console.log(
        `  ${scenario.label}, ${server}: ${format(paced, 2)} × the baseline under the rule's load (target ≥ 0.5: ${paced >= 0.5 ? 'met' : 'missed'}), ` +
          `p99 ${format(saturated.p99, 1)} ms there (target < 50 ms: ${saturated.p99 < 50 ? 'met' : 'missed'}); ` +
          `unpaced ${format(ratio, 2)} × the baseline, ${format(perCpu(saturated) / perCpu(baseline), 2)} × per CPU-second`,
      );
      continue;
    }
    console.log(
      `  ${scenario.label}, ${server}: ${format(ratio, 2)} × the baseline's throughput (target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'missed'}), ` +
        `${format(perCpu(saturated) / perCpu(baseline), 2)} × per CPU-second; ` +
        `p99 ${format(half.p99, 1)} ms at ${half.load === 'half' ? 'half load' : 'its capped half load'} (target < 50 ms: ${half.p99 < 50 ? 'met' : 'missed'}), ` +
        `${format(own.p99, 1)} ms at half its own throughput`,
    );
  }
  for (const server of ['chat PGlite', 'chat PostgreSQL', 'chat PostgreSQL × 2']) {
    const all = (loadName: string) =>
      results.filter(
        (row) =>
          row.scenario === scenario.label &&
          row.server === server &&
          (row.load === loadName || row.load === `${loadName} (capped)`),
      );
    const quiet = all(SIDE_QUIET);
    if (quiet.length === 0) continue;
    const quietP99 = median(quiet.map((row) => row.p99));
    const side = [
      [all(SIDE_TYPING), 'typing'],
      [all(SIDE_BUSY), 'typing and reacting'],
    ] as const;
    for (const [busy, what] of side) {
      if (busy.length === 0) continue;
      const busyP99 = median(busy.map((row) => row.p99));
      const factor = busyP99 / quietP99;
      const lost = busy.reduce((sum, row) => sum + row.lost, 0);
      const refused = busy.reduce((sum, row) => sum + row.refused, 0);
      const rounds =
        busy.length > 1
          ? `; rounds: ${busy.map((row, index) => format(row.p99 / (quiet[index] ?? quiet[0]!).p99, 2)).join(', ')}`
          : '';
      // The server's own loop beside it: a side load that lengthens its turns shows here too.
      const lag = (rows: readonly PhaseResult[]) =>
        median(rows.map((row) => row.serverLagP99 ?? Number.NaN));
      console.log(
        `  ${scenario.label}, ${server}: message p99 ${format(busyP99, 1)} ms with every member ${what} once a second, ` +
          `${format(quietP99, 1)} ms without${busy.length > 1 ? ` (medians of ${busy.length} rounds)` : ''}: × ${format(factor, 2)} (target ≤ ${SIDE_P99_FACTOR}: ${factor <= SIDE_P99_FACTOR ? 'met' : 'missed'})` +
          rounds +
          `; server loop delay p99 ${format(lag(busy), 1)} ms with, ${format(lag(quiet), 1)} ms without` +
          (lost > 0 || refused > 0 ? `; ${lost} lost, ${refused} refused` : ''),
      );
    }
    if (all(SIDE_BUSY).length === 0)
      console.log(`  (${server}: react_message not answered, typing only)`);
  }
  const one = of('chat PostgreSQL', 'saturation');
  const two = of('chat PostgreSQL × 2', 'saturation');
  if (one && two) {
    const ratio = two.delivered / one.delivered;
    console.log(
      `  ${scenario.label}, two processes: ${format(ratio, 2)} × one process's throughput (target ≥ 0.5: ${ratio >= 0.5 ? 'met' : 'missed'})`,
    );
  }
}
console.log(
  `\nload average ${loadAverage()}; ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`,
);
if (profileDir) console.log(`CPU profiles of the chat processes: ${profileDir}`);
