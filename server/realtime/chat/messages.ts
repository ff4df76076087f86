import type { Kysely } from 'kysely';
import {
  CHAT_TEXT,
  MODERATION_TEXT,
  THREADS_TEXT,
  type ChatMessage,
  type RoomHistoryInfo,
} from '#contract/socket/chat.ts';
import { changedMessages, findQuotable, withReactions } from '../../chat/threads.ts';
import { withMentions } from '../../chat/mentions.ts';
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
import { attachMentions, notifyMentioned } from './attention.ts';
import { restrict } from './moderation.ts';
import { parsePayload } from './payload.ts';

/**
 * What `join_room` sends: the latest page, or on a reconnect (`after`, the last id the client
 * holds) what it missed; when too much was missed to send, the latest page again, to replace
 * what the client holds (decision 014).
 */
export async function catchUp(
  db: Kysely<Database>,
  room: RoomRow,
  after: string | undefined,
  viewerId?: string,
) {
  let history = await roomHistory(db, room.id, after ? { after } : {});
  // Messages held by a client that resumes (up to `after`) and changed since (decision 043).
  let changed: ChatMessage[] = [];
  let info: RoomHistoryInfo = { roomName: room.name, hasMore: history.hasMore };
  if (after && !history.hasMore) {
    // A catch-up says nothing of older messages: the client holds them.
    info = { roomName: room.name, hasMore: false };
    if (viewerId !== undefined) {
      const rows = await changedMessages(db, room.id, after, viewerId);
      // An edit meanwhile may have changed who the message mentions (decision 042).
      await withMentions(db, rows);
      changed = rows.map((row) => ({
        // Always says, so that reactions all taken back meanwhile go too, and mentions an edit
        // took out.
        reactions: [],
        mentions: [],
        ...presentMessage(row, room.name),
      }));
    }
  } else if (after) {
    // Too much was missed to send: start over from the latest page, as a first join does.
    history = await roomHistory(db, room.id);
    info = { roomName: room.name, hasMore: history.hasMore, replace: true };
  }
  if (viewerId !== undefined) await withReactions(db, history.messages, viewerId);
  await withMentions(db, history.messages);
  return {
    messages: history.messages.map((message) => presentMessage(message, room.name)),
    info,
    changed,
  };
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
    // A reply quotes a message of the same room (decision 043), found before anything is stored.
    const quoted =
      body.replyTo === undefined ? undefined : await findQuotable(db, joined.id, body.replyTo);
    if (body.replyTo !== undefined && !quoted) throw new Refusal(404, THREADS_TEXT.replyNotInRoom);
    const row = await writer.write({
      replyTo: quoted?.id,
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
    if (quoted) row.reply = quoted;
    // Who it mentions (decision 042), resolved here, never taken from the client.
    const mentions = await attachMentions(context, joined, row);
    io.to(channel(joined.id)).emit('receive_message', presentMessage(row, joined.name));
    // The room list's counts follow within seconds: one event per window, not per message (042).
    context.roomActivity.changed(joined);
    await notifyMentioned(context, joined, row, mentions);
    return { ok: true, id: row.id };
  });
}
