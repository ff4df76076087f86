import type { ModerationSanction } from '#contract/http/moderation.ts';
import type { ModerationNotice } from '#contract/socket/chat.ts';
import { sanctionText } from '../chat/moderation.ts';
import type { SanctionRow } from '../chat/sanctions.ts';
import { isoInstant } from './instant.ts';

/** A mute or removal in force, as the librarians' queue lists it (decision 044). */
export function presentSanction(row: SanctionRow): ModerationSanction {
  return {
    id: row.id,
    kind: row.kind,
    person: row.person,
    roomName: row.room_id === null ? null : (row.room_name ?? ''),
    reason: row.reason,
    endsAt: isoInstant(row.ends_at),
  };
}

/**
 * What a muted person's browser is told on joining a room while the mute holds, so that the
 * composer is disabled with the reason and the end time from the start (decision 044).
 */
export function presentMuteNotice(
  sanction: { reason: string; ends_at: Date; room_id: string | null },
  roomName: string,
): ModerationNotice {
  return {
    action: 'mute',
    roomName: sanction.room_id === null ? null : roomName,
    reason: sanction.reason,
    endsAt: isoInstant(sanction.ends_at),
    message: sanctionText({ kind: 'mute', ...sanction }),
  };
}

/** What the person reads when a librarian ends their mute or removal early. */
export function presentLiftNotice(sanction: SanctionRow, reason: string): ModerationNotice {
  const where =
    sanction.room_id === null ? 'in every chat room' : `in the room “${sanction.room_name ?? ''}”`;
  const message =
    sanction.kind === 'remove'
      ? `A moderator ended your removal from the room “${sanction.room_name ?? ''}” early: you may join it again. Reason: ${reason}`
      : `A moderator ended your mute ${where} early: you may post again. Reason: ${reason}`;
  return {
    action: 'lift',
    roomName: sanction.room_id === null ? null : (sanction.room_name ?? ''),
    reason,
    endsAt: isoInstant(sanction.ends_at),
    message,
  };
}
