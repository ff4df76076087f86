import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_BIGINT_MAX, DATABASE_INTEGER_MAX } from '#contract/limits.ts';
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

/*
 * Numbers too big for the database (issue 19, finding 5), re-run as written: `load_history`'s
 * `before` or `join_room`'s `after` = "99999999999999999999" passed the old check, overflowed
 * `bigint` and was answered "Something went wrong on our side" with a stack in the log. Now it is
 * a refused acknowledgement naming the range, and nothing is logged as an error; over HTTP a page
 * beyond `integer` is a 400. (Every numeric field's edges: server/http/numeric-ranges.property.test.ts.)
 */

const FINDING = '99999999999999999999';
const range = (field: string) =>
  `${field} must be a message id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`;

describe.each(testDatabaseKinds())('ids beyond the database on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  let ada: SignedInPerson;
  let errors: ReturnType<typeof vi.spyOn>;
  const open: ChatClient[] = [];
  const roomName = `Ranges ${kind}`;

  const connect = async () => {
    const socket = await connectChat(url, ada.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    url = await listenOnFreePort(testApp);
    ada = await signedInPerson(testApp);
    const socket = await connect();
    expect(await emitAck(socket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    errors = vi.spyOn(testApp.app.log, 'error');
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    errors.mockRestore();
    await testApp.close();
  });

  it('refuses join_room after and load_history before beyond bigint, logging no error', async () => {
    const socket = await connect();
    for (const id of [FINDING, String(DATABASE_BIGINT_MAX + 1n), '0', '9'.repeat(20)]) {
      expect(await emitAck(socket, 'join_room', { roomName, after: id }), id).toEqual({
        ok: false,
        message: range('after'),
      });
      expect(await emitAck(socket, 'load_history', { roomName, before: id }), id).toEqual({
        ok: false,
        message: range('before'),
      });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('still answers the largest id the database holds', async () => {
    const socket = await connect();
    const largest = String(DATABASE_BIGINT_MAX);
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName, after: largest })).toEqual({ ok: true });
    expect((await history)[0]).toEqual([]);
    expect(await emitAck(socket, 'load_history', { roomName, before: largest })).toEqual({
      ok: true,
      history: [],
      hasMore: false,
    });
    expect(errors).not.toHaveBeenCalled();
  });

  it('answers a page number beyond integer with 400 over HTTP, logging no error', async () => {
    for (const page of [String(DATABASE_INTEGER_MAX + 1), FINDING, '1e20']) {
      const response = await ada.client.get(`/api/items/${randomUUID()}/pages?page=${page}`);
      expect(response.statusCode, page).toBe(400);
      expect(response.json().errors[0], page).toEqual({
        path: 'page',
        message: `page is at most ${DATABASE_INTEGER_MAX}`,
      });
      const search = await ada.client.get(`/api/search?q=physics&page=${page}`);
      expect(search.statusCode, page).toBe(400);
    }
    expect(errors).not.toHaveBeenCalled();
  });
});
