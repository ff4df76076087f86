import { useEffect, useState } from 'react';
import {
  TYPING_EXPIRE_MS,
  TYPING_SEND_INTERVAL_MS,
  type PresenceChanged,
  type TypingChanged,
} from '#contract/socket/chat.ts';
import { getChatSocket } from './chat-socket.ts';

const sameRoom = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * `typing_changed` as this person reads it: without themselves (they know they are typing).
 * Exported for tests.
 */
export function othersTyping(change: TypingChanged, selfId: string): TypingChanged {
  const at = change.userIds.indexOf(selfId);
  if (at < 0) return change;
  return {
    ...change,
    names: change.names.filter((_, index) => index !== at),
    userIds: change.userIds.filter((_, index) => index !== at),
  };
}

/**
 * Who is typing in `roomName` (others only) and who is here, from the room's `typing_changed` and
 * `presence_changed` (decision 044). A typing list not renewed within `TYPING_EXPIRE_MS` is
 * dropped, in case the server's "stopped" never arrives (a dropped connection).
 */
export function useRoomPresence(roomName: string, selfId: string) {
  const [typing, setTyping] = useState<TypingChanged | null>(null);
  const [presence, setPresence] = useState<PresenceChanged | null>(null);

  useEffect(() => {
    const socket = getChatSocket();
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const onTyping = (change: TypingChanged) => {
      if (!sameRoom(change.roomName, roomName)) return;
      clearTimeout(expiry);
      const mine = othersTyping(change, selfId);
      setTyping(mine.names.length > 0 || mine.others > 0 ? mine : null);
      expiry = setTimeout(() => setTyping(null), TYPING_EXPIRE_MS);
    };
    const onPresence = (change: PresenceChanged) => {
      if (sameRoom(change.roomName, roomName)) setPresence(change);
    };
    socket.on('typing_changed', onTyping);
    socket.on('presence_changed', onPresence);
    return () => {
      clearTimeout(expiry);
      socket.off('typing_changed', onTyping);
      socket.off('presence_changed', onPresence);
    };
  }, [roomName, selfId]);

  return { typing, presence };
}

/**
 * What the composer tells the room while the person types: `typing` at most once every
 * `TYPING_SEND_INTERVAL_MS` while the box holds text, and one stop when it empties (sent or
 * cleared). `emit` sends one event; exported with its clock for tests.
 */
export function createTypingSender(
  emit: (typing: boolean) => void,
  clock: () => number = Date.now,
) {
  let sentAt: number | undefined;
  return {
    /** The box now holds `text`. */
    changed(text: string) {
      if (text.trim() === '') {
        if (sentAt !== undefined) emit(false);
        sentAt = undefined;
        return;
      }
      const now = clock();
      if (sentAt !== undefined && now - sentAt < TYPING_SEND_INTERVAL_MS) return;
      sentAt = now;
      emit(true);
    },
  };
}

/**
 * A typing sender for `roomName` on the shared socket (its screen is keyed by the room, so the
 * name never changes under it). Nothing is sent while offline, and the acknowledgement is asked
 * for and ignored: a refusal (typing before the join is through) is no error to show.
 */
export function useTypingSender(roomName: string) {
  const [typing] = useState(() =>
    createTypingSender((value) => {
      const socket = getChatSocket();
      if (socket.connected) socket.emit('typing', { roomName, typing: value }, () => {});
    }),
  );
  return typing.changed;
}
