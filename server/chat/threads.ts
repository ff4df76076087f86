import { sql, type Kysely, type RawBuilder } from 'kysely';
import {
  CHAT_TEXT,
  EDIT_WINDOW_SECONDS,
  HISTORY_PAGE,
  MODERATION_TEXT,
  REACTION_EMOJI,
  REACTION_NAMES_MAX,
  THREADS_TEXT,
  type ReactionEmoji,
  type ReactionSummary,
} from '#contract/socket/chat.ts';
import { PREPARED } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { Refusal } from '../refusal.ts';
import { sanctionInForce, sanctionText } from './moderation.ts';
import { QUOTED_CHARS, replyQuoteColumn, type MessageRow, type ReplyRow } from './store.ts';

/*
 * Replies, reactions, edits and deletions (issue 26, decision 043). Statements only: the socket
 * handlers (`server/realtime/chat/threads.ts`) check the abuse matcher and the room's words and
 * tell the room. Each change is one statement whose WHERE holds every rule (the sender, the
 * window by the database's clock, mutes, members only, a restricted room), so every process
 * enforces the same; only a refused change asks which rule refused it.
 */

/** Who changes something, as the server knows them. */
export interface Actor {
  id: string;
  name: string;
  /** A librarian: may post in a members-only room, so may edit and react there too. */
  isStaff: boolean;
}

/**
 * No mute or removal of the person in force in the room of `m`, and `m`'s room lets them post.
 * `userId` and `isStaff` are values, or columns of a batch's rows (`toggleReactions`).
 */
const mayPostAs = (
  userId: string | RawBuilder<string>,
  isStaff: boolean | RawBuilder<boolean>,
): RawBuilder<boolean> => sql<boolean>`
  NOT r.abuse_detected
  AND NOT EXISTS (
    SELECT 1 FROM chat_sanctions s
    WHERE s.user_id = ${userId} AND (s.room_id IS NULL OR s.room_id = m.room_id)
      AND s.ends_at > now()
  )
  AND (r.members_only_since IS NULL OR r.creator_id = ${userId} OR ${isStaff}::boolean
    OR EXISTS (
      SELECT 1 FROM chat_room_members cm
      WHERE cm.room_id = m.room_id AND cm.user_id = ${userId}
        AND cm.joined_at < r.members_only_since
    ))`;
/** {@link mayPostAs} for one person. */
const mayPost = (actor: Actor): RawBuilder<boolean> => mayPostAs(actor.id, actor.isStaff);

/** What a changed message's statement returns: the row as history reads it. */
const returnedColumns = sql`m.id::text AS id, m.sender_id, m.sender_name, m.content, m.is_system,
  m.sender_is_staff, m.hidden_at, m.edited_at, m.deleted_at, m.created_at,
  (SELECT json_build_object('id', q.id::text, 'sender', q.sender_name,
    'content', left(q.content, ${QUOTED_CHARS}), 'hidden', q.hidden_at IS NOT NULL,
    'deleted', q.deleted_at IS NOT NULL)
   FROM chat_messages q WHERE q.id = m.reply_to) AS reply`;

/** The message `messageId` of room `roomId`, as a reply quotes it; undefined when not there. */
export async function findQuotable(
  db: Kysely<Database>,
  roomId: string,
  messageId: string,
): Promise<ReplyRow | undefined> {
  const row = await db
    .selectFrom('chat_messages')
    .select([sql<string>`id::text`.as('id'), 'sender_name', 'content', 'hidden_at', 'deleted_at'])
    .where('id', '=', sql<string>`${messageId}::bigint`)
    .where('room_id', '=', roomId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    sender: row.sender_name,
    content: row.content.slice(0, QUOTED_CHARS),
    hidden: row.hidden_at !== null,
    deleted: row.deleted_at !== null,
  };
}

/**
 * Replaces the text of `actor`'s own message, within `EDIT_WINDOW_SECONDS` of its sending, while
 * it is neither hidden nor deleted and they may post in its room (no mute or removal, members
 * only). Slow mode does not apply: an edit adds no message. Undefined when a rule refused it.
 */
export async function editMessage(
  db: Kysely<Database>,
  change: { roomId: string; messageId: string; actor: Actor; text: string },
): Promise<MessageRow | undefined> {
  const { rows } = await sql<MessageRow>`
    UPDATE chat_messages m SET content = ${change.text}, edited_at = now(), changed_at = now()
    FROM chat_rooms r
    WHERE m.id = ${change.messageId}::bigint AND m.room_id = ${change.roomId}::uuid
      AND r.id = m.room_id AND m.sender_id = ${change.actor.id}
      AND m.hidden_at IS NULL AND m.deleted_at IS NULL
      AND m.created_at > now() - make_interval(secs => ${EDIT_WINDOW_SECONDS})
      AND ${mayPost(change.actor)}
    RETURNING ${returnedColumns}
  `.execute(db);
  return rows[0];
}

/**
 * Deletes `actor`'s own message within the window (the text stays stored for the moderators).
 * A mute does not stop it: taking one's words back harms nobody. A hidden message stays as the
 * moderator left it. Undefined when a rule refused it.
 */
export async function deleteMessage(
  db: Kysely<Database>,
  change: { roomId: string; messageId: string; actor: Actor },
): Promise<MessageRow | undefined> {
  const { rows } = await sql<MessageRow>`
    UPDATE chat_messages m SET deleted_at = now(), changed_at = now()
    WHERE m.id = ${change.messageId}::bigint AND m.room_id = ${change.roomId}::uuid
      AND m.sender_id = ${change.actor.id}
      AND m.hidden_at IS NULL AND m.deleted_at IS NULL
      AND m.created_at > now() - make_interval(secs => ${EDIT_WINDOW_SECONDS})
    RETURNING ${returnedColumns}
  `.execute(db);
  return rows[0];
}

/**
 * Why an edit, a deletion or a reaction the database turned down was refused: a refusal to throw.
 * A reaction is anyone's, at any time: only the message's state and the room's rules apply.
 */
export async function whyChangeRefused(
  db: Kysely<Database>,
  change: { roomId: string; messageId: string; actor: Actor },
  kind: 'edit' | 'delete' | 'react',
): Promise<Refusal> {
  const row = await db
    .selectFrom('chat_messages as m')
    .innerJoin('chat_rooms as r', 'r.id', 'm.room_id')
    .select([
      'm.sender_id',
      'm.hidden_at',
      'm.deleted_at',
      'r.abuse_detected',
      'r.members_only_since',
      'r.creator_id',
      sql<boolean>`m.created_at <= now() - make_interval(secs => ${EDIT_WINDOW_SECONDS})`.as(
        'expired',
      ),
    ])
    .where('m.id', '=', sql<string>`${change.messageId}::bigint`)
    .where('m.room_id', '=', change.roomId)
    .executeTakeFirst();
  if (!row) return new Refusal(404, THREADS_TEXT.notInRoom);
  if (kind !== 'react' && row.sender_id !== change.actor.id) {
    return new Refusal(403, THREADS_TEXT.notYours);
  }
  if (row.hidden_at) {
    return new Refusal(
      403,
      kind === 'react' ? THREADS_TEXT.noReaction : THREADS_TEXT.hiddenByModerator,
    );
  }
  if (row.deleted_at) return new Refusal(409, THREADS_TEXT.alreadyDeleted);
  if (kind !== 'react' && row.expired) return new Refusal(403, THREADS_TEXT.tooLate);
  if (kind !== 'delete') {
    if (row.abuse_detected) return new Refusal(403, CHAT_TEXT.restricted);
    const sanction = await sanctionInForce(db, change.actor.id, change.roomId);
    if (sanction) return new Refusal(403, sanctionText(sanction));
    if (row.members_only_since) return new Refusal(403, MODERATION_TEXT.notMember);
  }
  // Changed at this moment by another tab of theirs, perhaps: say nothing stranger than this.
  return new Refusal(409, THREADS_TEXT.alreadyDeleted);
}

/** One toggle of a reaction: `actor`'s `emoji` on message `messageId` of room `roomId`. */
export interface ReactionToggle {
  roomId: string;
  messageId: string;
  actor: Actor;
  emoji: ReactionEmoji;
}

/**
 * Adds `actor`'s `emoji` to a message of room `roomId`, or takes it back if they had it, in one
 * statement (the primary key keeps one per message, person and emoji, on every process). Refused
 * (`allowed` false) on a hidden or deleted message, in a restricted room, to a muted or removed
 * person, and in a members-only room to a newcomer: a reaction is a small message.
 */
export async function toggleReaction(
  db: Kysely<Database>,
  change: ReactionToggle,
): Promise<{ allowed: boolean; added: boolean }> {
  return (await toggleReactions(db, [change]))[0]!;
}

/**
 * {@link toggleReaction} for many toggles in one statement, each answered in order. No two may
 * name the same message, person and emoji (the writer puts a second in the next batch): in one
 * statement the second would not see the first.
 */
export async function toggleReactions(
  db: Kysely<Database>,
  changes: readonly ReactionToggle[],
): Promise<{ allowed: boolean; added: boolean }[]> {
  if (changes.length === 0) return [];
  const column = <T>(name: string) => sql<T>`i.${sql.raw(name)}`;
  // Prepared (decision 035): planning this statement took 5 ms on PGlite and running it 2.
  const { rows } = await sql<{ ord: number; added: boolean }>`${PREPARED}
    WITH input AS (
      SELECT * FROM unnest(
        ${changes.map((_, index) => index)}::int[],
        ${changes.map((change) => change.messageId)}::bigint[],
        ${changes.map((change) => change.roomId)}::uuid[],
        ${changes.map((change) => change.actor.id)}::text[],
        ${changes.map((change) => change.actor.name)}::text[],
        ${changes.map((change) => change.emoji)}::text[],
        ${changes.map((change) => String(change.actor.isStaff))}::boolean[]
      ) AS i(ord, message_id, room_id, user_id, user_name, emoji, is_staff)
    ), target AS (
      SELECT i.* FROM input i
      JOIN chat_messages m ON m.id = i.message_id AND m.room_id = i.room_id
      JOIN chat_rooms r ON r.id = m.room_id
      WHERE m.hidden_at IS NULL AND m.deleted_at IS NULL
        AND ${mayPostAs(column<string>('user_id'), column<boolean>('is_staff'))}
    ), removed AS (
      DELETE FROM chat_message_reactions x USING target t
      WHERE x.message_id = t.message_id AND x.user_id = t.user_id AND x.emoji = t.emoji
      RETURNING x.message_id, x.user_id, x.emoji
    ), added AS (
      INSERT INTO chat_message_reactions (message_id, user_id, user_name, emoji)
      SELECT t.message_id, t.user_id, t.user_name, t.emoji FROM target t
      WHERE NOT EXISTS (
        SELECT 1 FROM removed d
        WHERE d.message_id = t.message_id AND d.user_id = t.user_id AND d.emoji = t.emoji
      )
      ON CONFLICT DO NOTHING
      RETURNING message_id, user_id, emoji
    ), touched AS (
      -- Runs though nothing reads it (as every statement in a WITH does): a member reconnecting
      -- is sent the message's reactions again (decision 043). The catch-up asks only whether a
      -- message ever changed, so only the first reaction writes the row: a hot message in a
      -- room of 500 is not locked and rewritten by every toggle.
      UPDATE chat_messages SET changed_at = now()
      WHERE id IN (SELECT message_id FROM removed UNION ALL SELECT message_id FROM added)
        AND changed_at IS NULL
      RETURNING id
    )
    SELECT t.ord, EXISTS (
      SELECT 1 FROM added a
      WHERE a.message_id = t.message_id AND a.user_id = t.user_id AND a.emoji = t.emoji
    ) AS added
    FROM target t
  `.execute(db);
  const answers = changes.map(() => ({ allowed: false, added: false }));
  for (const row of rows) answers[Number(row.ord)] = { allowed: true, added: Boolean(row.added) };
  return answers;
}

/** What a toggle through the writer answers: its reactions now, when it went through. */
export interface ToggleAnswer {
  allowed: boolean;
  added: boolean;
  /** The message's reactions just after (no `mine`: the answer of a batch of people). */
  reactions: ReactionSummary[];
}

/** The least time between the starts of two reaction batches (`createReactionWriter`). */
export const REACTION_BATCH_GAP_MS = 150;

/**
 * How many of a batch's toggles are answered in one turn of the event loop. Each answer resumes
 * its handler, which acknowledges over its socket: a batch of 75 answered at once held the loop
 * for several milliseconds, and every chat message arriving meanwhile waited.
 */
const ANSWERS_PER_TURN = 16;

/**
 * Toggles reactions in batches: a toggle goes at once when no batch started in the last `gapMs`;
 * the toggles that arrive while one batch is written, and until `gapMs` after it started, wait and
 * go together in the next (two statements a batch: the toggles, then the reactions of their messages). So
 * 500 people reacting each second cost at most 2 × 1,000 / `gapMs` statements a second, not 1,000,
 * and they do not crowd out the room's messages (decision 043); a reaction waits at most `gapMs`
 * more for its answer.
 */
export function createReactionWriter(
  db: Kysely<Database>,
  options: { maxBatch?: number; gapMs?: number } = {},
) {
  const maxBatch = options.maxBatch ?? 500;
  const gapMs = options.gapMs ?? REACTION_BATCH_GAP_MS;
  interface Pending {
    change: ReactionToggle;
    resolve(answer: ToggleAnswer): void;
    reject(error: unknown): void;
  }
  let queue: Pending[] = [];
  let writing = false;
  const keyOf = (change: ReactionToggle) =>
    `${change.messageId} ${change.actor.id} ${change.emoji}`;

  const write = async (batch: Pending[]) => {
    const answers = await toggleReactions(
      db,
      batch.map((pending) => pending.change),
    );
    const ids = [
      ...new Set(
        batch.filter((_, index) => answers[index]!.allowed).map((p) => p.change.messageId),
      ),
    ];
    const reactions = await reactionsOf(db, ids);
    for (let index = 0; index < batch.length; index++) {
      // Messages and other events that came in meanwhile go between the slices.
      if (index > 0 && index % ANSWERS_PER_TURN === 0) await new Promise(setImmediate);
      const pending = batch[index]!;
      pending.resolve({
        ...answers[index]!,
        reactions: reactions.get(pending.change.messageId) ?? [],
      });
    }
  };

  /** When the last batch started: the next one gathers until `gapMs` after it. */
  let lastStart = -Infinity;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  const drain = async () => {
    while (queue.length > 0) {
      const rest = lastStart + gapMs - performance.now();
      if (rest > 0) await sleep(rest);
      lastStart = performance.now();
      // Each key once a batch: a second toggle of the same reaction goes in the next one.
      const keys = new Set<string>();
      const batch: Pending[] = [];
      const later: Pending[] = [];
      for (const pending of queue) {
        const key = keyOf(pending.change);
        if (batch.length < maxBatch && !keys.has(key)) {
          keys.add(key);
          batch.push(pending);
        } else later.push(pending);
      }
      queue = later;
      try {
        await write(batch);
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          continue;
        }
        // One toggle the database refuses (its person deleted a moment ago) must not take the
        // others down with it: write them one by one.
        for (const pending of batch) await write([pending]).catch(pending.reject);
      }
    }
    writing = false;
  };

  return {
    /** Toggles one reaction; `allowed` false when a rule refused it (ask `whyChangeRefused`). */
    toggle(change: ReactionToggle): Promise<ToggleAnswer> {
      return new Promise((resolve, reject) => {
        queue.push({ change, resolve, reject });
        if (writing) return;
        writing = true;
        setImmediate(() => void drain());
      });
    },
  };
}

/**
 * The reactions of each of `messageIds`, in `REACTION_EMOJI`'s order, each with its count and the
 * first `REACTION_NAMES_MAX` names; `mine` for `viewerId` when given (a room broadcast has none).
 */
export async function reactionsOf(
  db: Kysely<Database>,
  messageIds: readonly string[],
  viewerId?: string,
): Promise<Map<string, ReactionSummary[]>> {
  const found = new Map<string, ReactionSummary[]>();
  if (messageIds.length === 0) return found;
  const { rows } = await sql<{
    message_id: string;
    emoji: ReactionEmoji;
    count: number;
    names: string[];
    mine: boolean;
  }>`
    SELECT message_id::text AS message_id, emoji, count(*)::int AS count,
      (array_agg(user_name ORDER BY created_at, user_id))[1:${REACTION_NAMES_MAX}] AS names,
      bool_or(user_id = ${viewerId ?? ''}) AS mine
    FROM chat_message_reactions
    WHERE message_id = ANY(${messageIds}::bigint[])
    GROUP BY message_id, emoji
  `.execute(db);
  const order = (emoji: ReactionEmoji) => REACTION_EMOJI.indexOf(emoji);
  for (const row of rows.sort((a, b) => order(a.emoji) - order(b.emoji))) {
    const summary: ReactionSummary = {
      emoji: row.emoji,
      count: Number(row.count),
      names: row.names,
      ...(viewerId !== undefined ? { mine: row.mine } : {}),
    };
    found.set(row.message_id, [...(found.get(row.message_id) ?? []), summary]);
  }
  return found;
}

/** `rows` with their reactions for `viewerId` attached (one statement for them all). */
export async function withReactions<Row extends MessageRow>(
  db: Kysely<Database>,
  rows: Row[],
  viewerId: string,
): Promise<Row[]> {
  const reactions = await reactionsOf(
    db,
    rows.filter((row) => !row.deleted_at && !row.hidden_at).map((row) => row.id),
    viewerId,
  );
  for (const row of rows) {
    const found = reactions.get(row.id);
    if (found) row.reactions = found;
  }
  return rows;
}

/**
 * The messages a reconnecting client holds (ids up to `upTo`, among the latest `HISTORY_PAGE`
 * of them) that were edited, deleted, hidden, restored or reacted to at some time: a catch-up
 * sends them again, since it carries only messages after `upTo` otherwise.
 */
export async function changedMessages(
  db: Kysely<Database>,
  roomId: string,
  upTo: string,
  viewerId: string,
): Promise<MessageRow[]> {
  const recent = db
    .selectFrom('chat_messages')
    .select('id')
    .where('room_id', '=', roomId)
    .where(sql<string>`id`, '<=', sql<string>`${upTo}::bigint`)
    .orderBy('id', 'desc')
    .limit(HISTORY_PAGE);
  const rows = await db
    .selectFrom('chat_messages')
    .select([
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
    ])
    .where('id', 'in', recent)
    .where('changed_at', 'is not', null)
    .orderBy('id')
    .execute();
  return withReactions(db, rows, viewerId);
}
