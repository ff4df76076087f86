import { NAME_TEXT } from '#contract/names.ts';
import { CHAT_TEXT, OPEN_ROOMS_PER_PERSON_MAX } from '#contract/socket/chat.ts';
import { recordMember, sanctionInForce, sanctionText } from '../../chat/moderation.ts';
import { openReadMarker, withMentions } from '../../chat/mentions.ts';
import { impersonatesStaff } from '../../chat/names.ts';
import {
  countRoomsCreatedBy,
  createRoom,
  deleteRoom,
  enterRoom,
  exitRoom,
  listRooms,
  roomHistory,
} from '../../chat/store.ts';
import { presentMessage, presentRoom, presentRoomMetadata } from '../../presenters/chat.ts';
import { presentMuteNotice } from '../../presenters/sanctions.ts';
import { Refusal } from '../../refusal.ts';
import { findChatName } from '../../users/store.ts';
import {
  channel,
  existingRoom,
  mayManage,
  requireVerifiedSender,
  type ChatConnection,
  type ChatContext,
} from './context.ts';
import { withReactions } from '../../chat/threads.ts';
import { catchUp } from './messages.ts';
import { parsePayload } from './payload.ts';
import { ROOM_LIST_WATCHERS } from './room-activity.ts';

/**
 * A socket's rooms: the room list when it connects, and `create_room`, `join_room` (with the
 * catch-up), `leave_room`, `load_history`, `close_room`, and its departure on disconnect.
 */
export function roomEvents(context: ChatContext, { socket, user, on }: ChatConnection) {
  const { db, io, log, now, pushRooms, ready, serverId } = context;

  /** Takes the socket out of its room, if it is in one. */
  const leave = async () => {
    const room = socket.data.room;
    if (!room) return;
    socket.data.room = undefined;
    await socket.leave(channel(room.id));
    await exitRoom(db, socket.id);
    context.presence.changed(room);
    pushRooms();
  };

  /** The name the person chose in the forum may have changed since they connected. */
  const refreshName = async () => {
    const name = await findChatName(db, user.id);
    if (name !== undefined) user.chatName = name;
  };

  void ready
    .then(() => listRooms(db, now()))
    .then((rows) => socket.emit('available_rooms', rows.map(presentRoom)))
    .catch((error: unknown) => log.warn({ err: error }, 'could not send the room list'));

  on('create_room', async (payload) => {
    await requireVerifiedSender(db, user);
    const body = parsePayload('create_room', payload);
    // A room may not pass for the library's own ('Staff desk', 'Ask a librarian'): only the staff
    // words are kept, not the library's name, which study groups' rooms may well mention.
    if (user.role !== 'librarian' && impersonatesStaff(body.roomName)) {
      throw new Refusal(403, NAME_TEXT.keptForStaff);
    }
    // Rooms stay until closed and every socket receives the list: one person cannot grow it
    // without bound. (Two creations at the same instant may both pass; the bound holds roughly.)
    if (
      user.role !== 'librarian' &&
      (await countRoomsCreatedBy(db, user.id)) >= OPEN_ROOMS_PER_PERSON_MAX
    ) {
      throw new Refusal(429, CHAT_TEXT.tooManyRooms);
    }
    await refreshName();
    const room = await createRoom(db, {
      name: body.roomName,
      description: body.description,
      creatorId: user.id,
      creatorName: user.chatName,
    });
    if (!room) throw new Refusal(409, CHAT_TEXT.duplicateRoom);
    pushRooms();
  });

  on('join_room', async (payload) => {
    const body = parsePayload('join_room', payload);
    const room = await existingRoom(db, body.roomName);
    // A person removed from the room may not come back until the removal ends (decision 040).
    const removed = await sanctionInForce(db, user.id, room.id, 'remove');
    if (removed?.room_id === room.id) throw new Refusal(403, sanctionText(removed));
    await refreshName();
    if (socket.data.room?.id !== room.id) {
      await leave();
      // In a room, the room list is not shown: its counts are asked again when it is (042).
      await socket.leave(ROOM_LIST_WATCHERS);
      await socket.join(channel(room.id));
      socket.data.room = { id: room.id, name: room.name };
    }
    await enterRoom(db, { socketId: socket.id, serverId, roomId: room.id, userId: user.id });
    context.presence.changed(room);
    // Only a room that is not members-only yet takes new members.
    if (!room.members_only_since) await recordMember(db, room.id, user.id);
    // How far this person had read the room (decision 042), before this visit moves it on.
    const lastReadId = await openReadMarker(db, user.id, room.id);
    const { messages, info, changed } = await catchUp(db, room, body.after, user.id);
    socket.emit(
      'room_history',
      messages,
      lastReadId === undefined ? info : { ...info, lastReadId },
    );
    // What changed meanwhile in the messages the client holds (decision 043).
    for (const message of changed) socket.emit('message_updated', message);
    socket.emit('room_metadata', presentRoomMetadata(room));
    // A muted person's composer is disabled from the start, with why and until when (044).
    const muted = await sanctionInForce(db, user.id, room.id, 'mute');
    if (muted) socket.emit('moderation_notice', presentMuteNotice(muted, room.name));
    pushRooms();
  });

  on('leave_room', async () => {
    await leave();
  });

  on('load_history', async (payload) => {
    const body = parsePayload('load_history', payload);
    const room = await existingRoom(db, body.roomName);
    const { messages, hasMore } = await roomHistory(db, room.id, { before: body.before });
    await withReactions(db, messages, user.id);
    await withMentions(db, messages);
    return {
      ok: true,
      history: messages.map((message) => presentMessage(message, room.name)),
      hasMore,
    };
  });

  on('close_room', async (payload) => {
    const body = parsePayload('close_room', payload);
    const room = await existingRoom(db, body.roomName);
    if (!mayManage(user, room)) {
      throw new Refusal(403, 'Only the room’s creator or a librarian can close it.');
    }
    await deleteRoom(db, room.id);
    io.to(channel(room.id)).emit('room_closed', { roomName: room.name });
    io.in(channel(room.id)).socketsLeave(channel(room.id));
    pushRooms();
  });

  socket.on('disconnect', () => {
    const room = socket.data.room;
    if (!room) return;
    socket.data.room = undefined;
    exitRoom(db, socket.id)
      .then(() => {
        context.presence.changed(room);
        pushRooms();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not record a departure'));
  });
}
