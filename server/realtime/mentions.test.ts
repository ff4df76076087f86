import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { ROOMS_BUDGET_LIFTED } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson } from '../test/factories.ts';
import { emitAck, nextEvent, twoProcessChat } from '../test/sockets.ts';

/*
 * Mentions and unread over the sockets (issue 26, decision 042), on both engines and, on
 * PostgreSQL, across two processes: the server resolves `@name`s to members, the broadcast
 * carries them, a member away from the room gets a notice and their bell hears of it on the other
 * process; the read marker gives "New messages" its place, and the room list its counts.
 */

describe.each(testDatabaseKinds())('mentions and unread on %s', (kind) => {
  const chat = twoProcessChat(kind, { socketBudgets: ROOMS_BUDGET_LIFTED });
  const { connect, join } = chat;
  let people = 0;

  /** A new person with a forum username of their own. */
  const person = async (name: string) => {
    const someone = await signedInPerson(chat.app, 'student', { firstName: name });
    const username = `${name}${++people}${kind === 'postgres' ? 'p' : 'g'}`;
    await chat.app.database.db
      .updateTable('users')
      .set({ chat_username: username })
      .where('id', '=', someone.id)
      .execute();
    return { ...someone, username };
  };

  it('resolves mentions on the server, notices those away (on another process), and opens at "New messages"', async () => {
    const ada = await person('Ada');
    const alan = await person('Alan');
    const grace = await person('Grace');
    const roomName = `Mentions ${kind}`;
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan, chat.otherUrl);
    const graceSocket = await connect(grace, chat.otherUrl);
    expect(await emitAck(adaSocket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    await join(adaSocket, roomName);
    await join(alanSocket, roomName);
    // Grace has been in the room before, and has gone: her bell's socket stays connected.
    const { history: firstVisit } = await join(graceSocket, roomName);
    expect(firstVisit).toEqual([]);
    expect(await emitAck(graceSocket, 'leave_room')).toEqual({ ok: true });

    const before = await emitAck(adaSocket, 'send_message', { room: roomName, message: 'Hello' });
    const heard = new Promise<ChatMessage>((resolve) => {
      const listener = (message: ChatMessage) => {
        if (!message.content.startsWith('@')) return;
        alanSocket.off('receive_message', listener);
        resolve(message);
      };
      alanSocket.on('receive_message', listener);
    });
    const bell = nextEvent(graceSocket, 'notices_changed');
    const sent = await emitAck(adaSocket, 'send_message', {
      room: roomName,
      message: `@${alan.username} and @${grace.username}, also @${ada.username} and @nobody`,
    });
    expect(sent.ok).toBe(true);
    const message = await heard;
    expect(message.mentions).toEqual([
      { userId: alan.id, name: alan.username },
      { userId: grace.id, name: grace.username },
    ]);
    // Grace was away: a notice, and her bell hears of it at once, across processes.
    expect((await bell)[0]).toEqual({ unread: 1 });
    const notices = await chat.app.database.db
      .selectFrom('notices')
      .select(['user_id', 'link', 'title'])
      .where('kind', '=', 'mention')
      .where('user_id', 'in', [ada.id, alan.id, grace.id])
      .execute();
    expect(notices).toEqual([
      {
        user_id: grace.id,
        link: `/room/${encodeURIComponent(roomName)}?message=${(sent as { id: string }).id}`,
        title: `${ada.username} mentioned you in ${roomName}`,
      },
    ]);

    // The room list: one unread besides "Hello", and a mention.
    const counts = await emitAck(graceSocket, 'unread_counts');
    expect(counts).toEqual({
      ok: true,
      unread: [{ roomName, unread: 2, mentioned: true }],
    });

    // Coming back: history carries the mentions, and where she had read to.
    const { history, info } = await join(graceSocket, roomName);
    expect(info?.lastReadId).toBeDefined();
    expect(BigInt(info!.lastReadId!)).toBeLessThan(BigInt((before as { id: string }).id));
    expect(history.at(-1)?.mentions).toHaveLength(2);
    const members = await emitAck(graceSocket, 'room_members', { roomName });
    expect(members.ok && members.members?.map((member) => member.name).sort()).toEqual(
      [ada.username, alan.username, grace.username].sort(),
    );

    // Read to the end: nothing unread.
    expect(
      await emitAck(graceSocket, 'mark_read', {
        roomName,
        messageId: (sent as { id: string }).id,
      }),
    ).toEqual({ ok: true });
    expect(await emitAck(graceSocket, 'unread_counts')).toEqual({
      ok: true,
      unread: [{ roomName, unread: 0, mentioned: false }],
    });
    // Alan was in the room: highlighted for him, but no notice.
    expect(
      await chat.app.database.db
        .selectFrom('notices')
        .select('id')
        .where('user_id', '=', alan.id)
        .execute(),
    ).toEqual([]);
  });

  it('refuses a read marker or a member list for a room one has not visited, in words', async () => {
    const bo = await person('Bo');
    const socket = await connect(bo);
    const roomName = `Unvisited ${kind}`;
    expect(await emitAck(socket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    const stranger = await person('Cy');
    const strangerSocket = await connect(stranger);
    expect(await emitAck(strangerSocket, 'room_members', { roomName })).toEqual({
      ok: false,
      message: 'Join the room to see its members.',
    });
    await join(socket, roomName);
    const sent = await emitAck(socket, 'send_message', { room: roomName, message: 'hi' });
    expect(
      await emitAck(strangerSocket, 'mark_read', {
        roomName,
        messageId: (sent as { id: string }).id,
      }),
    ).toEqual({ ok: false, message: 'That message is not in a room you have visited.' });
    expect(
      (await emitAck(strangerSocket, 'mark_read', { roomName, messageId: 'nope' } as never)).ok,
    ).toBe(false);
  });
});
