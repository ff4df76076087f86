import type { z } from 'zod';
import {
  closeRoomSchema,
  createRoomSchema,
  joinRoomSchema,
  liftRestrictionSchema,
  loadHistorySchema,
  reportAbuseSchema,
  reportMessageSchema,
  markReadSchema,
  roomMembersSchema,
  setRoomRulesSchema,
  sendMessageSchema,
  editMessageSchema,
  deleteMessageSchema,
  reactMessageSchema,
  typingSchema,
  watchItemsSchema,
  type ClientToServerEvents,
} from '#contract/socket/chat.ts';
import { unstorableText } from '../../http/errors.ts';
import { Refusal } from '../../refusal.ts';

/** The schema of each client event's payload (`leave_room` has none). */
export const PAYLOAD_SCHEMAS = {
  create_room: createRoomSchema,
  join_room: joinRoomSchema,
  send_message: sendMessageSchema,
  close_room: closeRoomSchema,
  load_history: loadHistorySchema,
  lift_restriction: liftRestrictionSchema,
  report_abuse: reportAbuseSchema,
  report_message: reportMessageSchema,
  set_room_rules: setRoomRulesSchema,
  mark_read: markReadSchema,
  room_members: roomMembersSchema,
  edit_message: editMessageSchema,
  delete_message: deleteMessageSchema,
  react_message: reactMessageSchema,
  typing: typingSchema,
  watch_items: watchItemsSchema,
  unwatch_items: watchItemsSchema,
} as const satisfies Partial<Record<keyof ClientToServerEvents, z.ZodType>>;

type PayloadEvent = keyof typeof PAYLOAD_SCHEMAS;

/**
 * The payload of a client event, parsed; anything else is a {@link Refusal} whose message the
 * person sees: the first problem the schema names, or why the database could not store the text.
 */
export function parsePayload<Event extends PayloadEvent>(
  event: Event,
  payload: unknown,
): z.infer<(typeof PAYLOAD_SCHEMAS)[Event]> {
  const result = PAYLOAD_SCHEMAS[event].safeParse(payload);
  if (!result.success)
    throw new Refusal(400, result.error.issues[0]?.message ?? 'Invalid request.');
  // The same rule as HTTP input: text the database cannot store is refused, not a failed insert.
  const bad = unstorableText(result.data);
  if (bad) throw new Refusal(400, bad.message);
  return result.data as z.infer<(typeof PAYLOAD_SCHEMAS)[Event]>;
}
