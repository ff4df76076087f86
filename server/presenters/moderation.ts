import type { ModerationAction, ModerationQueueItem } from '#contract/http/moderation.ts';
import type { ActionRow, QueueEntry } from '../chat/moderation.ts';
import { presentMessageForModerators } from './chat.ts';
import { isoInstant } from './instant.ts';

/** One recorded action, as the queue's history lists it. */
export function presentModerationAction(row: ActionRow): ModerationAction {
  return {
    id: row.id,
    actor: row.actor_name,
    action: row.action,
    target: row.target_name,
    roomName: row.room_name,
    messageId: row.message_id,
    scope: row.scope,
    reason: row.reason,
    createdAt: isoInstant(row.created_at),
    endsAt: row.ends_at ? isoInstant(row.ends_at) : null,
  };
}

/** One reported (or hidden) message with its context, for the librarians: texts shown whole. */
export function presentQueueEntry(entry: QueueEntry): ModerationQueueItem {
  const room = entry.message.room_name;
  return {
    message: presentMessageForModerators(entry.message, room),
    roomName: room,
    reporterCount: entry.reporterCount,
    reasons: entry.reasons,
    notes: entry.notes,
    firstReportedAt: isoInstant(entry.firstReportedAt),
    before: entry.before.map((row) => presentMessageForModerators(row, room)),
    after: entry.after.map((row) => presentMessageForModerators(row, room)),
  };
}
