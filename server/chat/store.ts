import { sql, type Kysely } from 'kysely';
import { HISTORY_PAGE } from '../../contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';

/** A process whose heartbeat is older than this no longer counts in member counts. */
export const SERVER_STALE_MS = 30_000;

/** Most missed messages a reconnecting client gets in one `room_history`. */
export const CATCH_UP_MAX = 1000;

/** A room row as the chat reads it. */
export interface RoomRow {
  id: string;
  name: string;
  description: string;
  creator_id: string;
  creator_name: string;
  abuse_detected: boolean;
  created_at: Date;
}

/** A message row with its id as text (bigint). */
export interface MessageRow {
  id: string;
  sender_id: string | null;
  sender_name: string;
  content: string;
  is_system: boolean;
  created_at: Date;
}

// The id goes out as text (a bigint does not fit a JavaScript number); sort by the column itself,
// `chat_messages.id`, never by this text alias.
const messageColumns = [
  sql<string>`id::text`.as('id'),
  'sender_id',
  'sender_name',
  'content',
  'is_system',
  'created_at',
] as const;

/** Every room, oldest first, with the number of distinct people in each right now. */
export async function listRooms(db: Kysely<Database>, now: Date) {
  const fresh = new Date(now.getTime() - SERVER_STALE_MS);
  return db
    .selectFrom('chat_rooms as r')
    .selectAll('r')
    .select((eb) =>
      eb
        .selectFrom('chat_presence as p')
        .innerJoin('chat_servers as s', 's.id', 'p.server_id')
        .select(sql<string>`count(DISTINCT p.user_id)`.as('n'))
        .whereRef('p.room_id', '=', 'r.id')
        .where('s.seen_at', '>', fresh)
        .as('member_count'),
    )
    .orderBy('r.created_at')
    .orderBy('r.name')
    .execute();
}

/** The room called `name`, ignoring case. */
export async function findRoom(db: Kysely<Database>, name: string): Promise<RoomRow | undefined> {
  return db
    .selectFrom('chat_rooms')
    .selectAll()
    .where(sql<string>`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirst();
}

/** Creates a room; undefined when one with the same name (ignoring case) exists. */
export async function createRoom(
  db: Kysely<Database>,
  room: { name: string; description: string; creatorId: string; creatorName: string },
): Promise<RoomRow | undefined> {
  return db
    .insertInto('chat_rooms')
    .values({
      name: room.name,
      description: room.description,
      creator_id: room.creatorId,
      creator_name: room.creatorName,
    })
    .onConflict((conflict) => conflict.expression(sql`lower(name)`).doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** Removes a room with its messages and presence. */
export async function deleteRoom(db: Kysely<Database>, id: string): Promise<void> {
  await db.deleteFrom('chat_rooms').where('id', '=', id).execute();
}

/** Marks a room restricted, or lifts it. */
export async function setRestricted(
  db: Kysely<Database>,
  id: string,
  restricted: boolean,
): Promise<void> {
  await db
    .updateTable('chat_rooms')
    .set({ abuse_detected: restricted })
    .where('id', '=', id)
    .execute();
}

/** Stores a message; it is acknowledged only after this returns. */
export async function insertMessage(
  db: Kysely<Database>,
  message: {
    roomId: string;
    senderId: string | null;
    senderName: string;
    content: string;
    isSystem?: boolean;
  },
): Promise<MessageRow> {
  return db
    .insertInto('chat_messages')
    .values({
      room_id: message.roomId,
      sender_id: message.senderId,
      sender_name: message.senderName,
      content: message.content,
      is_system: message.isSystem ?? false,
    })
    .returning(messageColumns)
    .executeTakeFirstOrThrow();
}

/**
 * Stores a message in a room that still exists and is not restricted, in one statement (the hot
 * path of the chat: no separate look-up of the room first). Undefined when the room is gone or
 * restricted; the caller then finds out which.
 */
export async function insertMessageIfOpen(
  db: Kysely<Database>,
  message: { roomId: string; senderId: string; senderName: string; content: string },
): Promise<MessageRow | undefined> {
  return db
    .insertInto('chat_messages')
    .columns(['room_id', 'sender_id', 'sender_name', 'content'])
    .expression(
      db
        .selectFrom('chat_rooms')
        .select((eb) => [
          'id',
          eb.val(message.senderId).as('sender_id'),
          eb.val(message.senderName).as('sender_name'),
          eb.val(message.content).as('content'),
        ])
        .where('id', '=', message.roomId)
        .where('abuse_detected', '=', false),
    )
    .returning(messageColumns)
    .executeTakeFirst();
}

/**
 * A page of a room's messages, oldest first: the latest `HISTORY_PAGE`, or those before `before`
 * (scrolling back), or all after `after` up to `CATCH_UP_MAX` (catching up after a reconnect).
 */
export async function roomHistory(
  db: Kysely<Database>,
  roomId: string,
  window: { before?: string; after?: string } = {},
): Promise<{ messages: MessageRow[]; hasMore: boolean }> {
  if (window.after !== undefined) {
    const rows = await db
      .selectFrom('chat_messages')
      .select(messageColumns)
      .where('room_id', '=', roomId)
      .where(sql<string>`id`, '>', sql<string>`${window.after}::bigint`)
      .orderBy('chat_messages.id', 'desc')
      .limit(CATCH_UP_MAX)
      .execute();
    return { messages: rows.reverse(), hasMore: rows.length === CATCH_UP_MAX };
  }
  let query = db
    .selectFrom('chat_messages')
    .select(messageColumns)
    .where('room_id', '=', roomId)
    .orderBy('chat_messages.id', 'desc')
    .limit(HISTORY_PAGE + 1);
  if (window.before !== undefined) {
    query = query.where(sql<string>`id`, '<', sql<string>`${window.before}::bigint`);
  }
  const rows = await query.execute();
  const hasMore = rows.length > HISTORY_PAGE;
  return { messages: rows.slice(0, HISTORY_PAGE).reverse(), hasMore };
}

/** Records that `socketId` is in `roomId` (replacing any room it was in). */
export async function enterRoom(
  db: Kysely<Database>,
  presence: { socketId: string; serverId: string; roomId: string; userId: string },
): Promise<void> {
  await db
    .insertInto('chat_presence')
    .values({
      socket_id: presence.socketId,
      server_id: presence.serverId,
      room_id: presence.roomId,
      user_id: presence.userId,
    })
    .onConflict((conflict) =>
      conflict.column('socket_id').doUpdateSet({ room_id: presence.roomId }),
    )
    .execute();
}

/** Records that `socketId` left its room. */
export async function exitRoom(db: Kysely<Database>, socketId: string): Promise<void> {
  await db.deleteFrom('chat_presence').where('socket_id', '=', socketId).execute();
}

/** This process is alive; its presence rows count. */
export async function beat(db: Kysely<Database>, serverId: string, now: Date): Promise<void> {
  await db
    .insertInto('chat_servers')
    .values({ id: serverId, seen_at: now })
    .onConflict((conflict) => conflict.column('id').doUpdateSet({ seen_at: now }))
    .execute();
}

/** Forgets processes that stopped beating long ago, and this one when it stops. */
export async function forgetServers(
  db: Kysely<Database>,
  options: { serverId?: string; staleBefore?: Date },
): Promise<void> {
  if (options.serverId !== undefined) {
    await db.deleteFrom('chat_presence').where('server_id', '=', options.serverId).execute();
    await db.deleteFrom('chat_servers').where('id', '=', options.serverId).execute();
  }
  if (options.staleBefore !== undefined) {
    const stale = db
      .selectFrom('chat_servers')
      .select('id')
      .where('seen_at', '<', options.staleBefore);
    await db.deleteFrom('chat_presence').where('server_id', 'in', stale).execute();
    await db.deleteFrom('chat_servers').where('seen_at', '<', options.staleBefore).execute();
  }
}
