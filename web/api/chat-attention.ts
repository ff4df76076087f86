import { useCallback, useEffect, useRef, useState } from 'react';
import {
  MARK_READ_INTERVAL_MS,
  roomsActiveSchema,
  type Ack,
  type RoomMember,
  type RoomUnread,
} from '#contract/socket/chat.ts';
import { compareMessageIds } from './chat-room.ts';
import { chatRequest, getChatSocket } from './chat-socket.ts';

/*
 * Mentions and unread in the browser (issue 26, decision 042): the room list asks the server for
 * this person's counts (on connect, when the list or the bell changes, when a visited room had
 * messages, and every half minute) rather than the server working them out for every member on
 * every message.
 */

/** The room list asks again at least this often while shown. */
const UNREAD_REFRESH_MS = 30_000;
/** A burst of room-list pushes and bell changes asks once, this long after the first. */
const UNREAD_SETTLE_MS = 300;

/**
 * This person's unread count and mention marker per room they have visited, by lower-case room
 * name; null until the first answer. Asked for while the socket is connected, and again soon
 * after `rooms_active` names a room it holds a count for (a room never visited has none to move).
 */
export function useUnreadCounts(): ReadonlyMap<string, RoomUnread> | null {
  const [counts, setCounts] = useState<ReadonlyMap<string, RoomUnread> | null>(null);
  useEffect(() => {
    const socket = getChatSocket();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    /** The rooms of the last answer, by lower-case name. */
    let held: ReadonlyMap<string, RoomUnread> = new Map();
    const ask = () => {
      timer = undefined;
      if (!socket.connected) return;
      // No payload, so not through `chatRequest`; a lost answer waits for the next ask.
      socket.emit('unread_counts', (ack: Ack) => {
        if (stopped || !ack.ok || !ack.unread) return;
        held = new Map(ack.unread.map((room) => [room.roomName.toLowerCase(), room]));
        setCounts(held);
      });
    };
    const soon = () => {
      if (timer === undefined) timer = setTimeout(ask, UNREAD_SETTLE_MS);
    };
    /** Messages were stored in these rooms: ask only when one of them is counted here. */
    const active = (payload: unknown) => {
      const parsed = roomsActiveSchema.safeParse(payload);
      if (!parsed.success) return;
      if (parsed.data.roomNames.some((name) => held.has(name.toLowerCase()))) soon();
    };
    const listeners = { connect: soon, available_rooms: soon, notices_changed: soon };
    socket.on('connect', listeners.connect);
    socket.on('available_rooms', listeners.available_rooms);
    socket.on('notices_changed', listeners.notices_changed);
    socket.on('rooms_active', active);
    if (socket.connected) soon();
    const every = setInterval(soon, UNREAD_REFRESH_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(every);
      socket.off('connect', listeners.connect);
      socket.off('available_rooms', listeners.available_rooms);
      socket.off('notices_changed', listeners.notices_changed);
      socket.off('rooms_active', active);
    };
  }, []);
  return counts;
}

/**
 * The members of `roomName` for the composer's `@` list, asked for once, the first time the
 * person types `@` (`load`); null until then.
 */
export function useRoomMembers(roomName: string) {
  const [members, setMembers] = useState<RoomMember[] | null>(null);
  const asked = useRef(false);
  const load = useCallback(() => {
    if (asked.current) return;
    asked.current = true;
    void chatRequest('room_members', { roomName }).then((ack) => {
      if (ack.ok) setMembers(ack.members ?? []);
      // Refused (not joined yet): ask again at the next `@`.
      else asked.current = false;
    });
  }, [roomName]);
  return { members, load };
}

/**
 * A function that tells the server this person has read `roomName` up to a message: at most once
 * per `MARK_READ_INTERVAL_MS` (the last id of a burst goes at the end of the wait), and only
 * forward of what it already said.
 */
export function useMarkRead(roomName: string): (messageId: string) => void {
  const sent = useRef('');
  const waiting = useRef<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const last = useRef(0);
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      // Leaving the room: what was read by then still counts.
      const pending = waiting.current;
      if (pending !== null) void chatRequest('mark_read', { roomName, messageId: pending });
    },
    [roomName],
  );
  return useCallback(
    (messageId: string) => {
      if (sent.current && compareMessageIds(messageId, sent.current) <= 0) return;
      if (waiting.current && compareMessageIds(messageId, waiting.current) <= 0) return;
      waiting.current = messageId;
      const send = () => {
        timer.current = undefined;
        const id = waiting.current;
        if (id === null) return;
        waiting.current = null;
        sent.current = id;
        last.current = Date.now();
        void chatRequest('mark_read', { roomName, messageId: id });
      };
      if (timer.current !== undefined) return;
      const wait = last.current + MARK_READ_INTERVAL_MS - Date.now();
      if (wait <= 0) send();
      else timer.current = setTimeout(send, wait);
    },
    [roomName],
  );
}
