import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NAME_TEXT } from '#contract/names.ts';
import { ROUTES } from '#contract/routes.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { DiscussionForumPage } from './discussion-forum-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

/*
 * Names people can trust (issue 19): the browser applies the contract's rules before anything is
 * sent, with the server's words, and shows what only the server can say (taken, kept for staff).
 */
function open(chatUsername = '') {
  return renderChatScreen(<DiscussionForumPage />, {
    path: ROUTES.discussionForum,
    pattern: ROUTES.discussionForum,
    user: testUser({ chatUsername }),
  });
}

beforeEach(() => fakeChat.reset());

describe('names in the forum', () => {
  it('refuses an invisible character in a username at once, and says why the server refused one', async () => {
    const calls = mockApi({
      'PUT /users/chat-username': () => ({
        status: 409,
        body: { success: false, message: NAME_TEXT.usernameTaken },
      }),
    });
    open();
    const input = screen.getByRole('textbox', { name: 'Username' });
    fireEvent.change(input, { target: { value: 'Desk\u200BLib' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(NAME_TEXT.usernameInvisible)).toBeTruthy();
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);

    // Sent as it will be stored; the look-alike of someone's name is the server's to find.
    fireEvent.change(input, { target: { value: ' Ｇｒａｃｅ９９ ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(NAME_TEXT.usernameTaken)).toBeTruthy();
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ username: 'Grace99' });
  });

  it('refuses a room name that hides a character, before asking the server', async () => {
    open('Ada');
    fireEvent.click(screen.getByRole('button', { name: 'Create New Room' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Room name' }), {
      target: { value: 'Gen\u200Beral' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create Room' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NAME_TEXT.roomInvisible);
    expect(fakeChat.requestsOf('create_room')).toHaveLength(0);
  });
});
