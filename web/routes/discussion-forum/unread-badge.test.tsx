import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RoomUnread } from '#contract/socket/chat.ts';
import { testRoom as room } from '../../test/fake-chat-socket.tsx';
import { RoomList } from './room-list.tsx';
import { unreadLabel } from './unread-badge.tsx';

/* The room list's unread counts and mention marker (decision 042), in words. */

describe('unread in the room list', () => {
  it('shows each visited room’s count and a mention, and nothing for a room all read', () => {
    const unread = new Map<string, RoomUnread>([
      ['physics', { roomName: 'Physics', unread: 3, mentioned: true }],
      ['chemistry', { roomName: 'Chemistry', unread: 0, mentioned: false }],
    ]);
    render(
      <RoomList
        rooms={[room('Physics'), room('Chemistry'), room('Biology')]}
        userId="user-1"
        username="Ada"
        onJoin={() => {}}
        onDeleted={() => {}}
        unread={unread}
      />,
    );
    const [physics, chemistry, biology] = screen.getAllByRole('listitem');
    expect(within(physics!).getByText('3 unread')).toBeTruthy();
    expect(within(physics!).getByText('@ Mentioned')).toBeTruthy();
    expect(within(chemistry!).queryByText(/unread|Mentioned/)).toBeNull();
    expect(within(biology!).queryByText(/unread|Mentioned/)).toBeNull();
  });

  it('stops counting at 99', () => {
    expect(unreadLabel(1)).toBe('1 unread');
    expect(unreadLabel(99)).toBe('99+ unread');
  });
});
