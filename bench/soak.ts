/**
 * `npm run bench:soak [-- --minutes 10 --sockets 500 --rooms 20 --rate 5 --api-rate 20]`: the
 * soak run of issue 9. The server (`server/index.ts` as `npm start` runs it, in its own process,
 * on the real catalogue) holds `--sockets` signed-in Socket.IO connections, each its own
 * registered person, spread evenly over `--rooms` chat rooms; every room gets `--rate` messages
 * per second (the issue's "5 messages per second" is read per room: 100 per second in all by
 * default), its members taking turns, so each person sends one message every members / rate
 * seconds (5 s by default), well inside the chat's rule of 5 per 5 s. Beside it, steady API
 * traffic at `--api-rate` requests per second, started evenly spaced whatever the answers do
 * (open loop, timed from when each was due): searches by guests and by signed-in people, the
 * course list, a person's own requests, similar requests, the library's details, `users/me`, and
 * writes people make (filing a resource request, supporting someone else's, choosing a chat
 * username), from `API_PEOPLE` other signed-in people.
 *
 * Every `send_message` carries a unique marker (`SOAK|sender|seq|`) and is recorded with its
 * acknowledgement. At the end, after the load stops and the last deliveries arrive:
 * - every acknowledged message must have reached every other member of its room that was
 *   connected when it was sent, exactly once (counted per member, from the `receive_message`
 *   frames each client got);
 * - every acknowledged message must be stored exactly once, under the id its acknowledgement
 *   gave: each room is read back the product's own way, by joining it again (`room_history`, the
 *   latest 100) and paging older history with `load_history` as the web client does.
 * The server's resident memory (VmRSS from /proc) is sampled every 5 s. Growth over the last half
 * compares the median of the samples in the last minute with the median of those in the minute
 * before the half-way mark (medians: one sample can land on either side of a garbage collection).
 *
 * Prints a line per minute, then a verdict per criterion; the exit code is 1 when one is missed.
 * PGlite by default, as `npm start` runs; `BENCH_ENGINES=PostgreSQL` uses a private PostgreSQL
 * cluster it starts itself (`BENCH_ENGINES=PGlite,PostgreSQL`: one after the other).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { OPEN_REQUESTS_MAX } from '#contract/http/requests.ts';
import {
  MESSAGE_RATE_LIMIT,
  MESSAGE_RATE_WINDOW_MS,
  type ChatMessage,
} from '#contract/socket/chat.ts';
import { openDatabase } from '#server/db/client.ts';
import {
  cpuSpent,
  forEachAtMost,
  loadCatalogue,
  percentile,
  postgresPids,
  processCpuMs,
  processMemory,
  registerPeople,
  SHARED_DATA,
  startAppServer,
  type ServerProcess,
  formatNumber as format,
  loadAverage,
  sleep,
  SEARCH_QUERIES,
  machineLine,
  privatePostgres,
} from './lib.ts';
import { connectSocketIo, type WireSocket, createRooms } from './lib-socket.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    sockets: { type: 'string', default: '500' },
    rooms: { type: 'string', default: '20' },
    rate: { type: 'string', default: '5' },
    'api-rate': { type: 'string', default: '20' },
  },
});
const positive = (name: string, text: string) => {
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${name} must be a positive number, not ${text}`);
  return value;
};
const MINUTES = positive('minutes', args.minutes);
const SOCKETS = Math.round(positive('sockets', args.sockets));
const ROOMS = Math.round(positive('rooms', args.rooms));
/** Messages per second in each room. */
const RATE = positive('rate', args.rate);
const API_RATE = positive('api-rate', args['api-rate']);
const ENGINES = process.env.BENCH_ENGINES?.split(',') ?? ['PGlite'];

const DURATION_MS = MINUTES * 60_000;
/** People who make the API traffic (not in the chat), besides guests. */
const API_PEOPLE = 40;
const SAMPLE_MS = 5_000;
/** Medians of this long a stretch stand for the RSS at a moment (shorter for short runs). */
const MEMORY_WINDOW_MS = Math.min(60_000, DURATION_MS / 4);
const GROWTH_LIMIT = 0.1;
/** How long the last acknowledgements and deliveries may take after the load stops. */
const DRAIN_MS = 30_000;
const API_TIMEOUT_MS = 30_000;
const TICK_MS = 5;
const MESSAGE_LENGTH = 100;
const FILLER = 'notes on chapter three of the reading list for the seminar on Thursday, ';
const MARK = Buffer.from('SOAK|');

if (SOCKETS < ROOMS * 2) throw new Error('--sockets must give every room at least two members');
/** Members of room r: sockets r, r + ROOMS, r + 2 × ROOMS, …; the smallest room has this many. */
const SMALLEST_ROOM = Math.floor(SOCKETS / ROOMS);
/** How often one person sends; the rule allows MESSAGE_RATE_LIMIT per MESSAGE_RATE_WINDOW_MS. */
const PERSON_GAP_MS = (SMALLEST_ROOM / RATE) * 1000;
if (PERSON_GAP_MS < (MESSAGE_RATE_WINDOW_MS / MESSAGE_RATE_LIMIT) * 1.01) {
  throw new Error(
    `--rate ${RATE} in rooms of ${SMALLEST_ROOM} makes each person send every ${PERSON_GAP_MS} ms: faster than the chat's rule (${MESSAGE_RATE_LIMIT} per ${MESSAGE_RATE_WINDOW_MS / 1000} s) allows`,
  );
}

const roomOf = (socket: number) => socket % ROOMS;
const positionOf = (socket: number) => Math.floor(socket / ROOMS);
const membersOf = (room: number) => Math.ceil((SOCKETS - room) / ROOMS);
const roomName = (room: number) => `soak room ${room + 1}`;

// ---------------------------------------------------------------------------------------------
// What the run records

/** One `send_message`: its acknowledgement and which members received it. */
interface Sent {
  room: number;
  sender: number;
  seq: number;
  sentAt: number;
  state: 'pending' | 'acked' | 'refused';
  id?: string;
  refusal?: string;
  /** Deliveries per member position of the room (the sender's own is its echo). */
  receipts: Uint8Array;
  /** Member positions whose socket was already gone when it was sent. */
  absent: number[];
}

/** Counters of one minute of the run (events after the load count in the last minute). */
interface Minute {
  sent: number;
  acked: number;
  refused: number;
  deliveries: number;
  latencies: number[];
  ackLatencies: number[];
  api: number;
  apiLatencies: number[];
  api5xx: number;
  apiErrors: number;
  rss: number;
  serverCpuMs: number;
  databaseCpuMs: number;
}

const newMinute = (): Minute => ({
  sent: 0,
  acked: 0,
  refused: 0,
  deliveries: 0,
  latencies: [],
  ackLatencies: [],
  api: 0,
  apiLatencies: [],
  api5xx: 0,
  apiErrors: 0,
  rss: NaN,
  serverCpuMs: NaN,
  databaseCpuMs: NaN,
});

/** Status classes of the API's answers; `error` is a network error or a time-out. */
type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'error';

interface KindStats {
  counts: Record<StatusClass, number>;
  latencies: number[];
  /** The first few answers that were not 2xx, to show what went wrong. */
  samples: string[];
}

/** Everything one engine's run measured. */
interface RunResult {
  engine: string;
  messages: Sent[];
  minutes: Minute[];
  api: Map<string, KindStats>;
  memory: { at: number; rss: number }[];
  dropped: number;
  strays: number;
  serverExit: string | undefined;
  stored: { missing: number; duplicated: number; wrongId: number; refusedStored: number };
  history: { rooms: number; messages: number; pages: number; outOfOrder: number };
  /** The bench's own event-loop delay during the load (ms): a stalled bench inflates latencies. */
  benchDelay: { p99: number; max: number };
}

// ---------------------------------------------------------------------------------------------
// API traffic

/** The api bench's searches, and a few more titles and subjects. */
const SEARCHES = [
  ...SEARCH_QUERIES,
  { q: 'algorithms' },
  { q: 'graph theory', type: 'paper' },
  { q: 'javascript' },
  { q: 'the hobbit' },
].map((query) => `/api/search?${new URLSearchParams(query)}`);

const TITLES = [
  'Introduction to Algorithms',
  'Structure and Interpretation of Computer Programs',
  'Linear Algebra Done Right',
  'The Feynman Lectures on Physics',
  'Database System Concepts',
  'Operating System Concepts',
];

/** The mix, per 100 requests. */
const API_MIX = {
  'search, guest': 34,
  'search, signed in': 15,
  'course list': 15,
  'library details': 5,
  'users/me': 5,
  'my requests': 6,
  'similar requests': 5,
  'support a request': 8,
  'chat username': 5,
  'file a request': 2,
} as const;
type ApiKind = keyof typeof API_MIX;

/** The kinds spread evenly over 100 slots (each weight's slots at even intervals). */
const API_SLOTS: ApiKind[] = (Object.entries(API_MIX) as [ApiKind, number][])
  .flatMap(([kind, weight]) =>
    Array.from({ length: weight }, (_, index) => ({ kind, at: ((index + 0.5) * 100) / weight })),
  )
  .sort((a, b) => a.at - b.at)
  .map((slot) => slot.kind);

/**
 * The API traffic's client: `due(index, dueAt)` starts the index-th request of the mix, timed
 * from `dueAt`, and counts its answer.
 */
function apiClient(
  url: string,
  cookies: string[],
  record: (kind: ApiKind, status: StatusClass, latency: number, sample?: string) => void,
) {
  const filed: { id: string; person: number }[] = [];
  const filedBy = new Array<number>(cookies.length).fill(0);
  // Each kind takes the people in turn, so every kind is spread over all of them.
  const turns = new Map<ApiKind, number>();
  const nextPerson = (kind: ApiKind) => {
    const turn = turns.get(kind) ?? 0;
    turns.set(kind, turn + 1);
    return turn % cookies.length;
  };
  /** A request someone other than `person` filed, a different one from call to call. */
  const otherRequest = (person: number, index: number) => {
    for (let step = 0; step < filed.length; step += 1) {
      const entry = filed[(index + step) % filed.length]!;
      if (entry.person !== person) return entry;
    }
    return undefined;
  };
  let outstanding = 0;

  const call = async (
    kind: ApiKind,
    dueAt: number,
    request: { path: string; method?: string; person?: number; body?: unknown },
  ): Promise<unknown> => {
    outstanding += 1;
    const headers: Record<string, string> = { origin: url };
    if (request.person !== undefined) headers.cookie = cookies[request.person]!;
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${url}${request.path}`, {
        method: request.method ?? 'GET',
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: AbortSignal.timeout(API_TIMEOUT_MS),
      });
      const text = await response.text();
      const latency = performance.now() - dueAt;
      const status = `${Math.floor(response.status / 100)}xx` as StatusClass;
      record(
        kind,
        status,
        latency,
        status === '2xx' ? undefined : `${response.status} ${request.path}: ${text.slice(0, 160)}`,
      );
      return status === '2xx' ? (JSON.parse(text) as unknown) : undefined;
    } catch (error) {
      record(kind, 'error', performance.now() - dueAt, `${request.path}: ${String(error)}`);
      return undefined;
    } finally {
      outstanding -= 1;
    }
  };

  const fileRequest = (dueAt: number, person: number) => {
    filedBy[person] = filedBy[person]! + 1;
    const title = `${TITLES[person % TITLES.length]!} (copy ${filedBy[person]} for person ${person})`;
    return call('file a request', dueAt, {
      path: '/api/users/requests',
      method: 'POST',
      person,
      body: {
        student: 'Ada Reader',
        title,
        description: 'For the course reading list; the library has no copy yet.',
        resourceType: 'book',
        institutionName: 'Digi University',
      },
    }).then((answer) => {
      const id = (answer as { request?: { _id?: string } } | undefined)?.request?._id;
      if (id) filed.push({ id, person });
    });
  };

  return {
    filed,
    outstanding: () => outstanding,
    /** Files one request for each of the first few people, so there is something to support. */
    async seed() {
      for (let person = 0; person < 5; person += 1) await fileRequest(performance.now(), person);
    },
    due(index: number, dueAt: number): void {
      const kind = API_SLOTS[index % API_SLOTS.length]!;
      const person = nextPerson(kind);
      const search = SEARCHES[index % SEARCHES.length]!;
      const other = otherRequest(person, index);
      switch (kind) {
        case 'search, guest':
          void call(kind, dueAt, { path: search });
          return;
        case 'search, signed in':
          void call(kind, dueAt, { path: search, person });
          return;
        case 'course list':
          void call(kind, dueAt, { path: '/api/users/get-books', person });
          return;
        case 'library details':
          void call(kind, dueAt, { path: '/api/library' });
          return;
        case 'users/me':
          void call(kind, dueAt, { path: '/api/users/me', person });
          return;
        case 'my requests':
          void call(kind, dueAt, { path: '/api/users/requests', person });
          return;
        case 'similar requests':
          void call(kind, dueAt, {
            path: `/api/users/requests/similar?${new URLSearchParams({ title: TITLES[index % TITLES.length]! })}`,
            person,
          });
          return;
        case 'support a request':
          if (other) {
            void call(kind, dueAt, {
              path: `/api/users/requests/${other.id}/support`,
              method: 'POST',
              person,
            });
          } else void fileRequest(dueAt, person);
          return;
        case 'chat username':
          void call(kind, dueAt, {
            path: '/api/users/chat-username',
            method: 'PUT',
            person,
            body: { username: `Reader ${person}-${index % 100}` },
          });
          return;
        case 'file a request':
          // Below the most open requests one person may hold, or the answer is a (correct) 409.
          if (filedBy[person]! < OPEN_REQUESTS_MAX - 1) void fileRequest(dueAt, person);
          else if (other) {
            void call('support a request', dueAt, {
              path: `/api/users/requests/${other.id}/support`,
              method: 'POST',
              person,
            });
          }
          return;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------
// One run

/**
 * CPU time (ms) used so far by the PostgreSQL server on `port`: its postmaster with the children
 * it has reaped (cutime, cstime) and its live children. The server's pool closes connections idle
 * for 10 s, so at this load backends come and go within a minute; counting only processes alive
 * at both ends of a minute (`cpuSpent`) would miss most of the database's work.
 */
function databaseCpuMs(port: string): number {
  const [postmaster, ...children] = postgresPids(port);
  if (postmaster === undefined) return NaN;
  const stat = readFileSync(`/proc/${postmaster}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime (fields 14 to 17 of proc(5)), in ticks of 10 ms.
  const own = [11, 12, 13, 14].reduce((sum, field) => sum + Number(fields[field]) * 10, 0);
  let live = 0;
  for (const time of processCpuMs(children).values()) live += time;
  return own + live;
}

/** A message of MESSAGE_LENGTH characters carrying its sender and sequence number. */
function messageText(sender: number, seq: number): string {
  const head = `SOAK|${sender}|${seq}| `;
  return head + FILLER.repeat(2).slice(0, MESSAGE_LENGTH - head.length);
}

/** Reads `SOAK|<sender>|<seq>|` from a message's text; undefined when absent. */
function readMarker(text: string): { sender: number; seq: number } | undefined {
  const match = /SOAK\|(\d+)\|(\d+)\|/.exec(text);
  return match ? { sender: Number(match[1]), seq: Number(match[2]) } : undefined;
}

/** The marker of a `receive_message` frame, read from its bytes near the marker only. */
function frameMarker(data: Buffer) {
  const at = data.indexOf(MARK);
  return at < 0 ? undefined : readMarker(data.toString('latin1', at, at + 40));
}

async function soak(engine: string, server: ServerProcess, databasePort?: string) {
  const pid = server.child.pid!;
  let serverExit: string | undefined;
  server.child.once('exit', (code, signal) => (serverExit = `exit code ${code}, signal ${signal}`));

  console.log(`\n${engine}: server pid ${pid}`);
  const cookies = await registerPeople(server, SOCKETS + API_PEOPLE);
  const apiCookies = cookies.slice(SOCKETS);

  await createRooms(
    server.url,
    apiCookies,
    Array.from({ length: ROOMS }, (_, room) => roomName(room)),
    'soak',
  );

  // Records, indexed by sender and sequence number.
  const bySender: Sent[][] = Array.from({ length: SOCKETS }, () => []);
  const messages: Sent[] = [];
  const open = new Uint8Array(SOCKETS);
  let dropped = 0;
  let strays = 0;
  let t0 = Infinity;
  const minutes = Array.from({ length: Math.ceil(MINUTES) }, newMinute);
  const minuteAt = (now: number) =>
    minutes[Math.min(minutes.length - 1, Math.max(0, Math.floor((now - t0) / 60_000)))]!;

  const onFrame = (receiver: number, data: Buffer, now: number) => {
    // Only `42["receive_message",…`: room_history and room_metadata also start with 'r'.
    if (data[4] !== 0x72 || data[5] !== 0x65) return;
    const marker = frameMarker(data);
    const record = marker && bySender[marker.sender]?.[marker.seq];
    if (!record) {
      strays += 1;
      return;
    }
    const position = positionOf(receiver);
    record.receipts[position] = Math.min(255, record.receipts[position]! + 1);
    if (receiver === record.sender) return; // the echo to the sender
    const minute = minuteAt(now);
    minute.deliveries += 1;
    minute.latencies.push(now - record.sentAt);
  };

  const sockets: WireSocket[] = new Array<WireSocket>(SOCKETS);
  const connectStarted = performance.now();
  await forEachAtMost(SOCKETS, 20, async (index) => {
    const socket = await connectSocketIo(server.url, cookies[index]!, {
      onEvent: (data, now) => onFrame(index, data, now),
      onUnexpectedClose: () => {
        open[index] = 0;
        dropped += 1;
      },
    });
    const joined = await socket.emit('join_room', { roomName: roomName(roomOf(index)) });
    if (!joined.ok) throw new Error(`join_room: ${joined.message}`);
    open[index] = 1;
    sockets[index] = socket;
  });
  console.log(
    `  ${SOCKETS} sockets connected and joined in ${((performance.now() - connectStarted) / 1000).toFixed(1)} s`,
  );

  const api = new Map<string, KindStats>();
  const client = apiClient(server.url, apiCookies, (kind, status, latency, sample) => {
    let stats = api.get(kind);
    if (!stats) {
      stats = {
        counts: { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, error: 0 },
        latencies: [],
        samples: [],
      };
      api.set(kind, stats);
    }
    stats.counts[status] += 1;
    stats.latencies.push(latency);
    if (sample && stats.samples.length < 3) stats.samples.push(sample);
    if (t0 === Infinity) return; // the seed requests
    const minute = minuteAt(performance.now());
    minute.api += 1;
    minute.apiLatencies.push(latency);
    if (status === '5xx') minute.api5xx += 1;
    if (status === 'error') minute.apiErrors += 1;
  });
  await client.seed();
  await sleep(2_000); // the room list goes to every socket after a burst of joins

  // The load: each room's k-th message at t0 + offset(room) + k / RATE, from member k mod size;
  // API requests evenly spaced. Open loop: nothing waits for an answer before the next is due.
  const memory: { at: number; rss: number }[] = [];
  const databaseCpu = () => (databasePort ? databaseCpuMs(databasePort) : NaN);
  let cpuServer = processCpuMs([pid]);
  let cpuDatabase = databaseCpu();
  t0 = performance.now();
  const end = t0 + DURATION_MS;
  const sentPerRoom = new Array<number>(ROOMS).fill(0);
  const perSender = new Int32Array(SOCKETS);
  let apiStarted = 0;

  const send = (room: number, k: number) => {
    const size = membersOf(room);
    const sender = room + (k % size) * ROOMS;
    if (!open[sender]) return; // its socket is gone (counted as dropped)
    const seq = perSender[sender]!;
    perSender[sender] = seq + 1;
    const absent: number[] = [];
    for (let position = 0; position < size; position += 1) {
      if (!open[room + position * ROOMS]) absent.push(position);
    }
    const record: Sent = {
      room,
      sender,
      seq,
      sentAt: performance.now(),
      state: 'pending',
      receipts: new Uint8Array(size),
      absent,
    };
    bySender[sender]!.push(record);
    messages.push(record);
    minuteAt(record.sentAt).sent += 1;
    void sockets[sender]!.emit('send_message', {
      room: roomName(room),
      message: messageText(sender, seq),
    }).then((answer) => {
      const now = performance.now();
      const minute = minuteAt(now);
      if (answer.ok) {
        record.state = 'acked';
        record.id = answer.id;
        minute.acked += 1;
        minute.ackLatencies.push(now - record.sentAt);
      } else {
        record.state = 'refused';
        record.refusal = answer.message;
        minute.refused += 1;
      }
    });
  };

  const tick = () => {
    const now = Math.min(performance.now(), end);
    for (let room = 0; room < ROOMS; room += 1) {
      // Rooms start staggered over the first interval, so the sends are spread in time.
      const offset = (room * 1000) / (ROOMS * RATE);
      const due = Math.max(0, Math.ceil(((now - t0 - offset) * RATE) / 1000));
      while (sentPerRoom[room]! < due) send(room, sentPerRoom[room]!++);
    }
    const apiDue = Math.ceil(((now - t0) * API_RATE) / 1000);
    while (apiStarted < apiDue) {
      client.due(apiStarted, t0 + (apiStarted * 1000) / API_RATE);
      apiStarted += 1;
    }
  };

  // The bench shares the machine too: its own stalls would show as the server's latency.
  const benchDelay = monitorEventLoopDelay({ resolution: 10 });
  benchDelay.enable();
  const sampleMemory = () => {
    const reading = processMemory(pid);
    if (reading) memory.push({ at: performance.now() - t0, rss: reading.rss });
  };
  sampleMemory();
  const sampler = setInterval(sampleMemory, SAMPLE_MS);

  const header =
    'minute | messages/s | deliveries/s | delivery p50 / p95 / p99 ms | ack p99 ms | API req/s | API p99 ms | 5xx | errors | RSS MB | server CPU | db CPU | load';
  console.log(`\n  ${header}\n  ${header.replace(/[^|]/g, '-')}`);
  const printMinute = (index: number) => {
    const minute = minutes[index]!;
    const seconds = Math.min(60, (DURATION_MS - index * 60_000) / 1000);
    const servers = processCpuMs([pid]);
    const databases = databaseCpu();
    minute.serverCpuMs = cpuSpent(cpuServer, servers);
    minute.databaseCpuMs = databases - cpuDatabase;
    cpuServer = servers;
    cpuDatabase = databases;
    minute.rss = memory.at(-1)?.rss ?? NaN;
    console.log(
      [
        `  ${String(index + 1).padStart(6)}`,
        format(minute.acked / seconds, 1).padStart(10),
        format(minute.deliveries / seconds).padStart(12),
        `${format(percentile(minute.latencies, 50), 1)} / ${format(percentile(minute.latencies, 95), 1)} / ${format(percentile(minute.latencies, 99), 1)}`.padStart(
          27,
        ),
        format(percentile(minute.ackLatencies, 99), 1).padStart(10),
        format(minute.api / seconds, 1).padStart(9),
        format(percentile(minute.apiLatencies, 99), 1).padStart(10),
        String(minute.api5xx).padStart(3),
        String(minute.apiErrors).padStart(6),
        format(minute.rss).padStart(6),
        `${format((minute.serverCpuMs / (seconds * 1000)) * 100)} %`.padStart(10),
        (databasePort
          ? `${format((minute.databaseCpuMs / (seconds * 1000)) * 100)} %`
          : ''
        ).padStart(6),
        loadAverage(),
      ].join(' | '),
    );
  };

  let printed = 0;
  while (performance.now() < end && !serverExit) {
    tick();
    const done = Math.floor((performance.now() - t0) / 60_000);
    // A minute is printed once its deliveries have had a second to arrive.
    if (done > printed && performance.now() - t0 - done * 60_000 > 1_000) printMinute(printed++);
    await sleep(TICK_MS);
  }
  tick();
  benchDelay.disable();
  clearInterval(sampler);
  sampleMemory();

  // Let the last acknowledgements, deliveries and API answers arrive.
  const missingDeliveries = () => {
    let missing = 0;
    for (const record of messages) {
      if (record.state !== 'acked') continue;
      const own = positionOf(record.sender);
      record.receipts.forEach((count, position) => {
        if (count === 0 && position !== own && !record.absent.includes(position)) missing += 1;
      });
    }
    return missing;
  };
  const drainUntil = performance.now() + DRAIN_MS;
  while (
    performance.now() < drainUntil &&
    !serverExit &&
    (messages.some((record) => record.state === 'pending') ||
      client.outstanding() > 0 ||
      missingDeliveries() > 0)
  ) {
    await sleep(250);
  }
  while (printed < minutes.length) printMinute(printed++);

  // Stored: each room read back the way the web client reads it.
  const stored = { missing: 0, duplicated: 0, wrongId: 0, refusedStored: 0 };
  const history = { rooms: 0, messages: 0, pages: 0, outOfOrder: 0 };
  if (!serverExit) {
    let pendingHistory: ((messages: ChatMessage[], hasMore: boolean) => void) | undefined;
    for (let room = 0; room < ROOMS; room += 1) {
      // A checker per room, each another person: reading a room back pages through history far
      // faster than anyone scrolls, so each waits as its budget says (issue 19) and asks again.
      const checker = await connectSocketIo(server.url, apiCookies[room % apiCookies.length]!, {
        onEvent: (data) => {
          if (!data.subarray(0, 20).toString().startsWith('42["room_history"')) return;
          const [, list, info] = JSON.parse(data.toString().slice(2)) as [
            string,
            ChatMessage[],
            { hasMore: boolean } | undefined,
          ];
          pendingHistory?.(list, info?.hasMore ?? false);
        },
      });
      const first = new Promise<{ list: ChatMessage[]; hasMore: boolean }>((resolve) => {
        pendingHistory = (list, hasMore) => resolve({ list, hasMore });
      });
      const joined = await checker.emit('join_room', { roomName: roomName(room) });
      if (!joined.ok) throw new Error(`join_room (check): ${joined.message}`);
      const page = await first;
      let all = page.list;
      let hasMore = page.hasMore;
      history.pages += 1;
      while (hasMore && all.length > 0) {
        const request = { roomName: roomName(room), before: all[0]!.id };
        let older = await checker.emit('load_history', request);
        while (!older.ok && older.retryAfter !== undefined) {
          await sleep(older.retryAfter * 1000);
          older = await checker.emit('load_history', request);
        }
        if (!older.ok) throw new Error(`load_history: ${older.message}`);
        all = [...(older.history ?? []), ...all];
        hasMore = older.hasMore ?? false;
        history.pages += 1;
      }
      history.rooms += 1;
      history.messages += all.length;
      const found = new Map<Sent, string[]>();
      all.forEach((message, index) => {
        if (index > 0 && BigInt(message.id) <= BigInt(all[index - 1]!.id)) history.outOfOrder += 1;
        const marker = readMarker(message.content);
        const record = marker && bySender[marker.sender]?.[marker.seq];
        if (record) found.set(record, [...(found.get(record) ?? []), message.id]);
      });
      for (const record of messages) {
        if (record.room !== room) continue;
        const ids = found.get(record) ?? [];
        if (record.state === 'refused' && ids.length > 0) stored.refusedStored += 1;
        if (record.state !== 'acked') continue;
        if (ids.length === 0) stored.missing += 1;
        else if (ids.length > 1) stored.duplicated += 1;
        else if (ids[0] !== record.id) stored.wrongId += 1;
      }
      checker.close();
    }
  }
  for (const socket of sockets) socket.close();

  const result: RunResult = {
    engine,
    messages,
    minutes,
    api,
    memory,
    dropped,
    strays,
    serverExit,
    stored,
    history,
    benchDelay: { p99: benchDelay.percentile(99) / 1e6, max: benchDelay.max / 1e6 },
  };
  return result;
}

// ---------------------------------------------------------------------------------------------
// Report

const median = (values: number[]) => percentile(values, 50);

/** Prints the summary and the verdicts of one run; false when a criterion is missed. */
function report(result: RunResult): boolean {
  const { messages, minutes, api, memory } = result;
  const acked = messages.filter((record) => record.state === 'acked');
  const refused = messages.filter((record) => record.state === 'refused');
  const pending = messages.length - acked.length - refused.length;
  let expected = 0;
  let missing = 0;
  let duplicates = 0;
  for (const record of acked) {
    record.receipts.forEach((count, position) => {
      if (position === positionOf(record.sender) || record.absent.includes(position)) return;
      expected += 1;
      if (count === 0) missing += 1;
      if (count > 1) duplicates += count - 1;
    });
  }
  const latencies = minutes.flatMap((minute) => minute.latencies);
  const ackLatencies = minutes.flatMap((minute) => minute.ackLatencies);
  const totals: Record<StatusClass, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, error: 0 };
  for (const stats of api.values()) {
    for (const key of Object.keys(totals) as StatusClass[]) totals[key] += stats.counts[key];
  }
  const apiCount = Object.values(totals).reduce((sum, value) => sum + value, 0);

  console.log(`\n${result.engine}: summary`);
  console.log(
    `  messages: ${format(messages.length)} sent, ${format(acked.length)} acknowledged, ${format(refused.length)} refused${refused[0] ? ` (${refused[0].refusal})` : ''}, ${format(pending)} never answered`,
  );
  console.log(
    `  deliveries to the other members: ${format(expected - missing)} of ${format(expected)}, ${format(duplicates)} duplicated; latency p50 ${format(percentile(latencies, 50), 1)} ms, p95 ${format(percentile(latencies, 95), 1)} ms, p99 ${format(percentile(latencies, 99), 1)} ms, max ${format(
      latencies.reduce((most, value) => Math.max(most, value), 0),
      0,
    )} ms; acknowledgement p99 ${format(percentile(ackLatencies, 99), 1)} ms`,
  );
  console.log(
    `  history read back: ${result.history.rooms} rooms, ${format(result.history.messages)} messages in ${result.history.pages} pages (room_history, then load_history), ${result.history.outOfOrder} out of id order; ${result.strays} frames without a known marker`,
  );
  console.log(
    `  the bench's own event-loop delay during the load: p99 ${format(result.benchDelay.p99, 1)} ms, max ${format(result.benchDelay.max)} ms`,
  );
  console.log(
    `  sockets closed by the server: ${result.dropped}${result.serverExit ? `; the server stopped: ${result.serverExit}` : ''}`,
  );
  console.log(
    '\n  API request        | count  | 2xx    | 4xx | 5xx | errors | p50 ms | p99 ms\n  ------------------ | ------ | ------ | --- | --- | ------ | ------ | ------',
  );
  for (const kind of Object.keys(API_MIX)) {
    const stats = api.get(kind);
    if (!stats) continue;
    const count = Object.values(stats.counts).reduce((sum, value) => sum + value, 0);
    console.log(
      `  ${kind.padEnd(18)} | ${format(count).padStart(6)} | ${format(stats.counts['2xx']).padStart(6)} | ${String(stats.counts['4xx']).padStart(3)} | ${String(stats.counts['5xx']).padStart(3)} | ${String(stats.counts.error).padStart(6)} | ${format(percentile(stats.latencies, 50), 1).padStart(6)} | ${format(percentile(stats.latencies, 99), 1).padStart(6)}`,
    );
    for (const sample of stats.samples) console.log(`    ${sample}`);
  }

  // Memory: the start, the median of the minute before half-way and of the last minute.
  const half = DURATION_MS / 2;
  const within = (from: number, to: number) =>
    memory.filter((sample) => sample.at >= from && sample.at <= to).map((sample) => sample.rss);
  const start = memory[0]?.rss ?? NaN;
  const atHalf = median(within(half - MEMORY_WINDOW_MS, half));
  const atEnd = median(within(DURATION_MS - MEMORY_WINDOW_MS, DURATION_MS + SAMPLE_MS));
  const lastHalf = memory.filter((sample) => sample.at >= half);
  const growth = (atEnd - atHalf) / atHalf;
  // Least squares over the last half: a leak shows as a steady slope, a collection as noise.
  const meanAt = lastHalf.reduce((sum, sample) => sum + sample.at, 0) / lastHalf.length;
  const meanRss = lastHalf.reduce((sum, sample) => sum + sample.rss, 0) / lastHalf.length;
  const slope =
    lastHalf.reduce((sum, sample) => sum + (sample.at - meanAt) * (sample.rss - meanRss), 0) /
    lastHalf.reduce((sum, sample) => sum + (sample.at - meanAt) ** 2, 0);
  const window = `${MEMORY_WINDOW_MS / 1000} s`;
  console.log(
    `\n  resident memory of the server process (every ${SAMPLE_MS / 1000} s, ${memory.length} samples): at the start ${format(start)} MB; ` +
      `median of the ${window} before half-way ${format(atHalf)} MB; of the last ${window} ${format(atEnd)} MB; ` +
      `highest in the last half ${format(Math.max(...lastHalf.map((sample) => sample.rss)))} MB; ` +
      `trend over the last half ${slope * 60_000 >= 0 ? '+' : ''}${format(slope * 60_000, 2)} MB per minute`,
  );

  const criteria: [string, string, boolean][] = [
    [
      'API: no 5xx, no network error or time-out',
      `${format(totals['5xx'])} 5xx and ${format(totals.error)} errors of ${format(apiCount)} requests (${format(totals['4xx'])} 4xx)`,
      totals['5xx'] === 0 && totals.error === 0,
    ],
    [
      'every message sent was acknowledged',
      `${format(acked.length)} of ${format(messages.length)} (${format(refused.length)} refused, ${format(pending)} unanswered)`,
      acked.length === messages.length && messages.length > 0,
    ],
    [
      'every acknowledged message reached every other member, once',
      `${format(missing)} missing and ${format(duplicates)} duplicated of ${format(expected)} deliveries`,
      missing === 0 && duplicates === 0 && expected > 0,
    ],
    [
      'every acknowledged message stored, once, under its id',
      `${format(result.stored.missing)} missing, ${format(result.stored.duplicated)} duplicated, ${format(result.stored.wrongId)} under another id, of ${format(acked.length)}`,
      result.stored.missing === 0 &&
        result.stored.duplicated === 0 &&
        result.stored.wrongId === 0 &&
        result.history.rooms === ROOMS,
    ],
    [
      'no socket closed by the server',
      `${result.dropped}${result.serverExit ? ` (server stopped: ${result.serverExit})` : ''}`,
      result.dropped === 0 && !result.serverExit,
    ],
    [
      'RSS growth over the last half < 10 %',
      `${growth >= 0 ? '+' : ''}${format(growth * 100, 1)} % (${format(atHalf)} → ${format(atEnd)} MB)`,
      growth < GROWTH_LIMIT,
    ],
  ];
  const width = Math.max(...criteria.map(([name]) => name.length));
  const valueWidth = Math.max(...criteria.map(([, value]) => value.length));
  console.log(
    `\n  ${'criterion'.padEnd(width)} | ${'measured'.padEnd(valueWidth)} | verdict\n  ${'-'.repeat(width)} | ${'-'.repeat(valueWidth)} | -------`,
  );
  for (const [name, value, met] of criteria) {
    console.log(
      `  ${name.padEnd(width)} | ${value.padEnd(valueWidth)} | ${met ? 'met' : 'missed'}`,
    );
  }
  return criteria.every(([, , met]) => met);
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(SHARED_DATA)) {
  console.error(`No ${SHARED_DATA}: the shared data must sit beside the repository.`);
  process.exit(1);
}
const benchStarted = performance.now();
console.log(machineLine());
console.log(
  `${SOCKETS} sockets (${SOCKETS} registered people) in ${ROOMS} rooms of ${SMALLEST_ROOM}${SOCKETS % ROOMS ? '–' + (SMALLEST_ROOM + 1) : ''}; ` +
    `${RATE} messages per second in each room (${format(RATE * ROOMS)} per second in all; each person sends one every ${format(PERSON_GAP_MS / 1000, 1)} s, the rule allows ${MESSAGE_RATE_LIMIT} per ${MESSAGE_RATE_WINDOW_MS / 1000} s); ` +
    `API ${API_RATE} requests per second from ${API_PEOPLE} other signed-in people and guests; ${MINUTES} minutes; engines: ${ENGINES.join(', ')}`,
);

let allMet = true;
for (const engine of ENGINES) {
  const work = mkdtempSync(path.join(os.tmpdir(), 'digi-soak-'));
  let stopCluster = () => {};
  let server: ServerProcess | undefined;
  try {
    const env: Record<string, string> = {
      DATA_DIR: path.join(work, 'data'),
      // Each registration comes from its own forwarded address (60 per hour per address).
      TRUST_PROXY: 'true',
    };
    let port: string | undefined;
    if (engine === 'PostgreSQL') {
      const postgres = await privatePostgres('soak');
      if (!postgres) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
      stopCluster = postgres.stop;
      env.DATABASE_URL = postgres.url;
      port = postgres.port;
    } else if (engine !== 'PGlite') {
      throw new Error(`BENCH_ENGINES: unknown engine ${engine} (PGlite or PostgreSQL)`);
    }
    console.log(`\n${engine}: importing the catalogue`);
    const database = await openDatabase({ dataDir: env.DATA_DIR!, databaseUrl: env.DATABASE_URL });
    await loadCatalogue(database);
    await database.close();
    server = await startAppServer(env);
    const result = await soak(engine, server, port);
    await server.stop();
    server = undefined;
    if (!report(result)) allMet = false;
  } finally {
    await server?.stop();
    stopCluster();
    rmSync(work, { recursive: true, force: true });
  }
}
console.log(
  `\nload average ${loadAverage()}; ${((performance.now() - benchStarted) / 1000).toFixed(0)} s in all`,
);
process.exitCode = allMet ? 0 : 1;
