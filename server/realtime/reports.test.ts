import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_INTERVAL_SECONDS, REPORT_TEXT } from '#contract/socket/chat.ts';
import { findRoom } from '../chat/store.ts';
import { createTestApp, MODERATION_BUDGET_LIFTED, type TestApp } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import {
  connectChat,
  emitAck,
  listenOnFreePort,
  nextEvent,
  roomsWhere,
  type ChatClient,
} from '../test/sockets.ts';

/*
 * Reports that cannot be weaponised (issue 19, finding 3): `report_abuse` restricts a room only
 * when the server's own matcher finds abuse in the text sent with it; otherwise it is recorded
 * for the moderators, without the text. One report per person per room in ten minutes, counted
 * in the database. The budgets of rooms and of moderation events are lifted here, so that these
 * rules are what answers (the budgets are tested in server/realtime/budgets.test.ts).
 */

describe.each(testDatabaseKinds())('reports of abuse on %s', (kind) => {
  let testApp: TestApp;
  let url: string;
  let ada: SignedInPerson;
  let alan: SignedInPerson;
  const open: ChatClient[] = [];
  let rooms = 0;

  const connect = async (person: SignedInPerson, at = url) => {
    const socket = await connectChat(at, person.client.cookieHeader(), testApp.config.publicUrl);
    open.push(socket);
    return socket;
  };
  const join = async (socket: ChatClient, roomName: string) => {
    const history = nextEvent(socket, 'room_history');
    expect(await emitAck(socket, 'join_room', { roomName })).toEqual({ ok: true });
    await history;
  };
  /** A new room of Ada's, with Ada and Alan in it. */
  const sharedRoom = async () => {
    const roomName = `Reports ${++rooms} ${kind}`;
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan);
    expect(await emitAck(adaSocket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    await join(adaSocket, roomName);
    await join(alanSocket, roomName);
    return { roomName, adaSocket, alanSocket };
  };
  /** Counts `abuse_detected` on `socket` from now on. */
  const countWarnings = (socket: ChatClient) => {
    const seen = { count: 0 };
    socket.on('abuse_detected', () => (seen.count += 1));
    return seen;
  };
  /** Ada's message goes out and comes back: the room is open, and anything sent before it came. */
  const stillOpen = async (adaSocket: ChatClient, roomName: string, text: string) => {
    const echoed = nextEvent(adaSocket, 'receive_message');
    expect(await emitAck(adaSocket, 'send_message', { room: roomName, message: text })).toEqual(
      expect.objectContaining({ ok: true }),
    );
    expect((await echoed)[0].content).toBe(text);
  };
  const restricted = async (roomName: string) =>
    (await findRoom(testApp.database.db, roomName))!.abuse_detected;
  const reportsOf = async (roomName: string) => {
    const room = (await findRoom(testApp.database.db, roomName))!;
    return testApp.database.db
      .selectFrom('chat_reports')
      .select(['reporter_id', 'text'])
      .where('room_id', '=', room.id)
      .orderBy('id')
      .execute();
  };

  beforeAll(async () => {
    testApp = await createTestApp(kind, {
      env: { MODERATION_WORDS: 'grimbleflax' },
      socketBudgets: MODERATION_BUDGET_LIFTED,
    });
    url = await listenOnFreePort(testApp);
    ada = await signedInPerson(testApp);
    alan = await signedInPerson(testApp, 'student', { firstName: 'Alan' });
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => testApp.close());

  it('restricts nothing on a report without text or with harmless text; records it, without the text', async () => {
    for (const text of [undefined, 'I think the answer is 42, not 41.']) {
      const { roomName, adaSocket, alanSocket } = await sharedRoom();
      const warnings = countWarnings(adaSocket);
      const payload = text === undefined ? { roomName } : { roomName, text };
      expect(await emitAck(alanSocket, 'report_abuse', payload)).toEqual({
        ok: true,
        message: REPORT_TEXT.received,
      });
      await stillOpen(adaSocket, roomName, 'carry on');
      expect(warnings.count).toBe(0);
      expect(await restricted(roomName)).toBe(false);
      expect(await reportsOf(roomName)).toEqual([{ reporter_id: alan.id, text: null }]);
    }
  });

  it('restricts the room for everyone, as today, when the server finds abuse in the text', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const warned = nextEvent(adaSocket, 'abuse_detected');
    const metadata = nextEvent(adaSocket, 'room_metadata');
    const listed = roomsWhere(adaSocket, (list) =>
      list.some((room) => room.roomName === roomName && room.abuseDetected),
    );
    expect(
      await emitAck(alanSocket, 'report_abuse', { roomName, text: 'you grimbleflax' }),
    ).toEqual({ ok: true });
    expect((await warned)[0]).toEqual({ roomName });
    expect((await metadata)[0].abuseDetected).toBe(true);
    await listed;
    expect(await restricted(roomName)).toBe(true);
    // The text that restricted the room is kept, as the moderators' evidence.
    expect(await reportsOf(roomName)).toEqual([{ reporter_id: alan.id, text: 'you grimbleflax' }]);
  });

  it('refuses a second report of a room within ten minutes, on any process, saying when to try again', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const warnings = countWarnings(adaSocket);
    expect((await emitAck(alanSocket, 'report_abuse', { roomName })).ok).toBe(true);
    const again = await emitAck(alanSocket, 'report_abuse', { roomName, text: 'you grimbleflax' });
    expect(again).toEqual({
      ok: false,
      message: REPORT_TEXT.tooSoon,
      retryAfter: expect.any(Number),
    });
    const retryAfter = (again as { retryAfter: number }).retryAfter;
    expect(retryAfter).toBeGreaterThan(REPORT_INTERVAL_SECONDS - 60);
    expect(retryAfter).toBeLessThanOrEqual(REPORT_INTERVAL_SECONDS);
    await stillOpen(adaSocket, roomName, 'still here');
    expect(warnings.count).toBe(0);
    expect(await restricted(roomName)).toBe(false);

    // Counted in the database: another server on the same database refuses it too.
    const other = await createTestApp(kind, {
      database: testApp.database,
      env: { MODERATION_WORDS: 'grimbleflax' },
      socketBudgets: MODERATION_BUDGET_LIFTED,
    });
    try {
      const otherSocket = await connect(alan, await listenOnFreePort(other));
      await join(otherSocket, roomName);
      expect(await emitAck(otherSocket, 'report_abuse', { roomName })).toEqual(
        expect.objectContaining({ ok: false, message: REPORT_TEXT.tooSoon }),
      );
      otherSocket.close();
    } finally {
      await other.app.close();
    }

    // Per person and per room: Ada may still report this room, and Alan another one.
    expect((await emitAck(adaSocket, 'report_abuse', { roomName })).ok).toBe(true);
    const next = await sharedRoom();
    expect((await emitAck(next.alanSocket, 'report_abuse', { roomName: next.roomName })).ok).toBe(
      true,
    );
    expect((await reportsOf(roomName)).map((report) => report.reporter_id)).toEqual([
      alan.id,
      ada.id,
    ]);
  });

  it('re-runs the finding: 20 reports with nothing abusive, each after a lift, restrict nothing', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const warnings = countWarnings(adaSocket);
    const answers = [];
    for (let attempt = 0; attempt < 20; attempt += 1) {
      answers.push(await emitAck(alanSocket, 'report_abuse', { roomName }));
      expect(await emitAck(adaSocket, 'lift_restriction', { roomName })).toEqual({ ok: true });
    }
    await stillOpen(adaSocket, roomName, 'nobody muted us');
    expect(warnings.count).toBe(0);
    expect(await restricted(roomName)).toBe(false);
    expect(answers[0]).toEqual({ ok: true, message: REPORT_TEXT.received });
    for (const answer of answers.slice(1))
      expect(answer).toEqual(expect.objectContaining({ ok: false, message: REPORT_TEXT.tooSoon }));
    expect(await reportsOf(roomName)).toHaveLength(1);
  });
});
