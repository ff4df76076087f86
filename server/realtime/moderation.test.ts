import { beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_TEXT } from '#contract/socket/chat.ts';
import { findRoom, insertMessage } from '../chat/store.ts';
import { MODERATION_BUDGET_LIFTED } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import { emitAck, nextEvent, twoProcessChat, type ChatClient } from '../test/sockets.ts';

/*
 * Moderation by people (issue 26, decision 040), on both engines and across two processes on one
 * database: a member reports a message; a librarian's queue shows it with its context; hiding,
 * restoring, muting and removing take effect on every process, since sends and joins read the
 * database; a room's creator sets slow mode, its own words, members only and its rules.
 */

describe.each(testDatabaseKinds())('moderation by people on %s', (kind) => {
  const chat = twoProcessChat(kind, { socketBudgets: MODERATION_BUDGET_LIFTED });
  const { connect, join } = chat;
  let ada: SignedInPerson;
  let alan: SignedInPerson;
  let grace: SignedInPerson;
  let librarian: SignedInPerson;
  let rooms = 0;

  const send = (socket: ChatClient, room: string, message: string) =>
    emitAck(socket, 'send_message', { room, message });
  /**
   * A new room of a new Ada's, with a new Alan (the message rate is per person): Ada on this
   * process, Alan on the other one. Live events cross processes through the Postgres adapter;
   * PGlite has none (one process per data directory), so there the other process is this one
   * (`twoProcessChat`); the rules, read from the shared database, hold on both anyway.
   */
  const sharedRoom = async ({ samePeople = false } = {}) => {
    if (!samePeople) {
      ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
      alan = await signedInPerson(chat.app, 'student', { firstName: 'Alan' });
      grace = await signedInPerson(chat.app, 'student', { firstName: 'Grace' });
    }
    const roomName = `Moderation ${++rooms} ${kind}`;
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan, chat.otherUrl);
    expect(await emitAck(adaSocket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    await join(adaSocket, roomName);
    await join(alanSocket, roomName);
    return { roomName, adaSocket, alanSocket };
  };
  const act = (body: Record<string, unknown>) =>
    librarian.client.post('/api/moderation/actions', body);

  beforeAll(async () => {
    librarian = await signedInPerson(chat.app, 'librarian');
  });

  it('takes one report per person per message, and queues it with five messages either side', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const room = (await findRoom(chat.app.database.db, roomName))!;
    const ids: string[] = [];
    for (let n = 1; n <= 12; n += 1) {
      const row = await insertMessage(chat.app.database.db, {
        roomId: room.id,
        senderId: alan.id,
        senderName: 'Alan',
        content: `message ${n}`,
      });
      ids.push(row.id);
    }
    const target = ids[6]!;
    expect(
      await emitAck(adaSocket, 'report_message', {
        messageId: target,
        reason: 'spam',
        text: 'ads',
      }),
    ).toEqual({
      ok: true,
      message: MODERATION_TEXT.reported,
    });
    expect(
      await emitAck(adaSocket, 'report_message', { messageId: target, reason: 'hate' }),
    ).toEqual({
      ok: false,
      message: MODERATION_TEXT.alreadyReported,
    });
    // A reason outside the list, and one's own message, are refused in words.
    expect(
      await emitAck(adaSocket, 'report_message', { messageId: target, reason: 'boring' } as never),
    ).toEqual(expect.objectContaining({ ok: false, message: 'Choose a reason for the report' }));
    expect(
      (await emitAck(alanSocket, 'report_message', { messageId: target, reason: 'spam' })).ok,
    ).toBe(false);
    // Grace reports it from the other process.
    const graceSocket = await connect(grace, chat.otherUrl);
    await join(graceSocket, roomName);
    expect(
      (await emitAck(graceSocket, 'report_message', { messageId: target, reason: 'other' })).ok,
    ).toBe(true);

    expect((await ada.client.get('/api/moderation/queue')).statusCode).toBe(403);
    const queue = (await librarian.client.get('/api/moderation/queue')).json();
    const item = queue.reports.find(
      (entry: { message: { id: string } }) => entry.message.id === target,
    );
    expect(item).toMatchObject({
      roomName,
      reporterCount: 2,
      reasons: { spam: 1, other: 1 },
      notes: ['ads'],
    });
    expect(item.before.map((m: { content: string }) => m.content)).toEqual([
      'message 2',
      'message 3',
      'message 4',
      'message 5',
      'message 6',
    ]);
    expect(item.after.map((m: { content: string }) => m.content)).toEqual([
      'message 8',
      'message 9',
      'message 10',
      'message 11',
      'message 12',
    ]);

    const dismissed = await act({ messageId: target, action: 'dismiss', reason: 'Fine.' });
    expect(dismissed.statusCode).toBe(200);
    const after = (await librarian.client.get('/api/moderation/queue')).json();
    expect(
      after.reports.some((entry: { message: { id: string } }) => entry.message.id === target),
    ).toBe(false);
    expect(after.history[0]).toMatchObject({ action: 'dismiss', reason: 'Fine.', roomName });
  });

  it('hides a message for members on both processes, keeps it for librarians, and restores it', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = (await send(alanSocket, roomName, 'buy cheap essays here')) as { id: string };
    const seenHere = nextEvent(adaSocket, 'message_updated');
    const seenThere = nextEvent(alanSocket, 'message_updated');
    const hidden = await act({ messageId: sent.id, action: 'hide', reason: 'Advertising.' });
    expect(hidden.statusCode).toBe(200);
    for (const [message] of [await seenHere, await seenThere]) {
      expect(message).toMatchObject({ id: sent.id, content: MODERATION_TEXT.hidden, hidden: true });
    }
    // History says so too, to anyone joining on either process.
    const again = await connect(grace, chat.otherUrl);
    const { history } = await join(again, roomName);
    expect(history.find((m) => m.id === sent.id)).toMatchObject({
      content: MODERATION_TEXT.hidden,
    });
    const queue = (await librarian.client.get('/api/moderation/queue')).json();
    expect(queue.hidden[0].message).toMatchObject({
      id: sent.id,
      content: 'buy cheap essays here',
    });
    // Hiding twice says so.
    expect((await act({ messageId: sent.id, action: 'hide', reason: 'Again.' })).statusCode).toBe(
      409,
    );

    const restored = nextEvent(adaSocket, 'message_updated');
    expect(
      (await act({ messageId: sent.id, action: 'restore', reason: 'A mistake.' })).statusCode,
    ).toBe(200);
    expect((await restored)[0]).toMatchObject({ content: 'buy cheap essays here' });
    expect((await restored)[0].hidden).toBeUndefined();
  });

  it('mutes the sender in the room on every process, saying why and until when, with a notice', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = (await send(alanSocket, roomName, 'rude thing')) as { id: string };
    const banner = nextEvent(alanSocket, 'moderation_notice');
    const muted = await act({
      messageId: sent.id,
      action: 'mute',
      scope: 'room',
      duration: '10m',
      reason: 'Be civil.',
    });
    expect(muted.statusCode).toBe(200);
    const endsAt = new Date(muted.json().action.endsAt).getTime();
    expect(endsAt - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(endsAt - Date.now()).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    expect((await banner)[0]).toMatchObject({ action: 'mute', roomName, reason: 'Be civil.' });
    // Refused on the other process too, naming the reason and the end.
    for (const socket of [
      alanSocket,
      await connect(alan, chat.url),
      await connect(alan, chat.otherUrl),
    ]) {
      if (socket !== alanSocket) await join(socket, roomName);
      const refused = await send(socket, roomName, 'and again');
      expect(refused).toEqual({
        ok: false,
        message: expect.stringContaining('muted you in this room'),
      });
      expect((refused as { message: string }).message).toContain('Be civil.');
      expect((refused as { message: string }).message).toMatch(/until \d\d:\d\d UTC/);
    }
    // Others still talk; in another room Alan still may.
    expect((await send(adaSocket, roomName, 'carry on')).ok).toBe(true);
    const elsewhere = await sharedRoom({ samePeople: true });
    expect((await send(elsewhere.alanSocket, elsewhere.roomName, 'hello')).ok).toBe(true);
    // The bell holds the notice, with the reason.
    const notices = (await alan.client.get('/api/notices')).json();
    expect(notices.payload[0]).toMatchObject({ kind: 'moderation' });
    expect(notices.payload[0].body).toContain('Be civil.');
    // Recorded with who and why.
    const queue = (await librarian.client.get('/api/moderation/queue')).json();
    expect(queue.history[0]).toMatchObject({ action: 'mute', scope: 'room', reason: 'Be civil.' });
  });

  it('mutes everywhere, and removes from a room, who cannot rejoin until it ends', async () => {
    const first = await sharedRoom();
    const sent = (await send(first.alanSocket, first.roomName, 'x')) as { id: string };
    expect(
      (
        await act({
          messageId: sent.id,
          action: 'mute',
          scope: 'everywhere',
          duration: '1h',
          reason: 'Spam.',
        })
      ).statusCode,
    ).toBe(200);
    const second = await sharedRoom({ samePeople: true });
    expect(await send(second.alanSocket, second.roomName, 'y')).toEqual({
      ok: false,
      message: expect.stringContaining('muted you in every room'),
    });

    const removedFrom = await sharedRoom();
    const graceSocket = await connect(grace, chat.otherUrl);
    await join(graceSocket, removedFrom.roomName);
    const graceSent = (await send(graceSocket, removedFrom.roomName, 'z')) as { id: string };
    const banner = nextEvent(graceSocket, 'moderation_notice');
    expect(
      (
        await act({
          messageId: graceSent.id,
          action: 'remove',
          duration: '1d',
          reason: 'Trolling.',
        })
      ).statusCode,
    ).toBe(200);
    expect((await banner)[0]).toMatchObject({ action: 'remove', roomName: removedFrom.roomName });
    expect((await send(graceSocket, removedFrom.roomName, 'back')).ok).toBe(false);
    const rejoin = await connect(grace);
    expect(await emitAck(rejoin, 'join_room', { roomName: removedFrom.roomName })).toEqual({
      ok: false,
      message: expect.stringContaining('removed you from this room'),
    });
    // A mute or removal needs a length; a bad body is a 400 in words.
    const bad = await act({ messageId: graceSent.id, action: 'mute', reason: 'x' });
    expect(bad.statusCode).toBe(400);
  });

  it('holds slow mode on every process, and only the creator or a librarian sets it', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const rules = { roomName, slowModeSeconds: 30, words: [], membersOnly: false, rules: '' };
    expect((await emitAck(alanSocket, 'set_room_rules', rules)).ok).toBe(false);
    expect((await emitAck(adaSocket, 'set_room_rules', { ...rules, slowModeSeconds: 3 })).ok).toBe(
      false,
    );
    const seen = nextEvent(alanSocket, 'room_metadata');
    expect(await emitAck(adaSocket, 'set_room_rules', rules)).toEqual({
      ok: true,
      message: MODERATION_TEXT.rulesSaved,
    });
    expect((await seen)[0].rules).toMatchObject({ slowModeSeconds: 30 });
    expect((await send(alanSocket, roomName, 'first')).ok).toBe(true);
    const refused = await send(alanSocket, roomName, 'second');
    expect(refused).toEqual({
      ok: false,
      message: expect.stringMatching(/Slow mode is on.*in \d+ s/),
    });
    // The same person on the other process waits too.
    const alanHere = await connect(alan);
    await join(alanHere, roomName);
    expect((await send(alanHere, roomName, 'third')).ok).toBe(false);
    // Two at once from one socket: one gets through.
    const both = await Promise.all([
      send(adaSocket, roomName, 'a'),
      send(adaSocket, roomName, 'b'),
    ]);
    expect(both.filter((answer) => answer.ok)).toHaveLength(1);
  });

  it("refuses the room's own words in that room only, on every process", async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    expect(
      (
        await emitAck(adaSocket, 'set_room_rules', {
          roomName,
          slowModeSeconds: 0,
          words: ['spoiler'],
          membersOnly: false,
          rules: '',
        })
      ).ok,
    ).toBe(true);
    // The other process reads the list again within two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await send(alanSocket, roomName, 'SPOILER: he dies')).toEqual({
      ok: false,
      message: MODERATION_TEXT.roomWord,
    });
    expect(await send(adaSocket, roomName, 'no spoiler please')).toEqual({
      ok: false,
      message: MODERATION_TEXT.roomWord,
    });
    expect((await send(alanSocket, roomName, 'fine words')).ok).toBe(true);
    const elsewhere = await sharedRoom();
    expect((await send(elsewhere.alanSocket, elsewhere.roomName, 'spoiler')).ok).toBe(true);
  });

  it('lets only members who joined before post in a members-only room, and shows the rules on joining', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    expect(
      (
        await emitAck(adaSocket, 'set_room_rules', {
          roomName,
          slowModeSeconds: 0,
          words: [],
          membersOnly: true,
          rules: 'Stay on topic.',
        })
      ).ok,
    ).toBe(true);
    expect((await send(alanSocket, roomName, 'I was here')).ok).toBe(true);
    const graceSocket = await connect(grace);
    const { metadata } = await join(graceSocket, roomName);
    expect(metadata.rules).toEqual({
      slowModeSeconds: 0,
      words: [],
      membersOnly: true,
      rules: 'Stay on topic.',
    });
    expect(await send(graceSocket, roomName, 'me too')).toEqual({
      ok: false,
      message: MODERATION_TEXT.notMember,
    });
    // A librarian may always post.
    const librarianSocket = await connect(librarian, chat.otherUrl);
    await join(librarianSocket, roomName);
    expect((await send(librarianSocket, roomName, 'Staff here')).ok).toBe(true);
  });
});
