import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage } from '#contract/socket/chat.ts';
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

// Two apps on one PostgreSQL database, each with its own Socket.IO adapter (as two processes
// are): the database ends their LISTEN connections, as a restart would, and the adapter listens
// again 1–3 s later. What was stored in between reaches the members through `replay.ts`.
// (The whole scenario, with real processes and a real restart, is database-restart.test.ts.)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(testDatabaseKinds().includes('postgres'))(
  'messages stored while a process was not listening',
  () => {
    let one: TestApp;
    let two: TestApp;
    const urls: string[] = [];
    const open: ChatClient[] = [];

    beforeAll(async () => {
      one = await createTestApp('postgres');
      two = await createTestApp('postgres', { database: one.database });
      urls.push(await listenOnFreePort(one), await listenOnFreePort(two));
    });
    afterAll(async () => {
      for (const socket of open) socket.close();
      await two.app.close();
      await one.close();
    });

    const connect = async (app: TestApp, url: string, person: SignedInPerson) => {
      const socket = await connectChat(url, person.client.cookieHeader(), app.config.publicUrl);
      open.push(socket);
      return socket;
    };
    const join = async (socket: ChatClient, roomName: string) => {
      const history = nextEvent(socket, 'room_history');
      expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
      return (await history)[0];
    };

    it('reach a member on the other process once, in order, and nothing twice to one who joined meanwhile', async () => {
      const ada = await connect(one, urls[0]!, await signedInPerson(one));
      const alanPerson = await signedInPerson(two, 'student', { firstName: 'Alan' });
      await one.database.db
        .updateTable('users')
        .set({ chat_username: 'AlanReplayed' })
        .where('id', '=', alanPerson.id)
        .execute();
      const alan = await connect(two, urls[1]!, alanPerson);
      const roomName = 'Replayed';
      expect(await emitAck(ada, 'create_room', { roomName, description: '' })).toEqual({
        ok: true,
      });
      await join(ada, roomName);
      await join(alan, roomName);
      const atAlan: string[] = [];
      const heardByAlan = new Map<string, ChatMessage>();
      alan.on('receive_message', (message: ChatMessage) => {
        atAlan.push(message.id);
        heardByAlan.set(message.id, message);
      });
      const send = async (message: string) => {
        const answer = await emitAck(ada, 'send_message', { room: roomName, message });
        if (!answer.ok || !answer.id)
          throw new Error(`not acknowledged: ${JSON.stringify(answer)}`);
        return answer.id;
      };
      const until = async (done: () => boolean, what: string) => {
        const by = Date.now() + 6_000;
        while (!done()) {
          if (Date.now() > by) throw new Error(`${what} within 6 s; Alan has ${atAlan.join(' ')}`);
          await sleep(20);
        }
      };

      const before = await send('before');
      await until(() => atAlan.includes(before), 'the first message crossed');

      // Both LISTEN connections end, and the call waits until their backends are gone.
      const { rows } = await sql<{ ended: boolean }>`
        SELECT pg_terminate_backend(pid, 5000) AS ended FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'`.execute(one.database.db);
      expect(rows.length).toBeGreaterThanOrEqual(2);
      const gap = [
        await send('@AlanReplayed while not listening 1'),
        await send('while not listening 2'),
      ];

      // Grace joins on process two before it listens again: her history has the gap already.
      const grace = await connect(
        two,
        urls[1]!,
        await signedInPerson(two, 'student', { firstName: 'Grace' }),
      );
      const atGrace: string[] = [];
      grace.on('receive_message', (message: ChatMessage) => atGrace.push(message.id));
      const history = await join(grace, roomName);
      expect(history.map((message) => message.id)).toEqual(expect.arrayContaining(gap));

      await until(() => gap.every((id) => atAlan.includes(id)), 'the replay delivered the gap');
      // The replay carries who a message mentions, as the live broadcast does (decision 042).
      expect(heardByAlan.get(gap[0]!)?.mentions).toEqual([
        { userId: alanPerson.id, name: 'AlanReplayed' },
      ]);
      expect(heardByAlan.get(gap[1]!)).not.toHaveProperty('mentions');
      const after = await send('after');
      await until(() => atAlan.includes(after), 'the last message crossed');
      await sleep(200);
      expect(atAlan).toEqual([before, ...gap, after]);
      expect(atGrace).toEqual([after]);
    });
  },
);
