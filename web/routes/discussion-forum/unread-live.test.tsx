import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '#contract/routes.ts';
import type { Ack, RoomUnread } from '#contract/socket/chat.ts';
import { testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen, testRoom as room } from '../../test/fake-chat-socket.tsx';
import { DiscussionForumPage } from './discussion-forum-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

/*
 * The room list's counts follow new messages within seconds (decision 042): a `rooms_active`
 * naming a room this person has visited asks `unread_counts` again; one naming only rooms never
 * visited asks nothing.
 */

/** The `unread_counts` asked so far, each with its acknowledgement. */
const asks = () =>
  fakeChat.socket.emitted
    .filter(({ event }) => event === 'unread_counts')
    .map(({ args }) => args[0] as (ack: Ack) => void);

/** Answers the latest `unread_counts` with `unread`. */
const answer = (unread: RoomUnread[]) => {
  const ack = asks().at(-1)!;
  act(() => ack({ ok: true, unread }));
};

beforeEach(() => fakeChat.reset());

describe('live unread counts in the room list', () => {
  it('asks again when a visited room is active, and not for a room never visited', async () => {
    renderChatScreen(<DiscussionForumPage />, {
      path: ROUTES.discussionForum,
      pattern: ROUTES.discussionForum,
      user: testUser({ chatUsername: 'Ada' }),
    });
    fakeChat.setRooms([room('Physics'), room('Biology')]);
    // The first ask, on showing the list: Physics visited and all read, Biology never visited.
    await waitFor(() => expect(asks()).toHaveLength(1));
    answer([{ roomName: 'Physics', unread: 0, mentioned: false }]);
    const physics = () => screen.getAllByRole('listitem')[0]!;
    expect(within(physics()).queryByText(/unread/)).toBeNull();

    // Someone writes in Biology, a room this person never visited: it has no count to move.
    fakeChat.socket.serverEmit('rooms_active', { roomNames: ['Biology'] });
    // Nor does a malformed event ask.
    fakeChat.socket.serverEmit('rooms_active', { roomNames: 'PHYSICS' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(asks()).toHaveLength(1);

    // Someone writes in Physics (named in any case): asked again, and the badge shows the count.
    fakeChat.socket.serverEmit('rooms_active', { roomNames: ['Biology', 'PHYSICS'] });
    await waitFor(() => expect(asks()).toHaveLength(2));
    answer([{ roomName: 'Physics', unread: 2, mentioned: false }]);
    expect(within(physics()).getByText('2 unread')).toBeTruthy();
    const biology = screen.getAllByRole('listitem')[1]!;
    expect(within(biology).queryByText(/unread/)).toBeNull();
  });

  it('asks once for a burst of events about a visited room', async () => {
    renderChatScreen(<DiscussionForumPage />, {
      path: ROUTES.discussionForum,
      pattern: ROUTES.discussionForum,
      user: testUser({ chatUsername: 'Ada' }),
    });
    fakeChat.setRooms([room('Physics')]);
    await waitFor(() => expect(asks()).toHaveLength(1));
    answer([{ roomName: 'Physics', unread: 0, mentioned: false }]);
    for (let i = 0; i < 5; i++) {
      fakeChat.socket.serverEmit('rooms_active', { roomNames: ['Physics'] });
    }
    await waitFor(() => expect(asks()).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(asks()).toHaveLength(2);
  });
});
