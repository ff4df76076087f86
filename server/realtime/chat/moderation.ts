import { setRestricted } from '../../chat/store.ts';
import { presentRoomMetadata } from '../../presenters/chat.ts';
import { Refusal } from '../../refusal.ts';
import {
  channel,
  existingRoom,
  joinedRoom,
  mayManage,
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
 * A room's restriction: `report_abuse` (the browser caught abusive language) restricts it as a
 * caught message would, and `lift_restriction` lifts it (its creator or a librarian).
 */
export function moderationEvents(context: ChatContext, { socket, user, on }: ChatConnection) {
  const { db, io, log, pushRooms } = context;

  on('report_abuse', async (payload) => {
    // The browser's copy of the matcher caught a message and kept it; the server restricts the
    // room as it would have. Anyone in the room could do the same by sending the words, so this
    // gives nobody a power they lacked, and the words themselves never travel.
    const body = parsePayload('report_abuse', payload);
    const joined = joinedRoom(
      socket,
      body.roomName,
      'Join the room before reporting anything in it.',
    );
    if (await restrict(context, joined.name)) {
      log.info({ userId: user.id, roomId: joined.id }, 'the browser caught abusive language');
    }
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
