import type { ChatMessage, RoomMetadata, RoomSummary } from '#contract/socket/chat.ts';
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
    content: row.content,
    time: isoInstant(row.created_at),
    isSystemMessage: row.is_system,
    ...(row.sender_is_staff ? { isStaff: true } : {}),
  };
}

/** `room_metadata`. */
export function presentRoomMetadata(row: RoomRow): RoomMetadata {
  return {
    roomName: row.name,
    creator: row.creator_name,
    creatorId: row.creator_id,
    abuseDetected: row.abuse_detected,
    ...(row.is_demo ? { isDemo: true } : {}),
  };
}
