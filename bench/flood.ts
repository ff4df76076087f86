/**
 * `npm run bench:flood [-- --quick] [-- --profile]`: hostile clients against the chat (issue 9,
 * "Input"), measured from the side of the people chatting next to them.
 *
 * The server runs in its own process, as `npm start` runs it (`startAppServer`). Bystanders:
 * 10 rooms × 10 people, each registered through `POST /api/users/register` and holding one socket
 * (the wire protocol over `ws`, bench/lib-socket.ts) in this process, each sending a 100-character
 * message every 3–7 s at random (about 20 messages and 180 deliveries per second, well within the
 * rule of 5 per 5 s). The sender stamps `performance.now()` into the text and every other member
 * of the room computes the latency when the frame arrives (one clock); every message must reach
 * the 9 others, and one that is refused, unacknowledged or missing anywhere is lost.
 *
 * Attackers (bench/flood-attackers.ts, its own process so that their work does not stall this
 * event loop; each attacker its own registered person, in rooms of its own): a flood of
 * `send_message` every 50 ms from one socket (200 per 10 s) and from 20 sockets of one person;
 * two people sending a frame of exactly 64 KB (refused) and then one byte more (the server must
 * drop the connection), reconnecting and again; malformed Engine.IO/Socket.IO frames; random
 * event names with random payloads; `create_room`/`join_room`/`leave_room` churn.
 *
 * Phases: warm-up (10 s, not judged), quiet (bystanders only, 20 s), join flood (issue 19's
 * finding alone, 20 s: one student socket sends 3,000 `join_room` into a bystanders' room at once,
 * and again on a new connection whenever the server closes it; an attackers' process of its own,
 * its own person), attack (all the attackers above and the join flood again, 20 s, until their
 * sockets are all closed), recovery (bystanders only; at least 20 s, then until the server's RSS
 * has moved less than 2 MB in 10 s, at most 60 s more; nothing is forced, no GC).
 * Throughout: `GET /api/health` every second, a new socket connecting every 2 s (a person of its
 * own), each given 5 s, and a guest's `GET /api/search?q=…` every 100 ms (bench/lib.ts's
 * `SEARCH_QUERIES` in turn, on the real catalogue, imported before the server starts). At the end,
 * a new socket joins a bystanders' room and its message must reach them. Server RSS is read from /proc every 100 ms; CPU of the server, PostgreSQL, the
 * attackers and this process per phase; this process's event-loop delay tells whether the
 * latencies are the server's.
 *
 * Verdicts (the process exits 1 when one is missed): the process stays up (alive, every health
 * check 200, every new socket connected, the final check passed); bystanders' p95 < 200 ms during
 * the attack; no bystander message lost in any phase; memory returns to its level: RSS after
 * recovery at most the RSS at the end of the quiet phase plus 10 % or 20 MB, whichever is larger;
 * every frame over 64 KB closed its connection; the guest's search p95 under the join flood at
 * most 2 × its quiet p95, and bystanders' p95 < 200 ms then too.
 *
 * Engines: PGlite by default; `BENCH_ENGINES=PostgreSQL` (or `PGlite,PostgreSQL`) runs a private
 * PostgreSQL cluster (Debian's). `--quick`: 8 s phases. `--profile` writes a CPU profile of the
 * server (`node --cpu-prof`) to a folder it prints.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openDatabase, openPostgres } from '#server/db/client.ts';
import type {
  AttackerPlan,
  AttackerTally,
  AttackKind,
  FromAttackers,
  ToAttackers,
} from './flood-attackers.ts';
import {
  cpuSpent,
  forEachAtMost,
  loadAverage,
  loadCatalogue,
  machineLine,
  percentile,
  postgresPids,
  privatePostgres,
  processCpuMs,
  processMemory,
  registerPeople,
  ROOT,
  SEARCH_QUERIES,
  startAppServer,
  watchMemory,
  formatNumber,
  sleep,
} from './lib.ts';
import {
  connectSocketIo,
  readStamp,
  stampedText,
  type WireSocket,
  createRooms,
} from './lib-socket.ts';

const QUICK = process.argv.includes('--quick');
const PROFILE = process.argv.includes('--profile');
const ENGINES = process.env.BENCH_ENGINES?.split(',') ?? ['PGlite'];
const WARMUP_MS = QUICK ? 3_000 : 10_000;
const PHASE_MS = QUICK ? 8_000 : 20_000;
/** Recovery ends once RSS moved less than SETTLED_MB over SETTLE_WINDOW_MS, or after SETTLE_MAX_MS. */
const SETTLE_WINDOW_MS = 10_000;
const SETTLED_MB = 2;
const SETTLE_MAX_MS = QUICK ? 20_000 : 60_000;
const ROOMS = 10;
const PER_ROOM = 10;
const BYSTANDERS = ROOMS * PER_ROOM;
const GAP_MS = [3_000, 7_000] as const;
const ANSWER_TIMEOUT_MS = 10_000;
/** After the bystanders stop, deliveries still on their way may arrive for this long. */
const GRACE_MS = 5_000;
const HEALTH_EVERY_MS = 1_000;
const SOCKET_PROBE_EVERY_MS = 2_000;
const PROBE_TIMEOUT_MS = 5_000;
const LATENCY_TARGET_MS = 200;
const SEARCH_EVERY_MS = 100;
/** Issue 19: under the join flood, the guest's search p95 stays within this many times quiet. */
const SEARCH_RATIO_TARGET = 2;
/** "Back to its level": within 10 % or 20 MB of the quiet phase's RSS, whichever is larger. */
const MEMORY_SLACK = { fraction: 0.1, mb: 20 };
const ATTACKERS: { name: string; kind: AttackKind; does: string }[] = [
  { name: 'flood-1', kind: 'flood', does: '`send_message` every 50 ms, 1 socket' },
  { name: 'flood-20', kind: 'flood-20-sockets', does: '`send_message` every 50 ms × 20 sockets' },
  { name: 'oversized-1', kind: 'oversized', does: 'a 64 KB frame, then 64 KB + 1 byte' },
  { name: 'oversized-2', kind: 'oversized', does: 'the same, a second person' },
  { name: 'malformed', kind: 'malformed', does: '26 kinds of malformed frames in turn' },
  { name: 'random', kind: 'random-events', does: 'random event names and payloads, every 50 ms' },
  { name: 'churn', kind: 'room-churn', does: 'create / join / leave / join missing, every 50 ms' },
  { name: 'join-flood', kind: 'join-flood', does: '3,000 `join_room` at once, 1 socket, again' },
];
/** The join flood's own phase: the same attack alone, by a person of its own. */
const JOIN_FLOOD = { name: 'join-flood alone', kind: 'join-flood' as const };
const profileDir = PROFILE ? mkdtempSync(path.join(os.tmpdir(), 'digi-flood-profile-')) : undefined;

const timeout = (ms: number) => sleep(ms).then(() => 'timeout' as const);

// ---------------------------------------------------------------------------------------------
// Phases

type PhaseName = 'warm-up' | 'quiet' | 'join flood' | 'attack' | 'recovery';

/** Probes of one kind in a phase. */
interface Probes {
  ok: number;
  failed: number;
  failure: string;
  latencies: number[];
}

/** What the bystanders, the probes and /proc saw in one phase. */
interface Phase {
  name: PhaseName;
  start: number;
  end: number;
  sent: number;
  refused: number;
  refusal: string;
  deliveries: number;
  latencies: number[];
  /** Computed once everything stopped: messages not acknowledged, deliveries that never came. */
  unanswered: number;
  missing: number;
  lostMessages: number;
  bystandersDropped: number;
  health: Probes;
  sockets: Probes;
  /** The guest's searches. */
  search: Probes;
  roomLists: number;
  roomListBytes: number;
  cpu: { server: number; database: number; attackers: number; bench: number };
  loopDelayP99: number;
  rss: { start: number; peak: number; end: number };
}

const newProbes = (): Probes => ({ ok: 0, failed: 0, failure: '', latencies: [] });

/** One bystander message: its phase and how many members have not received it yet. */
interface Sent {
  phase: Phase;
  remaining: number;
  answered: boolean;
}

interface Run {
  engine: string;
  url: string;
  pid: number;
  /** The attackers' processes: the join flood's own and everyone's. */
  attackersPids: () => number[];
  databasePort: string | undefined;
  phases: Phase[];
  current: Phase | undefined;
  messages: Map<string, Sent>;
  exited: string | undefined;
}

function cpuNow(run: Run) {
  return {
    server: processCpuMs([run.pid]),
    database: processCpuMs(run.databasePort ? postgresPids(run.databasePort) : []),
    attackers: processCpuMs(run.attackersPids()),
    bench: process.cpuUsage(),
  };
}

const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();

/** Starts a phase; `finish()` closes it with its CPU and this process's loop delay. */
function beginPhase(run: Run, name: PhaseName) {
  const phase: Phase = {
    name,
    start: performance.now(),
    end: NaN,
    sent: 0,
    refused: 0,
    refusal: '',
    deliveries: 0,
    latencies: [],
    unanswered: 0,
    missing: 0,
    lostMessages: 0,
    bystandersDropped: 0,
    health: newProbes(),
    sockets: newProbes(),
    search: newProbes(),
    roomLists: 0,
    roomListBytes: 0,
    cpu: { server: 0, database: 0, attackers: 0, bench: 0 },
    loopDelayP99: NaN,
    rss: { start: NaN, peak: NaN, end: NaN },
  };
  run.phases.push(phase);
  run.current = phase;
  const before = cpuNow(run);
  loopDelay.reset();
  return {
    phase,
    finish() {
      const after = cpuNow(run);
      phase.end = performance.now();
      phase.cpu = {
        server: cpuSpent(before.server, after.server),
        database: cpuSpent(before.database, after.database),
        attackers: cpuSpent(before.attackers, after.attackers),
        bench:
          (after.bench.user + after.bench.system - before.bench.user - before.bench.system) / 1000,
      };
      phase.loopDelayP99 = loopDelay.percentile(99) / 1e6;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Bystanders

/** A bystander's frames: deliveries of stamped messages, and room lists (counted, not parsed). */
function onBystanderFrame(run: Run, index: number, frame: Buffer, now: number) {
  if (frame[4] === 0x72 && frame[5] === 0x65) {
    // 42["receive_message",…
    const stamp = readStamp(frame);
    if (!stamp || stamp.sender === index) return;
    const sent = run.messages.get(`${stamp.sender}|${stamp.seq}`);
    if (!sent) return;
    sent.remaining -= 1;
    sent.phase.deliveries += 1;
    sent.phase.latencies.push(now - stamp.sentAt);
  } else if (frame[4] === 0x61 && run.current) {
    // 42["available_rooms",…
    run.current.roomLists += 1;
    run.current.roomListBytes += frame.length;
  }
}

/** Sends a stamped message every 3–7 s until `chatting()` is false. */
async function chatLoop(run: Run, index: number, wire: WireSocket, chatting: () => boolean) {
  const room = roomName(Math.floor(index / PER_ROOM));
  const gap = () => GAP_MS[0] + Math.random() * (GAP_MS[1] - GAP_MS[0]);
  let next = performance.now() + Math.random() * GAP_MS[1];
  let seq = 0;
  while (chatting()) {
    await sleep(Math.max(0, next - performance.now()));
    const phase = run.current;
    if (!chatting() || !phase) break;
    const at = performance.now();
    seq += 1;
    const sent: Sent = { phase, remaining: PER_ROOM - 1, answered: false };
    run.messages.set(`${index}|${seq}`, sent);
    phase.sent += 1;
    const answer = await Promise.race([
      wire.emit('send_message', { room, message: stampedText(index, seq, at) }),
      timeout(ANSWER_TIMEOUT_MS),
    ]);
    if (answer !== 'timeout') {
      sent.answered = true;
      if (!answer.ok) {
        phase.refused += 1;
        phase.refusal ||= answer.message;
      }
    }
    // Never closer than 1.01 s to the previous acknowledgement: the rule is 5 per 5 s.
    next = Math.max(at + gap(), performance.now() + 1_010);
  }
}

const roomName = (index: number) => `bystanders ${index + 1}`;

// ---------------------------------------------------------------------------------------------
// Probes

/** `GET /api/health` every second, each within 5 s. */
async function healthLoop(run: Run, probing: () => boolean) {
  while (probing()) {
    const phase = run.current!;
    const started = performance.now();
    try {
      const response = await fetch(`${run.url}/api/health`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      phase.health.ok += 1;
      phase.health.latencies.push(performance.now() - started);
    } catch (error) {
      phase.health.failed += 1;
      phase.health.failure ||= (error as Error).message;
    }
    await sleep(Math.max(0, started + HEALTH_EVERY_MS - performance.now()));
  }
}

/** Connects a new socket within 5 s or fails; closes it when it comes late. */
async function connectWithin(url: string, cookie: string): Promise<WireSocket> {
  const pending = connectSocketIo(url, cookie);
  const result = await Promise.race([pending, timeout(PROBE_TIMEOUT_MS)]);
  if (result !== 'timeout') return result;
  void pending.then(
    (wire) => wire.close(),
    () => {},
  );
  throw new Error(`no connection within ${PROBE_TIMEOUT_MS / 1000} s`);
}

/** A new socket every 2 s: it must connect (the namespace's signed-in handshake) within 5 s. */
async function socketLoop(run: Run, cookie: string, probing: () => boolean) {
  while (probing()) {
    const phase = run.current!;
    const started = performance.now();
    try {
      const wire = await connectWithin(run.url, cookie);
      phase.sockets.ok += 1;
      phase.sockets.latencies.push(performance.now() - started);
      wire.close();
    } catch (error) {
      phase.sockets.failed += 1;
      phase.sockets.failure ||= (error as Error).message;
    }
    await sleep(Math.max(0, started + SOCKET_PROBE_EVERY_MS - performance.now()));
  }
}

/** A guest's `GET /api/search` every 100 ms (the benches' queries in turn), each within 5 s. */
async function searchLoop(run: Run, probing: () => boolean) {
  let next = 0;
  while (probing()) {
    const phase = run.current!;
    const started = performance.now();
    const query = new URLSearchParams(SEARCH_QUERIES[next++ % SEARCH_QUERIES.length]);
    try {
      const response = await fetch(`${run.url}/api/search?${query}`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`status ${response.status}`);
      phase.search.ok += 1;
      phase.search.latencies.push(performance.now() - started);
    } catch (error) {
      phase.search.failed += 1;
      phase.search.failure ||= (error as Error).message;
    }
    await sleep(Math.max(0, started + SEARCH_EVERY_MS - performance.now()));
  }
}

// ---------------------------------------------------------------------------------------------
// Attackers

/** The attackers' process (bench/flood-attackers.ts), driven over IPC. */
function startAttackers() {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/flood-attackers.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromAttackers>((resolve, reject) => {
      child.once('message', (message) => resolve(message as FromAttackers));
      child.once('exit', (code) => reject(new Error(`the attackers exited with ${code}`)));
    });
  const send = (message: ToAttackers) => child.send(message);
  return {
    pid: () => (child.exitCode === null ? child.pid : undefined),
    async prepare(url: string, attackers: AttackerPlan[]) {
      const ready = next();
      send({ type: 'prepare', url, attackers });
      await ready;
    },
    go: () => send({ type: 'go' }),
    async stop(): Promise<AttackerTally[]> {
      const result = next();
      send({ type: 'stop' });
      const message = await result;
      return message.type === 'result' ? message.tallies : [];
    },
    kill: () => child.kill(),
  };
}

// ---------------------------------------------------------------------------------------------
// One engine

interface Outcome {
  engine: string;
  phases: Phase[];
  tallies: AttackerTally[];
  exited: string | undefined;
  finalCheck: string;
  quietRss: number;
  afterRss: number;
  settledAfterMs: number;
  hwm: number;
  roomsAtEnd: number;
}

async function runEngine(engine: string): Promise<Outcome | undefined> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'digi-flood-'));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  const postgres = engine === 'PostgreSQL' ? await privatePostgres('flood') : undefined;
  if (engine === 'PostgreSQL') {
    if (!postgres) {
      console.log('\nPostgreSQL is not installed (apt-get install -y postgresql): skipped.');
      return undefined;
    }
    env.DATABASE_URL = postgres.url;
  }
  // The real catalogue, so that the guest's searches cost what they cost in the library.
  const catalogue = postgres ? openPostgres(postgres.url) : await openDatabase({ dataDir });
  await loadCatalogue(catalogue);
  await catalogue.close();
  const server = await startAppServer(
    { DEMO_DATA: 'false', TRUST_PROXY: 'true', ...env },
    { profileDir },
  );
  const attackers = startAttackers();
  const joinFlooders = startAttackers();
  const wires: WireSocket[] = [];
  const run: Run = {
    engine,
    url: server.url,
    pid: server.child.pid!,
    attackersPids: () =>
      [joinFlooders.pid(), attackers.pid()].filter((pid): pid is number => pid !== undefined),
    databasePort: postgres?.port,
    phases: [],
    current: undefined,
    messages: new Map(),
    exited: undefined,
  };
  server.child.on('exit', (code, signal) => (run.exited ??= `exit ${code ?? signal}`));
  try {
    console.log(`\n${engine}: server pid ${run.pid}`);
    const cookies = await registerPeople(server, BYSTANDERS + ATTACKERS.length + 2);
    const proberCookie = cookies.at(-1)!;
    const joinFloodCookie = cookies.at(-2)!;
    await createRooms(
      server.url,
      cookies,
      Array.from({ length: ROOMS }, (_, room) => roomName(room)),
    );
    let finalMarker: Buffer | undefined;
    let heardFinal: (() => void) | undefined;
    /** The last room list bystander 0 received (a property: assigned in a callback). */
    const seen: { roomList?: Buffer } = {};
    await forEachAtMost(BYSTANDERS, 10, async (index) => {
      const wire = await connectSocketIo(server.url, cookies[index]!, {
        onEvent: (frame, now) => {
          onBystanderFrame(run, index, frame, now);
          if (index === 0 && frame[4] === 0x61) seen.roomList = frame;
          if (index === 0 && finalMarker && frame.includes(finalMarker)) heardFinal?.();
        },
        onUnexpectedClose: () => {
          if (run.current) run.current.bystandersDropped += 1;
        },
      });
      const joined = await wire.emit('join_room', {
        roomName: roomName(Math.floor(index / PER_ROOM)),
      });
      if (!joined.ok) throw new Error(`join_room: ${joined.message}`);
      wires[index] = wire;
    });
    await attackers.prepare(
      server.url,
      ATTACKERS.map((attacker, index) => ({
        name: attacker.name,
        kind: attacker.kind,
        cookie: cookies[BYSTANDERS + index]!,
        // Into a bystanders' room: its members must notice nothing.
        ...(attacker.kind === 'join-flood' && { room: roomName(1) }),
      })),
    );
    await joinFlooders.prepare(server.url, [
      { ...JOIN_FLOOD, cookie: joinFloodCookie, room: roomName(0) },
    ]);
    console.log(
      `  ${BYSTANDERS} bystanders in ${ROOMS} rooms and ${ATTACKERS.length} attackers connected; phases of ${PHASE_MS / 1000} s`,
    );

    const memory = watchMemory(run.pid, 100);
    let chatting = true;
    let probing = true;
    const warmUp = beginPhase(run, 'warm-up');
    const chats = wires.map((wire, index) => chatLoop(run, index, wire, () => chatting));
    const probes = [
      healthLoop(run, () => probing),
      socketLoop(run, proberCookie, () => probing),
      searchLoop(run, () => probing),
    ];
    await sleep(WARMUP_MS);
    warmUp.finish();

    const quiet = beginPhase(run, 'quiet');
    await sleep(PHASE_MS);
    quiet.finish();

    const joinFlood = beginPhase(run, 'join flood');
    joinFlooders.go();
    await sleep(PHASE_MS);
    const joinTallies = await joinFlooders.stop();
    joinFlood.finish();

    const attack = beginPhase(run, 'attack');
    attackers.go();
    await sleep(PHASE_MS);
    // The attack ends when every attacker's socket is closed.
    const tallies = await attackers.stop();
    attack.finish();

    const recovery = beginPhase(run, 'recovery');
    await sleep(PHASE_MS);
    const settleStart = performance.now();
    const settled = () => {
      const now = performance.now();
      const recent = memory.samples.filter((sample) => sample.at >= now - SETTLE_WINDOW_MS);
      const values = recent.map((sample) => sample.rss);
      return Math.max(...values) - Math.min(...values) < SETTLED_MB;
    };
    while (!settled() && performance.now() - settleStart < SETTLE_MAX_MS && !run.exited) {
      await sleep(1_000);
    }
    recovery.finish();
    const settledAfterMs = recovery.phase.end - recovery.phase.start;
    memory.stop();

    chatting = false;
    await Promise.race([Promise.all(chats), sleep(ANSWER_TIMEOUT_MS)]);
    await sleep(GRACE_MS);
    probing = false;
    await Promise.all(probes);

    // Final check: a new socket joins a bystanders' room and a bystander hears it.
    let finalCheck = 'passed';
    try {
      const health = await fetch(`${server.url}/api/health`, {
        signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
      });
      if (health.status !== 200) throw new Error(`health ${health.status}`);
      const wire = await connectWithin(server.url, proberCookie);
      const joined = await wire.emit('join_room', { roomName: roomName(0) });
      if (!joined.ok) throw new Error(`join_room: ${joined.message}`);
      const text = `FINAL|${randomUUID()}`;
      finalMarker = Buffer.from(text);
      const heard = new Promise<void>((resolve) => (heardFinal = resolve));
      const sent = await wire.emit('send_message', { room: roomName(0), message: text });
      if (!sent.ok) throw new Error(`send_message: ${sent.message}`);
      if ((await Promise.race([heard, timeout(PROBE_TIMEOUT_MS)])) === 'timeout') {
        throw new Error('the bystander did not hear the new socket');
      }
      wire.close();
    } catch (error) {
      finalCheck = `failed: ${(error as Error).message}`;
    }

    // What never arrived.
    for (const sent of run.messages.values()) {
      if (!sent.answered) {
        sent.phase.unanswered += 1;
        sent.phase.lostMessages += 1;
      } else if (sent.remaining > 0) {
        sent.phase.missing += sent.remaining;
        sent.phase.lostMessages += 1;
      }
    }
    for (const phase of run.phases) {
      phase.lostMessages += phase.refused;
      const samples = memory.samples.filter(
        (sample) => sample.at >= phase.start && sample.at <= phase.end,
      );
      phase.rss = {
        start: samples[0]?.rss ?? NaN,
        peak: Math.max(...samples.map((sample) => sample.rss)),
        end: samples.at(-1)?.rss ?? NaN,
      };
    }
    return {
      engine,
      phases: run.phases,
      tallies: [...joinTallies, ...tallies],
      exited: run.exited,
      finalCheck,
      quietRss: quiet.phase.rss.end,
      afterRss: recovery.phase.rss.end,
      settledAfterMs,
      hwm: processMemory(run.pid)?.hwm ?? NaN,
      roomsAtEnd: seen.roomList ? seen.roomList.toString().split('"roomName":').length - 1 : NaN,
    };
  } finally {
    for (const wire of wires) wire?.close();
    attackers.kill();
    joinFlooders.kill();
    await server.stop();
    postgres?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const ms = (values: number[], p: number) => formatNumber(percentile(values, p), 1);
const mb = (value: number) => formatNumber(value);
const percent = (cpuMs: number, phase: Phase) =>
  `${formatNumber((cpuMs / (phase.end - phase.start)) * 100)} %`;
const table = (rows: string[][]) => {
  const widths = rows[0]!.map((_, column) =>
    Math.max(...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: string[]) =>
    `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(
    [
      line(rows[0]!),
      `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
      ...rows.slice(1).map(line),
    ].join('\n'),
  );
};

function report(outcome: Outcome): boolean {
  const { phases } = outcome;
  console.log(`\n${outcome.engine}: bystanders (${BYSTANDERS} people, ${ROOMS} rooms)\n`);
  table([
    [
      'phase',
      'length',
      'messages',
      'deliveries/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'lost',
      'room lists/s each (avg KB)',
      'health ok (max ms)',
      'new sockets ok (p95 ms)',
      'guest searches ok (p95 ms)',
    ],
    ...phases.map((phase) => {
      const seconds = (phase.end - phase.start) / 1000;
      return [
        phase.name,
        `${formatNumber(seconds, 1)} s`,
        String(phase.sent),
        formatNumber(phase.deliveries / seconds),
        ms(phase.latencies, 50),
        ms(phase.latencies, 95),
        ms(phase.latencies, 99),
        formatNumber(Math.max(...phase.latencies), 1),
        String(phase.lostMessages),
        `${formatNumber(phase.roomLists / BYSTANDERS / seconds, 1)} (${formatNumber(phase.roomListBytes / phase.roomLists / 1024, 1)})`,
        `${phase.health.ok}/${phase.health.ok + phase.health.failed} (${formatNumber(Math.max(...phase.health.latencies))})`,
        `${phase.sockets.ok}/${phase.sockets.ok + phase.sockets.failed} (${ms(phase.sockets.latencies, 95)})`,
        `${phase.search.ok}/${phase.search.ok + phase.search.failed} (${ms(phase.search.latencies, 95)})`,
      ];
    }),
  ]);
  console.log(`\n${outcome.engine}: resources\n`);
  table([
    [
      'phase',
      'server CPU',
      'PostgreSQL CPU',
      'attackers CPU',
      'bench CPU',
      'bench loop delay p99',
      'server RSS start → peak → end (MB)',
    ],
    ...phases.map((phase) => [
      phase.name,
      percent(phase.cpu.server, phase),
      outcome.engine === 'PostgreSQL' ? percent(phase.cpu.database, phase) : '–',
      percent(phase.cpu.attackers, phase),
      percent(phase.cpu.bench, phase),
      `${formatNumber(phase.loopDelayP99, 1)} ms`,
      `${mb(phase.rss.start)} → ${mb(phase.rss.peak)} → ${mb(phase.rss.end)}`,
    ]),
  ]);
  for (const phase of phases) {
    const notes = [
      phase.refusal && `refused: ${phase.refusal}`,
      phase.unanswered && `${phase.unanswered} unanswered`,
      phase.missing && `${phase.missing} deliveries missing`,
      phase.bystandersDropped && `${phase.bystandersDropped} bystander sockets dropped`,
      phase.health.failure && `health: ${phase.health.failure}`,
      phase.sockets.failure && `new socket: ${phase.sockets.failure}`,
      phase.search.failure && `search: ${phase.search.failure}`,
    ].filter(Boolean);
    if (notes.length > 0) console.log(`  ${phase.name}: ${notes.join('; ')}`);
  }
  console.log(`\n${outcome.engine}: attackers (what they got back during the attack)\n`);
  table([
    [
      'attacker',
      'does',
      'new connections',
      'sent',
      'accepted',
      'refused',
      'unanswered',
      'dropped by server',
      'frames ignored',
      'main refusal',
    ],
    ...outcome.tallies.map((tally) => {
      const main = Object.entries(tally.refusals).sort((a, b) => b[1] - a[1])[0];
      return [
        tally.name,
        tally.name === JOIN_FLOOD.name
          ? 'the join flood alone, in its own phase'
          : (ATTACKERS.find((attacker) => attacker.name === tally.name)?.does ?? tally.kind),
        `${tally.connects}${tally.connectRefused ? ` (+${tally.connectRefused} refused)` : ''}`,
        String(tally.sent),
        String(tally.accepted),
        String(tally.refused),
        String(tally.unanswered),
        String(tally.dropped),
        tally.kind === 'malformed' ? `${tally.survived} (${tally.silent} went quiet)` : '',
        main ? `${main[0].slice(0, 50)} (${main[1]})` : '',
      ];
    }),
  ]);
  console.log(
    `  rooms in the list at the end: ${outcome.roomsAtEnd}; server VmHWM ${mb(outcome.hwm)} MB`,
  );

  const judged = phases.filter((phase) => phase.name !== 'warm-up');
  const attack = phases.find((phase) => phase.name === 'attack')!;
  const sum = (pick: (phase: Phase) => number) =>
    judged.reduce((total, phase) => total + pick(phase), 0);
  const healthFailed = sum((phase) => phase.health.failed);
  const socketsFailed = sum((phase) => phase.sockets.failed);
  const up =
    !outcome.exited && healthFailed === 0 && socketsFailed === 0 && outcome.finalCheck === 'passed';
  const p95 = percentile(attack.latencies, 95);
  const lost = sum((phase) => phase.lostMessages + phase.bystandersDropped);
  const limit =
    outcome.quietRss + Math.max(outcome.quietRss * MEMORY_SLACK.fraction, MEMORY_SLACK.mb);
  const overSize = outcome.tallies.filter((tally) => tally.kind === 'oversized');
  const kept = overSize.reduce((total, tally) => total + tally.oversizedKept, 0);
  const dropped = overSize.reduce((total, tally) => total + tally.dropped, 0);
  const quiet = phases.find((phase) => phase.name === 'quiet')!;
  const joinFlood = phases.find((phase) => phase.name === 'join flood')!;
  const quietSearch = percentile(quiet.search.latencies, 95);
  const floodSearch = percentile(joinFlood.search.latencies, 95);
  const searchRatio = floodSearch / quietSearch;
  const floodP95 = percentile(joinFlood.latencies, 95);
  const flooders = outcome.tallies.filter((tally) => tally.name === JOIN_FLOOD.name);
  const floodSent = flooders.reduce((total, tally) => total + tally.sent, 0);
  const floodAnswered = flooders.reduce(
    (total, tally) => total + tally.accepted + tally.refused,
    0,
  );
  const floodAccepted = flooders.reduce((total, tally) => total + tally.accepted, 0);
  const floodClosed = flooders.reduce((total, tally) => total + tally.dropped, 0);
  const verdicts: [string, string, boolean][] = [
    [
      'process up',
      `${outcome.exited ?? 'alive'}; health ${sum((phase) => phase.health.ok)}/${sum((phase) => phase.health.ok) + healthFailed} ok, new sockets ${sum((phase) => phase.sockets.ok)}/${sum((phase) => phase.sockets.ok) + socketsFailed}; final check ${outcome.finalCheck}`,
      up,
    ],
    [
      `bystanders' p95 < ${LATENCY_TARGET_MS} ms during the attack`,
      `${formatNumber(p95, 1)} ms (quiet ${ms(quiet.latencies, 95)} ms)`,
      p95 < LATENCY_TARGET_MS,
    ],
    [
      'no bystander message lost',
      `${lost} lost of ${sum((phase) => phase.sent)} (refused, unanswered, missing anywhere, or a bystander dropped)`,
      lost === 0,
    ],
    [
      'memory returns to its level',
      `${mb(outcome.afterRss)} MB after recovery (${formatNumber(outcome.settledAfterMs / 1000)} s) vs ${mb(outcome.quietRss)} MB quiet: limit ${mb(limit)} MB; attack peak ${mb(attack.rss.peak)} MB`,
      outcome.afterRss <= limit,
    ],
    [
      'every frame over 64 KB drops its connection',
      `${dropped} dropped, ${kept} kept`,
      kept === 0 && dropped > 0,
    ],
    [
      `guest search p95 under the join flood ≤ ${SEARCH_RATIO_TARGET} × quiet`,
      `${formatNumber(floodSearch, 1)} ms vs ${formatNumber(quietSearch, 1)} ms quiet: ${formatNumber(searchRatio, 2)} × (${joinFlood.search.failed} failed; whole attack ${ms(attack.search.latencies, 95)} ms); the flooder sent ${formatNumber(floodSent)} joins, ${formatNumber(floodAnswered)} answered (${formatNumber(floodAccepted)} accepted), ${formatNumber(floodClosed)} connections closed by the server`,
      searchRatio <= SEARCH_RATIO_TARGET && joinFlood.search.failed === 0,
    ],
    [
      `bystanders' p95 < ${LATENCY_TARGET_MS} ms during the join flood`,
      `${formatNumber(floodP95, 1)} ms (quiet ${ms(quiet.latencies, 95)} ms)`,
      floodP95 < LATENCY_TARGET_MS,
    ],
  ];
  console.log(`\n${outcome.engine}: verdicts\n`);
  table([
    ['criterion', 'measured', 'verdict'],
    ...verdicts.map(([name, measured, met]) => [name, measured, met ? 'met' : 'MISSED']),
  ]);
  return verdicts.every(([, , met]) => met);
}

// ---------------------------------------------------------------------------------------------

console.log(machineLine());
const benchStarted = performance.now();
let allMet = true;
for (const engine of ENGINES) {
  const outcome = await runEngine(engine);
  if (outcome) allMet = report(outcome) && allMet;
}
console.log(
  `\nload average ${loadAverage()}; ${formatNumber((performance.now() - benchStarted) / 1000)} s in all`,
);
if (profileDir) console.log(`CPU profiles of the server: ${profileDir}`);
process.exit(allMet ? 0 : 1);
