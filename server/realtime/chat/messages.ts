import type { Kysely } from 'kysely';
import { CHAT_TEXT, MODERATION_TEXT, type RoomHistoryInfo } from '#contract/socket/chat.ts';
import { whySendRefused } from '../../chat/moderation.ts';
import { findRoom, findSentMessage, roomHistory, type RoomRow } from '../../chat/store.ts';
import type { Database } from '../../db/schema.ts';
import { presentMessage } from '../../presenters/chat.ts';
import { Refusal } from '../../refusal.ts';
import {
  channel,
  joinedRoom,
  requireVerifiedSender,
  ROOM_GONE,
  type ChatConnection,
  type ChatContext,
} from './context.ts';
import { restrict } from './moderation.ts';
import { parsePayload } from './payload.ts';

/**
 * What `join_room` sends: the latest page, or on a reconnect (`after`, the last id the client
 * holds) what it missed; when too much was missed to send, the latest page again, to replace
 * what the client holds (decision 014).
 */
export async function catchUp(db: Kysely<Database>, room: RoomRow, after: string | undefined) {
  let history = await roomHistory(db, room.id, after ? { after } : {});
  let info: RoomHistoryInfo = { roomName: room.name, hasMore: history.hasMore };
  if (after && !history.hasMore) {
    // A catch-up says nothing of older messages: the client holds them.
    info = { roomName: room.name, hasMore: false };
  } else if (after) {
    // Too much was missed to send: start over from the latest page, as a first join does.
    history = await roomHistory(db, room.id);
    info = { roomName: room.name, hasMore: history.hasMore, replace: true };
  }
  return { messages: history.messages.map((message) => presentMessage(message, room.name)), info };
}

/**
 * `send_message`: the person's rate, then the abuse check (a hit restricts the room instead of
 * storing anything), then the message stored before it is acknowledged and delivered. A retry
 * with the `clientId` of a stored message is acknowledged with that message, which is neither
 * stored nor delivered again (issue 19).
 */
export function messageEvents(context: ChatContext, { socket, user, on }: ChatConnection) {
  const { db, io, moderator, writer } = context;
  const sendSlot = context.sendRate.forSocket();

  on('send_message', async (payload) => {
    await requireVerifiedSender(db, user);
    const body = parsePayload('send_message', payload);
    const joined = joinedRoom(socket, body.room, 'Join the room before sending messages to it.');
    // Memory answers at once; while other processes are up the database answers too.
    const slot = sendSlot(user.id);
    if (slot) await slot;
    if (moderator.isAbusive(body.message)) {
      // Never stored, never delivered: the room is restricted for everyone instead.
      if (!(await restrict(context, joined.name))) throw new Refusal(403, CHAT_TEXT.restricted);
      throw new Refusal(422, `${CHAT_TEXT.abuseWarning} ${CHAT_TEXT.abuseWarningMore}`);
    }
    // The room's own words (decision 040) refuse the message only: they are its creator's
    // choice, not the library's, so they restrict nobody else.
    const roomWord = context.roomWords.matches(joined.id, body.message);
    if (roomWord === true || (roomWord !== false && (await roomWord))) {
      throw new Refusal(422, MODERATION_TEXT.roomWord);
    }
    const row = await writer.write({
      roomId: joined.id,
      senderId: user.id,
      senderName: user.chatName,
      content: body.message,
      clientId: body.clientId,
      // The badge comes from the role the server knows, never from anything the client sends.
      senderIsStaff: user.role === 'librarian',
    });
    if (!row && body.clientId !== undefined) {
      // Sent before, perhaps stored but never acknowledged (its process died), or twice at once.
      const sent = await findSentMessage(db, user.id, body.clientId);
      if (sent) {
        if (sent.room_id !== joined.id || sent.content !== body.message) {
          throw new Refusal(409, 'That message id was already used for another message.');
        }
        return { ok: true, id: sent.id };
      }
    }
    if (!row) {
      // A mute, a removal, slow mode or a members-only room (decision 040): say which.
      const rule = await whySendRefused(db, joined, user);
      if (rule) throw new Refusal(403, rule);
      // Gone or restricted since the person joined: say which.
      const current = await findRoom(db, joined.name);
      throw current?.id === joined.id
        ? new Refusal(403, CHAT_TEXT.restricted)
        : new Refusal(404, ROOM_GONE);
    }
    io.to(channel(joined.id)).emit('receive_message', presentMessage(row, joined.name));
    return { ok: true, id: row.id };
  });
}
