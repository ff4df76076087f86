import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '#contract/routes.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen, testRoom } from '../../test/fake-chat-socket.tsx';
import { ItemChatActions } from './share-to-room.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

const BOOK = '0b6a7e4e-2f1c-4d5e-9a1b-1c2d3e4f5a6b';

const room = (roomName: string, memberCount = 2) => testRoom(roomName, { memberCount });

function open(type: 'book' | 'course' = 'book') {
  return renderChatScreen(
    <ItemChatActions itemId={BOOK} title="Great Expectations" type={type} />,
    {
      path: ROUTES.librarySearch,
      pattern: ROUTES.librarySearch,
      user: testUser({ chatUsername: 'Ada' }),
    },
  );
}

beforeEach(() => fakeChat.reset());

describe('an item in the conversation', () => {
  it('shares the item to a room found by searching, with a comment, through join and send', async () => {
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Share to a room' }));
    fakeChat.setRooms([room('Physics 101'), room('Dickens readers', 1)]);
    const dialog = screen.getByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Find a room'), {
      target: { value: 'dick' },
    });
    expect(within(dialog).queryByRole('radio', { name: /Physics/ })).toBeNull();
    fireEvent.click(within(dialog).getByRole('radio', { name: /Dickens readers/ }));
    fireEvent.change(within(dialog).getByLabelText('Comment (optional)'), {
      target: { value: 'Next week?' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Share' }));
    expect(
      await within(dialog).findByText('Great Expectations was shared to Dickens readers.'),
    ).toBeTruthy();
    expect(fakeChat.requestsOf('join_room')).toEqual([{ roomName: 'Dickens readers' }]);
    expect(fakeChat.requestsOf('send_message')).toEqual([
      expect.objectContaining({
        room: 'Dickens readers',
        message: `Next week?\n${window.location.origin}/userprofile/openlibrary?item=${BOOK}`,
      }),
    ]);
    expect(fakeChat.socket.emitted.map((each) => each.event)).toContain('leave_room');
    expect(within(dialog).getByRole('link', { name: 'Open the room' }).getAttribute('href')).toBe(
      '/room/Dickens%20readers',
    );
  });

  it('shows the server’s refusal in words and stays open', async () => {
    fakeChat.answers.send_message = () => ({ ok: false, message: 'Slow mode is on.' });
    open();
    fireEvent.click(screen.getByRole('button', { name: 'Share to a room' }));
    fakeChat.setRooms([room('Physics 101')]);
    fireEvent.click(screen.getByRole('radio', { name: /Physics 101/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Share' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Slow mode is on.');
  });

  it('opens the item’s own room with "Discuss this material"', async () => {
    const calls = mockApi({
      [`POST /items/${BOOK}/room`]: () => ({
        body: { roomName: 'Great Expectations', created: true },
      }),
    });
    open('course');
    fireEvent.click(screen.getByRole('button', { name: 'Discuss this material' }));
    expect(await screen.findByText('Now at /room/Great%20Expectations')).toBeTruthy();
    await waitFor(() => expect(calls).toHaveLength(1));
  });
});
