import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '#contract/routes.ts';
import { CHAT_TEXT, type RoomSummary } from '#contract/socket/chat.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { DiscussionForumPage } from './discussion-forum-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

const room = (overrides: Partial<RoomSummary>): RoomSummary => ({
  roomName: 'Physics 101',
  description: 'Mechanics and waves',
  creator: 'Grace',
  creatorId: 'user-2',
  createdAt: '2026-03-02T08:00:00.000Z',
  memberCount: 3,
  abuseDetected: false,
  ...overrides,
});

const ROOMS = [
  room({}),
  room({ roomName: 'Ada’s Algebra', description: '', creator: 'Ada', creatorId: 'user-1' }),
  room({ roomName: 'History of Science', description: 'From Galileo on', memberCount: 1 }),
];

function open(chatUsername = 'Ada') {
  return renderChatScreen(<DiscussionForumPage />, {
    path: ROUTES.discussionForum,
    pattern: ROUTES.discussionForum,
    user: testUser({ chatUsername }),
  });
}

beforeEach(() => fakeChat.reset());

describe('discussion forum', () => {
  it('asks for a username first, prefilled with the first name, and saves it to the profile', async () => {
    const calls = mockApi({
      'PUT /users/chat-username': (call) => ({ body: call.body }),
      'GET /users/me': () => ({ body: { user: testUser({ chatUsername: 'Ada L' }) } }),
    });
    open('');
    fakeChat.setRooms(ROOMS);
    expect(screen.getByRole('heading', { name: 'Choose a username' })).toBeTruthy();
    const input = screen.getByRole('textbox', { name: 'Username' }) as HTMLInputElement;
    expect(input.value).toBe('Ada');
    // The rooms show already; joining one needs a saved name, and the name field takes focus.
    expect(screen.getByRole('heading', { name: 'Available Chat Rooms' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Join Physics 101' }));
    expect(screen.getByRole('alert').textContent).toBe(CHAT_TEXT.needUsername);
    await waitFor(() => expect(document.activeElement).toBe(input));
    expect(fakeChat.requests).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Usernames are 2 to 30 characters')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    fireEvent.change(input, { target: { value: 'Ada L' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Ada L')).toBeTruthy();
    expect(screen.queryByText(CHAT_TEXT.needUsername)).toBeNull();
    expect(screen.getByText('Ada L').closest('p')?.textContent).toContain('You chat as Ada L');
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ username: 'Ada L' });
    expect(screen.queryByRole('heading', { name: 'Choose a username' })).toBeNull();

    // Changing it brings the card back with the chosen name.
    fireEvent.click(screen.getByRole('button', { name: 'Change username' }));
    expect((screen.getByRole('textbox', { name: 'Username' }) as HTMLInputElement).value).toBe(
      'Ada L',
    );
  });

  it('lists the rooms, searches them ignoring case, and joins one', async () => {
    const { router } = open();
    expect(screen.getByText('Loading the rooms…')).toBeTruthy();
    fakeChat.setRooms(ROOMS);
    expect(screen.getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByText('Mechanics and waves')).toBeTruthy();
    // Delete only for the room this person created.
    expect(screen.getAllByRole('button', { name: /^Delete/ })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Delete Ada’s Algebra' })).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search rooms' }), {
      target: { value: 'PHYS' },
    });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('1 room found')).toBeTruthy();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search rooms' }), {
      target: { value: 'chemistry' },
    });
    expect(screen.getByText('No rooms match “chemistry”.')).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search rooms' }), {
      target: { value: '' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Join Physics 101' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/room/Physics%20101'));
  });

  it('marks the demo rooms with a Demo badge, and only them', () => {
    open();
    fakeChat.setRooms([
      room({ roomName: 'Book club: Frankenstein', creator: 'Fatima', isDemo: true }),
      room({}),
    ]);
    const [demo, ordinary] = screen.getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(demo).getByText('Demo')).toBeTruthy();
    // Beside the heading, not in it: the room's name stays what it was.
    expect(within(demo).getByRole('heading').textContent).toBe('Book club: Frankenstein');
    expect(within(ordinary).queryByText('Demo')).toBeNull();
  });

  it('shows the empty state and the connection problems', () => {
    open();
    fakeChat.setRooms([]);
    expect(screen.getByText(CHAT_TEXT.noRooms)).toBeTruthy();
    fakeChat.setConnection({ status: 'reconnecting' });
    expect(screen.getByText('Reconnecting…')).toBeTruthy();
    fakeChat.setConnection({ status: 'refused', message: 'Please sign in to use the chat.' });
    expect(screen.getByRole('alert').textContent).toBe('Please sign in to use the chat.');
  });

  it('creates a room, and shows why the server refused a duplicate', async () => {
    open();
    fakeChat.setRooms(ROOMS);
    const toggle = screen.getByRole('button', { name: 'Create New Room' });
    fireEvent.click(toggle);
    expect(toggle.textContent).toBe('Cancel');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect(screen.getByRole('alert').textContent).toBe(CHAT_TEXT.needBoth);
    expect(fakeChat.requests).toHaveLength(0);

    fakeChat.answers.create_room = () => ({ ok: false, message: CHAT_TEXT.duplicateRoom });
    fireEvent.change(screen.getByRole('textbox', { name: 'Room name' }), {
      target: { value: 'physics 101' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect((await screen.findByRole('alert')).textContent).toBe(CHAT_TEXT.duplicateRoom);
    expect((screen.getByRole('textbox', { name: 'Room name' }) as HTMLInputElement).value).toBe(
      'physics 101',
    );

    fakeChat.answers.create_room = () => ({ ok: true });
    fireEvent.change(screen.getByRole('textbox', { name: 'Room name' }), {
      target: { value: ' Chemistry ' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: /Description/ }), {
      target: { value: 'Bonds' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect(
      await screen.findByText('Room “Chemistry” created. Join it from the list below.'),
    ).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Room name' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Create New Room' })).toBeTruthy();
    expect(fakeChat.requestsOf('create_room').at(-1)).toEqual({
      roomName: 'Chemistry',
      description: 'Bonds',
      creator: 'Ada',
    });
  });

  it('deletes one of the person’s rooms only after the Delete Room confirmation', async () => {
    open();
    fakeChat.setRooms(ROOMS);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Ada’s Algebra' }));
    let dialog = screen.getByRole('dialog', { name: 'Delete Room' });
    expect(dialog.textContent).toContain('removes the room and its messages for all users');
    expect(dialog.textContent).toContain('cannot be undone');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Delete Room' })).toBeNull();
    expect(fakeChat.requestsOf('close_room')).toHaveLength(0);

    fakeChat.answers.close_room = () => ({ ok: false, message: 'Something went wrong.' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete Ada’s Algebra' }));
    dialog = screen.getByRole('dialog', { name: 'Delete Room' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Something went wrong.');

    fakeChat.answers.close_room = () => ({ ok: true });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Room “Ada’s Algebra” deleted.')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fakeChat.requestsOf('close_room').at(-1)).toEqual({
      roomName: 'Ada’s Algebra',
      username: 'Ada',
    });
  });
});
