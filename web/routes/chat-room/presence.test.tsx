import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES, roomPath } from '#contract/routes.ts';
import {
  TYPING_EXPIRE_MS,
  TYPING_SEND_INTERVAL_MS,
  typingText,
  type ModerationNotice,
} from '#contract/socket/chat.ts';
import { createTypingSender, othersTyping } from '../../api/room-presence.ts';
import { testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { activeMute } from './active-mute.ts';
import { ChatRoomPage } from './chat-room-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

/*
 * Typing, presence and a muted composer in the chat room (decision 044): who is typing under the
 * messages, "N here" with the list of names in the header, the throttled `typing` the composer
 * sends, and a composer disabled with the mute's reason and end until it ends or is lifted.
 */

const ROOM = 'Physics 101';

function openJoined() {
  renderChatScreen(<ChatRoomPage />, {
    path: roomPath(ROOM),
    pattern: ROUTES.chatRoom,
    user: testUser({ chatUsername: 'Ada' }),
    words: [],
  });
  fakeChat.socket.serverEmit('room_history', [], { roomName: ROOM, hasMore: false });
  fakeChat.socket.serverEmit('room_metadata', {
    roomName: ROOM,
    creator: 'Grace',
    creatorId: 'user-2',
    abuseDetected: false,
  });
}
const typingSent = () =>
  fakeChat.socket.emitted.filter((sent) => sent.event === 'typing').map((sent) => sent.args[0]);
const muteNotice = (endsAt: string): ModerationNotice => ({
  action: 'mute',
  roomName: ROOM,
  reason: 'Be civil.',
  endsAt,
  message: `A moderator muted you in this room until ${endsAt}. Reason: Be civil.`,
});

beforeEach(() => fakeChat.reset());
afterEach(() => vi.useRealTimers());

describe('typing text', () => {
  it('names one, two, several and a crowd', () => {
    expect(typingText({ names: [], others: 0 })).toBe('');
    expect(typingText({ names: ['Ada'], others: 0 })).toBe('Ada is typing…');
    expect(typingText({ names: ['Ada', 'Bo'], others: 0 })).toBe('Ada and Bo are typing…');
    expect(typingText({ names: ['Ada', 'Bo', 'Cy'], others: 0 })).toBe(
      'Ada, Bo and Cy are typing…',
    );
    expect(typingText({ names: ['Ada'], others: 3 })).toBe('Ada and 3 others are typing…');
    expect(typingText({ names: ['Ada', 'Bo', 'Cy'], others: 1 })).toBe(
      'Ada, Bo, Cy and 1 other are typing…',
    );
  });

  it('leaves the reader out of the list', () => {
    expect(
      othersTyping(
        { roomName: ROOM, names: ['Ada', 'Bo'], userIds: ['u1', 'u2'], others: 0 },
        'u1',
      ),
    ).toEqual({ roomName: ROOM, names: ['Bo'], userIds: ['u2'], others: 0 });
  });
});

describe('the typing sender', () => {
  it('sends at most one typing per interval while text is there, and one stop when it empties', () => {
    let now = 0;
    const sent: boolean[] = [];
    const sender = createTypingSender(
      (typing) => sent.push(typing),
      () => now,
    );
    sender.changed('h');
    now += 500;
    sender.changed('he');
    now += TYPING_SEND_INTERVAL_MS;
    sender.changed('hel');
    sender.changed('');
    sender.changed('');
    expect(sent).toEqual([true, true, false]);
  });
});

describe('the chat room', () => {
  it('shows who else is typing, and drops it when no news comes', () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    openJoined();
    fakeChat.socket.serverEmit('typing_changed', {
      roomName: ROOM,
      names: ['Grace', 'Ada'],
      userIds: ['user-2', 'user-1'],
      others: 0,
    });
    expect(screen.getByText('Grace is typing…')).toBeTruthy();
    act(() => vi.advanceTimersByTime(TYPING_EXPIRE_MS + 10));
    expect(screen.queryByText('Grace is typing…')).toBeNull();
  });

  it('shows how many are here, and the names behind a keyboard-reachable disclosure', () => {
    openJoined();
    fakeChat.socket.serverEmit('presence_changed', {
      roomName: ROOM,
      count: 53,
      names: ['Ada', 'Grace'],
    });
    const summary = screen.getByText('53 here');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    fireEvent.click(summary);
    expect(details.open).toBe(true);
    expect(screen.getByRole('list').textContent).toContain('Grace');
    expect(screen.getByText('and 51 more')).toBeTruthy();
    fireEvent.keyDown(details, { key: 'Escape' });
    expect(details.open).toBe(false);
    expect(document.activeElement).toBe(summary.closest('summary'));
    fireEvent.click(summary);
    fireEvent.pointerDown(document.body);
    expect(details.open).toBe(false);
  });

  it('tells the room the person is typing, throttled, and stops when they send', async () => {
    openJoined();
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(box, { target: { value: 'h' } });
    fireEvent.change(box, { target: { value: 'hi' } });
    expect(typingSent()).toEqual([{ roomName: ROOM, typing: true }]);
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(typingSent()).toEqual([
      { roomName: ROOM, typing: true },
      { roomName: ROOM, typing: false },
    ]);
  });

  it('disables a muted person’s composer with the reason and the end, until it is lifted', () => {
    openJoined();
    const endsAt = new Date(Date.now() + 3_600_000).toISOString();
    fakeChat.socket.serverEmit('moderation_notice', muteNotice(endsAt));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    const reason = document.getElementById(box.getAttribute('aria-describedby')!.split(' ')[1]!);
    expect(reason?.textContent).toContain('Reason: Be civil.');
    expect(reason?.textContent).toContain(endsAt);

    fakeChat.socket.serverEmit('moderation_notice', {
      action: 'lift',
      roomName: ROOM,
      reason: 'Apologised.',
      endsAt: new Date().toISOString(),
      message: 'A moderator ended your mute early: you may post again. Reason: Apologised.',
    });
    expect(box.disabled).toBe(false);
    expect(screen.getByRole('alert').textContent).toContain('you may post again');
  });

  it('re-enables the composer when the mute ends by itself', () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    openJoined();
    fakeChat.socket.serverEmit(
      'moderation_notice',
      muteNotice(new Date(Date.now() + 2_000).toISOString()),
    );
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    expect(box.disabled).toBe(true);
    act(() => vi.advanceTimersByTime(2_100));
    expect(box.disabled).toBe(false);
  });

  it('counts a mute as held only before its end', () => {
    const notice = muteNotice('2026-01-01T10:00:00.000Z');
    expect(activeMute(notice, Date.parse('2026-01-01T09:59:00.000Z'))).toBe(notice);
    expect(activeMute(notice, Date.parse('2026-01-01T10:00:00.000Z'))).toBeNull();
    expect(activeMute({ ...notice, action: 'lift' }, 0)).toBeNull();
  });
});
