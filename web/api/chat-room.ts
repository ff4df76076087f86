import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { SocketReservedEvents } from 'socket.io-client';
import type {
  Ack,
  ChatMessage,
  ModerationNotice,
  PackedReactionsBatch,
  ReactionsBatch,
  ReactionsChanged,
  ReportReason,
  RoomHistoryInfo,
  RoomMetadata,
  RoomRules,
  ServerToClientEvents,
} from '#contract/socket/chat.ts';
import { MESSAGE_MAX, unpackReactionsBatch } from '#contract/socket/chat.ts';
import { chatRequest, getChatSocket, leaveChatRoom } from './chat-socket.ts';
import {
  applyReactions,
  applyReactionsBatch,
  refreshQuotes,
  withHeldReactions,
} from './chat-threads.ts';

/**
 * Orders two message ids numerically. Ids are decimal strings of up to 20 digits (beyond a
 * double's precision), so the longer one is the larger and equal lengths compare as text.
 */
export function compareMessageIds(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Adds `incoming` to `held` without duplicates, ordered by numeric id. A reconnect's
 * `room_history`, a live `receive_message` and an older page may overlap in any way. Returns
 * `held` itself when nothing is new, so a repeated message causes no re-render.
 */
export function mergeMessages(
  held: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
): ChatMessage[] {
  const known = new Set(held.map((message) => message.id));
  const fresh = incoming.filter((message) => {
    if (known.has(message.id)) return false;
    known.add(message.id);
    return true;
  });
  if (fresh.length === 0) return held as ChatMessage[];
  return [...held, ...fresh].sort((a, b) => compareMessageIds(a.id, b.id));
}

/** What a room screen knows about its room. */
export interface RoomState {
  messages: ChatMessage[];
  /** The first `room_history` has arrived (until then the list is loading, not empty). */
  loaded: boolean;
  /** Older messages exist on the server. */
  hasMore: boolean;
  loadingOlder: boolean;
  metadata: RoomMetadata | null;
  /** Restricted by `abuse_detected` or by the browser's own check, until a lift. */
  flagged: boolean;
  /** The warning modal is up (it opens each time the room becomes restricted). */
  warning: boolean;
  /** The join was refused (the room does not exist): the sentence to show. */
  joinError: string;
  /** The last refusal that came without an acknowledgement (`chat_error`) or from older history. */
  error: string;
  /** `room_closed` arrived. */
  closed: boolean;
  /** The last message that arrived live (not history), to announce to screen readers. */
  live: ChatMessage | null;
  /** A moderator muted or removed this person (decision 040): the banner's sentence. */
  notice: ModerationNotice | null;
  /**
   * The last message this person had read before this visit (decision 042), from the first
   * `room_history`; null on a first visit. "New messages" goes above the next one.
   */
  lastReadId: string | null;
}

type RoomAction =
  | {
      type: 'history';
      messages: ChatMessage[];
      hasMore?: boolean;
      replace?: boolean;
      lastReadId?: string;
    }
  | { type: 'older'; messages: ChatMessage[]; hasMore: boolean }
  | { type: 'loadingOlder'; loading: boolean }
  | { type: 'message'; message: ChatMessage }
  | { type: 'metadata'; metadata: RoomMetadata }
  | { type: 'flag' }
  | { type: 'lifted' }
  | { type: 'acknowledge' }
  | { type: 'joined' }
  | { type: 'joinFailed'; message: string }
  | { type: 'error'; message: string }
  | { type: 'closed' }
  | { type: 'updated'; message: ChatMessage }
  | { type: 'notice'; notice: ModerationNotice }
  | { type: 'reactions'; change: ReactionsChanged; userId: string }
  | { type: 'reactionsBatch'; batch: ReactionsBatch };

/** A room's state before anything has arrived (exported for tests). */
export const INITIAL_ROOM_STATE: RoomState = {
  messages: [],
  loaded: false,
  hasMore: false,
  loadingOlder: false,
  metadata: null,
  flagged: false,
  warning: false,
  joinError: '',
  error: '',
  closed: false,
  live: null,
  notice: null,
  lastReadId: null,
};

/** True when the room is restricted: the server's flag or a detection in this browser. */
export function isRestricted(state: RoomState): boolean {
  return state.flagged || Boolean(state.metadata?.abuseDetected);
}

/** The room's state machine (exported for tests). */
export function roomReducer(state: RoomState, action: RoomAction): RoomState {
  switch (action.type) {
    case 'history':
      return {
        ...state,
        // A catch-up too long to send starts over from the latest page, so no hole is left.
        messages: mergeMessages(action.replace ? [] : state.messages, action.messages),
        loaded: true,
        hasMore: action.hasMore ?? state.hasMore,
        // The visit's first history says where reading stopped; a reconnect's keeps it.
        lastReadId: state.loaded ? state.lastReadId : (action.lastReadId ?? null),
      };
    case 'older':
      return {
        ...state,
        messages: mergeMessages(state.messages, action.messages),
        hasMore: action.hasMore,
        loadingOlder: false,
      };
    case 'loadingOlder':
      return { ...state, loadingOlder: action.loading };
    case 'message': {
      const messages = mergeMessages(state.messages, [action.message]);
      return messages === state.messages ? state : { ...state, messages, live: action.message };
    }
    case 'metadata': {
      const wasRestricted = isRestricted(state);
      // A true → false change is a lift, which also ends a restriction this browser set.
      const lifted = Boolean(state.metadata?.abuseDetected) && !action.metadata.abuseDetected;
      const next = {
        ...state,
        metadata: action.metadata,
        flagged: lifted ? false : state.flagged,
      };
      return { ...next, warning: isRestricted(next) ? state.warning || !wasRestricted : false };
    }
    case 'flag':
      return { ...state, flagged: true, warning: state.warning || !isRestricted(state) };
    case 'lifted':
      return { ...state, flagged: false, warning: false };
    case 'acknowledge':
      return { ...state, warning: false };
    case 'joined':
      return { ...state, joinError: '' };
    case 'joinFailed':
      return { ...state, joinError: action.message };
    case 'error':
      return { ...state, error: action.message, loadingOlder: false };
    case 'closed':
      return { ...state, closed: true, warning: false };
    case 'updated': {
      // A message hidden or restored by a moderator replaces the one held, if held.
      if (!state.messages.some((message) => message.id === action.message.id)) return state;
      return {
        ...state,
        messages: refreshQuotes(
          state.messages.map((message) =>
            message.id === action.message.id
              ? keepMentions(message, withHeldReactions(message, action.message))
              : message,
          ),
          action.message,
        ),
      };
    }
    case 'reactions': {
      const messages = applyReactions(state.messages, action.change, action.userId);
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'reactionsBatch': {
      const messages = applyReactionsBatch(state.messages, action.batch);
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'notice':
      return { ...state, notice: action.notice };
  }
}

const sameRoom = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * A message as updated, keeping the mentions of the one held (decision 042) when the update does
 * not say them (a change of reactions leaves them out). An edit always says them, an empty list
 * when it took them all out, so the highlight follows the new text.
 */
function keepMentions(held: ChatMessage, updated: ChatMessage): ChatMessage {
  if (updated.mentions || !held.mentions || updated.hidden || updated.deleted) return updated;
  return { ...updated, mentions: held.mentions };
}

/**
 * A new random (version 4) UUID. `crypto.randomUUID` exists only on secure pages (HTTPS or
 * localhost); `getRandomValues` everywhere.
 */
export function newClientId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Unacknowledged sends remembered for a retry; older ones are forgotten beyond this. */
const UNACKNOWLEDGED_MAX = 20;

/**
 * The client ids of one room's sends (issue 19): one per message, kept until the server
 * acknowledges it. A send that got no acknowledgement may have been stored all the same (its
 * process died just after), and the composer hands the same text back for the person to send
 * again: it goes with the same id, and the server answers with the stored message instead of
 * storing it twice. Exported for tests.
 */
export function createSendIds(makeId: () => string = newClientId) {
  /** Unacknowledged texts and their ids, oldest first. */
  const pending = new Map<string, string>();
  return {
    /** The id to send `text` with: that of its unacknowledged send, else a new one. */
    idFor(text: string): string {
      const known = pending.get(text);
      if (known !== undefined) return known;
      const id = makeId();
      pending.set(text, id);
      if (pending.size > UNACKNOWLEDGED_MAX) pending.delete(pending.keys().next().value!);
      return id;
    },
    /** `text` was stored: sending it again is a new message. */
    acknowledged(text: string): void {
      pending.delete(text);
    },
  };
}

/**
 * Joins `roomName` on the shared socket while mounted and keeps its messages, metadata and
 * restriction. After every (re)connect it joins again with `after` = the newest message held, so
 * the server sends only what was missed; everything is merged by id. Leaves on unmount.
 * The caller keeps the socket connected with `useChatConnection`.
 */
export function useRoom(roomName: string, userId = '') {
  const [state, dispatch] = useReducer(roomReducer, INITIAL_ROOM_STATE);
  const [sendIds] = useState(createSendIds);
  /**
   * A join on its way. A message sent before the server has put this socket in the room would be
   * refused ("Join the room before…"): a person who types at once, or right after a reconnect,
   * has their send wait for the join instead. The room's history comes once the socket is in the
   * room, so it ends the wait as the answer does.
   */
  const joining = useRef<Promise<Ack> | null>(null);
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });

  useEffect(() => {
    const socket = getChatSocket();
    // A resumed join's history says hasMore false (it holds only the gap): keep what we know,
    // unless the server starts over (`replace`).
    let resuming = false;

    const join = () => {
      const after = latest.current.messages.at(-1)?.id;
      resuming = after !== undefined;
      const request = chatRequest('join_room', after ? { roomName, after } : { roomName });
      joining.current = request;
      void request.then((ack) => {
        if (joining.current === request) joining.current = null;
        dispatch(ack.ok ? { type: 'joined' } : { type: 'joinFailed', message: ack.message });
      });
    };
    const onHistory = (messages: ChatMessage[], info?: RoomHistoryInfo) => {
      if (info && !sameRoom(info.roomName, roomName)) return;
      joining.current = null;
      const replace = info?.replace === true;
      dispatch({
        type: 'history',
        messages,
        hasMore: resuming && !replace ? undefined : info?.hasMore,
        replace,
        ...(info?.lastReadId ? { lastReadId: info.lastReadId } : {}),
      });
    };
    const onMessage = (message: ChatMessage) => {
      if (sameRoom(message.room, roomName)) dispatch({ type: 'message', message });
    };
    const onMetadata = (metadata: RoomMetadata) => {
      if (sameRoom(metadata.roomName, roomName)) dispatch({ type: 'metadata', metadata });
    };
    const onAbuse = (payload: { roomName: string }) => {
      if (sameRoom(payload.roomName, roomName)) dispatch({ type: 'flag' });
    };
    const onClosed = (payload: { roomName: string }) => {
      if (sameRoom(payload.roomName, roomName)) dispatch({ type: 'closed' });
    };
    const onError = (payload: { message: string }) =>
      dispatch({ type: 'error', message: payload.message });
    const onReactions = (change: ReactionsChanged) => {
      if (sameRoom(change.roomName, roomName)) dispatch({ type: 'reactions', change, userId });
    };
    const onReactionsBatch = (packed: PackedReactionsBatch) => {
      if (sameRoom(packed.roomName, roomName)) {
        dispatch({ type: 'reactionsBatch', batch: unpackReactionsBatch(packed) });
      }
    };
    const onUpdated = (message: ChatMessage) => {
      if (sameRoom(message.room, roomName)) dispatch({ type: 'updated', message });
    };
    const onNotice = (notice: ModerationNotice) => {
      // A mute everywhere concerns this room too.
      if (notice.roomName === null || sameRoom(notice.roomName, roomName))
        dispatch({ type: 'notice', notice });
    };

    // One table, so each event is added and removed with the same listener. `satisfies` checks
    // every listener against its event's type in the contract.
    const listeners = {
      connect: join,
      room_history: onHistory,
      receive_message: onMessage,
      room_metadata: onMetadata,
      abuse_detected: onAbuse,
      room_closed: onClosed,
      chat_error: onError,
      message_updated: onUpdated,
      reactions_changed: onReactions,
      reactions_batch: onReactionsBatch,
      moderation_notice: onNotice,
    } satisfies Partial<Pick<SocketReservedEvents, 'connect'> & ServerToClientEvents>;
    // Object.keys types its result as string[]; these are exactly the table's own keys.
    const events = Object.keys(listeners) as (keyof typeof listeners)[];
    for (const event of events) socket.on(event, listeners[event]);
    if (socket.connected) join();
    return () => {
      for (const event of events) socket.off(event, listeners[event]);
      // Leaving by the browser's Back button too, so the member counts stay true.
      leaveChatRoom();
    };
  }, [roomName, userId]);

  /** Fetches the page before the oldest message held, if there is one. */
  const loadOlder = useCallback(() => {
    const current = latest.current;
    const oldest = current.messages[0]?.id;
    if (!current.hasMore || current.loadingOlder || oldest === undefined) return;
    // Marked at once, so a burst of scroll events asks only once.
    latest.current = { ...current, loadingOlder: true };
    dispatch({ type: 'loadingOlder', loading: true });
    void chatRequest('load_history', { roomName, before: oldest }).then((ack) => {
      if (ack.ok)
        dispatch({ type: 'older', messages: ack.history ?? [], hasMore: ack.hasMore ?? false });
      else dispatch({ type: 'error', message: ack.message });
    });
  }, [roomName]);

  /**
   * Sends a message; the acknowledgement says whether it was stored. A retry of a message that
   * was not acknowledged carries the same client id, so it is never stored twice.
   */
  const send = useCallback(
    async (message: string, sender: string, replyTo?: string): Promise<Ack> => {
      // Whatever the join answers: a refused join's room refuses the message with its reason.
      if (joining.current) await joining.current;
      const clientId = sendIds.idFor(message);
      const ack = await chatRequest('send_message', {
        room: roomName,
        message,
        sender,
        clientId,
        ...(replyTo ? { replyTo } : {}),
      });
      if (ack.ok) sendIds.acknowledged(message);
      return ack;
    },
    [roomName, sendIds],
  );

  /**
   * The browser's own check caught `text` (which is not sent as a message): the room is restricted
   * here at once, and the server is sent the text, so it restricts the room for everyone when its
   * own matcher agrees (decision 014, issue 19).
   */
  const reportAbuse = useCallback(
    (text: string) => {
      dispatch({ type: 'flag' });
      void chatRequest('report_abuse', { roomName, text: text.slice(0, MESSAGE_MAX) });
    },
    [roomName],
  );
  const acknowledge = useCallback(() => dispatch({ type: 'acknowledge' }), []);

  /** Lifts the restriction (creator or librarian). */
  const liftRestriction = useCallback(async (): Promise<Ack> => {
    const ack = await chatRequest('lift_restriction', { roomName });
    if (ack.ok) dispatch({ type: 'lifted' });
    return ack;
  }, [roomName]);

  /** Closes the room for everyone (creator or librarian). */
  const closeRoom = useCallback(
    (username: string): Promise<Ack> => chatRequest('close_room', { roomName, username }),
    [roomName],
  );

  /** Reports one message to the librarians (decision 040); the answer says it was received. */
  const reportMessage = useCallback(
    (messageId: string, reason: ReportReason, text: string): Promise<Ack> =>
      chatRequest('report_message', { messageId, reason, text }),
    [],
  );

  /** This tab's own reaction went through (its acknowledgement's `reaction`, decision 043). */
  const reacted = useCallback(
    (change: ReactionsChanged) => dispatch({ type: 'reactions', change, userId }),
    [userId],
  );

  /** Sets the room's rules (its creator or a librarian). */
  const setRules = useCallback(
    (rules: RoomRules): Promise<Ack> => chatRequest('set_room_rules', { roomName, ...rules }),
    [roomName],
  );

  return {
    ...state,
    restricted: isRestricted(state),
    reportMessage,
    setRules,
    loadOlder,
    send,
    reportAbuse,
    acknowledge,
    liftRestriction,
    closeRoom,
    reacted,
  };
}
