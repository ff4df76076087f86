import { describe, expect, it } from 'vitest';
import type { ChatMessage, RoomMetadata } from '#contract/socket/chat.ts';
import {
  compareMessageIds,
  createSendIds,
  INITIAL_ROOM_STATE,
  isRestricted,
  mergeMessages,
  newClientId,
  roomReducer,
} from './chat-room.ts';

const message = (id: string, content = `Message ${id}`): ChatMessage => ({
  id,
  room: 'Physics 101',
  sender: 'Grace',
  senderId: 'user-2',
  content,
  time: '2026-03-02T10:15:00.000Z',
  isSystemMessage: false,
});

const ids = (messages: readonly ChatMessage[]) => messages.map((item) => item.id);

describe('mergeMessages', () => {
  it('orders by numeric id, not as text', () => {
    expect(ids(mergeMessages([message('9')], [message('10'), message('2')]))).toEqual([
      '2',
      '9',
      '10',
    ]);
    expect(compareMessageIds('99999999999999999998', '99999999999999999999')).toBeLessThan(0);
  });

  it('drops messages already held and repeated ones in the same batch', () => {
    const held = [message('1'), message('2'), message('3')];
    const merged = mergeMessages(held, [message('3'), message('4'), message('4'), message('2')]);
    expect(ids(merged)).toEqual(['1', '2', '3', '4']);
  });

  it('merges a reconnect gap that overlaps live messages, in order, without duplicates', () => {
    // Held 1-3; while away 4 and 5 were sent; 5 also arrived live just before the history.
    let held = mergeMessages([message('1'), message('2'), message('3')], [message('5')]);
    held = mergeMessages(held, [message('4'), message('5')]);
    expect(ids(held)).toEqual(['1', '2', '3', '4', '5']);
  });

  it('returns the same array when nothing is new', () => {
    const held = [message('1'), message('2')];
    expect(mergeMessages(held, [message('2')])).toBe(held);
    expect(mergeMessages(held, [])).toBe(held);
  });
});

describe('roomReducer', () => {
  const initial = roomReducer(INITIAL_ROOM_STATE, {
    type: 'history',
    messages: [message('5')],
    hasMore: true,
  });
  const meta = (abuseDetected: boolean): RoomMetadata => ({
    roomName: 'Physics 101',
    creator: 'Grace',
    creatorId: 'user-2',
    abuseDetected,
  });

  it('keeps hasMore when a resumed join sends only the gap', () => {
    const resumed = roomReducer(initial, { type: 'history', messages: [message('6')] });
    expect(resumed.hasMore).toBe(true);
    expect(resumed.live).toBeNull();
  });

  it('starts over from the latest page when a catch-up could not join up with what is held', () => {
    const held = roomReducer(initial, { type: 'history', messages: [message('6'), message('7')] });
    const restarted = roomReducer(held, {
      type: 'history',
      messages: [message('2001'), message('2002')],
      hasMore: true,
      replace: true,
    });
    // No hole between 7 and 2001: what was held goes, and older pages load back from 2001.
    expect(ids(restarted.messages)).toEqual(['2001', '2002']);
    expect(restarted.hasMore).toBe(true);
  });

  it('marks live messages for announcement, not a repeat of one held', () => {
    const live = roomReducer(initial, { type: 'message', message: message('6') });
    expect(live.live?.id).toBe('6');
    expect(roomReducer(live, { type: 'message', message: message('6') })).toBe(live);
  });

  it('opens the warning once per restriction and a lift ends a local one too', () => {
    const flagged = roomReducer(initial, { type: 'flag' });
    expect(isRestricted(flagged) && flagged.warning).toBe(true);
    const acknowledged = roomReducer(flagged, { type: 'acknowledge' });
    // The server's own flag for the same restriction does not bring the warning back.
    const serverToo = roomReducer(acknowledged, { type: 'metadata', metadata: meta(true) });
    expect(serverToo.warning).toBe(false);
    const lifted = roomReducer(serverToo, { type: 'metadata', metadata: meta(false) });
    expect(isRestricted(lifted)).toBe(false);
  });

  it('takes an edit’s mentions, none included, and keeps them through an update silent on them', () => {
    const ada = { userId: 'user-1', name: 'Ada' };
    const grace = { userId: 'user-2', name: 'Grace' };
    const edited = (content: string, mentions?: ChatMessage['mentions']) => ({
      ...message('5', content),
      editedAt: '2026-03-02T10:16:00.000Z',
      ...(mentions ? { mentions } : {}),
    });
    const update = (state: typeof initial, updated: ChatMessage) =>
      roomReducer(state, { type: 'updated', message: updated });
    // An edit that mentions someone highlights them at once.
    const once = update(initial, edited('Hi @Ada', [ada]));
    expect(once.messages[0]!.mentions).toEqual([ada]);
    const twice = update(once, edited('Hi @Ada and @Grace', [ada, grace]));
    expect(twice.messages[0]!.mentions).toEqual([ada, grace]);
    // A moderator's restore says nothing of them: they stay.
    expect(update(twice, edited('Hi @Ada and @Grace')).messages[0]!.mentions).toEqual([ada, grace]);
    // An edit taking them all out says none.
    expect(update(twice, edited('Hi all', [])).messages[0]!.mentions).toEqual([]);
  });

  it('keeps a restriction found in this browser when unrelated metadata arrives', () => {
    const flagged = roomReducer(initial, { type: 'flag' });
    const later = roomReducer(flagged, { type: 'metadata', metadata: meta(false) });
    expect(isRestricted(later)).toBe(true);
  });
});

describe('createSendIds', () => {
  it('gives a retry of an unacknowledged message its id again, and a message sent after an ack a new one', () => {
    let made = 0;
    const ids = createSendIds(() => `id-${++made}`);
    expect(ids.idFor('Hello')).toBe('id-1');
    // No acknowledgement: the retry goes with the same id.
    expect(ids.idFor('Hello')).toBe('id-1');
    expect(ids.idFor('Other')).toBe('id-2');
    ids.acknowledged('Hello');
    expect(ids.idFor('Hello')).toBe('id-3');
    expect(ids.idFor('Other')).toBe('id-2');
  });

  it('forgets the oldest unacknowledged sends beyond twenty', () => {
    let made = 0;
    const ids = createSendIds(() => `id-${++made}`);
    for (let text = 0; text <= 20; text += 1) ids.idFor(`message ${text}`);
    expect(ids.idFor('message 20')).toBe('id-21');
    expect(ids.idFor('message 0')).toBe('id-22');
  });

  it('makes version 4 UUIDs by default', () => {
    const made = new Set(Array.from({ length: 50 }, () => newClientId()));
    expect(made.size).toBe(50);
    for (const id of made)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
