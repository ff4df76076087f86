import { sql, type Kysely } from 'kysely';
import { HISTORY_PAGE, type Mention, type ReactionSummary } from '#contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';
import { nameSkeleton } from './names.ts';

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
  /** A room of the demo data (decision 016); absent in a row built by hand counts as false. */
  is_demo?: boolean;
  /** The room's rules (decision 040); absent in a row built by hand counts as none. */
  slow_mode_seconds?: number;
  words?: string[];
  members_only_since?: Date | null;
  rules?: string;
  /** The catalogue item the room discusses (decision 045); absent counts as none. */
  item_id?: string | null;
  created_at: Date;
}

/** A message row with its id as text (bigint). */
export interface MessageRow {
  id: string;
  sender_id: string | null;
  sender_name: string;
  content: string;
  is_system: boolean;
  /** Sent by a librarian; absent in a row built by hand counts as false. */
  sender_is_staff?: boolean;
  /** Hidden by a moderator (decision 040); absent counts as shown. */
  hidden_at?: Date | null;
  /** Edited or deleted by its sender (decision 043); absent counts as neither. */
  edited_at?: Date | null;
  deleted_at?: Date | null;
  /** The message it replies to, as `replyQuoteColumn` reads it; absent or null: none. */
  reply?: ReplyRow | null;
  /** Its reactions for one reader (`server/chat/threads.ts`), when the caller attached them. */
  reactions?: ReactionSummary[];
  /** The people it mentions (`server/chat/mentions.ts`, decision 042), when the caller attached them. */
  mentions?: Mention[];
  created_at: Date;
}

/** The message a reply quotes, as stored (the presenter shortens it, or hides it). */
export interface ReplyRow {
  id: string;
  sender: string;
  content: string;
  hidden: boolean;
  deleted: boolean;
}

/** Characters of the original a reply's quote reads; the presenter makes the excerpt of them. */
export const QUOTED_CHARS = 400;

/**
 * The quoted message of a reply as one JSON column (null for a message that replies to none), for
 * a select from `chat_messages` under the name `table`: no join, so every query that reads
 * messages gets it by adding this column.
 */
export const replyQuoteColumn = (table: string) =>
  sql<ReplyRow | null>`(SELECT json_build_object('id', q.id::text, 'sender', q.sender_name,
    'content', left(q.content, ${QUOTED_CHARS}), 'hidden', q.hidden_at IS NOT NULL,
    'deleted', q.deleted_at IS NOT NULL)
    FROM chat_messages q WHERE q.id = ${sql.ref(`${table}.reply_to`)})`.as('reply');

// The id goes out as text (a bigint does not fit a JavaScript number); sort by the column itself,
// `chat_messages.id`, never by this text alias.
const messageColumns = [
  sql<string>`id::text`.as('id'),
  'sender_id',
  'sender_name',
  'content',
  'is_system',
  'sender_is_staff',
  'hidden_at',
  'edited_at',
  'deleted_at',
  replyQuoteColumn('chat_messages'),
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

/**
 * Creates a room; undefined when one with the same name, or one that looks the same (its skeleton,
 * server/chat/names.ts), exists.
 */
export async function createRoom(
  db: Kysely<Database>,
  room: {
    name: string;
    description: string;
    creatorId: string;
    creatorName: string;
    /** The catalogue item the room discusses (decision 045). */
    itemId?: string;
  },
): Promise<RoomRow | undefined> {
  // No conflict target: either unique index refuses it, the name ignoring case or its skeleton.
  return db
    .insertInto('chat_rooms')
    .values({
      name: room.name,
      description: room.description,
      creator_id: room.creatorId,
      creator_name: room.creatorName,
      name_skeleton: nameSkeleton(room.name),
      ...(room.itemId ? { item_id: room.itemId } : {}),
    })
    .onConflict((conflict) => conflict.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** How many of the open rooms this person created. */
export async function countRoomsCreatedBy(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom('chat_rooms')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('creator_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
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

/** A message to store: the server has already decided who sent it. */
export interface NewMessage {
  roomId: string;
  senderId: string;
  senderName: string;
  content: string;
  /** The id its client made (a UUID), if any: one row per sender and id (issue 19). */
  clientId?: string;
  /** The sender is a librarian (their role, as the server knows it): the forum badges it. */
  senderIsStaff?: boolean;
  /** The message it replies to, already found in the same room (decision 043). */
  replyTo?: string;
}

/**
 * Stores messages in rooms that still exist and are not restricted, in one statement whatever
 * their number (the hot path of the chat: no separate look-up of the room, and on PGlite one
 * statement of sixteen rows costs about what two single-row statements do). The answer lines up
 * with `messages`: the stored row, or undefined when that room is gone or restricted, or when its
 * sender already has a message of that `clientId` (the caller then finds out which).
 */
export async function insertMessagesIfOpen(
  db: Kysely<Database>,
  messages: readonly NewMessage[],
): Promise<(MessageRow | undefined)[]> {
  if (messages.length === 0) return [];
  // Slow mode lets one message of a person through per window: of a batch, only their first.
  const seen = new Set<string>();
  const firstOfSender = messages.map((message) => {
    const at = `${message.roomId} ${message.senderId}`;
    if (seen.has(at)) return false;
    seen.add(at);
    return true;
  });
  const values = sql.join(
    messages.map(
      (message, order) =>
        sql`(${message.roomId}::uuid, ${message.senderId}, ${message.senderName}, ${message.content}, ${message.clientId ?? null}::uuid, ${message.senderIsStaff ?? false}::boolean, ${order}::int, ${firstOfSender[order]}::boolean, ${message.replyTo ?? null}::bigint)`,
    ),
  );
  // A message whose sender already has one of its client id is skipped (the unique index
  // decides, so two sends of it at once, here or on another process, store it once).
  const { rows } = await sql<
    MessageRow & { room_id: string; client_id: string | null; reply_to: string | null }
  >`
    INSERT INTO chat_messages (room_id, sender_id, sender_name, content, client_id, sender_is_staff, reply_to)
    SELECT v.room_id, v.sender_id, v.sender_name, v.content, v.client_id, v.sender_is_staff, v.reply_to
    FROM (VALUES ${values}) AS v (room_id, sender_id, sender_name, content, client_id, sender_is_staff, ord, first_of_sender, reply_to)
    JOIN chat_rooms r ON r.id = v.room_id AND NOT r.abuse_detected
    -- The rules of decision 040, here so that every process enforces the same: no mute or
    -- removal in force, slow mode's window, and a members-only room's members.
    WHERE NOT EXISTS (
        SELECT 1 FROM chat_sanctions s
        WHERE s.user_id = v.sender_id AND (s.room_id IS NULL OR s.room_id = v.room_id)
          AND s.ends_at > now()
      )
      AND (r.slow_mode_seconds = 0 OR (v.first_of_sender AND NOT EXISTS (
        SELECT 1 FROM chat_messages m
        WHERE m.room_id = v.room_id AND m.sender_id = v.sender_id
          AND m.created_at > now() - make_interval(secs => r.slow_mode_seconds)
      )))
      AND (r.members_only_since IS NULL OR r.creator_id = v.sender_id OR v.sender_is_staff
        OR EXISTS (
          SELECT 1 FROM chat_room_members cm
          WHERE cm.room_id = v.room_id AND cm.user_id = v.sender_id
            AND cm.joined_at < r.members_only_since
        ))
    ORDER BY v.ord
    ON CONFLICT (sender_id, client_id) WHERE client_id IS NOT NULL DO NOTHING
    RETURNING id::text AS id, room_id, sender_id, sender_name, content, is_system, sender_is_staff,
      hidden_at, created_at, client_id::text AS client_id, reply_to::text AS reply_to
  `.execute(db);
  // RETURNING gives no position back, so rows are matched by what they hold. Messages that hold
  // the same are interchangeable; each still gets its own row, and the earlier one the lower id.
  // (The database writes a client id in lower case.)
  const key = (
    room: string,
    sender: string | null,
    name: string,
    content: string,
    clientId: string | null | undefined,
    replyTo: string | null | undefined,
  ) =>
    JSON.stringify([room, sender, name, content, clientId?.toLowerCase() ?? null, replyTo ?? null]);
  const stored = new Map<string, MessageRow[]>();
  for (const { room_id, client_id, reply_to, ...row } of rows.sort((a, b) =>
    compareIds(a.id, b.id),
  )) {
    const at = key(room_id, row.sender_id, row.sender_name, row.content, client_id, reply_to);
    stored.set(at, [...(stored.get(at) ?? []), row]);
  }
  return messages.map((message) =>
    stored
      .get(
        key(
          message.roomId,
          message.senderId,
          message.senderName,
          message.content,
          message.clientId,
          message.replyTo,
        ),
      )
      ?.shift(),
  );
}

/**
 * The message `senderId` sent with `clientId`, with its room, if there is one: what a retry of a
 * send that was stored but never acknowledged is answered with (issue 19).
 */
export async function findSentMessage(
  db: Kysely<Database>,
  senderId: string,
  clientId: string,
): Promise<(MessageRow & { room_id: string }) | undefined> {
  return db
    .selectFrom('chat_messages')
    .select([...messageColumns, 'room_id'])
    .where('sender_id', '=', senderId)
    .where('client_id', '=', sql<string>`${clientId}::uuid`)
    .executeTakeFirst();
}

/** Orders bigint ids held as text. */
function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Group commit for chat messages: the messages that arrive in one turn of the event loop, and
 * those that arrive while a write is under way, go together in one statement. An idle room waits
 * for nothing (a write starts at the end of the turn that brought the message); a busy one pays
 * for a statement per batch instead of per message. The turn matters on PGlite, whose statements
 * run on this thread: while one runs no message can arrive, so "during a write" alone would
 * gather almost nothing there.
 * Each message's promise settles with its own row (or undefined, as `insertMessagesIfOpen`), in
 * the order of the ids, so broadcasts that follow go out in order.
 */
export function createMessageWriter(db: Kysely<Database>, options: { maxBatch?: number } = {}) {
  const maxBatch = options.maxBatch ?? 100;
  interface Pending {
    message: NewMessage;
    resolve(row: MessageRow | undefined): void;
    reject(error: unknown): void;
  }
  let queue: Pending[] = [];
  /** A drain is scheduled or under way; it takes every message queued before it ends. */
  let writing = false;

  const settle = (batch: Pending[], rows: (MessageRow | undefined)[]) => {
    const stored: { pending: Pending; row: MessageRow }[] = [];
    batch.forEach((pending, index) => {
      const row = rows[index];
      if (row) stored.push({ pending, row });
      else pending.resolve(undefined);
    });
    stored.sort((a, b) => compareIds(a.row.id, b.row.id));
    for (const { pending, row } of stored) pending.resolve(row);
  };

  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(maxBatch);
      try {
        settle(
          batch,
          await insertMessagesIfOpen(
            db,
            batch.map((pending) => pending.message),
          ),
        );
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        // One message the database refuses (its sender deleted a moment ago) must not take the
        // others down with it: write them one by one.
        for (const pending of batch) {
          await insertMessagesIfOpen(db, [pending.message]).then(
            ([row]) => pending.resolve(row),
            (single: unknown) => pending.reject(single),
          );
        }
      }
    }
    writing = false;
  };

  return {
    /** Stores one message; see `insertMessagesIfOpen` for what the answer means. */
    write(message: NewMessage): Promise<MessageRow | undefined> {
      return new Promise((resolve, reject) => {
        queue.push({ message, resolve, reject });
        if (writing) return;
        writing = true;
        setImmediate(() => void drain());
      });
    },
  };
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

/**
 * A room's messages after `after`, oldest first, at most `limit`: what a process may have missed
 * while it could not hear the others (`server/realtime/replay.ts`), taken page by page.
 */
export async function messagesAfter(
  db: Kysely<Database>,
  roomId: string,
  after: string,
  limit: number,
): Promise<MessageRow[]> {
  return db
    .selectFrom('chat_messages')
    .select(messageColumns)
    .where('room_id', '=', roomId)
    .where(sql<string>`id`, '>', sql<string>`${after}::bigint`)
    .orderBy('chat_messages.id')
    .limit(limit)
    .execute();
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
