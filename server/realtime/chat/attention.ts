import type { Mention } from '#contract/socket/chat.ts';
import {
  markRead,
  recordMentions,
  replaceMentions,
  resolveMentions,
  roomMembers,
  unreadByRoom,
} from '../../chat/mentions.ts';
import type { MessageRow } from '../../chat/store.ts';
import { Refusal } from '../../refusal.ts';
import { announceUnread } from '../notices.ts';
import { existingRoom, joinedRoom, type ChatConnection, type ChatContext } from './context.ts';
import { parsePayload } from './payload.ts';
import { ROOM_LIST_WATCHERS } from './room-activity.ts';

/*
 * Attention (issue 26, decision 042): who a message mentions, and how far each person has read
 * each room. Counts are asked for by the person's browser (`unread_counts`), never worked out for
 * every member on a send, so a room of 500 costs no more per message than before.
 */

/**
 * The people a just-stored message mentions, resolved by the server against the room's members
 * (whatever the client meant): attached to `row`, so the broadcast that follows carries them. A
 * message without `@` costs nothing.
 */
export async function attachMentions(
  { db }: Pick<ChatContext, 'db'>,
  room: { id: string },
  row: MessageRow,
): Promise<Mention[]> {
  if (!row.sender_id || !row.content.includes('@')) return [];
  const mentions = await resolveMentions(db, room.id, row.sender_id, row.content);
  if (mentions.length > 0) row.mentions = mentions;
  return mentions;
}

/**
 * After the broadcast: stores the mentions and gives a notice to each person mentioned who is
 * not in the room now, whose bells (on any process, through the adapter) are told at once. After
 * an edit (`edited`), the message's mentions become those of its new text (resolved by
 * `attachMentions`, as for a send) and only the people it newly mentions get a notice; when that
 * adds or takes away a mention, the room lists hear the room was active. A failure here is
 * logged: the message is stored and delivered already.
 */
export async function notifyMentioned(
  context: Pick<ChatContext, 'db' | 'io' | 'log' | 'now' | 'roomActivity'>,
  room: { id: string; name: string },
  row: MessageRow,
  mentions: readonly Mention[],
  { edited = false }: { edited?: boolean } = {},
): Promise<void> {
  if (mentions.length === 0 && !edited) return;
  const message = {
    id: row.id,
    roomId: room.id,
    roomName: room.name,
    senderName: row.sender_name,
    content: row.content,
  };
  try {
    let noticed: string[];
    if (edited) {
      const replaced = await replaceMentions(context.db, message, mentions, context.now());
      noticed = replaced.noticed;
      // A mention came or went: the room lists' markers of the room follow within seconds.
      if (replaced.changed) context.roomActivity.changed(room);
    } else noticed = await recordMentions(context.db, message, mentions, context.now());
    if (noticed.length > 0) await announceUnread(context.io, context.db, noticed);
  } catch (error) {
    context.log.warn({ err: error, messageId: row.id }, 'could not record a message’s mentions');
  }
}

/** `mark_read`, `unread_counts` and `room_members`, for one socket. */
export function attentionEvents(context: ChatContext, { socket, user, on }: ChatConnection) {
  const { db, now } = context;

  on('mark_read', async (payload) => {
    const body = parsePayload('mark_read', payload);
    // The room just left counts too: a browser says what was read as it leaves.
    const joined = socket.data.room;
    const room =
      joined && joined.name.toLowerCase() === body.roomName.toLowerCase()
        ? joined
        : await existingRoom(db, body.roomName);
    if (!(await markRead(db, user.id, room.id, body.messageId, now()))) {
      throw new Refusal(404, 'That message is not in a room you have visited.');
    }
  });

  on('unread_counts', async () => {
    // Only the room list asks: from now on this socket hears `rooms_active` (joined before the
    // count, so a message stored meanwhile is told rather than missed).
    await socket.join(ROOM_LIST_WATCHERS);
    return { ok: true, unread: await unreadByRoom(db, user.id) };
  });

  on('room_members', async (payload) => {
    const body = parsePayload('room_members', payload);
    const joined = joinedRoom(socket, body.roomName, 'Join the room to see its members.');
    return { ok: true, members: await roomMembers(db, joined.id) };
  });
}
