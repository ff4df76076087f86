import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATABASE_BIGINT_MAX } from '#contract/limits.ts';
import { isScreenPath, roomPath } from '#contract/routes.ts';
import {
  CHAT_USERNAME_MAX,
  CLIENT_EVENTS,
  MESSAGE_MAX,
  REACTION_EMOJI,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  ROOM_DESCRIPTION_MAX,
  ROOM_NAME_MAX,
  ROOM_RULES_MAX,
  ROOM_WORD_MAX_LENGTH,
  SLOW_MODE_MAX,
  SLOW_MODE_MIN,
} from '#contract/socket/chat.ts';
import { enteredText, hostileString, hostileValue } from '../../test/json-schema-arbitrary.ts';
import { PAYLOAD_SCHEMAS, parsePayload } from './payload.ts';
import { Refusal } from '../../refusal.ts';

/*
 * The server's parse of every client event's payload (`parsePayload`), the only door from a
 * socket to the chat's handlers: whatever a client sends, it returns the parsed payload or
 * throws a Refusal whose message the person is shown, never anything else; and each kind of
 * bad payload gets the refusal the contract words for it.
 */

const RUNS = Number(process.env.PROPERTY_RUNS ?? 150);
const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);

type Event = keyof typeof PAYLOAD_SCHEMAS;
const EVENTS = Object.keys(PAYLOAD_SCHEMAS) as Event[];
/** The events that name catalogue items, not a room, and carry no text (decision 045). */
const ITEM_EVENTS: Event[] = ['watch_items', 'unwatch_items'];
/** The events whose first field is a room's name (decision 040's carry a message id or rules). */
const ROOM_NAME_EVENTS = EVENTS.filter(
  (event) =>
    event !== 'report_message' && event !== 'set_room_rules' && !ITEM_EVENTS.includes(event),
);

/** Why the database cannot store a text (`unstorableText`), as the person is told. */
const NUL_REFUSAL = 'Text cannot contain the NUL character (U+0000).';
const SURROGATE_REFUSAL = 'Text must be valid Unicode (it holds a lone surrogate).';
const CONTROL_REFUSAL = 'Room names cannot hold control characters';

const roomName = enteredText(1, ROOM_NAME_MAX).filter((name) => name !== '.' && name !== '..');
const displayName = fc.option(enteredText(1, CHAT_USERNAME_MAX), { nil: undefined });
const messageId = fc.bigInt({ min: 1n, max: DATABASE_BIGINT_MAX }).map(String);
/** Digits a message id cannot be: beyond `bigint` (issue 19's "99999999999999999999"), or zero. */
const outOfRangeId = fc.oneof(
  fc.bigInt({ min: DATABASE_BIGINT_MAX + 1n, max: 10n ** 20n - 1n }).map(String),
  fc.constant('99999999999999999999'),
  fc.stringMatching(/^0{1,20}$/),
);

/** A payload each event accepts. */
const VALID: { [E in Event]: fc.Arbitrary<Record<string, unknown>> } = {
  create_room: fc.record(
    {
      roomName,
      description: fc.string({ maxLength: ROOM_DESCRIPTION_MAX }),
      creator: displayName,
    },
    { requiredKeys: ['roomName'] },
  ),
  join_room: fc.record({ roomName, after: messageId }, { requiredKeys: ['roomName'] }),
  send_message: fc.record(
    {
      room: roomName,
      message: enteredText(1, MESSAGE_MAX),
      sender: displayName,
      clientId: fc.uuid({ version: 4 }),
      replyTo: messageId,
    },
    { requiredKeys: ['room', 'message'] },
  ),
  edit_message: fc.record({ roomName, messageId, text: enteredText(1, MESSAGE_MAX) }),
  delete_message: fc.record({ roomName, messageId }),
  react_message: fc.record({ roomName, messageId, emoji: fc.constantFrom(...REACTION_EMOJI) }),
  close_room: fc.record({ roomName, username: displayName }, { requiredKeys: ['roomName'] }),
  load_history: fc.record({ roomName, before: messageId }),
  lift_restriction: fc.record({ roomName }),
  report_abuse: fc.record(
    { roomName, text: fc.string({ maxLength: MESSAGE_MAX }) },
    { requiredKeys: ['roomName'] },
  ),
  report_message: fc.record({
    messageId,
    reason: fc.constantFrom(...REPORT_REASONS),
    text: enteredText(1, REPORT_NOTE_MAX),
  }),
  set_room_rules: fc.record({
    roomName,
    slowModeSeconds: fc.oneof(
      fc.constant(0),
      fc.integer({ min: SLOW_MODE_MIN, max: SLOW_MODE_MAX }),
    ),
    words: fc.array(enteredText(1, ROOM_WORD_MAX_LENGTH), { maxLength: 5 }),
    membersOnly: fc.boolean(),
    rules: enteredText(1, ROOM_RULES_MAX),
  }),
  typing: fc.record({ roomName, typing: fc.boolean() }, { requiredKeys: ['roomName'] }),
  mark_read: fc.record({ roomName, messageId }),
  room_members: fc.record({ roomName }),
  watch_items: fc.record({ itemIds: fc.array(fc.uuid(), { minLength: 1, maxLength: 50 }) }),
  unwatch_items: fc.record({ itemIds: fc.array(fc.uuid(), { minLength: 1, maxLength: 50 }) }),
};

/** The room-name field of each event's payload. */
const ROOM_FIELD = (event: Event) => (event === 'send_message' ? 'room' : 'roomName');

/** Anything a client can put in a Socket.IO frame, and then some. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    key: fc.oneof(
      fc.constantFrom('__proto__', 'constructor', 'roomName', 'room', 'message'),
      fc.string(),
    ),
    values: [hostileString, fc.integer(), fc.boolean(), fc.constant(null)],
    maxDepth: 3,
    withNullPrototype: true,
    withBigInt: true,
    withDate: true,
    withTypedArray: true,
  }),
  hostileValue,
  fc.dictionary(
    fc.constantFrom('roomName', 'room', 'message', 'description', 'before', 'after', 'creator'),
    fc.oneof(hostileString, hostileValue),
  ),
);

/** Calls `parsePayload`, saying how it ended: the parsed payload, or the refusal's message. */
function attempt(
  event: Event,
  payload: unknown,
): { ok: true; data: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, data: parsePayload(event, payload) };
  } catch (error) {
    // Anything but a Refusal would reach the person as 'Something went wrong' and the log as a fault.
    expect(error).toBeInstanceOf(Refusal);
    return { ok: false, message: (error as Refusal).message };
  }
}

describe('chat payload parsing (fast-check)', () => {
  it('has a schema for every client event that carries a payload', () => {
    // `leave_room` and `unread_counts` (decision 042) carry no payload.
    expect([...EVENTS, 'leave_room', 'unread_counts'].sort()).toEqual(
      Object.values(CLIENT_EVENTS).sort(),
    );
  });

  it.each(EVENTS)('%s: anything at all is parsed or refused in words, never thrown', (event) => {
    fc.assert(
      fc.property(anything, (payload) => {
        const outcome = attempt(event, payload);
        const checked = PAYLOAD_SCHEMAS[event].safeParse(payload);
        if (outcome.ok) {
          expect(checked.success).toBe(true);
          return;
        }
        expect(outcome.message.trim()).not.toBe('');
        // The refusal is the schema's first problem, or why the text cannot be stored.
        if (checked.success) expect([NUL_REFUSAL, SURROGATE_REFUSAL]).toContain(outcome.message);
        else expect(outcome.message).toBe(checked.error.issues[0]!.message);
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it.each(EVENTS)('%s: a valid payload is accepted as the schema reads it', (event) => {
    fc.assert(
      fc.property(VALID[event], (payload) => {
        const outcome = attempt(event, payload);
        expect(outcome).toEqual({ ok: true, data: PAYLOAD_SCHEMAS[event].parse(payload) });
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });

  it.each(EVENTS.filter((event) => !ITEM_EVENTS.includes(event)))(
    '%s: text the database cannot store is refused, saying why',
    (event) => {
      fc.assert(
        fc.property(
          VALID[event],
          fc.constantFrom('\u0000', '\uD800', '\uDFFF'),
          fc.nat(),
          (payload, taint, at) => {
            // One text field of the payload gets the character somewhere inside.
            const fields = Object.keys(payload).filter(
              (key) =>
                typeof payload[key] === 'string' &&
                ![
                  'after',
                  'before',
                  'clientId',
                  'messageId',
                  'reason',
                  'replyTo',
                  'emoji',
                ].includes(key),
            );
            const field = fields[at % fields.length]!;
            const text = payload[field] as string;
            const index = at % (text.length + 1);
            const bad = { ...payload, [field]: text.slice(0, index) + taint + text.slice(index) };
            const outcome = attempt(event, bad);
            expect(outcome.ok).toBe(false);
            const expected =
              taint === '\u0000'
                ? field === ROOM_FIELD(event)
                  ? CONTROL_REFUSAL
                  : NUL_REFUSAL
                : SURROGATE_REFUSAL;
            if (!outcome.ok) expect(outcome.message).toBe(expected);
          },
        ),
        { numRuns: RUNS, seed: SEED },
      );
    },
  );

  it('refuses each kind of bad room name, message and id with its own words', () => {
    const cases: [string, fc.Arbitrary<[Event, Record<string, unknown>]>, string][] = [
      [
        'blank room name',
        fc
          .tuple(
            fc.constantFrom(...ROOM_NAME_EVENTS),
            fc.stringMatching(/^[ \t\n\r\u00a0\u2003]{0,5}$/),
          )
          .map(([event, name]) => [
            event,
            { roomName: name, room: name, message: 'hi', before: '1' },
          ]),
        'Please enter a room name',
      ],
      [
        'long room name',
        fc
          .tuple(fc.constantFrom(...ROOM_NAME_EVENTS), enteredText(ROOM_NAME_MAX + 1, 200))
          .map(([event, name]) => [
            event,
            { roomName: name, room: name, message: 'hi', before: '1' },
          ]),
        `Room names are at most ${ROOM_NAME_MAX} characters`,
      ],
      [
        'room name with a control character',
        fc
          .tuple(
            fc.constantFrom(...ROOM_NAME_EVENTS),
            enteredText(2, ROOM_NAME_MAX - 1),
            fc.nat(),
            fc.integer({ min: 0, max: 0x9f }).filter((code) => code < 0x20 || code >= 0x7f),
          )
          .map(([event, name, at, code]) => {
            // Inside the name: at either end, trimming would take a space-like one away.
            const index = 1 + (at % (name.length - 1));
            const withControl =
              name.slice(0, index) + String.fromCharCode(code) + name.slice(index);
            return [
              event,
              { roomName: withControl, room: withControl, message: 'hi', before: '1' },
            ];
          }),
        CONTROL_REFUSAL,
      ],
      [
        'blank message',
        fc
          .tuple(roomName, fc.stringMatching(/^[ \t\n\r\u00a0\u2003]{0,8}$/))
          .map(([room, message]) => ['send_message', { room, message }]),
        'Type a message first',
      ],
      [
        'long message',
        fc
          .tuple(roomName, fc.integer({ min: MESSAGE_MAX + 1, max: MESSAGE_MAX * 3 }))
          .map(([room, length]) => ['send_message', { room, message: 'm'.repeat(length) }]),
        `Messages are at most ${MESSAGE_MAX} characters`,
      ],
      [
        'message that is not text',
        fc
          .tuple(
            roomName,
            fc.oneof(fc.integer(), fc.constant(null), fc.constant({}), fc.constant([])),
          )
          .map(([room, message]) => ['send_message', { room, message }]),
        'Type a message first',
      ],
      [
        'history page before something that is not a message id',
        fc
          .tuple(
            roomName,
            hostileString.filter((text) => !/^\d{1,20}$/.test(text)),
          )
          .map(([name, before]) => ['load_history', { roomName: name, before }]),
        'before must be a message id',
      ],
      [
        'join after something that is not a message id',
        fc
          .tuple(
            roomName,
            hostileString.filter((text) => !/^\d{1,20}$/.test(text)),
          )
          .map(([name, after]) => ['join_room', { roomName: name, after }]),
        'after must be a message id',
      ],
      [
        'history page before an id beyond what the database holds, or zero',
        fc
          .tuple(roomName, outOfRangeId)
          .map(([name, before]) => ['load_history', { roomName: name, before }]),
        `before must be a message id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`,
      ],
      [
        'join after an id beyond what the database holds, or zero',
        fc
          .tuple(roomName, outOfRangeId)
          .map(([name, after]) => ['join_room', { roomName: name, after }]),
        `after must be a message id, a whole number from 1 to ${DATABASE_BIGINT_MAX}`,
      ],
      [
        'client id that is not a UUID',
        fc
          .tuple(
            roomName,
            hostileString.filter((text) => !/^[0-9a-f-]{36}$/i.test(text)),
          )
          .map(([room, clientId]) => ['send_message', { room, message: 'hi', clientId }]),
        'clientId must be a UUID',
      ],
      [
        'blank edit',
        fc
          .tuple(roomName, messageId, fc.stringMatching(/^[ \t\n\r\u00a0\u2003]{0,8}$/))
          .map(([name, id, text]) => ['edit_message', { roomName: name, messageId: id, text }]),
        'Type a message first',
      ],
      [
        'long edit',
        fc
          .tuple(roomName, messageId, fc.integer({ min: MESSAGE_MAX + 1, max: MESSAGE_MAX * 2 }))
          .map(([name, id, length]) => [
            'edit_message',
            { roomName: name, messageId: id, text: 'm'.repeat(length) },
          ]),
        `Messages are at most ${MESSAGE_MAX} characters`,
      ],
      [
        'reply to something that is not a message id',
        fc
          .tuple(
            roomName,
            hostileString.filter((text) => !/^\d{1,20}$/.test(text)),
          )
          .map(([room, replyTo]) => ['send_message', { room, message: 'hi', replyTo }]),
        'replyTo must be a message id',
      ],
      [
        'reaction outside the set',
        fc
          .tuple(
            roomName,
            messageId,
            fc.oneof(
              hostileString.filter((text) => !(REACTION_EMOJI as readonly string[]).includes(text)),
              fc.constantFrom('👎', '💩', ':+1:', '👍🏽'),
            ),
          )
          .map(([name, id, emoji]) => ['react_message', { roomName: name, messageId: id, emoji }]),
        'Choose one of the reactions offered',
      ],
      [
        'edit or delete of something that is not a message id',
        fc
          .tuple(
            fc.constantFrom<Event>('edit_message', 'delete_message', 'react_message'),
            roomName,
            hostileString.filter((text) => !/^\d{1,20}$/.test(text)),
          )
          .map(([event, name, id]) => [
            event,
            { roomName: name, messageId: id, text: 'hi', emoji: '👍' },
          ]),
        'messageId must be a message id',
      ],
      [
        'new room named "." or ".." (its address would resolve elsewhere)',
        fc
          .tuple(fc.constantFrom('.', '..', ' . ', '.. '), fc.constantFrom('', 'x'))
          .map(([roomName, description]) => ['create_room', { roomName, description }]),
        'Room names cannot be "." or ".."',
      ],
      [
        'long description',
        fc
          .tuple(roomName, enteredText(ROOM_DESCRIPTION_MAX + 1, 1000))
          .map(([name, description]) => ['create_room', { roomName: name, description }]),
        `Descriptions are at most ${ROOM_DESCRIPTION_MAX} characters`,
      ],
    ];
    for (const [what, arbitrary, refusal] of cases) {
      fc.assert(
        fc.property(arbitrary, ([event, payload]) => {
          expect(attempt(event, payload), what).toEqual({ ok: false, message: refusal });
        }),
        { numRuns: 40, seed: SEED },
      );
    }
  });

  it('gives every room name create_room accepts an address that leads back to it', () => {
    const name = fc.oneof(
      roomName,
      hostileString,
      fc.string({ unit: 'binary', maxLength: 60 }),
      // Dot segments, which a browser resolves away (found by this property).
      fc.constantFrom('.', '..', ' .. ', '...', '.a', '%2e%2e', '../x'),
    );
    fc.assert(
      fc.property(name, (candidate) => {
        const outcome = attempt('create_room', { roomName: candidate });
        if (!outcome.ok) return;
        const stored = (outcome.data as { roomName: string }).roomName;
        // As the browser reads the address: dot segments resolved, then the segment decoded.
        const { pathname } = new URL(roomPath(stored), 'http://library.test');
        expect(isScreenPath(pathname)).toBe(true);
        expect(pathname.startsWith('/room/')).toBe(true);
        expect(decodeURIComponent(pathname.slice('/room/'.length))).toBe(stored);
      }),
      { numRuns: RUNS * 2, seed: SEED },
    );
    // Any text at all has an address of one segment that decodes back to it (half a surrogate
    // pair, which encodeURIComponent refuses and no stored name holds, as U+FFFD).
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.string({ unit: 'binary', maxLength: 40 })), (text) => {
        const path = roomPath(text);
        expect(path).toMatch(/^\/room\/[^/]*$/);
        expect(decodeURIComponent(path.slice('/room/'.length))).toBe(
          text.replace(/[\uD800-\uDFFF]/gu, '\uFFFD'),
        );
      }),
      { numRuns: RUNS, seed: SEED },
    );
    // Names made before the rule can still be named, so their creator can close them.
    expect(attempt('close_room', { roomName: '..' })).toEqual({
      ok: true,
      data: { roomName: '..' },
    });
  });
});
