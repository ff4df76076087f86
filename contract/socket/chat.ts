import { z } from 'zod';
import { DATABASE_BIGINT_MAX, DATABASE_INTEGER_MAX, isDatabaseBigintId } from '../limits.ts';
import { hasInvisibleCharacters, NAME_TEXT, normaliseName } from '../names.ts';
import type { NoticeServerEvents } from './notices.ts';
import { ITEM_CARDS_MAX, ITEM_ID_PATTERN, type ItemAvailability } from '../http/item-cards.ts';

/*
 * The discussion forum's real-time contract (product spec section 7, "Realtime socket"). Event
 * names and payloads are the old client's; everything the server reads is parsed with these
 * schemas, and the typed event maps below type both Socket.IO ends.
 */

/** Longest and shortest room name, message and chat username. */
export const ROOM_NAME_MAX = 60;
export const ROOM_DESCRIPTION_MAX = 300;
export const MESSAGE_MAX = 2000;
export const CHAT_USERNAME_MIN = 2;
export const CHAT_USERNAME_MAX = 30;

/** Messages `room_history` carries on join, and per page of older history. */
export const HISTORY_PAGE = 100;

/** At most this many messages per `MESSAGE_RATE_WINDOW_MS` from one person. */
export const MESSAGE_RATE_LIMIT = 5;
export const MESSAGE_RATE_WINDOW_MS = 5_000;

/**
 * One `report_abuse` per person per room in this many seconds (issue 19), counted in the
 * database so that it holds across processes; a second one is refused with `retryAfter`.
 */
export const REPORT_INTERVAL_SECONDS = 600;

/** What a report's acknowledgement says (ours, issue 19). */
export const REPORT_TEXT = {
  received: 'Thank you. Your report was received, and a moderator will look at it.',
  tooSoon: 'You reported this room a moment ago. You can report it again later.',
} as const;

/** Why a member reports a message (decision 040), and how each is named. */
export const REPORT_REASONS = ['spam', 'harassment', 'hate', 'off-topic', 'other'] as const;
export type ReportReason = (typeof REPORT_REASONS)[number];
export const REPORT_REASON_LABELS: Record<ReportReason, string> = {
  spam: 'Spam',
  harassment: 'Harassment',
  hate: 'Hate',
  'off-topic': 'Off-topic',
  other: 'Something else',
};
/** The longest note a report may carry. */
export const REPORT_NOTE_MAX = 500;

/** Slow mode's bounds, in seconds (0 turns it off). */
export const SLOW_MODE_MIN = 5;
export const SLOW_MODE_MAX = 300;
/** A room's own word list and rules text, at most. */
export const ROOM_WORDS_MAX = 100;
export const ROOM_WORD_MAX_LENGTH = 60;
export const ROOM_RULES_MAX = 1000;

/** What members read in place of a hidden message, and what the people affected are told. */
export const MODERATION_TEXT = {
  hidden: 'message removed by a moderator',
  reported: 'Thank you. A librarian will look at this message.',
  alreadyReported: 'You already reported this message.',
  notMember:
    'This room is for its members only: only people who joined before it became members only can post.',
  roomWord: 'Your message holds a word this room does not allow. Please rephrase it.',
  rulesSaved: 'Room rules saved.',
} as const;

/**
 * Replies, reactions, edits and deletions (issue 26, decision 043). A person may edit or delete
 * their own message for this long after sending it, measured by the database's clock.
 */
export const EDIT_WINDOW_SECONDS = 600;
/** The reactions a member may add, in the order they are shown (a small fixed set). */
export const REACTION_EMOJI = ['👍', '❤️', '😂', '🎉', '😮', '🙏'] as const;
export type ReactionEmoji = (typeof REACTION_EMOJI)[number];
/** How each reaction is read out. */
export const REACTION_LABELS: Record<ReactionEmoji, string> = {
  '👍': 'thumbs up',
  '❤️': 'heart',
  '😂': 'laughing',
  '🎉': 'party',
  '😮': 'surprised',
  '🙏': 'thank you',
};
/**
 * A reaction names at most this many of the people who made it; its count says the rest ("Ada,
 * Alan, Grace and 7 others", as Discord shows). Three, not ten: the names are most of the bytes of
 * the `reactions_batch` every member of a busy room gets each second (decision 043).
 */
export const REACTION_NAMES_MAX = 3;
/** The longest excerpt of the original a reply quotes. */
export const REPLY_EXCERPT_MAX = 140;

/** What the person reads about replies, reactions, edits and deletions. */
export const THREADS_TEXT = {
  deleted: 'message deleted',
  edited: 'edited',
  tooLate: `You can edit or delete a message only within ${EDIT_WINDOW_SECONDS / 60} minutes of sending it.`,
  notYours: 'You can edit or delete only your own messages.',
  hiddenByModerator: 'A moderator removed this message; it cannot be changed.',
  alreadyDeleted: 'This message was deleted.',
  notInRoom: 'That message is not in the room you are in.',
  replyNotInRoom: 'You can reply only to a message of this room.',
  noReaction: 'You cannot react to this message.',
} as const;

/**
 * Mentions and unread (issue 26, decision 042). A message mentions at most this many people: more
 * `@name`s than that page nobody beyond the first ten, so one message cannot page a whole room.
 */
export const MENTIONS_PER_MESSAGE_MAX = 10;
/** Most members `room_members` answers (the composer's `@` list filters them in the browser). */
export const ROOM_MEMBERS_MAX = 1000;
/** The room list counts unread messages up to this; more reads as "99+". */
export const UNREAD_COUNT_MAX = 99;
/** The browser sends `mark_read` at most this often per room. */
export const MARK_READ_INTERVAL_MS = 2_000;
/**
 * A stored message marks its room active; each process tells the sockets showing the room list
 * which rooms were (`rooms_active`) at most this often, so a visited room's count follows a new
 * message within seconds without the server counting for every member (decision 042).
 */
export const ROOM_ACTIVITY_MS = 2_000;
/**
 * Room names one `rooms_active` carries at most (more wait for the next one): 30 names of up to
 * `ROOM_NAME_MAX` characters stay within one NOTIFY between processes.
 */
export const ROOMS_ACTIVE_MAX = 30;

/** A token bucket: `burst` events at once, then one more every `refillMs` (up to `burst`). */
export interface TokenBudget {
  burst: number;
  refillMs: number;
}

/**
 * What each group of client events may cost (issue 19): one bucket per socket and one per person,
 * which all of that person's sockets share (on every process, for `rooms` and `moderation`). Sized
 * so that nobody using the forum meets them: a person clicking through rooms and scrolling back,
 * a study group's rooms, a report now and then. A librarian's buckets for `rooms` and `moderation`
 * are `staffFactor` times larger and faster, to clear up after someone else.
 */
export const SOCKET_BUDGETS = {
  /** `join_room`, `leave_room`, `load_history`: 20 at once, then 2 a second (twice that per person). */
  joins: {
    socket: { burst: 20, refillMs: 500 },
    person: { burst: 40, refillMs: 250 },
    staffFactor: 1,
  },
  /** `create_room`, `close_room`: 5 at once, then one every 2 minutes. */
  rooms: {
    socket: { burst: 5, refillMs: 120_000 },
    person: { burst: 5, refillMs: 120_000 },
    staffFactor: 10,
  },
  /** `report_abuse`, `lift_restriction`: 5 at once, then one a minute. */
  moderation: {
    socket: { burst: 5, refillMs: 60_000 },
    person: { burst: 5, refillMs: 60_000 },
    staffFactor: 10,
  },
  /**
   * `typing` (decision 044): the browser sends one at most every `TYPING_SEND_INTERVAL_MS`, and the
   * server drops (without refusing) more than one per socket per `TYPING_MIN_INTERVAL_MS`; the
   * bucket only stops a script that floods, never a person typing in two tabs.
   */
  typing: {
    socket: { burst: 10, refillMs: 500 },
    person: { burst: 20, refillMs: 250 },
    staffFactor: 1,
  },
  /**
   * `edit_message`, `delete_message`, `react_message` (decision 043): 30 at once, then 4 a second
   * per socket (twice that per person), far above a person clicking reactions in a lively room.
   */
  edits: {
    socket: { burst: 30, refillMs: 250 },
    person: { burst: 60, refillMs: 125 },
    staffFactor: 1,
  },
  /**
   * `mark_read`, `unread_counts`, `room_members` (decision 042): 20 at once, then 2 a second per
   * socket (twice that per person); the browser sends `mark_read` once per 2 s at most.
   */
  reads: {
    socket: { burst: 20, refillMs: 500 },
    person: { burst: 40, refillMs: 250 },
    staffFactor: 1,
  },
  /**
   * `watch_items`, `unwatch_items` (decision 045): a room's cards ask once when shown; 20 at once,
   * then 2 a second per socket (twice that per person), far above scrolling through a room.
   */
  watch: {
    socket: { burst: 20, refillMs: 500 },
    person: { burst: 40, refillMs: 250 },
    staffFactor: 1,
  },
} as const satisfies Record<
  string,
  { socket: TokenBudget; person: TokenBudget; staffFactor: number }
>;
export type SocketBudgetGroup = keyof typeof SOCKET_BUDGETS;

/**
 * The budget group of each client event. `send_message` has its own rate per person
 * (`MESSAGE_RATE_LIMIT`), which refuses from memory before anything reaches the database.
 */
export const SOCKET_EVENT_GROUPS = {
  join_room: 'joins',
  leave_room: 'joins',
  load_history: 'joins',
  create_room: 'rooms',
  close_room: 'rooms',
  report_abuse: 'moderation',
  lift_restriction: 'moderation',
  report_message: 'moderation',
  set_room_rules: 'moderation',
  typing: 'typing',
  edit_message: 'edits',
  delete_message: 'edits',
  react_message: 'edits',
  mark_read: 'reads',
  unread_counts: 'reads',
  room_members: 'reads',
  watch_items: 'watch',
  unwatch_items: 'watch',
  send_message: null,
} as const satisfies Record<keyof ClientToServerEvents, SocketBudgetGroup | null>;

/**
 * A socket refused by its budgets more than this many times within `SOCKET_REFUSAL_WINDOW_MS` is
 * closed, and its person may not connect again for `SOCKET_SHUT_OUT_MS` (on that process): a
 * reconnection at once would start the same flood again, at the cost of a connection each time.
 */
export const SOCKET_REFUSALS_MAX = 20;
export const SOCKET_REFUSAL_WINDOW_MS = 10_000;
export const SOCKET_SHUT_OUT_MS = 30_000;

/**
 * Open rooms one person may have created at a time (librarians aside): enough for any study
 * group's needs, and a bound on the room list every socket receives.
 */
export const OPEN_ROOMS_PER_PERSON_MAX = 20;

/** A frame larger than this closes the connection. */
export const SOCKET_MAX_PAYLOAD_BYTES = 64 * 1024;

/** Spec strings of the forum and the room (section 8). */
export const CHAT_TEXT = {
  noRooms: 'No chat rooms available. Create one to get started!',
  noMessages: 'No messages yet. Start the conversation!',
  needBoth: 'Please enter both a username and room name',
  needUsername: 'Please enter a username first',
  duplicateRoom: 'A room with that name already exists',
  tooManyRooms: `You already have ${OPEN_ROOMS_PER_PERSON_MAX} open rooms. Delete one before creating another.`,
  restricted: 'This chat has been restricted due to inappropriate content.',
  abuseWarning: 'Abusive or inappropriate language has been detected in this conversation...',
  abuseWarningMore: 'Continued violation may result in account restrictions.',
  roomClosed: (roomName: string) => `Room ${roomName} has been closed by the creator.`,
} as const;

/** Event names, declared once (client → server, then server → client). */
export const CLIENT_EVENTS = {
  /** Ours (decision 045): hear `item_availability` for these items (the cards shown). */
  watchItems: 'watch_items',
  /** Ours (decision 045): stop hearing of these items. */
  unwatchItems: 'unwatch_items',
  createRoom: 'create_room',
  joinRoom: 'join_room',
  leaveRoom: 'leave_room',
  sendMessage: 'send_message',
  closeRoom: 'close_room',
  /** Ours: older messages for scrolling back. */
  loadHistory: 'load_history',
  /** Ours: the creator or a librarian lifts a room's restriction. */
  liftRestriction: 'lift_restriction',
  /**
   * Ours: the browser's own check caught a message, which it did not send, and reports it with
   * the text; the server restricts the room for everyone only when its own matcher finds abuse in
   * that text, and otherwise records a report for the moderators (decision 014, issue 19).
   */
  reportAbuse: 'report_abuse',
  /** Ours (decision 040): a member reports one message to the librarians. */
  reportMessage: 'report_message',
  /** Ours (decision 040): the creator or a librarian sets the room's rules. */
  setRoomRules: 'set_room_rules',
  /** Ours (decision 042): the person has read the room they joined up to a message. */
  markRead: 'mark_read',
  /** Ours (decision 042): the person's unread count and mention marker per room they visited. */
  unreadCounts: 'unread_counts',
  /** Ours (decision 042): the room's members, for the composer's `@` list. */
  roomMembers: 'room_members',
  /** Ours (decision 043): the sender changes the text of their message within the window. */
  editMessage: 'edit_message',
  /** Ours (decision 043): the sender deletes their message within the window. */
  deleteMessage: 'delete_message',
  /** Ours (decision 043): adds the person's reaction to a message, or takes it back. */
  reactMessage: 'react_message',
  /** Ours (decision 044): this person is typing in the room they joined (or stopped). */
  typing: 'typing',
} as const;

export const SERVER_EVENTS = {
  /** Ours (decision 045): a watched item's availability changed (`watch_items`). */
  itemAvailability: 'item_availability',
  availableRooms: 'available_rooms',
  roomHistory: 'room_history',
  receiveMessage: 'receive_message',
  roomMetadata: 'room_metadata',
  roomClosed: 'room_closed',
  abuseDetected: 'abuse_detected',
  chatError: 'chat_error',
  /** Ours (decision 040): a message was hidden or restored; it replaces the one held. */
  messageUpdated: 'message_updated',
  /** Ours (decision 040): a moderator muted or removed this person; show why and until when. */
  moderationNotice: 'moderation_notice',
  /**
   * Ours (decision 043): a message's reactions changed by this person's own toggle (to their
   * sockets only, at once); they replace the ones held, with `mine`.
   */
  reactionsChanged: 'reactions_changed',
  /** Ours (decision 043): the room's changed messages' reactions, at most once a second. */
  reactionsBatch: 'reactions_batch',
  /** Ours (decision 044): who is typing in the room now, at most once a second per room. */
  typingChanged: 'typing_changed',
  /** Ours (decision 044): who is in the room now, at most once every two seconds per room. */
  presenceChanged: 'presence_changed',
  /**
   * Ours (decision 042): rooms where messages were stored lately, at most once per
   * `ROOM_ACTIVITY_MS` per process, to the sockets that asked `unread_counts` (the room list).
   */
  roomsActive: 'rooms_active',
} as const;

const roomName = z
  .string({ message: 'Please enter a room name' })
  .trim()
  .min(1, 'Please enter a room name')
  .max(ROOM_NAME_MAX, `Room names are at most ${ROOM_NAME_MAX} characters`)
  .refine((name) => !/\p{Cc}/u.test(name), 'Room names cannot hold control characters');

/**
 * The name of a new room, as stored: normalised and free of invisible characters, so that no
 * look-alike of a room can be made (names.ts; the server also refuses one whose skeleton another
 * room has). A room's address is /room/{name}, and no address can hold '.' or '..' as a segment:
 * the browser resolves them ('/room/..' is '/'), even percent-encoded, so such a room could never
 * be opened. (Other events may still name one made before these rules, to close it.)
 */
const newRoomName = z
  .string({ message: 'Please enter a room name' })
  .refine((name) => !hasInvisibleCharacters(name), NAME_TEXT.roomInvisible)
  .trim()
  // The length of what was typed, and below of what is stored (NFKC may lengthen it).
  .max(ROOM_NAME_MAX, `Room names are at most ${ROOM_NAME_MAX} characters`)
  .refine((name) => !/\p{Cc}/u.test(name), 'Room names cannot hold control characters')
  .overwrite(normaliseName)
  .min(1, 'Please enter a room name')
  .max(ROOM_NAME_MAX, `Room names are at most ${ROOM_NAME_MAX} characters`)
  .refine((name) => name !== '.' && name !== '..', 'Room names cannot be "." or ".."');

/** Display names the client may send; the server never trusts them for identity. */
const displayName = z.string().max(200).optional();

/** True when `digits` (decimal, leading zeros allowed) name a message id: 1 to `bigint`'s largest. */
export const isMessageId = isDatabaseBigintId;

/**
 * A message id as a client sends it back (`after`, `before`): decimal text, since a `bigint` does
 * not fit a JavaScript number, and within the column's range, so that the database never sees one
 * it cannot hold (issue 19).
 */
const messageId = (field: string) =>
  z
    .string()
    .regex(/^\d{1,20}$/, `${field} must be a message id`)
    .refine(
      isMessageId,
      `${field} must be a message id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`,
    );

/** `create_room`: `creator` is display only; the creator is the signed-in user. */
export const createRoomSchema = z.object({
  roomName: newRoomName,
  description: z
    .string()
    .trim()
    .max(ROOM_DESCRIPTION_MAX, `Descriptions are at most ${ROOM_DESCRIPTION_MAX} characters`)
    .optional()
    .default(''),
  creator: displayName,
});
export type CreateRoomPayload = z.input<typeof createRoomSchema>;

/**
 * `join_room`. `after` (ours) is the id of the last message the client holds: after a reconnect,
 * `room_history` then carries only what it missed, so there is no gap and no duplicate.
 */
export const joinRoomSchema = z.object({
  roomName,
  after: messageId('after').optional(),
});
export type JoinRoomPayload = z.input<typeof joinRoomSchema>;

/** `send_message`: `sender` is display only. */
export const sendMessageSchema = z.object({
  room: roomName,
  message: z
    .string({ message: 'Type a message first' })
    .max(MESSAGE_MAX, `Messages are at most ${MESSAGE_MAX} characters`)
    .refine((text) => text.trim().length > 0, 'Type a message first'),
  sender: displayName,
  /**
   * Ours: an id the client makes once per message and sends again with every retry of it, so a
   * retry of a message that was stored but never acknowledged is answered with the stored message
   * instead of storing it twice (issue 19). Optional: the spec's payload goes without.
   */
  clientId: z.uuid('clientId must be a UUID').optional(),
  /** Ours (decision 043): the message this one replies to, in the same room. */
  replyTo: messageId('replyTo').optional(),
});
export type SendMessagePayload = z.input<typeof sendMessageSchema>;

/** `close_room`: `username` is display only; only the creator or a librarian may close. */
export const closeRoomSchema = z.object({ roomName, username: displayName });
export type CloseRoomPayload = z.input<typeof closeRoomSchema>;

/** `load_history`: the page of messages before `before` (a message id), oldest first. */
export const loadHistorySchema = z.object({
  roomName,
  before: messageId('before'),
});
export type LoadHistoryPayload = z.input<typeof loadHistorySchema>;

/** `lift_restriction`. */
export const liftRestrictionSchema = z.object({ roomName });
export type LiftRestrictionPayload = z.input<typeof liftRestrictionSchema>;

/**
 * `report_abuse`: the room, and (ours, issue 19) the text the browser's check held back. The
 * server restricts the room only when its own matcher finds abuse in `text`; without it, or when
 * it finds none, the report is recorded for the moderators.
 */
export const reportAbuseSchema = z.object({
  roomName,
  text: z.string().max(MESSAGE_MAX, `Messages are at most ${MESSAGE_MAX} characters`).optional(),
});
export type ReportAbusePayload = z.input<typeof reportAbuseSchema>;

/** `report_message`: the message, a reason from the short list, and an optional note. */
export const reportMessageSchema = z.object({
  messageId: messageId('messageId'),
  reason: z.enum(REPORT_REASONS, { message: 'Choose a reason for the report' }),
  text: z
    .string()
    .trim()
    .max(REPORT_NOTE_MAX, `Notes are at most ${REPORT_NOTE_MAX} characters`)
    .optional()
    .default(''),
});
export type ReportMessagePayload = z.input<typeof reportMessageSchema>;

/** The text of a message, as sent or edited. */
const messageText = z
  .string({ message: 'Type a message first' })
  .max(MESSAGE_MAX, `Messages are at most ${MESSAGE_MAX} characters`)
  .refine((text) => text.trim().length > 0, 'Type a message first');

/** `edit_message`: the room the socket is in, one's own message, and its new text. */
export const editMessageSchema = z.object({
  roomName,
  messageId: messageId('messageId'),
  text: messageText,
});
export type EditMessagePayload = z.input<typeof editMessageSchema>;

/** `delete_message`: the room the socket is in and one's own message. */
export const deleteMessageSchema = z.object({ roomName, messageId: messageId('messageId') });
export type DeleteMessagePayload = z.input<typeof deleteMessageSchema>;

/** `react_message`: adds the person's `emoji` to a message, or takes it back if they had. */
export const reactMessageSchema = z.object({
  roomName,
  messageId: messageId('messageId'),
  emoji: z.enum(REACTION_EMOJI, { message: 'Choose one of the reactions offered' }),
});
export type ReactMessagePayload = z.input<typeof reactMessageSchema>;

/** One reaction of a message: how many, the first few names, and whether the reader made it. */
export const reactionSummarySchema = z.object({
  emoji: z.enum(REACTION_EMOJI),
  count: z.number().int().min(1).max(DATABASE_INTEGER_MAX),
  names: z.array(z.string()).max(REACTION_NAMES_MAX),
  /** Only where the server knows the reader (history, catch-up); absent in a room broadcast. */
  mine: z.boolean().optional(),
});
export type ReactionSummary = z.infer<typeof reactionSummarySchema>;

/**
 * `reactions_changed`: all of a message's reactions now. `by` and `emoji` say whose toggle it was
 * (the server knows), so that person's tabs update their own `mine`; `added` whether it went on.
 * Sent to that person's own sockets only, at once (but the one that sent it, whose
 * acknowledgement carries it as `reaction`); the room hears `reactions_batch`.
 */
export const reactionsChangedSchema = z.object({
  roomName: z.string(),
  messageId: z.string(),
  reactions: z.array(reactionSummarySchema),
  by: z.string(),
  emoji: z.enum(REACTION_EMOJI),
  added: z.boolean(),
});
export type ReactionsChanged = z.infer<typeof reactionsChangedSchema>;

/**
 * Messages one `reactions_batch` carries at most; the rest go in the next ones, a second later each
 * (oldest change first). A bound on the bytes a room's reactions cost each member a second: 500
 * reactions a second, each to another message, would be as many bytes as the messages themselves.
 */
export const REACTIONS_BATCH_MAX = 100;
/** A room's `reactions_batch` goes out at most this often (per process). */
export const REACTIONS_FANOUT_MS = 1_000;

/**
 * A room's reactions since its last batch, as the browser uses them: the messages whose reactions
 * changed, each with all its reactions now (`[]`: none left). On the wire it is packed
 * (`PackedReactionsBatch`); `unpackReactionsBatch` gives this back.
 */
export const reactionsBatchSchema = z.object({
  roomName: z.string(),
  messages: z
    .array(z.object({ messageId: z.string(), reactions: z.array(reactionSummarySchema) }))
    .max(REACTIONS_BATCH_MAX),
});
export type ReactionsBatch = z.infer<typeof reactionsBatchSchema>;

/** One reaction in a packed batch: its place in `REACTION_EMOJI`, its count, its names. */
const packedReactionSchema = z.tuple([
  z
    .number()
    .int()
    .min(0)
    .max(REACTION_EMOJI.length - 1),
  z.number().int().min(1).max(DATABASE_INTEGER_MAX),
  z.array(z.string()).max(REACTION_NAMES_MAX),
]);

/**
 * `reactions_batch` on the wire: the room's messages whose reactions changed since the last one,
 * at most once per `REACTIONS_FANOUT_MS` per room and process, whoever reacted (decision 043): a
 * room of 500 reacting each second costs each member one frame a second. Each message is
 * `[messageId, reactions]`, each reaction `[emoji index, count, names]` (`["9", [[0, 2, ["Ada",
 * "Alan"]]]]`: 👍 twice). Packed because every member gets it every second: 100 messages with one
 * reaction each were 9.2 KB as objects and are 3.9 KB so (decision 043, session 23). No
 * `mine`: one payload for the room; a person's own toggles reach their sockets at once as
 * `reactions_changed`.
 */
export const packedReactionsBatchSchema = z.object({
  roomName: z.string(),
  messages: z.array(z.tuple([z.string(), z.array(packedReactionSchema)])).max(REACTIONS_BATCH_MAX),
});
export type PackedReactionsBatch = z.infer<typeof packedReactionsBatchSchema>;

/** `batch` as `reactions_batch` carries it (`packedReactionsBatchSchema`). */
export function packReactionsBatch(batch: ReactionsBatch): PackedReactionsBatch {
  return {
    roomName: batch.roomName,
    messages: batch.messages.map(({ messageId, reactions }) => [
      messageId,
      reactions.map(({ emoji, count, names }): [number, number, string[]] => [
        REACTION_EMOJI.indexOf(emoji),
        count,
        names,
      ]),
    ]),
  };
}

/**
 * A `reactions_batch` as the browser uses it; a reaction whose emoji it does not know (a newer
 * server's) is left out.
 */
export function unpackReactionsBatch(packed: PackedReactionsBatch): ReactionsBatch {
  return {
    roomName: packed.roomName,
    messages: packed.messages.map(([messageId, reactions]) => ({
      messageId,
      reactions: reactions.flatMap(([emoji, count, names]) => {
        const known = REACTION_EMOJI[emoji];
        return known ? [{ emoji: known, count, names }] : [];
      }),
    })),
  };
}

/** The message a reply quotes: a short excerpt, or none when it was deleted or hidden. */
export const replyQuoteSchema = z.object({
  id: z.string(),
  sender: z.string(),
  excerpt: z.string().max(REPLY_EXCERPT_MAX),
  deleted: z.boolean().optional(),
  hidden: z.boolean().optional(),
});
export type ReplyQuote = z.infer<typeof replyQuoteSchema>;

/** `mark_read`: the room the socket joined, read up to (and with) message `messageId`. */
export const markReadSchema = z.object({ roomName, messageId: messageId('messageId') });
export type MarkReadPayload = z.input<typeof markReadSchema>;

/** `room_members`: a room the socket joined. */
export const roomMembersSchema = z.object({ roomName });
export type RoomMembersPayload = z.input<typeof roomMembersSchema>;

/** One person a message mentions (decision 042): their id and the username as matched. */
export const mentionSchema = z.object({ userId: z.string(), name: z.string() });
export type Mention = z.infer<typeof mentionSchema>;

/** One member the composer's `@` list offers: their id and username. */
export const roomMemberSchema = z.object({ userId: z.string(), name: z.string() });
export type RoomMember = z.infer<typeof roomMemberSchema>;

/**
 * One room of `unread_counts`' answer: messages after the person's read marker (by others, up to
 * `UNREAD_COUNT_MAX`), and whether one of them mentions the person.
 */
export const roomUnreadSchema = z.object({
  roomName: z.string(),
  unread: z.number().int().min(0).max(UNREAD_COUNT_MAX),
  mentioned: z.boolean(),
});
export type RoomUnread = z.infer<typeof roomUnreadSchema>;

/**
 * `rooms_active` (decision 042): rooms in which a message was stored since the last one. Only
 * names the room list shows every signed-in person anyway; the browser asks `unread_counts` again
 * when one of them is a room it holds a count for.
 */
export const roomsActiveSchema = z.object({
  roomNames: z.array(z.string()).max(ROOMS_ACTIVE_MAX),
});
export type RoomsActive = z.infer<typeof roomsActiveSchema>;

/** A room's rules as its creator sets them (and as `room_metadata` carries them). */
export const roomRulesSchema = z.object({
  /** 0: off; else one message per this many seconds per person. */
  slowModeSeconds: z
    .number({ message: 'Slow mode is a number of seconds' })
    .int('Slow mode is a whole number of seconds')
    .refine(
      (value) => value === 0 || (value >= SLOW_MODE_MIN && value <= SLOW_MODE_MAX),
      `Slow mode is off (0) or ${SLOW_MODE_MIN} to ${SLOW_MODE_MAX} seconds`,
    ),
  words: z
    .array(
      z
        .string()
        .trim()
        .min(1, 'A room word cannot be empty')
        .max(ROOM_WORD_MAX_LENGTH, `Room words are at most ${ROOM_WORD_MAX_LENGTH} characters`),
    )
    .max(ROOM_WORDS_MAX, `A room has at most ${ROOM_WORDS_MAX} words`),
  membersOnly: z.boolean(),
  rules: z.string().trim().max(ROOM_RULES_MAX, `Rules are at most ${ROOM_RULES_MAX} characters`),
});
export type RoomRules = z.infer<typeof roomRulesSchema>;

/** `set_room_rules`: the room and its new rules (the creator or a librarian). */
export const setRoomRulesSchema = roomRulesSchema.extend({ roomName });
export type SetRoomRulesPayload = z.input<typeof setRoomRulesSchema>;

/**
 * `typing`: the person is typing in `roomName` (the room their socket joined), or stopped
 * (`typing: false`, when they send or clear the box). Ours (decision 044).
 */
export const typingSchema = z.object({
  roomName,
  typing: z.boolean({ message: 'typing is true or false' }).optional().default(true),
});
export type TypingPayload = z.input<typeof typingSchema>;

/**
 * `watch_items` and `unwatch_items`: up to `ITEM_CARDS_MAX` item ids (UUIDs) whose availability
 * the socket hears of (decision 045).
 */
export const watchItemsSchema = z.object({
  itemIds: z
    .array(z.string().regex(ITEM_ID_PATTERN, 'Each item id must be a UUID'), {
      message: 'itemIds lists item ids',
    })
    .min(1, 'Name at least one item')
    .max(ITEM_CARDS_MAX, `Watch at most ${ITEM_CARDS_MAX} items at once`),
});
export type WatchItemsPayload = z.input<typeof watchItemsSchema>;

/** The browser sends `typing` at most this often while the person types. */
export const TYPING_SEND_INTERVAL_MS = 3_000;
/** More than one `typing` per socket within this is dropped by the server, without a refusal. */
export const TYPING_MIN_INTERVAL_MS = 1_000;
/** A room's `typing_changed` goes out at most this often. */
export const TYPING_FANOUT_MS = 1_000;
/** Someone not heard typing for this long is no longer typing (server and browser). */
export const TYPING_EXPIRE_MS = 5_000;
/** Names `typing_changed` carries at most; the rest are counted in `others`. */
export const TYPING_NAMES_MAX = 3;
/** A room's `presence_changed` goes out at most this often. */
export const PRESENCE_FANOUT_MS = 2_000;
/** Names `presence_changed` carries at most; `count` says how many are here in all. */
export const PRESENCE_NAMES_MAX = 50;

/** `typing_changed`: who is typing in the room now (the first few names, and how many more). */
export interface TypingChanged {
  roomName: string;
  names: string[];
  /** The ids of the people `names` lists, in order, so a browser can leave its own person out. */
  userIds: string[];
  /** People typing besides `names`. */
  others: number;
}

/** `presence_changed`: how many people are in the room now, and the first names in order. */
export interface PresenceChanged {
  roomName: string;
  count: number;
  names: string[];
}

/** "Ada is typing…", "Ada and Bo are typing…", "Ada and 3 others are typing…", or ''. */
export function typingText({ names, others }: Pick<TypingChanged, 'names' | 'others'>): string {
  if (names.length === 0) return '';
  if (others > 0) {
    const listed =
      names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')}, ${names.at(-1)}`;
    return `${listed} and ${others} ${others === 1 ? 'other' : 'others'} are typing…`;
  }
  if (names.length === 1) return `${names[0]} is typing…`;
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are typing…`;
}

/** `moderation_notice`: what a moderator did to this person, why, and until when. */
export interface ModerationNotice {
  /** `lift` (decision 044): a librarian ended a mute early; the person may post again. */
  action: 'mute' | 'remove' | 'lift';
  /** The room, or null for a mute in every room. */
  roomName: string | null;
  reason: string;
  endsAt: string;
  /** A plain sentence to show. */
  message: string;
}

/**
 * One room of `available_rooms`. `creatorId` lets a client tell its own rooms. `isDemo` (ours) is
 * true for a room of the demo data, which the list marks; ordinary rooms leave it out.
 */
export const roomSummarySchema = z.object({
  roomName: z.string(),
  description: z.string(),
  creator: z.string(),
  creatorId: z.string(),
  createdAt: z.string(),
  memberCount: z.number(),
  abuseDetected: z.boolean(),
  isDemo: z.boolean().optional(),
});
export type RoomSummary = z.infer<typeof roomSummarySchema>;

/**
 * One message. `id` orders messages; `senderId` (null for system messages) tells 'You'. `isStaff`
 * (ours) is true on a message a librarian sent, set by the server from the sender's role (never
 * from the client), so the forum can badge it; other messages leave it out.
 */
export const chatMessageSchema = z.object({
  id: z.string(),
  room: z.string(),
  sender: z.string(),
  senderId: z.string().nullable(),
  content: z.string(),
  time: z.string(),
  isSystemMessage: z.boolean(),
  isStaff: z.boolean().optional(),
  /** Ours (decision 040): hidden by a moderator; `content` is then `MODERATION_TEXT.hidden`. */
  hidden: z.boolean().optional(),
  /** Ours (decision 043): the message this one replies to. */
  replyTo: replyQuoteSchema.optional(),
  /** Ours (decision 043): when its sender last edited it. */
  editedAt: z.string().optional(),
  /** Ours (decision 043): deleted by its sender; `content` is then `THREADS_TEXT.deleted`. */
  deleted: z.boolean().optional(),
  /**
   * Ours (decision 043): its reactions, in history; `message_updated` leaves them out (the client
   * keeps those it holds) except on a catch-up, which always says.
   */
  reactions: z.array(reactionSummarySchema).optional(),
  /**
   * Ours (decision 042): the people it mentions, resolved by the server against the room's
   * members; left out when it mentions nobody, except on `message_updated` after an edit and on
   * a catch-up, which always say (an empty list: the edit took them out).
   */
  mentions: z.array(mentionSchema).max(MENTIONS_PER_MESSAGE_MAX).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** `room_metadata`. */
export const roomMetadataSchema = z.object({
  roomName: z.string(),
  creator: z.string(),
  creatorId: z.string(),
  abuseDetected: z.boolean(),
  /** Ours, as in the room list: true for a room of the demo data, left out otherwise. */
  isDemo: z.boolean().optional(),
  /** Ours (decision 040): the room's rules, left out while none is set. */
  rules: roomRulesSchema.optional(),
  /** Ours (decision 045): the catalogue item the room discusses, left out for other rooms. */
  itemId: z.string().optional(),
});
export type RoomMetadata = z.infer<typeof roomMetadataSchema>;

/** What `room_history` says besides the messages (ours; the old client read only the array). */
export interface RoomHistoryInfo {
  roomName: string;
  /** Older messages exist (load them with `load_history`). False on a catch-up after `after`. */
  hasMore: boolean;
  /**
   * A catch-up that could not join up with what the client holds (more than the server sends at
   * once was missed): these are the latest messages, to show instead of everything held.
   */
  replace?: boolean;
  /**
   * Ours (decision 042): the last message this person had read in the room before this join,
   * when they had been here before; the browser draws "New messages" above the next one.
   */
  lastReadId?: string;
}

/**
 * What every acknowledgement answers. `history` only on `load_history`; `retryAfter` when a
 * budget refused the event: the seconds after which it may be sent again. `message` on success
 * is a sentence to show (a report received for the moderators); `code` names the few refusals a
 * client acts on, as the HTTP error shape's does (`EMAIL_NOT_VERIFIED_CODE`).
 */
export type Ack =
  | {
      ok: true;
      id?: string;
      history?: ChatMessage[];
      hasMore?: boolean;
      message?: string;
      /** `unread_counts` (decision 042). */
      unread?: RoomUnread[];
      /** `room_members` (decision 042). */
      members?: RoomMember[];
      /**
       * `react_message` (decision 043): the toggle, as the person's other tabs hear it in
       * `reactions_changed`; the tab that sent it learns it here, in no second frame.
       */
      reaction?: ReactionsChanged;
    }
  | { ok: false; message: string; retryAfter?: number; code?: string };
type AckFn = (answer: Ack) => void;

/** Client → server events, for `Socket<ServerToClient, ClientToServer>` on both ends. */
export interface ClientToServerEvents {
  create_room: (payload: CreateRoomPayload, ack?: AckFn) => void;
  join_room: (payload: JoinRoomPayload, ack?: AckFn) => void;
  leave_room: (ack?: AckFn) => void;
  send_message: (payload: SendMessagePayload, ack?: AckFn) => void;
  close_room: (payload: CloseRoomPayload, ack?: AckFn) => void;
  load_history: (payload: LoadHistoryPayload, ack?: AckFn) => void;
  lift_restriction: (payload: LiftRestrictionPayload, ack?: AckFn) => void;
  report_abuse: (payload: ReportAbusePayload, ack?: AckFn) => void;
  report_message: (payload: ReportMessagePayload, ack?: AckFn) => void;
  set_room_rules: (payload: SetRoomRulesPayload, ack?: AckFn) => void;
  edit_message: (payload: EditMessagePayload, ack?: AckFn) => void;
  delete_message: (payload: DeleteMessagePayload, ack?: AckFn) => void;
  react_message: (payload: ReactMessagePayload, ack?: AckFn) => void;
  typing: (payload: TypingPayload, ack?: AckFn) => void;
  watch_items: (payload: WatchItemsPayload, ack?: AckFn) => void;
  unwatch_items: (payload: WatchItemsPayload, ack?: AckFn) => void;
  mark_read: (payload: MarkReadPayload, ack?: AckFn) => void;
  /** No payload (as `leave_room`): the answer is the caller's own. */
  unread_counts: (ack?: AckFn) => void;
  room_members: (payload: RoomMembersPayload, ack?: AckFn) => void;
}

/** Server → client events. */
export interface ServerToClientEvents extends NoticeServerEvents {
  available_rooms: (rooms: RoomSummary[]) => void;
  room_history: (messages: ChatMessage[], info?: RoomHistoryInfo) => void;
  receive_message: (message: ChatMessage) => void;
  room_metadata: (metadata: RoomMetadata) => void;
  room_closed: (payload: { roomName: string }) => void;
  abuse_detected: (payload: { roomName: string }) => void;
  chat_error: (payload: { message: string }) => void;
  message_updated: (message: ChatMessage) => void;
  moderation_notice: (notice: ModerationNotice) => void;
  reactions_changed: (payload: ReactionsChanged) => void;
  reactions_batch: (payload: PackedReactionsBatch) => void;
  typing_changed: (payload: TypingChanged) => void;
  presence_changed: (payload: PresenceChanged) => void;
  rooms_active: (payload: RoomsActive) => void;
  item_availability: (payload: ItemAvailability) => void;
}

/**
 * `PUT /api/users/chat-username`: the forum's 'Choose a username', kept on the profile, in the
 * normalised form (names.ts). Whether it is taken or kept for staff, the server answers.
 */
export const chatUsernameSchema = z.object({
  username: z
    .string({ message: 'Please enter a username first' })
    .refine((name) => !hasInvisibleCharacters(name), NAME_TEXT.usernameInvisible)
    .trim()
    // The length of what was typed, and below of what is stored (NFKC may change it).
    .max(CHAT_USERNAME_MAX, `Usernames are ${CHAT_USERNAME_MIN} to ${CHAT_USERNAME_MAX} characters`)
    // NFKC turns full-width '＜' into '<': look at the name as it will be stored.
    .refine(
      (name) => !/[\p{Cc}<>]/u.test(name.normalize('NFKC')),
      'Usernames cannot hold < > or control characters',
    )
    .overwrite(normaliseName)
    .min(CHAT_USERNAME_MIN, `Usernames are ${CHAT_USERNAME_MIN} to ${CHAT_USERNAME_MAX} characters`)
    .max(
      CHAT_USERNAME_MAX,
      `Usernames are ${CHAT_USERNAME_MIN} to ${CHAT_USERNAME_MAX} characters`,
    ),
});
export const chatUsernameResponseSchema = z.object({ username: z.string() });

/** `GET /api/chat/moderation-words`: the library's extra abuse words, checked in the browser too. */
export const moderationWordsResponseSchema = z.object({ words: z.array(z.string()) });
