import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MENTIONS_PER_MESSAGE_MAX } from '#contract/socket/chat.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { MailMessage, Mailer } from '../mail/mailer.ts';
import { deliverPendingNotices } from '../notices/deliver.ts';
import { setNoticePreferences } from '../notices/store.ts';
import { TEST_AUTH_SECRET } from '../test/app.ts';
import { openTestDatabase, testDatabaseKinds } from '../test/databases.ts';
import {
  markRead,
  mentionCandidates,
  openReadMarker,
  recordMentions,
  resolveMentions,
  roomMembers,
  unreadByRoom,
} from './mentions.ts';
import { createRoom, insertMessage } from './store.ts';

/*
 * Mentions and read markers in the database (decision 042), on both engines: `@name`s resolve to
 * the room's members only, longest name first, without the sender, at most ten; a notice goes to
 * each mentioned person not in the room, once per message, by e-mail only if they chose it; the
 * read marker moves forward only, and the room list's counts are bounded.
 */

describe('mention candidates', () => {
  it('reads names after an @ that starts a word, ending where a name may end', () => {
    const found = mentionCandidates('hi @ada, and @Ada Lovelace!');
    expect(found.map((candidate) => candidate.at)).toEqual([3, 13]);
    expect(found[0]!.names[0]).toBe('ada');
    expect(found[1]!.names).toEqual(expect.arrayContaining(['ada', 'ada lovelace']));
    // Not cut inside a word: '@Ada Lo' is no candidate.
    expect(found[1]!.names).not.toContain('ada lo');
    // An e-mail address is not a mention; neither is a lone @ or one letter.
    expect(mentionCandidates('mail ada@uni.example or @ or @a')).toEqual([]);
    expect(mentionCandidates('(@bo)')[0]?.names).toEqual(['bo', 'bo)']);
  });

  it('looks at no more than twenty @ signs of one message', () => {
    expect(mentionCandidates(' @ab'.repeat(100))).toHaveLength(20);
  });
});

describe.each(testDatabaseKinds())('mentions and read markers on %s', (kind) => {
  let database: DatabaseHandle;
  const db = () => database.db;
  const names = Array.from({ length: 13 }, (_, index) => `member${index}`);
  const ids = names.map((name) => `mentions-test-${name}`);
  let roomId = '';
  let otherRoomId = '';
  const now = new Date();

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await db()
      .insertInto('users')
      .values(
        ids.map((id, index) => ({
          id,
          name: id,
          email: `${id}@uni.example`,
          chat_username: index === 12 ? 'member1 senior' : names[index]!,
        })),
      )
      .execute();
    await db()
      .insertInto('users')
      .values({
        id: 'outsider',
        name: 'outsider',
        email: 'o@uni.example',
        chat_username: 'outsider',
      })
      .execute();
    const room = await createRoom(db(), {
      name: `Mentions ${kind}`,
      description: '',
      creatorId: ids[0]!,
      creatorName: names[0]!,
    });
    const other = await createRoom(db(), {
      name: `Elsewhere ${kind}`,
      description: '',
      creatorId: ids[0]!,
      creatorName: names[0]!,
    });
    roomId = room!.id;
    otherRoomId = other!.id;
    await db()
      .insertInto('chat_room_members')
      .values(ids.map((id) => ({ room_id: roomId, user_id: id })))
      .execute();
  });
  afterAll(async () => {
    await database.close();
  });

  it('resolves members only, the longest name, never the sender, at most ten', async () => {
    expect(
      await resolveMentions(db(), roomId, ids[0]!, '@member0 @MEMBER2 @outsider @member2 @nobody'),
    ).toEqual([{ userId: ids[2], name: 'member2' }]);
    expect(await resolveMentions(db(), roomId, ids[0]!, 'ask @member1 senior.')).toEqual([
      { userId: ids[12], name: 'member1 senior' },
    ]);
    const everyone = names.map((name) => `@${name}`).join(' ');
    const many = await resolveMentions(db(), roomId, ids[0]!, everyone);
    expect(many).toHaveLength(MENTIONS_PER_MESSAGE_MAX);
    expect(many.map((mention) => mention.userId)).not.toContain(ids[0]);
    expect(await resolveMentions(db(), roomId, ids[0]!, 'no mention here')).toEqual([]);
  });

  it('notices those not in the room, once per message; e-mail only for those who chose it', async () => {
    const message = await insertMessage(db(), {
      roomId,
      senderId: ids[0]!,
      senderName: names[0]!,
      content: '@member3 @member4 look',
    });
    // member4 is in the room right now, on a live process.
    await db()
      .insertInto('chat_servers')
      .values({ id: `server-${kind}`, seen_at: now })
      .execute();
    await db()
      .insertInto('chat_presence')
      .values({ socket_id: 's4', server_id: `server-${kind}`, room_id: roomId, user_id: ids[4]! })
      .execute();
    const mentions = [
      { userId: ids[3]!, name: 'member3' },
      { userId: ids[4]!, name: 'member4' },
    ];
    const mentioning = {
      id: message.id,
      roomId,
      roomName: `Mentions ${kind}`,
      senderName: names[0]!,
      content: message.content,
    };
    expect(await recordMentions(db(), mentioning, mentions, now)).toEqual([ids[3]]);
    // Again (a retry): nothing new.
    expect(await recordMentions(db(), mentioning, mentions, now)).toEqual([]);
    const notices = await db()
      .selectFrom('notices')
      .select(['user_id', 'kind', 'title', 'link', 'email_state'])
      .where('kind', '=', 'mention')
      .execute();
    expect(notices).toEqual([
      {
        user_id: ids[3],
        kind: 'mention',
        title: `member0 mentioned you in Mentions ${kind}`,
        link: `/room/Mentions%20${kind}?message=${message.id}`,
        email_state: 'pending',
      },
    ]);

    const sent: MailMessage[] = [];
    const mailer: Mailer = {
      describe: () => 'memory',
      send: async (mail) => {
        sent.push(mail);
      },
    };
    const deliver = () =>
      deliverPendingNotices({
        db: db(),
        mailer,
        secret: TEST_AUTH_SECRET,
        publicUrl: 'http://localhost:3000',
        now,
      });
    // Off by default: skipped.
    expect(await deliver()).toEqual({ sent: 0, skipped: 1 });
    // Chosen on: the next mention comes by e-mail.
    await setNoticePreferences(db(), ids[5]!, { mention: true }, now);
    const second = await insertMessage(db(), {
      roomId,
      senderId: ids[0]!,
      senderName: names[0]!,
      content: '@member5 hello',
    });
    await recordMentions(
      db(),
      { ...mentioning, id: second.id, content: second.content },
      [{ userId: ids[5]!, name: 'member5' }],
      now,
    );
    expect(await deliver()).toEqual({ sent: 1, skipped: 0 });
    expect(sent[0]?.subject).toBe(`member0 mentioned you in Mentions ${kind}`);
  });

  it('keeps read markers per person and room, forward only, with bounded unread counts', async () => {
    const reader = ids[6]!;
    // First visit: the marker starts at the latest message, and says nothing.
    expect(await openReadMarker(db(), reader, roomId)).toBeUndefined();
    const marker = await db()
      .selectFrom('chat_read_markers')
      .select('last_read_id')
      .where('user_id', '=', reader)
      .executeTakeFirstOrThrow();
    expect(await openReadMarker(db(), reader, roomId)).toBe(String(marker.last_read_id));
    expect(await unreadByRoom(db(), reader)).toEqual([
      { roomName: `Mentions ${kind}`, unread: 0, mentioned: false },
    ]);

    const sent = [];
    for (let n = 0; n < 3; n += 1) {
      sent.push(
        await insertMessage(db(), {
          roomId,
          senderId: ids[0]!,
          senderName: names[0]!,
          content: `news ${n}`,
        }),
      );
    }
    // One's own messages never count as unread.
    await insertMessage(db(), { roomId, senderId: reader, senderName: 'me', content: 'mine' });
    const mention = await insertMessage(db(), {
      roomId,
      senderId: ids[0]!,
      senderName: names[0]!,
      content: '@member6 see this',
    });
    await recordMentions(
      db(),
      { id: mention.id, roomId, roomName: 'x', senderName: 'member0', content: mention.content },
      [{ userId: reader, name: 'member6' }],
      now,
    );
    expect(await unreadByRoom(db(), reader)).toEqual([
      { roomName: `Mentions ${kind}`, unread: 4, mentioned: true },
    ]);

    // Forward to the second message; the mention is still unread.
    expect(await markRead(db(), reader, roomId, sent[1]!.id, now)).toBe(true);
    expect(await unreadByRoom(db(), reader)).toEqual([
      { roomName: `Mentions ${kind}`, unread: 2, mentioned: true },
    ]);
    expect(await markRead(db(), reader, roomId, mention.id, now)).toBe(true);
    // Never back; and a message of another room moves nothing.
    expect(await markRead(db(), reader, roomId, sent[0]!.id, now)).toBe(true);
    expect(await openReadMarker(db(), reader, roomId)).toBe(mention.id);
    const elsewhere = await insertMessage(db(), {
      roomId: otherRoomId,
      senderId: ids[0]!,
      senderName: names[0]!,
      content: 'elsewhere',
    });
    expect(await markRead(db(), reader, roomId, elsewhere.id, now)).toBe(false);
    expect(await unreadByRoom(db(), reader)).toEqual([
      { roomName: `Mentions ${kind}`, unread: 0, mentioned: false },
    ]);
  });

  it('lists the members by name for the @ list', async () => {
    const members = await roomMembers(db(), roomId);
    expect(members).toHaveLength(13);
    expect(members[0]).toEqual({ userId: ids[0], name: 'member0' });
    expect(members.map((member) => member.name)).not.toContain('outsider');
  });
});
