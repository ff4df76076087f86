import { UNREAD_COUNT_MAX, type RoomUnread } from '#contract/socket/chat.ts';
import { StatusBadge } from '../../components/records/status-badge.tsx';

/** "3 unread", "99+ unread": the count as the room list shows it (decision 042). */
export function unreadLabel(unread: number): string {
  return `${unread >= UNREAD_COUNT_MAX ? `${UNREAD_COUNT_MAX}+` : unread} unread`;
}

/**
 * A room's unread count and, when one of those messages mentions the reader, "Mentioned", both in
 * words (not colour alone); nothing when everything is read.
 */
export function UnreadBadge({ unread }: { unread: RoomUnread | undefined }) {
  if (!unread || (unread.unread === 0 && !unread.mentioned)) return null;
  return (
    <>
      {unread.unread > 0 ? (
        <StatusBadge label={unreadLabel(unread.unread)} tone="progress" />
      ) : null}
      {unread.mentioned ? <StatusBadge label="@ Mentioned" tone="negative" /> : null}
    </>
  );
}
