import {
  MODERATION_TEXT,
  type ChatMessage,
  type RoomMetadata,
  type RoomRules,
  type RoomSummary,
} from '#contract/socket/chat.ts';
import type { MessageRow, RoomRow } from '../chat/store.ts';
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
    // A hidden message's text never leaves the server to members (decision 040).
    content: row.hidden_at ? MODERATION_TEXT.hidden : row.content,
    time: isoInstant(row.created_at),
    isSystemMessage: row.is_system,
    ...(row.sender_is_staff ? { isStaff: true } : {}),
    ...(row.hidden_at ? { hidden: true } : {}),
  };
}

/** A message as the moderators see it: its text, even when hidden. */
export function presentMessageForModerators(row: MessageRow, roomName: string): ChatMessage {
  return { ...presentMessage(row, roomName), content: row.content };
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
  };
}
