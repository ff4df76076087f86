import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_TEXT,
  MODERATION_TEXT,
  REACTION_NAMES_MAX,
  REACTIONS_FANOUT_MS,
  THREADS_TEXT,
  type ChatMessage,
  type ReactionsBatch,
  unpackReactionsBatch,
  type ReactionSummary,
} from '#contract/socket/chat.ts';
import { findRoom } from '../chat/store.ts';
import { createReactionWriter, reactionsOf, toggleReaction } from '../chat/threads.ts';
import { excerptOf } from '../presenters/chat.ts';
import { MODERATION_BUDGET_LIFTED } from '../test/app.ts';
import { testDatabaseKinds } from '../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../test/factories.ts';
import { emitAck, nextEvent, twoProcessChat, type ChatClient } from '../test/sockets.ts';

/*
 * Replies, reactions, edits and deletions (issue 26, decision 043), on both engines and across
 * two processes on one database: what one process changes reaches a socket on the other (through
 * the PostgreSQL adapter), and the rules (the sender, the ten-minute window by the database's
 * clock, the matcher, the room's words, mutes, members only, hidden messages) hold on both.
 */

describe.each(testDatabaseKinds())('replies, reactions, edits and deletions on %s', (kind) => {
  const chat = twoProcessChat(kind, { socketBudgets: MODERATION_BUDGET_LIFTED });
  const { connect, join } = chat;
  let ada: SignedInPerson;
  let alan: SignedInPerson;
  let librarian: SignedInPerson;
  let rooms = 0;

  const send = async (socket: ChatClient, room: string, message: string, replyTo?: string) =>
    (await emitAck(socket, 'send_message', {
      room,
      message,
      ...(replyTo ? { replyTo } : {}),
    })) as { ok: boolean; id: string; message?: string };
  /**
   * A new room of a new Ada's with a new Alan: Ada on this process, Alan on the other one (on
   * PGlite, one process per data directory, both on this one; the rules live in the database).
   */
  const sharedRoom = async () => {
    ada = await signedInPerson(chat.app, 'student', { firstName: 'Ada' });
    alan = await signedInPerson(chat.app, 'student', { firstName: 'Alan' });
    const roomName = `Threads ${++rooms} ${kind}`;
    const adaSocket = await connect(ada);
    const alanSocket = await connect(alan, chat.otherUrl);
    expect(await emitAck(adaSocket, 'create_room', { roomName, description: '' })).toEqual({
      ok: true,
    });
    await join(adaSocket, roomName);
    await join(alanSocket, roomName);
    return { roomName, adaSocket, alanSocket };
  };
  /** The room's `reactions_batch` frames a socket hears, and the latest reactions of a message. */
  const reactionsHeard = (socket: ChatClient) => {
    const frames: ReactionsBatch[] = [];
    const latest = new Map<string, ReactionSummary[]>();
    socket.on('reactions_batch', (packed) => {
      const batch = unpackReactionsBatch(packed);
      frames.push(batch);
      for (const entry of batch.messages) latest.set(entry.messageId, entry.reactions);
    });
    return { frames, latest: (messageId: string) => latest.get(messageId) };
  };
  /** Moves a message's sending back by `seconds`, as if sent that long ago. */
  const age = (id: string, seconds: number) =>
    sql`UPDATE chat_messages SET created_at = now() - make_interval(secs => ${seconds})
        WHERE id = ${id}::bigint`.execute(chat.app.database.db);

  beforeAll(async () => {
    librarian = await signedInPerson(chat.app, 'librarian');
  });

  it('sends a reply with a quote of the original, live and in history, only within the room', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const original = await send(adaSocket, roomName, `  Which edition?\n${'x'.repeat(300)}`);
    const heard = nextEvent(adaSocket, 'receive_message');
    const reply = await send(alanSocket, roomName, 'The second one.', original.id);
    expect(reply.ok).toBe(true);
    const [live] = await heard;
    expect(live.replyTo).toMatchObject({ id: original.id, sender: 'Ada' });
    expect(live.replyTo!.excerpt.startsWith('Which edition? xxx')).toBe(true);
    expect(live.replyTo!.excerpt.length).toBeLessThanOrEqual(140);
    const { history } = await join(await connect(alan, chat.otherUrl), roomName);
    expect(history.find((m) => m.id === reply.id)?.replyTo).toEqual(live.replyTo);
    // A message of another room, or none, cannot be replied to.
    const elsewhere = await sharedRoom();
    expect(await send(elsewhere.adaSocket, elsewhere.roomName, 'Cross-room', original.id)).toEqual({
      ok: false,
      message: THREADS_TEXT.replyNotInRoom,
    });
    expect(await send(elsewhere.adaSocket, elsewhere.roomName, 'Nowhere', '999999999')).toEqual({
      ok: false,
      message: THREADS_TEXT.replyNotInRoom,
    });
  });

  it('toggles reactions once per person and emoji, on every process, with names and mine in history', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = await send(adaSocket, roomName, 'React to me');
    const there = reactionsHeard(alanSocket);
    // Ada's other tab, on the same process: it hears her toggle at once; the tab that sent it
    // has it in its acknowledgement and no second frame.
    const adaTab = await connect(ada);
    await join(adaTab, roomName);
    const own = nextEvent(adaTab, 'reactions_changed');
    // And a tab of hers on the other process (on PostgreSQL): it hears the toggle a second later,
    // the message's reactions read there.
    const adaFar = await connect(ada, chat.otherUrl);
    await join(adaFar, roomName);
    const far = nextEvent(adaFar, 'reactions_changed');
    const echoed: unknown[] = [];
    adaSocket.on('reactions_changed', (change) => echoed.push(change));
    const toggled = {
      roomName,
      messageId: sent.id,
      reactions: [{ emoji: '👍', count: 1, names: ['Ada'] }],
      by: ada.id,
      emoji: '👍',
      added: true,
    };
    expect(
      await emitAck(adaSocket, 'react_message', { roomName, messageId: sent.id, emoji: '👍' }),
    ).toEqual({ ok: true, reaction: toggled });
    expect((await own)[0]).toEqual(toggled);
    expect((await far)[0]).toEqual(toggled);
    // The room in its next batch.
    await expect
      .poll(() => there.latest(sent.id))
      .toEqual([{ emoji: '👍', count: 1, names: ['Ada'] }]);
    const here = reactionsHeard(adaSocket);
    await emitAck(alanSocket, 'react_message', { roomName, messageId: sent.id, emoji: '👍' });
    await emitAck(alanSocket, 'react_message', { roomName, messageId: sent.id, emoji: '🎉' });
    await expect
      .poll(() => here.latest(sent.id), { timeout: 5_000 })
      .toEqual([
        { emoji: '👍', count: 2, names: ['Ada', 'Alan'] },
        { emoji: '🎉', count: 1, names: ['Alan'] },
      ]);
    // History: in the contract's order, with this reader's own.
    const { history } = await join(await connect(alan, chat.otherUrl), roomName);
    expect(history.find((m) => m.id === sent.id)?.reactions).toEqual([
      { emoji: '👍', count: 2, names: ['Ada', 'Alan'], mine: true },
      { emoji: '🎉', count: 1, names: ['Alan'], mine: true },
    ]);
    // A second toggle takes it back.
    const back = nextEvent(adaTab, 'reactions_changed');
    const taken = await emitAck(adaSocket, 'react_message', {
      roomName,
      messageId: sent.id,
      emoji: '👍',
    });
    expect(taken).toMatchObject({ ok: true, reaction: { added: false } });
    expect(echoed).toEqual([]);
    expect((await back)[0]).toMatchObject({
      added: false,
      reactions: [
        { emoji: '👍', count: 1, names: ['Alan'] },
        { emoji: '🎉', count: 1, names: ['Alan'] },
      ],
    });
    await expect
      .poll(() => there.latest(sent.id), { timeout: 5_000 })
      .toEqual([
        { emoji: '👍', count: 1, names: ['Alan'] },
        { emoji: '🎉', count: 1, names: ['Alan'] },
      ]);
    expect(
      await emitAck(adaSocket, 'react_message', {
        roomName,
        messageId: sent.id,
        emoji: '👎',
      } as never),
    ).toMatchObject({ ok: false, message: 'Choose one of the reactions offered' });
    // Toggled twice at once from two processes: the key keeps one row at most.
    const room = (await findRoom(chat.app.database.db, roomName))!;
    const actor = { id: ada.id, name: 'Ada', isStaff: false };
    const change = { roomId: room.id, messageId: sent.id, actor, emoji: '😮' as const };
    await Promise.all([
      toggleReaction(chat.app.database.db, change),
      toggleReaction(chat.other.database.db, change),
    ]);
    const counted = (await reactionsOf(chat.app.database.db, [sent.id])).get(sent.id)!;
    expect(counted.find((r) => r.emoji === '😮')?.count ?? 0).toBeLessThanOrEqual(1);
    // Through the writer, in batches: a toggle twice at once cancels out, each answered in turn;
    // a refused one (no such message in the room) says so without taking the others down.
    const writer = createReactionWriter(chat.app.database.db);
    const alanActor = { id: alan.id, name: 'Alan', isStaff: false };
    const answers = await Promise.all([
      writer.toggle({ ...change, emoji: '🙏' }),
      writer.toggle({ ...change, emoji: '🙏' }),
      writer.toggle({ ...change, actor: alanActor, emoji: '🙏' }),
      writer.toggle({ ...change, messageId: '999999999', emoji: '🙏' }),
    ]);
    expect(answers.map(({ allowed, added }) => ({ allowed, added }))).toEqual([
      { allowed: true, added: true },
      { allowed: true, added: false },
      { allowed: true, added: true },
      { allowed: false, added: false },
    ]);
    expect(answers[2]!.reactions.find((r) => r.emoji === '🙏')).toMatchObject({ count: 2 });
    const after = (await reactionsOf(chat.app.database.db, [sent.id])).get(sent.id)!;
    expect(after.find((r) => r.emoji === '🙏')).toEqual({ emoji: '🙏', count: 1, names: ['Alan'] });
    // Five people: the first three by name (in the order they reacted), the count says the rest.
    const five = ['Bea', 'Cy', 'Di', 'Ed', 'Flo'];
    for (const name of five) {
      const person = await signedInPerson(chat.app, 'student', { firstName: name });
      const actor = { id: person.id, name, isStaff: false };
      expect((await writer.toggle({ ...change, actor, emoji: '❤️' })).allowed).toBe(true);
    }
    const named = (await reactionsOf(chat.app.database.db, [sent.id])).get(sent.id)!;
    expect(REACTION_NAMES_MAX).toBe(3);
    expect(named.find((r) => r.emoji === '❤️')).toEqual({
      emoji: '❤️',
      count: 5,
      names: five.slice(0, REACTION_NAMES_MAX),
    });
  });

  it('gathers the toggles that arrive soon after a batch into the next one', async () => {
    const { roomName, adaSocket } = await sharedRoom();
    const sent = await send(adaSocket, roomName, 'Gather these');
    const room = (await findRoom(chat.app.database.db, roomName))!;
    const gapMs = 300;
    const writer = createReactionWriter(chat.app.database.db, { gapMs });
    const base = { roomId: room.id, messageId: sent.id };
    const as = (person: { id: string }, name: string) => ({ id: person.id, name, isStaff: false });
    // The first goes at once, alone; three more, arriving just after it, wait for the gap and go
    // together: each of their answers counts all of them.
    const first = await writer.toggle({ ...base, actor: as(ada, 'Ada'), emoji: '👍' });
    expect(first.reactions).toEqual([{ emoji: '👍', count: 1, names: ['Ada'] }]);
    const later = [
      writer.toggle({ ...base, actor: as(alan, 'Alan'), emoji: '👍' }),
      writer.toggle({ ...base, actor: as(ada, 'Ada'), emoji: '🎉' }),
    ];
    await new Promise((resolve) => setTimeout(resolve, 20));
    later.push(writer.toggle({ ...base, actor: as(alan, 'Alan'), emoji: '🎉' }));
    const answers = await Promise.all(later);
    for (const answer of answers) {
      // Toggles of one batch share their time: their names' order is the people's ids'.
      const summary = answer.reactions.map((r) => ({ ...r, names: [...r.names].sort() }));
      expect(summary).toEqual([
        { emoji: '👍', count: 2, names: ['Ada', 'Alan'] },
        { emoji: '🎉', count: 2, names: ['Ada', 'Alan'] },
      ]);
    }
  });

  it('tells a room many reactions within one window as one frame per member, on every process', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = await send(adaSocket, roomName, 'React, everyone');
    const readers: ChatClient[] = [];
    for (const index of [1, 2, 3, 4]) {
      const reader = await signedInPerson(chat.app, 'student', { firstName: `Reader${index}` });
      // On PostgreSQL, half on each process.
      const socket = await connect(reader, index % 2 === 0 ? chat.url : chat.otherUrl);
      await join(socket, roomName);
      readers.push(socket);
    }
    const members = [adaSocket, alanSocket, ...readers];
    const heard = members.map((socket) => reactionsHeard(socket));
    const react = (socket: ChatClient) =>
      emitAck(socket, 'react_message', { roomName, messageId: sent.id, emoji: '👍' });
    const count = (index: number) => heard[index]!.latest(sent.id)?.[0]?.count;
    // A first reaction opens the room's window everywhere.
    expect(await react(adaSocket)).toMatchObject({ ok: true });
    await expect
      .poll(() => members.every((_, index) => count(index) === 1), { timeout: 5_000 })
      .toBe(true);
    // Everyone else at once: one more frame per member, with every count, or two when the burst
    // straddles the end of a window (a process hears the others' toggles once a second), never
    // one per reaction.
    const acks = await Promise.all([alanSocket, ...readers].map(react));
    expect(acks.every((ack) => ack.ok)).toBe(true);
    await expect
      .poll(() => members.every((_, index) => count(index) === members.length), {
        timeout: 5_000,
      })
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, REACTIONS_FANOUT_MS + 300));
    for (const listener of heard) expect([2, 3]).toContain(listener.frames.length);
    // The room's frame names no reader's own.
    expect(heard[1]!.frames[1]!.messages[0]!.reactions[0]).not.toHaveProperty('mine');
  });

  it('edits one’s own message within ten minutes on every process, marked edited', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = await send(adaSocket, roomName, 'Meet at 5');
    const there = nextEvent(alanSocket, 'message_updated');
    expect(
      await emitAck(adaSocket, 'edit_message', { roomName, messageId: sent.id, text: 'Meet at 6' }),
    ).toEqual({ ok: true, id: sent.id });
    const [updated] = await there;
    expect(updated).toMatchObject({ id: sent.id, content: 'Meet at 6', sender: 'Ada' });
    expect(typeof updated.editedAt).toBe('string');
    // Someone else's message, never.
    expect(
      await emitAck(alanSocket, 'edit_message', { roomName, messageId: sent.id, text: 'Mine' }),
    ).toEqual({ ok: false, message: THREADS_TEXT.notYours });
    // Ten minutes later, by the database's clock, not on either process.
    await age(sent.id, 601);
    const late = await connect(ada, chat.otherUrl);
    await join(late, roomName);
    for (const socket of [adaSocket, late]) {
      expect(
        await emitAck(socket, 'edit_message', { roomName, messageId: sent.id, text: 'Meet at 7' }),
      ).toEqual({ ok: false, message: THREADS_TEXT.tooLate });
      expect(await emitAck(socket, 'delete_message', { roomName, messageId: sent.id })).toEqual({
        ok: false,
        message: THREADS_TEXT.tooLate,
      });
    }
    const { history } = await join(await connect(alan), roomName);
    expect(history.find((m) => m.id === sent.id)).toMatchObject({ content: 'Meet at 6' });
  });

  it('holds the matcher, the room’s words and mutes on edits, and never edits a hidden message', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = await send(alanSocket, roomName, 'A fine message');
    expect(
      (
        await emitAck(adaSocket, 'set_room_rules', {
          roomName,
          slowModeSeconds: 300,
          words: ['spoiler'],
          membersOnly: false,
          rules: '',
        })
      ).ok,
    ).toBe(true);
    // The other process reads the room's words again within two seconds.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(
      await emitAck(alanSocket, 'edit_message', { roomName, messageId: sent.id, text: 'SPOILER' }),
    ).toEqual({ ok: false, message: MODERATION_TEXT.roomWord });
    // Slow mode does not apply to an edit: it adds no message.
    expect(
      (await emitAck(alanSocket, 'edit_message', { roomName, messageId: sent.id, text: 'Fine' }))
        .ok,
    ).toBe(true);
    // A muted person cannot edit, nor react, on either process.
    const muted = await librarian.client.post('/api/moderation/actions', {
      messageId: sent.id,
      action: 'mute',
      scope: 'room',
      duration: '10m',
      reason: 'Be civil.',
    });
    expect(muted.statusCode).toBe(200);
    const edit = await emitAck(alanSocket, 'edit_message', {
      roomName,
      messageId: sent.id,
      text: 'Fine still',
    });
    expect(edit).toMatchObject({ ok: false, message: expect.stringContaining('muted you') });
    expect(
      await emitAck(alanSocket, 'react_message', { roomName, messageId: sent.id, emoji: '🙏' }),
    ).toMatchObject({ ok: false, message: expect.stringContaining('muted you') });
    // Hidden by a moderator: the text stays as the moderator left it.
    const own = await send(adaSocket, roomName, 'Something to hide');
    const hidden = await librarian.client.post('/api/moderation/actions', {
      messageId: own.id,
      action: 'hide',
      reason: 'Off-topic.',
    });
    expect(hidden.statusCode).toBe(200);
    expect(
      await emitAck(adaSocket, 'edit_message', { roomName, messageId: own.id, text: 'Changed' }),
    ).toEqual({ ok: false, message: THREADS_TEXT.hiddenByModerator });
    expect(
      await emitAck(adaSocket, 'react_message', { roomName, messageId: own.id, emoji: '👍' }),
    ).toEqual({ ok: false, message: THREADS_TEXT.noReaction });
    // Abuse in an edit restricts the room, as in a send, and changes nothing.
    const mine = (await emitAck(adaSocket, 'send_message', { room: roomName, message: 'ok' })) as {
      id: string;
      ok: boolean;
    };
    expect(mine.ok).toBe(false); // slow mode: Ada sent a moment ago
    const restricted = nextEvent(alanSocket, 'abuse_detected');
    expect(
      await emitAck(adaSocket, 'edit_message', {
        roomName,
        messageId: own.id,
        text: 'you f u c k',
      }),
    ).toEqual({ ok: false, message: `${CHAT_TEXT.abuseWarning} ${CHAT_TEXT.abuseWarningMore}` });
    await restricted;
  });

  it('deletes one’s own message for everyone, keeps its text for the moderators, and quotes it as deleted', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const sent = await send(adaSocket, roomName, 'Oops, wrong room');
    const reply = await send(alanSocket, roomName, 'What?', sent.id);
    expect(
      (
        await emitAck(alanSocket, 'report_message', {
          messageId: sent.id,
          reason: 'off-topic',
        })
      ).ok,
    ).toBe(true);
    // Alan hears the edit first (through the adapter), so the deletion's update is the next one.
    const editHeard = nextEvent(alanSocket, 'message_updated');
    const edited = await emitAck(adaSocket, 'edit_message', {
      roomName,
      messageId: sent.id,
      text: 'Oops, edited',
    });
    expect(edited.ok).toBe(true);
    await editHeard;
    // The moderators see the text as it is now, and that it was edited.
    const queue = (await librarian.client.get('/api/moderation/queue')).json();
    const item = queue.reports.find(
      (entry: { message: { id: string } }) => entry.message.id === sent.id,
    );
    expect(item.message).toMatchObject({ content: 'Oops, edited', editedAt: expect.any(String) });

    const there = nextEvent(alanSocket, 'message_updated');
    expect(await emitAck(adaSocket, 'delete_message', { roomName, messageId: sent.id })).toEqual({
      ok: true,
      id: sent.id,
    });
    const [deleted] = await there;
    expect(deleted).toMatchObject({ id: sent.id, content: THREADS_TEXT.deleted, deleted: true });
    expect(JSON.stringify(deleted)).not.toContain('Oops');
    const { history } = await join(await connect(alan, chat.otherUrl), roomName);
    expect(history.find((m) => m.id === sent.id)).toMatchObject({
      content: THREADS_TEXT.deleted,
      deleted: true,
    });
    expect(history.find((m) => m.id === reply.id)?.replyTo).toEqual({
      id: sent.id,
      sender: 'Ada',
      excerpt: '',
      deleted: true,
    });
    expect(await emitAck(adaSocket, 'delete_message', { roomName, messageId: sent.id })).toEqual({
      ok: false,
      message: THREADS_TEXT.alreadyDeleted,
    });
    expect(
      await emitAck(adaSocket, 'react_message', { roomName, messageId: sent.id, emoji: '👍' }),
    ).toEqual({ ok: false, message: THREADS_TEXT.alreadyDeleted });
    const moderators = (await librarian.client.get('/api/moderation/queue')).json();
    expect(
      moderators.reports.find((entry: { message: { id: string } }) => entry.message.id === sent.id)
        ?.message,
    ).toMatchObject({ content: 'Oops, edited', deleted: true });
  });

  it('sends a reconnecting client what changed in the messages it holds', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const first = await send(adaSocket, roomName, 'First');
    const second = await send(adaSocket, roomName, 'Second');
    await emitAck(adaSocket, 'react_message', { roomName, messageId: second.id, emoji: '❤️' });
    // Alan is away meanwhile; Ada edits one, deletes one and takes her reaction back.
    alanSocket.close();
    await emitAck(adaSocket, 'edit_message', { roomName, messageId: first.id, text: 'First!' });
    await emitAck(adaSocket, 'react_message', { roomName, messageId: second.id, emoji: '❤️' });
    await emitAck(adaSocket, 'react_message', { roomName, messageId: second.id, emoji: '🎉' });
    const back = await connect(alan, chat.otherUrl);
    const updates: ChatMessage[] = [];
    back.on('message_updated', (message) => updates.push(message));
    const { history } = await join(back, roomName, { after: second.id });
    expect(history).toEqual([]);
    await expect.poll(() => updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.find((m) => m.id === first.id)).toMatchObject({
      content: 'First!',
      editedAt: expect.any(String),
      reactions: [],
    });
    expect(updates.find((m) => m.id === second.id)?.reactions).toEqual([
      { emoji: '🎉', count: 1, names: ['Ada'], mine: false },
    ]);
  });

  it('resolves an edit’s mentions again on every process, telling only the newly mentioned', async () => {
    const { roomName, adaSocket, alanSocket } = await sharedRoom();
    const grace = await signedInPerson(chat.app, 'student', { firstName: 'Grace' });
    const name = (person: string) => `${person}${rooms}${kind === 'postgres' ? 'p' : 'g'}`;
    for (const [who, username] of [
      [alan, name('Alan')],
      [grace, name('Grace')],
    ] as const) {
      await chat.app.database.db
        .updateTable('users')
        .set({ chat_username: username })
        .where('id', '=', who.id)
        .execute();
    }
    // Grace has been in the room and left; her bell's socket stays, on the other process.
    const graceSocket = await connect(grace, chat.otherUrl);
    await join(graceSocket, roomName);
    expect(await emitAck(graceSocket, 'leave_room')).toEqual({ ok: true });
    // Ada's second tab, on the other process, hears the room's updates.
    const watcher = await connect(ada, chat.otherUrl);
    await join(watcher, roomName);
    const mentionNotices = () =>
      chat.app.database.db
        .selectFrom('notices')
        .select('user_id')
        .where('kind', '=', 'mention')
        .where('user_id', 'in', [alan.id, grace.id])
        .execute();
    const stored = (id: string) =>
      chat.app.database.db
        .selectFrom('chat_mentions')
        .select(['user_id', 'name'])
        .where('message_id', '=', sql<string>`${id}::bigint`)
        .orderBy('name')
        .execute();
    const edit = async (id: string, text: string) => {
      const heard = nextEvent(watcher, 'message_updated');
      expect(await emitAck(adaSocket, 'edit_message', { roomName, messageId: id, text })).toEqual({
        ok: true,
        id,
      });
      return (await heard)[0];
    };

    // Alan is mentioned while he is in the room: no notice.
    const sent = await send(adaSocket, roomName, `Meet at 5, @${name('Alan')}`);
    expect(await mentionNotices()).toEqual([]);
    expect(await emitAck(alanSocket, 'leave_room')).toEqual({ ok: true });

    // The edit adds Grace: she is told (away), Alan (mentioned before, away now) is not.
    const bell = nextEvent(graceSocket, 'notices_changed');
    const updated = await edit(sent.id, `Meet at 6, @${name('Alan')} and @${name('Grace')}`);
    expect(updated.mentions).toEqual([
      { userId: alan.id, name: name('Alan') },
      { userId: grace.id, name: name('Grace') },
    ]);
    expect((await bell)[0]).toEqual({ unread: 1 });
    expect(await mentionNotices()).toEqual([{ user_id: grace.id }]);
    expect(await stored(sent.id)).toEqual([
      { user_id: alan.id, name: name('Alan') },
      { user_id: grace.id, name: name('Grace') },
    ]);
    expect(await emitAck(graceSocket, 'unread_counts')).toMatchObject({
      unread: expect.arrayContaining([{ roomName, unread: 1, mentioned: true }]),
    });

    // The client cannot say whom it mentions; an edit taking them out says so, with none.
    const none = await edit(sent.id, 'Meet at 7, everyone');
    expect(none.mentions).toEqual([]);
    expect(await stored(sent.id)).toEqual([]);
    expect(await emitAck(graceSocket, 'unread_counts')).toMatchObject({
      unread: expect.arrayContaining([{ roomName, unread: 1, mentioned: false }]),
    });

    // A client resuming after the edits gets the message again with its mentions now.
    await edit(sent.id, `Meet at 8, @${name('Grace')}`);
    expect(await mentionNotices()).toEqual([{ user_id: grace.id }]);
    const back = await connect(alan, chat.otherUrl);
    const updates: ChatMessage[] = [];
    back.on('message_updated', (message) => updates.push(message));
    expect((await join(back, roomName, { after: sent.id })).history).toEqual([]);
    await expect.poll(() => updates.find((m) => m.id === sent.id)).toBeTruthy();
    expect(updates.find((m) => m.id === sent.id)?.mentions).toEqual([
      { userId: grace.id, name: name('Grace') },
    ]);
    // And a first join's history too.
    const { history } = await join(await connect(grace, chat.url), roomName);
    expect(history.find((m) => m.id === sent.id)?.mentions).toEqual([
      { userId: grace.id, name: name('Grace') },
    ]);
    // Deleted, it mentions nobody: nothing left for the room list's mention marker to count.
    expect(await emitAck(adaSocket, 'delete_message', { roomName, messageId: sent.id })).toEqual({
      ok: true,
      id: sent.id,
    });
    expect(await stored(sent.id)).toEqual([]);
  });

  it('shortens a quote to whole characters', () => {
    expect(excerptOf('  a\n\nb  ')).toBe('a b');
    const long = excerptOf(`${'x'.repeat(138)}😀😀`);
    expect(long.length).toBeLessThanOrEqual(140);
    expect(long.endsWith('…')).toBe(true);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(long)).toBe(false);
  });
});
