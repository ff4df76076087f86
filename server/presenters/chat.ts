import {
  MODERATION_TEXT,
  REPLY_EXCERPT_MAX,
  THREADS_TEXT,
  type ChatMessage,
  type ReplyQuote,
  type RoomMetadata,
  type RoomRules,
  type RoomSummary,
} from '#contract/socket/chat.ts';
import type { MessageRow, ReplyRow, RoomRow } from '../chat/store.ts';
import { isoInstant } from './instant.ts';

/**
 * One room of `available_rooms`. `isDemo` only on demo rooms: every socket gets the whole list on
 * every change, so an ordinary room's summary stays as it was, byte for byte.
 */
export function presentRoom(row: RoomRow & { member_count: string | null }): RoomSummary {
  return {
    roomName: row.name,
    description: row.description,
    creator: row.creator_name,
    creatorId: row.creator_id,
    createdAt: isoInstant(row.created_at),
    memberCount: Number(row.member_count ?? 0),
    abuseDetected: row.abuse_detected,
    ...(row.is_demo ? { isDemo: true } : {}),
  };
}

/**
 * A message as every client receives it. `isStaff` only on a librarian's message, so that every
 * other message stays as it was, byte for byte.
 */
export function presentMessage(row: MessageRow, roomName: string): ChatMessage {
  return {
    id: row.id,
    room: roomName,
    sender: row.sender_name,
    senderId: row.sender_id,
    // A hidden or deleted message's text never leaves the server to members (decisions 040, 043).
    content: row.hidden_at
      ? MODERATION_TEXT.hidden
      : row.deleted_at
        ? THREADS_TEXT.deleted
        : row.content,
    time: isoInstant(row.created_at),
    isSystemMessage: row.is_system,
    ...(row.sender_is_staff ? { isStaff: true } : {}),
    ...(row.hidden_at ? { hidden: true } : {}),
    // Every field of decision 043 only where it applies, so other messages stay as they were.
    ...(row.reply ? { replyTo: presentReplyQuote(row.reply) } : {}),
    ...(row.edited_at && !row.deleted_at ? { editedAt: isoInstant(row.edited_at) } : {}),
    ...(row.deleted_at ? { deleted: true } : {}),
    ...(row.reactions?.length && !row.deleted_at && !row.hidden_at
      ? { reactions: row.reactions }
      : {}),
    // Decision 042: only on a message that mentions someone (and not once hidden or deleted).
    ...(row.mentions?.length && !row.deleted_at && !row.hidden_at
      ? { mentions: row.mentions }
      : {}),
  };
}

/** The message a reply quotes: an excerpt, or none when it was hidden or deleted. */
export function presentReplyQuote(reply: ReplyRow): ReplyQuote {
  const gone = reply.hidden || reply.deleted;
  return {
    id: reply.id,
    sender: reply.sender,
    excerpt: gone ? '' : excerptOf(reply.content),
    ...(reply.deleted ? { deleted: true } : {}),
    ...(reply.hidden ? { hidden: true } : {}),
  };
}

/** A message on one line, shortened to `REPLY_EXCERPT_MAX` characters (UTF-16 units). */
export function excerptOf(content: string): string {
  const line = content.trim().replace(/\s+/g, ' ');
  if (line.length <= REPLY_EXCERPT_MAX) return line;
  // Never half of a surrogate pair: a lone one cannot be encoded.
  const cut = line.slice(0, REPLY_EXCERPT_MAX - 1).replace(/[\uD800-\uDBFF]$/, '');
  return `${cut}…`;
}

/** A message as the moderators see it: its text, even when hidden. */
export function presentMessageForModerators(row: MessageRow, roomName: string): ChatMessage {
  // The text as it is now, edited or deleted since (decision 043): the queue says which.
  return {
    ...presentMessage(row, roomName),
    content: row.content,
    ...(row.edited_at ? { editedAt: isoInstant(row.edited_at) } : {}),
  };
}

/** A room's rules, or undefined while it has none (so its metadata stays as it was). */
export function presentRoomRules(row: RoomRow): RoomRules | undefined {
  const rules: RoomRules = {
    slowModeSeconds: row.slow_mode_seconds ?? 0,
    words: row.words ?? [],
    membersOnly: Boolean(row.members_only_since),
    rules: row.rules ?? '',
  };
  const none =
    rules.slowModeSeconds === 0 && rules.words.length === 0 && !rules.membersOnly && !rules.rules;
  return none ? undefined : rules;
}

/** `room_metadata`. */
export function presentRoomMetadata(row: RoomRow): RoomMetadata {
  return {
    roomName: row.name,
    creator: row.creator_name,
    creatorId: row.creator_id,
    abuseDetected: row.abuse_detected,
    ...(row.is_demo ? { isDemo: true } : {}),
    ...(presentRoomRules(row) ? { rules: presentRoomRules(row) } : {}),
    // Only on a room tied to an item (decision 045), so other rooms' metadata stays as it was.
    ...(row.item_id ? { itemId: row.item_id } : {}),
  };
}
