import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGE_RATE_LIMIT } from '#contract/socket/chat.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  type ChatClient,
} from '../test/sockets.ts';

/**
 * Clients that do not play by the rules: a flood from one socket, frames that are not Socket.IO,
 * payloads of the wrong shape and events that do not exist. Pass: the process stays up, the
 * hostile socket gets refusals (or is dropped), and a bystander in another room chats throughout.
 * (Latency and memory under such load are measured by `npm run bench:flood`, not here.)
 */
describe.each(testDatabaseKinds())('hostile chat clients on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  let mallory: SignedInPerson;
  let bystander: SignedInPerson;
  let listener: SignedInPerson;
  const open: { close(): void }[] = [];
  let counter = 0;

  const connect = async (person: SignedInPerson) => {
    const socket = await connectChat(url, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const enter = async (socket: ChatClient, roomName: string, create = false) => {
    if (create) await emitAck(socket, 'create_room', { roomName, description: '' });
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
    await history;
  };

  /** The bystander's room still works: a message goes out and comes back to the other member. */
  const bystanderRoomWorks = async (speaker: ChatClient, hearer: ChatClient, room: string) => {
    const text = `still here ${++counter}`;
    const heard = nextEvent(hearer, 'receive_message');
    expect(await emitAck(speaker, 'send_message', { room, message: text, sender: 'x' })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect((await heard)[0].content).toBe(text);
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    url = await listenOnFreePort(testApp);
    mallory = await signedInPerson(testApp);
    bystander = await signedInPerson(testApp);
    listener = await signedInPerson(testApp);
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('refuses a flood of 200 messages beyond the rate, while another room chats on', async () => {
    const flooder = await connect(mallory);
    await enter(flooder, `Flood ${kind}`, true);
    const speaker = await connect(bystander);
    const hearer = await connect(listener);
    const quiet = `Quiet ${kind}`;
    await enter(speaker, quiet, true);
    await enter(hearer, quiet);

    const answers = Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        emitAck(flooder, 'send_message', {
          room: `Flood ${kind}`,
          message: `spam ${index}`,
          sender: 'x',
        }),
      ),
    );
    await bystanderRoomWorks(speaker, hearer, quiet);
    const acks = await answers;
    expect(acks.filter((ack) => ack.ok)).toHaveLength(MESSAGE_RATE_LIMIT);
    const refused = acks.filter((ack) => !ack.ok);
    expect(refused).toHaveLength(200 - MESSAGE_RATE_LIMIT);
    expect(refused[0]).toEqual({ ok: false, message: expect.stringMatching(/too fast/) });
    await bystanderRoomWorks(speaker, hearer, quiet);
  });

  it('answers payloads of the wrong shape and unknown events without falling over', async () => {
    const socket = await connect(mallory);
    const raw = socket as unknown as {
      timeout(ms: number): { emitWithAck(name: string, ...args: unknown[]): Promise<unknown> };
      emit(name: string, ...args: unknown[]): void;
    };
    // Text the database cannot store is refused with a reason, never a failed write. First: the
    // shapes below spend more than a person's budget of rooms, and are refused by it in the end.
    for (const [event, payload] of [
      ['create_room', { roomName: 'nul\u0000room', description: '' }],
      ['send_message', { room: 'x', message: 'nul \u0000 here', sender: 'x' }],
      ['create_room', { roomName: 'lone \uD800 surrogate', description: '' }],
    ] as const) {
      const ack = (await raw.timeout(5_000).emitWithAck(event, payload)) as {
        ok: boolean;
        message?: string;
      };
      expect(ack, event).toEqual({
        ok: false,
        message: expect.stringMatching(/NUL|Unicode|control characters/),
      });
    }
    const hostile: unknown[][] = [
      [null],
      [42],
      ['a string'],
      [[1, 2, 3]],
      [{ roomName: { $gt: '' } }],
      [{ roomName: 'x'.repeat(10_000) }],
      [{ room: null, message: null }],
      [{ roomName: '' }],
      [{ roomName: 7, extra: 'fields', deep: { deeper: { deepest: [] } } }],
    ];
    for (const event of [
      'create_room',
      'join_room',
      'send_message',
      'close_room',
      'load_history',
    ]) {
      for (const args of hostile) {
        const ack = (await raw.timeout(5_000).emitWithAck(event, ...args)) as {
          ok: boolean;
          message?: string;
        };
        expect(ack.ok, `${event} ${JSON.stringify(args)}`).toBe(false);
        expect(typeof ack.message).toBe('string');
      }
    }
    // Without an acknowledgement the refusal comes as chat_error.
    const error = nextEvent(socket, 'chat_error');
    raw.emit('join_room', 17);
    expect((await error)[0].message).toEqual(expect.any(String));
    // Events that do not exist, with and without arguments, are ignored.
    for (const name of ['constructor', '__proto__', 'toString', 'rm -rf', 'x'.repeat(5_000), '']) {
      raw.emit(name, { roomName: 'x' });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const speaker = await connect(bystander);
    const hearer = await connect(listener);
    const room = `After shapes ${kind}`;
    await enter(speaker, room, true);
    await enter(hearer, room);
    await bystanderRoomWorks(speaker, hearer, room);
  });

  it('drops connections that send frames which are not Socket.IO, and stays up', async () => {
    const garbage: (string | Buffer)[] = [
      '42',
      '42[',
      '42["send_message"',
      '42{"a":1}',
      '42[1,2,3]',
      '42["send_message",{"room":"x","message":"y"},{"extra":1}]',
      '42["create_room",{"__proto__":{"polluted":true},"roomName":""}]',
      '43999[]',
      '4x',
      '9',
      '',
      'ǅ\u0000\uffff',
      Buffer.from([0, 1, 2, 255, 254]),
      `42["${'a'.repeat(60_000)}"]`,
    ];
    for (const frame of garbage) {
      const ws = new WebSocket(
        `${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`,
        {
          headers: { origin: testApp.config.publicUrl, cookie: mallory.client.cookieHeader() },
        },
      );
      open.push({ close: () => ws.terminate() });
      await new Promise<void>((resolve, reject) => {
        ws.once('error', reject);
        ws.on('message', (data) => {
          const text = String(data);
          if (text.startsWith('0')) ws.send('40');
          else if (text.startsWith('40')) {
            ws.send(frame);
            // Either the server closes this connection or it ignores the frame: both are fine,
            // as long as it answers a ping afterwards or has closed.
            ws.send('3');
            setTimeout(resolve, 50);
          }
        });
        ws.once('close', () => resolve());
      });
    }
    const speaker = await connect(bystander);
    const hearer = await connect(listener);
    const room = `After garbage ${kind}`;
    await enter(speaker, room, true);
    await enter(hearer, room);
    await bystanderRoomWorks(speaker, hearer, room);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const health = await testApp.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
  });
});
