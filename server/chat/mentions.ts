import { sql, type Kysely } from 'kysely';
import { roomPath } from '#contract/routes.ts';
import {
  CHAT_USERNAME_MAX,
  CHAT_USERNAME_MIN,
  MENTIONS_PER_MESSAGE_MAX,
  ROOM_MEMBERS_MAX,
  UNREAD_COUNT_MAX,
  type Mention,
  type RoomMember,
  type RoomUnread,
} from '#contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';
import { createNotices, type NewNotice } from '../notices/store.ts';
import { SERVER_STALE_MS } from './store.ts';

/*
 * Mentions and unread markers (issue 26, decision 042). Statements only: the socket handlers
 * decide when to call them and tell people what changed.
 */

/** `@` tokens looked at in one message: a bound on the candidates one message can send. */
const AT_SIGNS_MAX = 20;
/** What may follow a username in a mention: the end, a space, or punctuation. */
const AFTER_NAME = /^(?:$|[\s.,;:!?)\]}'"’”…-])/u;
/** What may stand before the `@` of a mention: the start, a space, or an opening bracket/quote. */
const BEFORE_AT = /(?:^|[\s([{'"‘“])$/u;

/** How a name is compared: as stored (NFKC, single spaces), ignoring case. */
const fold = (name: string) => name.normalize('NFKC').toLowerCase();

/**
 * The texts after each `@` of `content` that could be a username (2 to 30 characters ending
 * where a name may end), ignoring case; an `@` inside a word (an e-mail address) starts none.
 * Exported for tests.
 */
export function mentionCandidates(content: string): { at: number; names: string[] }[] {
  const text = content.normalize('NFKC');
  const found: { at: number; names: string[] }[] = [];
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (found.length >= AT_SIGNS_MAX) break;
    if (!BEFORE_AT.test(text.slice(Math.max(0, at - 1), at))) continue;
    const rest = text.slice(at + 1, at + 1 + CHAT_USERNAME_MAX + 1);
    const names: string[] = [];
    for (
      let length = CHAT_USERNAME_MIN;
      length <= Math.min(CHAT_USERNAME_MAX, rest.length);
      length++
    ) {
      const name = rest.slice(0, length);
      // A name neither starts nor ends with a space (they are trimmed when chosen).
      if (/^\s|\s$/u.test(name)) continue;
      if (AFTER_NAME.test(rest.slice(length))) names.push(name.toLowerCase());
    }
    if (names.length > 0) found.push({ at, names });
  }
  return found;
}

/**
 * The members of `roomId` that `content` mentions, in the order of their first `@name`, the
 * longest name matching at each `@`, without the sender, at most `MENTIONS_PER_MESSAGE_MAX`.
 * A message without `@` costs no statement.
 */
export async function resolveMentions(
  db: Kysely<Database>,
  roomId: string,
  senderId: string,
  content: string,
): Promise<Mention[]> {
  const candidates = mentionCandidates(content);
  if (candidates.length === 0) return [];
  const all = [...new Set(candidates.flatMap((candidate) => candidate.names))];
  const rows = await db
    .selectFrom('chat_room_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.chat_username'])
    .where('m.room_id', '=', roomId)
    .where('u.disabled_at', 'is', null)
    .where(sql<string>`lower(u.chat_username)`, 'in', all)
    .execute();
  const byName = new Map<string, { id: string; name: string }>();
  for (const row of rows) {
    if (row.chat_username)
      byName.set(fold(row.chat_username), { id: row.id, name: row.chat_username });
  }
  const mentions: Mention[] = [];
  for (const { names } of candidates) {
    // Longest first: '@Ada Lovelace' is Ada Lovelace when both she and an 'Ada' are members.
    const match = [...names]
      .reverse()
      .map((name) => byName.get(fold(name)))
      .find(Boolean);
    if (!match || match.id === senderId) continue;
    if (mentions.some((mention) => mention.userId === match.id)) continue;
    mentions.push({ userId: match.id, name: match.name });
    if (mentions.length >= MENTIONS_PER_MESSAGE_MAX) break;
  }
  return mentions;
}

/** A stored message that mentions people, as the notices need it. */
export interface MentioningMessage {
  id: string;
  roomId: string;
  roomName: string;
  senderName: string;
  content: string;
}

/** The first line of a message, short enough for a notice's body. */
function excerpt(content: string): string {
  const line = content.trim().replace(/\s+/gu, ' ');
  return line.length <= 140 ? line : `${line.slice(0, 139).replace(/[\uD800-\uDBFF]$/u, '')}…`;
}

/**
 * Stores `mentions` of a message and gives each mentioned person who is not in the room at this
 * moment (no presence row on a live process) a `mention` notice, one per person and message (its
 * key). Answers who got a notice, so their bells can be told.
 */
export async function recordMentions(
  db: Kysely<Database>,
  message: MentioningMessage,
  mentions: readonly Mention[],
  now: Date,
): Promise<string[]> {
  if (mentions.length === 0) return [];
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('chat_mentions')
      .values(mentionRows(message, mentions))
      .onConflict((conflict) => conflict.columns(['message_id', 'user_id']).doNothing())
      .execute();
    return noticeAbsent(
      trx,
      message,
      mentions.map((mention) => mention.userId),
      now,
    );
  });
}

/**
 * After an edit: makes `mentions` (resolved from the new text) the message's only ones, and gives
 * a `mention` notice only to those the edit newly mentions and who are not in the room now, as a
 * send does; someone mentioned before is not told again. Answers who got a notice, and whether
 * anyone's mention came or went (their room list's marker may change). Two statements (and the
 * presence look-up only when someone is new).
 */
export async function replaceMentions(
  db: Kysely<Database>,
  message: MentioningMessage,
  mentions: readonly Mention[],
  now: Date,
): Promise<{ noticed: string[]; changed: boolean }> {
  const ids = mentions.map((mention) => mention.userId);
  return db.transaction().execute(async (trx) => {
    let gone = trx
      .deleteFrom('chat_mentions')
      .where('message_id', '=', sql<string>`${message.id}::bigint`);
    if (ids.length > 0) gone = gone.where('user_id', 'not in', ids);
    const { numDeletedRows } = await gone.executeTakeFirst();
    const removed = numDeletedRows > 0n;
    if (mentions.length === 0) return { noticed: [], changed: removed };
    const added = await trx
      .insertInto('chat_mentions')
      .values(mentionRows(message, mentions))
      .onConflict((conflict) =>
        conflict.columns(['message_id', 'user_id']).doUpdateSet({ name: sql.ref('excluded.name') }),
      )
      .returning(['user_id', sql<boolean>`xmax = 0`.as('inserted')])
      .execute();
    const fresh = added.filter((row) => row.inserted).map((row) => row.user_id);
    return {
      noticed: await noticeAbsent(trx, message, fresh, now),
      changed: removed || fresh.length > 0,
    };
  });
}

/** The `chat_mentions` rows of `mentions` of `message`. */
const mentionRows = (message: MentioningMessage, mentions: readonly Mention[]) =>
  mentions.map((mention) => ({
    message_id: message.id,
    user_id: mention.userId,
    room_id: message.roomId,
    name: mention.name,
  }));

/**
 * Gives each of `ids` not in `message`'s room now (no presence row on a live process) a `mention`
 * notice, keyed by the message; answers who got one.
 */
async function noticeAbsent(
  trx: Kysely<Database>,
  message: MentioningMessage,
  ids: readonly string[],
  now: Date,
): Promise<string[]> {
  if (ids.length === 0) return [];
  const here = await trx
    .selectFrom('chat_presence as p')
    .innerJoin('chat_servers as s', 's.id', 'p.server_id')
    .select('p.user_id')
    .distinct()
    .where('p.room_id', '=', message.roomId)
    .where('p.user_id', 'in', ids)
    .where('s.seen_at', '>', new Date(now.getTime() - SERVER_STALE_MS))
    .execute();
  const present = new Set(here.map((row) => row.user_id));
  const notices: NewNotice[] = ids
    .filter((id) => !present.has(id))
    .map((userId) => ({
      userId,
      kind: 'mention',
      key: `mention:${message.id}`,
      title: `${message.senderName} mentioned you in ${message.roomName}`,
      body: `${message.senderName}: ${excerpt(message.content)}`,
      link: `${roomPath(message.roomName)}?message=${message.id}`,
      now,
    }));
  return createNotices(trx, notices);
}

/** The mentions of each of `messageIds` that has any (one statement, none without ids). */
export async function mentionsOf(
  db: Kysely<Database>,
  messageIds: readonly string[],
): Promise<Map<string, Mention[]>> {
  const found = new Map<string, Mention[]>();
  if (messageIds.length === 0) return found;
  const rows = await db
    .selectFrom('chat_mentions')
    .select([sql<string>`message_id::text`.as('message_id'), 'user_id', 'name'])
    .where(
      'message_id',
      'in',
      messageIds.map((id) => sql<string>`${id}::bigint`),
    )
    .orderBy('message_id')
    .execute();
  for (const row of rows) {
    found.set(row.message_id, [
      ...(found.get(row.message_id) ?? []),
      { userId: row.user_id, name: row.name },
    ]);
  }
  return found;
}

/**
 * Attaches each message's mentions to its row (`mentions`), for those holding an `@` only: the
 * others cannot have any, so a page without one costs no statement.
 */
export async function withMentions(
  db: Kysely<Database>,
  messages: readonly { id: string; content: string; mentions?: Mention[] }[],
): Promise<void> {
  const ids = messages.filter((message) => message.content.includes('@')).map((row) => row.id);
  const mentions = await mentionsOf(db, ids);
  for (const message of messages) {
    const of = mentions.get(message.id);
    if (of) message.mentions = of;
  }
}

/**
 * `userId`'s read marker in `roomId`: the last message id they had read, or, on their first
 * visit, undefined, the marker then being made at the room's latest message (so a first visit
 * shows no "New messages" and only what comes later counts as unread). One statement.
 */
export async function openReadMarker(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
): Promise<string | undefined> {
  // The outer SELECT sees the table as it was before the statement: an existing marker, or none
  // and the row this statement inserts.
  const { rows } = await sql<{ last_read_id: string; created: boolean }>`
    WITH made AS (
      INSERT INTO chat_read_markers (user_id, room_id, last_read_id)
      SELECT ${userId}, ${roomId}::uuid, coalesce(max(id), 0) FROM chat_messages
      WHERE room_id = ${roomId}::uuid
      ON CONFLICT (user_id, room_id) DO NOTHING
      RETURNING last_read_id
    )
    SELECT last_read_id::text AS last_read_id, false AS created FROM chat_read_markers
    WHERE user_id = ${userId} AND room_id = ${roomId}::uuid
    UNION ALL
    SELECT last_read_id::text, true FROM made
  `.execute(db);
  const existing = rows.find((row) => !row.created);
  return existing?.last_read_id;
}

/**
 * Moves `userId`'s marker in `roomId` (made when they joined it) forward to `messageId`, if that
 * message is of the room; never back. One statement; false when the message is not of the room
 * or the person never visited it.
 */
export async function markRead(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
  messageId: string,
  now: Date,
): Promise<boolean> {
  const { rows } = await sql<{ user_id: string }>`
    UPDATE chat_read_markers k
    SET last_read_id = greatest(k.last_read_id, m.id), updated_at = ${now}
    FROM chat_messages m
    WHERE m.id = ${messageId}::bigint AND m.room_id = ${roomId}::uuid
      AND k.user_id = ${userId} AND k.room_id = m.room_id
    RETURNING k.user_id
  `.execute(db);
  return rows.length > 0;
}

/**
 * Per room `userId` has a marker in: messages by others after it (counted up to
 * `UNREAD_COUNT_MAX`, so a long-neglected busy room costs no more than a short page), and whether
 * one of them mentions `userId`. One statement, asked for by the person's browser, never computed
 * for anyone on a send (decision 042).
 */
export async function unreadByRoom(db: Kysely<Database>, userId: string): Promise<RoomUnread[]> {
  const { rows } = await sql<{ name: string; unread: number; mentioned: boolean }>`
    SELECT r.name,
      (SELECT count(*)::int FROM (
        SELECT 1 FROM chat_messages m
        WHERE m.room_id = k.room_id AND m.id > k.last_read_id
          AND m.sender_id IS DISTINCT FROM ${userId}
        LIMIT ${UNREAD_COUNT_MAX}
      ) AS recent) AS unread,
      EXISTS (
        SELECT 1 FROM chat_mentions c
        WHERE c.user_id = ${userId} AND c.room_id = k.room_id AND c.message_id > k.last_read_id
      ) AS mentioned
    FROM chat_read_markers k
    JOIN chat_rooms r ON r.id = k.room_id
    WHERE k.user_id = ${userId}
    ORDER BY r.created_at, r.name
  `.execute(db);
  return rows.map((row) => ({
    roomName: row.name,
    unread: Number(row.unread),
    mentioned: Boolean(row.mentioned),
  }));
}

/** The room's members with a username, by name, at most `ROOM_MEMBERS_MAX`: the `@` list. */
export async function roomMembers(db: Kysely<Database>, roomId: string): Promise<RoomMember[]> {
  const rows = await db
    .selectFrom('chat_room_members as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.chat_username'])
    .where('m.room_id', '=', roomId)
    .where('u.chat_username', 'is not', null)
    .where('u.disabled_at', 'is', null)
    .orderBy(sql`lower(u.chat_username)`)
    .limit(ROOM_MEMBERS_MAX)
    .execute();
  return rows.map((row) => ({ userId: row.id, name: row.chat_username! }));
}
