import type { Kysely } from 'kysely';
import { MODERATION_TEXT, REPORT_INTERVAL_SECONDS, REPORT_TEXT } from '#contract/socket/chat.ts';
import { findMessage, reportMessage, setRoomRules } from '../../chat/moderation.ts';
import { recordReport } from '../../chat/reports.ts';
import { setRestricted } from '../../chat/store.ts';
import type { Database } from '../../db/schema.ts';
import { enforceRateLimits, RateLimitError } from '../../http/rate-limit.ts';
import { presentRoomMetadata } from '../../presenters/chat.ts';
import { Refusal } from '../../refusal.ts';
import {
  channel,
  existingRoom,
  joinedRoom,
  mayManage,
  ROOM_GONE,
  type ChatConnection,
  type ChatContext,
} from './context.ts';
import { parsePayload } from './payload.ts';

/**
 * Restricts a room for everyone in it and tells them (`abuse_detected`, `room_metadata`, the
 * room list). False when it already was restricted: nothing changes and nobody is told again.
 */
export async function restrict(
  { db, io, pushRooms }: Pick<ChatContext, 'db' | 'io' | 'pushRooms'>,
  name: string,
): Promise<boolean> {
  const room = await existingRoom(db, name);
  if (room.abuse_detected) return false;
  await setRestricted(db, room.id, true);
  io.to(channel(room.id)).emit('abuse_detected', { roomName: room.name });
  io.to(channel(room.id)).emit(
    'room_metadata',
    presentRoomMetadata({ ...room, abuse_detected: true }),
  );
  pushRooms();
  return true;
}

/**
 * Takes the person's one report of a room per `REPORT_INTERVAL_SECONDS`: 0 when taken, else the
 * seconds until the next may be made. Counted in `rate_limits` (one atomic upsert), so it holds
 * across processes and concurrent reports, and the sweeper forgets it once the window is over.
 */
async function takeReportTurn(
  db: Kysely<Database>,
  reporterId: string,
  roomId: string,
): Promise<number> {
  try {
    await enforceRateLimits(db, [
      {
        key: `chat-report:${reporterId}:${roomId}`,
        limit: 1,
        windowSeconds: REPORT_INTERVAL_SECONDS,
      },
    ]);
    return 0;
  } catch (error) {
    if (error instanceof RateLimitError) return error.retryAfterSeconds;
    throw error;
  }
}

/**
 * A room's restriction: `report_abuse` (the browser caught abusive language) restricts it as a
 * caught message would, when the server's own matcher finds abuse in the text reported, and is
 * otherwise recorded for the moderators; `lift_restriction` lifts it (its creator or a librarian).
 */
export function moderationEvents(context: ChatContext, { socket, user, on }: ChatConnection) {
  const { db, io, log, moderator, pushRooms } = context;

  on('report_abuse', async (payload) => {
    // The browser's copy of the matcher caught a message and kept it, and sends its text. The
    // room is restricted for everyone only when the server's matcher finds abuse in that text,
    // as it would have in the message: anyone in the room could do the same by sending the words,
    // so this gives nobody a power they lacked. A report without such words restricts nothing
    // (issue 19: a bare report muted any room at will); it is kept for the moderators.
    const body = parsePayload('report_abuse', payload);
    const joined = joinedRoom(
      socket,
      body.roomName,
      'Join the room before reporting anything in it.',
    );
    const wait = await takeReportTurn(db, user.id, joined.id);
    if (wait > 0) return { ok: false, message: REPORT_TEXT.tooSoon, retryAfter: wait };
    // Unmatched text is not kept: see the migration of `chat_reports`.
    const abusive = body.text !== undefined && moderator.isAbusive(body.text) ? body.text : null;
    const reportId = await recordReport(db, {
      reporterId: user.id,
      roomId: joined.id,
      text: abusive,
    });
    if (reportId === undefined) throw new Refusal(404, ROOM_GONE);
    if (abusive !== null) {
      if (await restrict(context, joined.name)) {
        log.info(
          { userId: user.id, roomId: joined.id, reportId },
          'the browser caught abusive language',
        );
      }
      return { ok: true };
    }
    log.info({ userId: user.id, roomId: joined.id, reportId }, 'a report for the moderators');
    return { ok: true, message: REPORT_TEXT.received };
  });

  on('report_message', async (payload) => {
    // A member reports one message to the librarians (decision 040): only a message of the room
    // the socket is in, once per person and message; the queue counts reporters per message.
    const body = parsePayload('report_message', payload);
    const message = await findMessage(db, body.messageId);
    if (!message || socket.data.room?.id !== message.room_id) {
      throw new Refusal(404, 'That message is not in the room you are in.');
    }
    if (message.sender_id === user.id)
      throw new Refusal(400, 'You cannot report your own message.');
    const recorded = await reportMessage(db, {
      messageId: message.id,
      reporterId: user.id,
      reason: body.reason,
      text: body.text,
    });
    if (!recorded) return { ok: false, message: MODERATION_TEXT.alreadyReported };
    log.info({ userId: user.id, messageId: message.id }, 'a message reported to the moderators');
    return { ok: true, message: MODERATION_TEXT.reported };
  });

  on('set_room_rules', async (payload) => {
    const { roomName, ...rules } = parsePayload('set_room_rules', payload);
    const room = await existingRoom(db, roomName);
    if (!mayManage(user, room)) {
      throw new Refusal(403, 'Only the room’s creator or a librarian can set its rules.');
    }
    const updated = await setRoomRules(db, room, rules);
    context.roomWords.forget(room.id);
    io.to(channel(room.id)).emit('room_metadata', presentRoomMetadata(updated));
    return { ok: true, message: MODERATION_TEXT.rulesSaved };
  });

  on('lift_restriction', async (payload) => {
    const body = parsePayload('lift_restriction', payload);
    const room = await existingRoom(db, body.roomName);
    if (!mayManage(user, room)) {
      throw new Refusal(403, 'Only the room’s creator or a librarian can lift the restriction.');
    }
    await setRestricted(db, room.id, false);
    io.to(channel(room.id)).emit(
      'room_metadata',
      presentRoomMetadata({ ...room, abuse_detected: false }),
    );
    pushRooms();
  });
}
