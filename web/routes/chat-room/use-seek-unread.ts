import { useEffect } from 'react';
import { HISTORY_PAGE, type ChatMessage } from '#contract/socket/chat.ts';
import { compareMessageIds } from '../../api/chat-room.ts';

/** Older pages fetched at most to reach the first unread or linked message (decision 042). */
const SEEK_PAGES_MAX = 5;

/**
 * True while the room should load older pages to reach where it opens: the message a notice links
 * to, or the one after the read marker, when older than everything held. Bounded: no more once
 * `SEEK_PAGES_MAX` pages beyond the first are held, or the room has no older ones. Exported for
 * tests.
 */
export function mustSeek(
  room: { loaded: boolean; hasMore: boolean; messages: readonly ChatMessage[] },
  target: { focusId?: string; lastReadId: string | null },
): boolean {
  const oldest = room.messages[0]?.id;
  if (!room.loaded || !room.hasMore || oldest === undefined) return false;
  if (room.messages.length >= (SEEK_PAGES_MAX + 1) * HISTORY_PAGE) return false;
  const { focusId, lastReadId } = target;
  if (focusId && /^\d+$/.test(focusId) && compareMessageIds(focusId, oldest) < 0) return true;
  // Everything held is unread: the first unread one may lie further back.
  return lastReadId !== null && compareMessageIds(oldest, lastReadId) > 0;
}

/**
 * Loads older pages while `mustSeek` says so, one after another; answers whether it is still
 * seeking, so the list opens at its place only once it is held.
 */
export function useSeekUnread(
  room: {
    loaded: boolean;
    hasMore: boolean;
    messages: readonly ChatMessage[];
    lastReadId: string | null;
    loadOlder: () => void;
  },
  focusId: string | undefined,
): boolean {
  const seeking = mustSeek(room, { focusId, lastReadId: room.lastReadId });
  const oldest = room.messages[0]?.id;
  const { loadOlder } = room;
  useEffect(() => {
    // Each older page changes the oldest id held: the next one is asked for then.
    if (seeking) loadOlder();
  }, [seeking, oldest, loadOlder]);
  return seeking;
}
