import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findPostgresBin,
  startPostgresCluster,
  type PostgresCluster,
} from '../../scripts/lib/postgres-cluster.ts';
import { registerOn, startServerProcess, type ServerProcess } from '../test/process.ts';
import { connectChat, emitAck, type ChatClient } from '../test/sockets.ts';

// Issue 19, finding 7: "A sender on process 1 and a listener on process 2: a fast restart hid
// 2–13 acknowledged messages from the listener; a 15-second outage hid 5–22." Real server
// processes on a private PostgreSQL cluster that the test restarts and stops; the listener stays
// connected throughout and never joins again, so whatever it gets, it gets live.

const CI = ['true', '1'].includes(String(process.env.CI).toLowerCase());
const POSTGRES_BIN = findPostgresBin();
/** The outage of the issue, in full: longer than the adapter's heartbeat time-out (10 s). */
const OUTAGE_MS = 15_000;
/** How long the conversation goes on once the database is back (the gap was 0–4 s after). */
const AFTER_RETURN_MS = 8_000;
/** The rate is 5 messages per 5 s per person: one a little slower than 1 per second passes. */
const SEND_EVERY_MS = 1_100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Orders bigint ids held as text. */
const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Every sender sends a message about once a second, each a little after the one before, until
 * `stop()`; `acknowledged` holds the ids the server acknowledged (a refusal while the database is
 * down, or no answer, is not an acknowledgement).
 */
function converse(senders: ChatClient[], roomName: string) {
  const acknowledged: string[] = [];
  let stopped = false;
  const loops = senders.map(async (socket, who) => {
    await sleep((who * SEND_EVERY_MS) / senders.length);
    for (let n = 0; !stopped; n += 1) {
      const started = Date.now();
      const answer = await emitAck(socket, 'send_message', {
        room: roomName,
        message: `from ${who}: ${n}`,
      }).catch(() => undefined);
      if (answer?.ok && answer.id) acknowledged.push(answer.id);
      await sleep(Math.max(0, SEND_EVERY_MS - (Date.now() - started)));
    }
  });
  return {
    acknowledged,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

describe.runIf(POSTGRES_BIN || CI)('two processes while PostgreSQL restarts', () => {
  let cluster: PostgresCluster | undefined;
  const servers: ServerProcess[] = [];
  const sockets: ChatClient[] = [];
  let senders: ChatClient[];
  /** Every message id the listener on process two received live, in order of arrival. */
  const received: string[] = [];
  const roomName = 'Hiccups';
  /** Why the listener was disconnected, if it was: it must stay connected throughout. */
  let disconnected: string | undefined;

  beforeAll(async () => {
    if (!POSTGRES_BIN)
      throw new Error('CI: PostgreSQL is not installed (apt-get install -y postgresql).');
    cluster = await startPostgresCluster(POSTGRES_BIN);
    // Chat across a restart is what is measured: the embedding of the demo library (a model
    // loaded in each process, both cores busy for a minute) would only slow it down.
    const env = {
      DATABASE_URL: cluster.url,
      DATA_DIR: '/nonexistent',
      TRUST_PROXY: 'true',
      SEMANTIC_SEARCH: 'false',
    };
    const one = await startServerProcess(env);
    servers.push(one);
    const two = await startServerProcess({ ...env, DEMO_DATA: 'false' });
    servers.push(two);

    const cookies = [];
    for (const [index, firstName] of ['Ada', 'Grace', 'Edsger', 'Barbara'].entries()) {
      cookies.push(
        await registerOn(one, { firstName }, { 'x-forwarded-for': `203.0.113.${index + 1}` }),
      );
    }
    const alanCookie = await registerOn(
      two,
      { firstName: 'Alan' },
      { 'x-forwarded-for': '203.0.113.9' },
    );
    senders = await Promise.all(cookies.map((cookie) => connectChat(one.url, cookie, one.url)));
    const listener = await connectChat(two.url, alanCookie, two.url);
    sockets.push(...senders, listener);
    expect(await emitAck(senders[0]!, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    for (const socket of sockets)
      expect((await emitAck(socket, 'join_room', { roomName })).ok).toBe(true);
    listener.on('receive_message', (message) => received.push(message.id));
    listener.on('disconnect', (reason) => (disconnected = reason));
  }, 60_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    for (const server of servers) await server.stop('SIGKILL');
    cluster?.stop();
  });

  /** How many messages process two has delivered so far from its replays (`replay.ts`). */
  const replayed = () =>
    servers[1]!
      .logs()
      .filter((line) => line.msg === 'delivered chat messages missed meanwhile')
      .reduce((sum, line) => sum + Number(line.delivered), 0);

  /**
   * Waits until the listener holds every acknowledged id (10 s at most), then checks it got
   * each exactly once and in order.
   */
  async function expectEveryOneOnce(acknowledged: readonly string[], from: number) {
    const missing = () => acknowledged.filter((id) => !received.includes(id));
    const by = Date.now() + 10_000;
    while (missing().length > 0 && Date.now() < by) await sleep(100);
    expect(disconnected).toBeUndefined();
    const got = received.slice(from);
    const said = `received ${got.join(' ')}; ${replayed()} replayed so far`;
    expect(missing(), said).toEqual([]);
    expect(new Set(got).size, said).toBe(got.length);
    expect(got, said).toEqual([...got].sort(byId));
    expect(servers[0]!.output() + servers[1]!.output()).not.toMatch(/uncaught|unhandled/i);
  }

  it('after a fast restart, the listener gets every acknowledged message once, in order', async () => {
    const from = received.length;
    const conversation = converse(senders, roomName);
    await sleep(3_000);
    expect(received.length, 'messages cross before the restart').toBeGreaterThan(from);
    cluster!.restart();
    await sleep(AFTER_RETURN_MS);
    await conversation.stop();
    expect(conversation.acknowledged.length).toBeGreaterThan(10);
    await expectEveryOneOnce(conversation.acknowledged, from);
  }, 60_000);

  it('after a 15-second outage, the listener gets every acknowledged message once, in order', async () => {
    const from = received.length;
    const conversation = converse(senders, roomName);
    await sleep(2_000);
    const replayedBefore = replayed();
    cluster!.pause();
    await sleep(OUTAGE_MS);
    cluster!.resume();
    await sleep(AFTER_RETURN_MS);
    await conversation.stop();
    await expectEveryOneOnce(conversation.acknowledged, from);
    // Process two usually listens again 1–3 s after the database is back, while process one is
    // already storing and sending, and what came in between reaches the listener through the
    // replay. Not always: when process one's pool comes back after process two's LISTEN, nothing
    // falls between them (seen once in CI, every message received once and in order). The replay
    // must have run in one of the two outages, or these tests would prove nothing about it.
    expect(replayed(), `replayed ${replayedBefore} before this outage`).toBeGreaterThan(0);
  }, 90_000);
});
