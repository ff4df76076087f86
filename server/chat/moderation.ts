import { sql, type Kysely } from 'kysely';
import {
  MODERATION_CONTEXT,
  MODERATION_DURATIONS,
  type ModerationActionRequest,
  type ModerationDuration,
} from '#contract/http/moderation.ts';
import { MODERATION_TEXT, type ReportReason, type RoomRules } from '#contract/socket/chat.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { replyQuoteColumn, type MessageRow, type RoomRow } from './store.ts';

/*
 * Moderation by people (issue 26, decision 040): members' reports of messages, the librarians'
 * actions on them, mutes and removals in force, and a room's rules. Statements only: the socket
 * handlers and the HTTP routes tell people what changed.
 */

const messageColumns = [
  sql<string>`m.id::text`.as('id'),
  'm.sender_id',
  'm.sender_name',
  'm.content',
  'm.is_system',
  'm.sender_is_staff',
  'm.hidden_at',
  'm.edited_at',
  'm.deleted_at',
  replyQuoteColumn('m'),
  'm.created_at',
] as const;

/** A message with its room, or undefined when it (or its room) is gone. */
export async function findMessage(
  db: Kysely<Database>,
  messageId: string,
): Promise<(MessageRow & { room_id: string; room_name: string }) | undefined> {
  return db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
    .select([...messageColumns, 'm.room_id', 'r.name as room_name'])
    .where('m.id', '=', sql<string>`${messageId}::bigint`)
    .executeTakeFirst();
}

/**
 * Records `reporterId`'s report of a message: false when they had already reported it (one report
 * per person per message; the unique constraint decides, on every process).
 */
export async function reportMessage(
  db: Kysely<Database>,
  report: { messageId: string; reporterId: string; reason: ReportReason; text: string },
): Promise<boolean> {
  const row = await db
    .insertInto('chat_message_reports')
    .values({
      message_id: report.messageId,
      reporter_id: report.reporterId,
      reason: report.reason,
      text: report.text,
    })
    .onConflict((conflict) => conflict.constraint('chat_message_reports_once').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Records that a person joined a room (the first time counts, for members-only rooms). */
export async function recordMember(
  db: Kysely<Database>,
  roomId: string,
  userId: string,
): Promise<void> {
  await db
    .insertInto('chat_room_members')
    .values({ room_id: roomId, user_id: userId })
    .onConflict((conflict) => conflict.columns(['room_id', 'user_id']).doNothing())
    .execute();
}

/** The mute or removal in force for a person in a room (or everywhere), the latest-ending first. */
export async function sanctionInForce(
  db: Kysely<Database>,
  userId: string,
  roomId: string,
  kind?: 'mute' | 'remove',
): Promise<
  { kind: 'mute' | 'remove'; reason: string; ends_at: Date; room_id: string | null } | undefined
> {
  let query = db
    .selectFrom('chat_sanctions')
    .select(['kind', 'reason', 'ends_at', 'room_id'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('room_id', 'is', null), eb('room_id', '=', roomId)]))
    .where('ends_at', '>', sql<Date>`now()`)
    .orderBy('ends_at', 'desc')
    .limit(1);
  if (kind) query = query.where('kind', '=', kind);
  return query.executeTakeFirst();
}

/** "until 14:05 UTC on 26 November 2026": an end time a person reads. */
export function untilText(endsAt: Date): string {
  const time = endsAt.toISOString().slice(11, 16);
  const day = endsAt.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return `until ${time} UTC on ${day}`;
}

/** What a muted or removed person is told when they try to post or join. */
export function sanctionText(sanction: {
  kind: 'mute' | 'remove';
  reason: string;
  ends_at: Date;
  room_id: string | null;
}): string {
  const what =
    sanction.kind === 'remove'
      ? 'A moderator removed you from this room'
      : sanction.room_id === null
        ? 'A moderator muted you in every room'
        : 'A moderator muted you in this room';
  return `${what} ${untilText(sanction.ends_at)}. Reason: ${sanction.reason}`;
}

/**
 * Why a send the database turned down was refused (the rules are checked in the insert itself,
 * `insertMessagesIfOpen`; this names the one that applied): a sentence, or undefined when none of
 * the rules of decision 040 did (the room is gone or restricted: the caller says which).
 */
export async function whySendRefused(
  db: Kysely<Database>,
  room: { id: string },
  user: { id: string; role: string },
): Promise<string | undefined> {
  const sanction = await sanctionInForce(db, user.id, room.id);
  if (sanction) return sanctionText(sanction);
  const rules = await db
    .selectFrom('chat_rooms')
    .select(['slow_mode_seconds', 'members_only_since', 'creator_id'])
    .where('id', '=', room.id)
    .executeTakeFirst();
  if (!rules) return undefined;
  if (rules.slow_mode_seconds > 0) {
    const last = await db
      .selectFrom('chat_messages')
      .select(
        sql<number>`ceil(extract(epoch from (max(created_at) + make_interval(secs => ${rules.slow_mode_seconds}) - now())))`.as(
          'wait',
        ),
      )
      .where('room_id', '=', room.id)
      .where('sender_id', '=', user.id)
      .executeTakeFirst();
    const wait = Number(last?.wait ?? 0);
    if (wait > 0) {
      return `Slow mode is on: one message every ${rules.slow_mode_seconds} seconds. You can send again in ${wait} s.`;
    }
  }
  if (rules.members_only_since && rules.creator_id !== user.id && user.role !== 'librarian') {
    return MODERATION_TEXT.notMember;
  }
  return undefined;
}

/** A room's own words, for its matcher. */
export async function roomWords(db: Kysely<Database>, roomId: string): Promise<string[]> {
  const row = await db
    .selectFrom('chat_rooms')
    .select('words')
    .where('id', '=', roomId)
    .executeTakeFirst();
  return row?.words ?? [];
}

/**
 * Sets a room's rules. Members only starts now (keeping its first moment when it stays on); the
 * people in the room now count as members. Answers the room as it now is.
 */
export async function setRoomRules(
  db: Kysely<Database>,
  room: RoomRow,
  rules: RoomRules,
): Promise<RoomRow> {
  const words = [...new Set(rules.words.map((word) => word.toLowerCase()))];
  return db.transaction().execute(async (trx) => {
    if (rules.membersOnly && !room.members_only_since) {
      // Everyone in the room at this moment is a member, whenever they first came.
      await sql`
        INSERT INTO chat_room_members (room_id, user_id, joined_at)
        SELECT DISTINCT room_id, user_id, now() - interval '1 second' FROM chat_presence
        WHERE room_id = ${room.id}::uuid
        ON CONFLICT DO NOTHING
      `.execute(trx);
    }
    return trx
      .updateTable('chat_rooms')
      .set({
        slow_mode_seconds: rules.slowModeSeconds,
        words,
        rules: rules.rules,
        members_only_since: rules.membersOnly
          ? (room.members_only_since ?? sql<Date>`now()`)
          : null,
      })
      .where('id', '=', room.id)
      .returningAll()
      .executeTakeFirstOrThrow();
  });
}

/** The people a moderator acts on, as the history names them. */
export async function personName(db: Kysely<Database>, userId: string | null): Promise<string> {
  if (!userId) return '';
  const row = await db
    .selectFrom('users')
    .select(['chat_username', 'first_name', 'last_name', 'name'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!row) return '';
  return (
    row.chat_username ?? ([row.first_name, row.last_name].filter(Boolean).join(' ') || row.name)
  );
}

/** One recorded action as the history reads it. */
export interface ActionRow {
  id: string;
  actor_name: string;
  action: 'dismiss' | 'hide' | 'restore' | 'mute' | 'remove' | 'lift';
  target_name: string;
  target_user_id: string | null;
  room_name: string;
  room_id: string | null;
  message_id: string | null;
  scope: 'room' | 'everywhere' | null;
  reason: string;
  created_at: Date;
  ends_at: Date | null;
}

export const actionColumns = [
  sql<string>`id::text`.as('id'),
  'actor_name',
  'action',
  'target_name',
  'target_user_id',
  'room_name',
  'room_id',
  sql<string | null>`message_id::text`.as('message_id'),
  'scope',
  'reason',
  'created_at',
  'ends_at',
] as const;

/**
 * Applies a librarian's action to a reported message and records it (who, what, whom, why, until
 * when); every open report of the message is then resolved. A mute or removal takes effect on
 * every process at once: sends and joins read `chat_sanctions`.
 */
export async function applyModerationAction(
  db: Kysely<Database>,
  actor: { id: string },
  request: ModerationActionRequest,
): Promise<{ action: ActionRow; message: MessageRow & { room_id: string; room_name: string } }> {
  const message = await findMessage(db, request.messageId);
  if (!message)
    throw new Refusal(404, 'That message does not exist any more: its room may have been closed.');
  const kind = request.action;
  if ((kind === 'mute' || kind === 'remove') && !message.sender_id) {
    throw new Refusal(
      409,
      'Nobody sent that message (or their account is gone): there is nobody to mute.',
    );
  }
  if (kind === 'hide' && message.hidden_at)
    throw new Refusal(409, 'That message is already hidden.');
  if (kind === 'restore' && !message.hidden_at)
    throw new Refusal(409, 'That message is not hidden.');
  const seconds =
    request.duration !== undefined
      ? MODERATION_DURATIONS[request.duration as ModerationDuration]
      : null;
  const scope = kind === 'mute' ? (request.scope ?? 'room') : kind === 'remove' ? 'room' : null;
  const actorName = await personName(db, actor.id);
  const targetName = message.sender_id
    ? await personName(db, message.sender_id)
    : message.sender_name;
  return db.transaction().execute(async (trx) => {
    const action = await trx
      .insertInto('moderation_actions')
      .values({
        actor_id: actor.id,
        actor_name: actorName,
        action: kind,
        target_user_id: message.sender_id,
        target_name: targetName || message.sender_name,
        message_id: message.id,
        room_id: message.room_id,
        room_name: message.room_name,
        scope,
        reason: request.reason.trim(),
        ends_at: seconds === null ? null : sql<Date>`now() + make_interval(secs => ${seconds})`,
      })
      .returning(actionColumns)
      .executeTakeFirstOrThrow();
    if (kind === 'hide' || kind === 'restore') {
      const hidden = await trx
        .updateTable('chat_messages')
        // changed_at: a member reconnecting is sent the message again (decision 043).
        .set({ hidden_at: kind === 'hide' ? sql<Date>`now()` : null, changed_at: sql<Date>`now()` })
        .where('id', '=', sql<string>`${message.id}::bigint`)
        .returning('hidden_at')
        .executeTakeFirstOrThrow();
      message.hidden_at = hidden.hidden_at;
    }
    if ((kind === 'mute' || kind === 'remove') && action.ends_at) {
      await trx
        .insertInto('chat_sanctions')
        .values({
          user_id: message.sender_id!,
          room_id: scope === 'everywhere' ? null : message.room_id,
          kind,
          reason: action.reason,
          ends_at: action.ends_at,
          action_id: action.id,
        })
        .execute();
    }
    if (kind !== 'restore') {
      await trx
        .updateTable('chat_message_reports')
        .set({ resolved_at: sql<Date>`now()` })
        .where('message_id', '=', message.id)
        .where('resolved_at', 'is', null)
        .execute();
    }
    return { action, message };
  });
}

/** The latest recorded actions, newest first. */
export async function moderationHistory(db: Kysely<Database>, limit = 50): Promise<ActionRow[]> {
  return db
    .selectFrom('moderation_actions')
    .select(actionColumns)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** One message the queue shows, with its reports and its neighbours. */
export interface QueueEntry {
  message: MessageRow & { room_id: string; room_name: string };
  reporterCount: number;
  reasons: Record<string, number>;
  notes: string[];
  firstReportedAt: Date;
  before: MessageRow[];
  after: MessageRow[];
}

/** Up to `MODERATION_CONTEXT` messages on either side of one, oldest first. */
async function neighbours(db: Kysely<Database>, roomId: string, messageId: string) {
  const columns = messageColumns;
  const before = await db
    .selectFrom('chat_messages as m')
    .select(columns)
    .where('m.room_id', '=', roomId)
    .where('m.id', '<', sql<string>`${messageId}::bigint`)
    .orderBy('m.id', 'desc')
    .limit(MODERATION_CONTEXT)
    .execute();
  const after = await db
    .selectFrom('chat_messages as m')
    .select(columns)
    .where('m.room_id', '=', roomId)
    .where('m.id', '>', sql<string>`${messageId}::bigint`)
    .orderBy('m.id')
    .limit(MODERATION_CONTEXT)
    .execute();
  return { before: before.reverse(), after };
}

/**
 * The queue: messages with open reports, most reporters first (then the oldest report), each with
 * its reasons, notes and five messages before and after; and messages hidden now, to restore.
 */
export async function moderationQueue(
  db: Kysely<Database>,
  limit = 50,
): Promise<{ reports: QueueEntry[]; hidden: QueueEntry[] }> {
  const open = await db
    .selectFrom('chat_message_reports')
    .select([
      sql<string>`message_id::text`.as('message_id'),
      sql<string>`count(*)`.as('n'),
      sql<Date>`min(created_at)`.as('first'),
    ])
    .where('resolved_at', 'is', null)
    .groupBy('message_id')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy(sql`min(created_at)`)
    .limit(limit)
    .execute();
  const reports: QueueEntry[] = [];
  for (const row of open) {
    const message = await findMessage(db, row.message_id);
    if (!message) continue;
    const details = await db
      .selectFrom('chat_message_reports')
      .select(['reason', 'text'])
      .where('message_id', '=', row.message_id)
      .where('resolved_at', 'is', null)
      .orderBy('id')
      .execute();
    const reasons: Record<string, number> = {};
    for (const detail of details) reasons[detail.reason] = (reasons[detail.reason] ?? 0) + 1;
    reports.push({
      message,
      reporterCount: Number(row.n),
      reasons,
      notes: details.map((detail) => detail.text).filter((text) => text !== ''),
      firstReportedAt: new Date(row.first),
      ...(await neighbours(db, message.room_id, message.id)),
    });
  }
  const hiddenRows = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
    .select([...messageColumns, 'm.room_id', 'r.name as room_name'])
    .where('m.hidden_at', 'is not', null)
    .orderBy('m.hidden_at', 'desc')
    .limit(limit)
    .execute();
  const hidden: QueueEntry[] = [];
  for (const message of hiddenRows) {
    hidden.push({
      message,
      reporterCount: 0,
      reasons: {},
      notes: [],
      firstReportedAt: message.hidden_at!,
      ...(await neighbours(db, message.room_id, message.id)),
    });
  }
  return { reports, hidden };
}
