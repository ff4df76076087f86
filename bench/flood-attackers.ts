/**
 * The attackers of `npm run bench:flood` (bench/flood.ts), in a process of their own: their work
 * (thousands of frames, reconnect loops, 64 KB payloads) must not delay the event loop that
 * timestamps the bystanders' deliveries. Driven over IPC: `prepare` connects them and puts each
 * in a room of its own (answered `ready`), `go` starts the attack, `stop` ends it, closes every
 * socket and is answered with what each attacker got back (`result`).
 *
 * Every attacker is its own signed-in person. Kinds:
 * - `flood`: one socket sending `send_message` into its room every 50 ms (200 per 10 s);
 * - `flood-20-sockets`: the same from 20 sockets of one person at once (4,000 per 10 s);
 * - `oversized`: connects, sends a frame of exactly the limit (64 KB, a message far too long:
 *   refused, the connection stays), then one byte more (the server must drop the connection),
 *   and reconnects to do it again;
 * - `malformed`: frames that are not Engine.IO or Socket.IO, one after the other, each followed by
 *   an acknowledged `leave_room` to see whether the connection survived; reconnects when dropped;
 * - `random-events`: random event names (and, one time in three, the chat's own names) with
 *   random payloads, every 50 ms, some asking for an acknowledgement;
 * - `room-churn`: `create_room` (a new name each time), `join_room`, `leave_room` and a join of a
 *   room that does not exist, in turn, one call every 50 ms;
 * - `join-flood` (issue 19's finding): 3,000 `join_room` into the plan's room, sent at once from
 *   one socket without waiting for any answer; when the server closes the socket, a new
 *   connection does it again.
 * Open-loop senders keep their pace whatever the answers; the reconnecting kinds pause 100 ms
 * between cycles.
 */
import type WebSocket from 'ws';
import { CLIENT_EVENTS, SOCKET_MAX_PAYLOAD_BYTES, type Ack } from '#contract/socket/chat.ts';
import { closeWebSocket, connectSocketIo, type WireSocket } from './lib-socket.ts';

/** What an attacker does (see the file's comment). */
export type AttackKind =
  | 'flood'
  | 'flood-20-sockets'
  | 'oversized'
  | 'malformed'
  | 'random-events'
  | 'room-churn'
  | 'join-flood';

/** One attacker: a person (their session cookie) and what they do. */
export interface AttackerPlan {
  name: string;
  kind: AttackKind;
  cookie: string;
  /** The room a `join-flood` floods (a bystanders' room: its members must notice nothing). */
  room?: string;
}

/** Messages from bench/flood.ts. */
export type ToAttackers =
  { type: 'prepare'; url: string; attackers: AttackerPlan[] } | { type: 'go' } | { type: 'stop' };

/** What one attacker sent and got back. */
export interface AttackerTally {
  name: string;
  kind: AttackKind;
  /** Namespace connections made. */
  connects: number;
  /** Connections refused by the server (connect_error or closed before connecting). */
  connectRefused: number;
  /** Frames and events sent during the attack. */
  sent: number;
  /** Acknowledgements with `ok: true`. */
  accepted: number;
  /** Acknowledgements with `ok: false`, and how many of each message. */
  refused: number;
  refusals: Record<string, number>;
  /** Acknowledgements asked for on a connection that stayed open but never came (5 s). */
  unanswered: number;
  /** Connections the server closed. */
  dropped: number;
  /** Hostile frames after which the connection still answered (frames ignored). */
  survived: number;
  /** Hostile frames after which the connection went quiet (neither answered in 1 s nor closed). */
  silent: number;
  /** Frames over the limit that did not close the connection (must stay 0). */
  oversizedKept: number;
}

/** Messages to bench/flood.ts. */
export type FromAttackers = { type: 'ready' } | { type: 'result'; tallies: AttackerTally[] };

const TICK_MS = 50;
/** `join_room` events per connection of a `join-flood`, as in issue 19's finding. */
const JOIN_FLOOD = 3_000;
const CYCLE_PAUSE_MS = 100;
const ANSWER_TIMEOUT_MS = 5_000;
const CHAT_EVENTS = Object.values(CLIENT_EVENTS);
const RESERVED = ['connect', 'connect_error', 'disconnect', 'disconnecting', 'newListener'];
const PROTOTYPE = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const randomInt = (below: number) => Math.floor(Math.random() * below);
const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;

let url = '';
let running = false;
const sockets = new Set<WebSocket>();
/** Acknowledgements still awaited: waited for (at most ANSWER_TIMEOUT_MS) before reporting. */
const inFlight = new Set<Promise<unknown>>();

function newTally(plan: Pick<AttackerPlan, 'name' | 'kind'>): AttackerTally {
  return {
    name: plan.name,
    kind: plan.kind,
    connects: 0,
    connectRefused: 0,
    sent: 0,
    accepted: 0,
    refused: 0,
    refusals: {},
    unanswered: 0,
    dropped: 0,
    survived: 0,
    silent: 0,
    oversizedKept: 0,
  };
}

/** A connected socket of `tally`'s person and a promise of its closing; undefined if refused. */
async function connect(
  tally: AttackerTally,
  cookie: string,
): Promise<{ wire: WireSocket; closed: Promise<'closed'> } | undefined> {
  let connected = false;
  try {
    const wire = await connectSocketIo(url, cookie, {
      onUnexpectedClose: () => {
        if (connected) tally.dropped += 1;
      },
    });
    connected = true;
    tally.connects += 1;
    sockets.add(wire.socket);
    const closed = new Promise<'closed'>((resolve) =>
      wire.socket.once('close', () => {
        sockets.delete(wire.socket);
        resolve('closed');
      }),
    );
    return { wire, closed };
  } catch (error) {
    tally.connectRefused += 1;
    const message = `connect: ${(error as Error).message.slice(0, 80)}`;
    tally.refusals[message] = (tally.refusals[message] ?? 0) + 1;
    return undefined;
  }
}

type Connection = NonNullable<Awaited<ReturnType<typeof connect>>>;

/**
 * Emits with an acknowledgement; the answer, or 'closed', or 'timeout'. Counts the outcome,
 * unless it is a `probe` (a check that the connection is alive, not part of the attack).
 */
function ask(
  tally: AttackerTally,
  connection: Connection,
  event: string,
  payload: unknown,
  probe = false,
): Promise<Ack | 'closed' | 'timeout'> {
  if (!probe) tally.sent += 1;
  let timer: NodeJS.Timeout | undefined;
  const answer = Promise.race([
    connection.wire.emit(event, payload),
    connection.closed,
    new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(resolve, probe ? 1_000 : ANSWER_TIMEOUT_MS, 'timeout')),
    ),
  ]).then((result) => {
    clearTimeout(timer);
    if (probe) return result;
    if (result === 'timeout') tally.unanswered += 1;
    else if (result !== 'closed' && result.ok) tally.accepted += 1;
    else if (result !== 'closed') {
      tally.refused += 1;
      const message = result.message.slice(0, 80);
      tally.refusals[message] = (tally.refusals[message] ?? 0) + 1;
    }
    return result;
  });
  inFlight.add(answer);
  void answer.then(() => inFlight.delete(answer));
  return answer;
}

/** Sends a raw frame, counted. */
function sendRaw(tally: AttackerTally, connection: Connection, frame: string | Buffer) {
  tally.sent += 1;
  connection.wire.socket.send(frame);
}

/** Runs `step` every TICK_MS while the attack runs, on schedule whatever the answers. */
async function everyTick(step: () => Promise<void> | void) {
  let next = performance.now();
  while (running) {
    await step();
    next += TICK_MS;
    await sleep(Math.max(0, next - performance.now()));
  }
}

/** A person's connection joined to `room`, connecting again whenever the server dropped it. */
function keptInRoom(tally: AttackerTally, cookie: string, room: string) {
  let current: Connection | undefined;
  let connecting: Promise<void> | undefined;
  const open = async () => {
    const connection = await connect(tally, cookie);
    if (!connection) return;
    await connection.wire.emit('join_room', { roomName: room });
    current = connection;
    void connection.closed.then(() => {
      if (current === connection) current = undefined;
    });
  };
  return {
    open,
    /** The live connection, or undefined while (re)connecting. */
    get(): Connection | undefined {
      if (!current && !connecting && running) {
        connecting = open().finally(() => (connecting = undefined));
      }
      return current;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Random payloads

function randomString(max: number): string {
  const length = randomInt(max + 1);
  const alphabets = [
    'abcdefghijklmnopqrstuvwxyz ',
    '0123456789-_/.:;,!?"\'\\{}[]<>$%&*',
    '\u0000\u0001\u001f\u007f\u200b\u202e\ufeff\uffff',
    'éüßøñ漢字中文😀🙈',
  ].map((alphabet) => Array.from(alphabet));
  let text = '';
  for (let index = 0; index < length; index += 1) text += pick(pick(alphabets));
  // Now and then a lone surrogate, which no database can store.
  return Math.random() < 0.05 ? `${text}\ud800` : text;
}

function randomValue(depth = 0): unknown {
  const roll = Math.random();
  if (depth > 3 || roll < 0.25) {
    return pick([null, true, false, 0, -1, 1e308, Math.random() * 1e12, '', Number.MIN_VALUE]);
  }
  if (roll < 0.55) return randomString(Math.random() < 0.1 ? 20_000 : 60);
  if (roll < 0.7) return Array.from({ length: randomInt(8) }, () => randomValue(depth + 1));
  const keys = ['roomName', 'room', 'message', 'after', 'before', 'description', ...PROTOTYPE];
  return Object.fromEntries(
    Array.from({ length: randomInt(8) }, () => [
      Math.random() < 0.6 ? pick(keys) : randomString(20),
      randomValue(depth + 1),
    ]),
  );
}

// ---------------------------------------------------------------------------------------------
// Attacks

/** Floods `send_message` from `count` sockets of one person into its own room. */
function flood(plan: AttackerPlan, tally: AttackerTally, count: number) {
  const room = `flood ${plan.name}`;
  const kept = Array.from({ length: count }, () => keptInRoom(tally, plan.cookie, room));
  return {
    async prepare() {
      const first = await connect(tally, plan.cookie);
      if (!first) throw new Error(`${plan.name} could not connect`);
      await first.wire.emit('create_room', { roomName: room, description: 'flood' });
      first.wire.close();
      await Promise.all(kept.map((socket) => socket.open()));
    },
    attack: () =>
      Promise.all(
        kept.map((socket, index) => {
          let sequence = 0;
          return everyTick(() => {
            const connection = socket.get();
            if (connection) {
              void ask(tally, connection, 'send_message', {
                room,
                message: `spam ${index}/${(sequence += 1)} from ${plan.name}`,
              });
            }
          });
        }),
      ),
  };
}

/** A frame of exactly `bytes` bytes: `send_message` with a message padded to fit. */
function frameOfSize(bytes: number, ackId: string): string {
  const frame = (message: string) =>
    `42${ackId}${JSON.stringify(['send_message', { room: 'oversized', message }])}`;
  return frame('a'.repeat(bytes - Buffer.byteLength(frame(''))));
}

/** At the limit (refused, kept), then one byte over it (dropped); again and again. */
function oversized(plan: AttackerPlan, tally: AttackerTally) {
  // WireSocket numbers acknowledgements from 0: the first emit on a new connection is `420[…]`.
  const atLimit = JSON.parse(frameOfSize(SOCKET_MAX_PAYLOAD_BYTES, '0').slice(3)) as [
    string,
    unknown,
  ];
  const overLimit = frameOfSize(SOCKET_MAX_PAYLOAD_BYTES + 1, '');
  if (Buffer.byteLength(`420${JSON.stringify(atLimit)}`) !== SOCKET_MAX_PAYLOAD_BYTES) {
    throw new Error('the at-limit frame is not the limit');
  }
  return {
    prepare: async () => {},
    async attack() {
      while (running) {
        const connection = await connect(tally, plan.cookie);
        if (connection) {
          await ask(tally, connection, atLimit[0], atLimit[1]);
          if (running && connection.wire.socket.readyState === connection.wire.socket.OPEN) {
            sendRaw(tally, connection, overLimit);
            const outcome = await Promise.race([connection.closed, sleep(ANSWER_TIMEOUT_MS)]);
            if (outcome !== 'closed') {
              tally.oversizedKept += 1;
              connection.wire.close();
            }
          }
        }
        await sleep(CYCLE_PAUSE_MS);
      }
    },
  };
}

/** Frames that are not valid Engine.IO / Socket.IO, or not in their place. */
const MALFORMED: (string | Buffer)[] = [
  '42',
  '42[',
  '42["send_message"',
  '42{"a":1}',
  '42[1,2,3]',
  '42[]',
  '42[null]',
  '42["send_message",{"room":"x","message":"y"},{"extra":1}]',
  '42["create_room",{"__proto__":{"polluted":true},"roomName":""}]',
  `42["send_message",${'['.repeat(20_000)}${']'.repeat(20_000)}]`,
  '43999[]',
  '4x',
  '9',
  '',
  '6',
  '5',
  '2probe',
  '40/admin,',
  '44{"message":"from the client"}',
  '4',
  // A binary event announcing an attachment that never comes, then too many attachments.
  '451-["send_message",{"_placeholder":true,"num":0}]',
  '4511-["send_message",{"_placeholder":true,"num":0}]',
  '\u0000\uffff\ud800',
  Buffer.from([0, 1, 2, 255, 254]),
  Buffer.alloc(60_000, 0x34),
  '41',
];

function malformed(plan: AttackerPlan, tally: AttackerTally) {
  return {
    prepare: async () => {},
    async attack() {
      let next = 0;
      while (running) {
        const connection = await connect(tally, plan.cookie);
        while (connection && running) {
          sendRaw(tally, connection, MALFORMED[next++ % MALFORMED.length]!);
          const answer = await ask(tally, connection, 'leave_room', null, true);
          if (answer === 'closed') break;
          if (answer === 'timeout') {
            tally.silent += 1;
            connection.wire.close();
            break;
          }
          tally.survived += 1;
          await sleep(TICK_MS);
        }
        await sleep(CYCLE_PAUSE_MS);
      }
    },
  };
}

function randomEvents(plan: AttackerPlan, tally: AttackerTally) {
  const room = `random ${plan.name}`;
  const kept = keptInRoom(tally, plan.cookie, room);
  return {
    async prepare() {
      const first = await connect(tally, plan.cookie);
      if (!first) throw new Error(`${plan.name} could not connect`);
      await first.wire.emit('create_room', { roomName: room, description: 'random' });
      first.wire.close();
      await kept.open();
    },
    attack: () =>
      everyTick(() => {
        const connection = kept.get();
        if (!connection) return;
        const roll = Math.random();
        if (roll < 0.33) {
          void ask(tally, connection, pick(CHAT_EVENTS), randomValue());
          return;
        }
        const name =
          roll < 0.38 ? pick(RESERVED) : roll < 0.45 ? pick(PROTOTYPE) : randomString(100);
        // Half ask for an acknowledgement that no handler will send.
        const ackId = Math.random() < 0.5 ? String(randomInt(1e9)) : '';
        sendRaw(tally, connection, `42${ackId}${JSON.stringify([name, randomValue()])}`);
      }),
  };
}

function roomChurn(plan: AttackerPlan, tally: AttackerTally) {
  const kept = keptInRoom(tally, plan.cookie, `churn ${plan.name} 0`);
  let created = 0;
  let step = 0;
  return {
    async prepare() {
      const first = await connect(tally, plan.cookie);
      if (!first) throw new Error(`${plan.name} could not connect`);
      await first.wire.emit('create_room', { roomName: `churn ${plan.name} 0`, description: '' });
      first.wire.close();
      await kept.open();
    },
    attack: () =>
      everyTick(() => {
        const connection = kept.get();
        if (!connection) return;
        const room = `churn ${plan.name} ${created}`;
        switch (step++ % 4) {
          case 0:
            created += 1;
            void ask(tally, connection, 'create_room', {
              roomName: `churn ${plan.name} ${created}`,
              description: 'churn '.repeat(randomInt(50)),
            });
            break;
          case 1:
            void ask(tally, connection, 'join_room', { roomName: room });
            break;
          case 2:
            void ask(tally, connection, 'leave_room', null);
            break;
          default:
            void ask(tally, connection, 'join_room', { roomName: `nowhere ${randomInt(1e9)}` });
        }
      }),
  };
}

/** 3,000 `join_room` at once from one socket, again on a new connection whenever it is closed. */
function joinFlood(plan: AttackerPlan, tally: AttackerTally) {
  const room = plan.room ?? `join flood ${plan.name}`;
  return {
    async prepare() {
      if (plan.room) return;
      const first = await connect(tally, plan.cookie);
      if (!first) throw new Error(`${plan.name} could not connect`);
      await first.wire.emit('create_room', { roomName: room, description: 'join flood' });
      first.wire.close();
    },
    async attack() {
      while (running) {
        const connection = await connect(tally, plan.cookie);
        if (connection) {
          const answers = Array.from({ length: JOIN_FLOOD }, () =>
            ask(tally, connection, 'join_room', { roomName: room }),
          );
          // Until the server closes it, or has answered everything (then this side closes it).
          await Promise.race([connection.closed, Promise.all(answers)]);
          connection.wire.close();
        }
        await sleep(CYCLE_PAUSE_MS);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------

let attacks: { tally: AttackerTally; prepare(): Promise<void>; attack(): Promise<unknown> }[] = [];
let attacking: Promise<unknown> | undefined;
const reply = (message: FromAttackers) => process.send?.(message);

process.on('message', (raw: unknown) => {
  const message = raw as ToAttackers;
  void (async () => {
    if (message.type === 'prepare') {
      url = message.url;
      attacks = message.attackers.map((plan) => {
        const tally = newTally(plan);
        const attack =
          plan.kind === 'flood'
            ? flood(plan, tally, 1)
            : plan.kind === 'flood-20-sockets'
              ? flood(plan, tally, 20)
              : plan.kind === 'oversized'
                ? oversized(plan, tally)
                : plan.kind === 'malformed'
                  ? malformed(plan, tally)
                  : plan.kind === 'random-events'
                    ? randomEvents(plan, tally)
                    : plan.kind === 'join-flood'
                      ? joinFlood(plan, tally)
                      : roomChurn(plan, tally);
        return { tally, ...attack };
      });
      // Only running counts toward the tallies: what `prepare` did is not the attack.
      running = true;
      for (const attack of attacks) await attack.prepare();
      running = false;
      for (const { tally } of attacks) Object.assign(tally, newTally(tally));
      reply({ type: 'ready' });
    } else if (message.type === 'go') {
      running = true;
      attacking = Promise.all(attacks.map((attack) => attack.attack()));
    } else {
      running = false;
      await attacking;
      await Promise.all(inFlight);
      for (const socket of sockets) closeWebSocket(socket);
      reply({ type: 'result', tallies: attacks.map((attack) => attack.tally) });
      process.disconnect();
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
});
