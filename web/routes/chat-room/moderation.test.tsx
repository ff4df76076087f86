import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES, roomPath } from '#contract/routes.ts';
import { MODERATION_TEXT, type ChatMessage, type RoomMetadata } from '#contract/socket/chat.ts';
import { testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { ChatRoomPage } from './chat-room-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

/*
 * The chat room's side of moderation by people (decision 040): reporting a message, a hidden
 * message replaced live, a moderator's notice as a banner, the rules shown on joining, the
 * creator's settings, and slow mode's wait in the composer.
 */

const ROOM = 'Physics 101';
const message = (id: string, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  room: ROOM,
  sender: 'Grace',
  senderId: 'user-2',
  content: `Message ${id}`,
  time: '2026-03-02T10:15:00.000Z',
  isSystemMessage: false,
  ...overrides,
});
const metadata = (overrides: Partial<RoomMetadata> = {}): RoomMetadata => ({
  roomName: ROOM,
  creator: 'Grace',
  creatorId: 'user-2',
  abuseDetected: false,
  ...overrides,
});

function openJoined(
  history: ChatMessage[],
  meta = metadata(),
  user = testUser({ chatUsername: 'Ada' }),
) {
  renderChatScreen(<ChatRoomPage />, {
    path: roomPath(ROOM),
    pattern: ROUTES.chatRoom,
    user,
    words: [],
  });
  act(() => {
    fakeChat.socket.serverEmit('room_history', history, { roomName: ROOM, hasMore: false });
    fakeChat.socket.serverEmit('room_metadata', meta);
  });
}

beforeEach(() => fakeChat.reset());

describe('chat room moderation', () => {
  it("reports someone else's message with a reason and a note", async () => {
    fakeChat.answers.report_message = () => ({ ok: true, message: MODERATION_TEXT.reported });
    openJoined([message('1', { senderId: 'user-1', sender: 'Ada' }), message('2')]);
    // Not one's own message.
    expect(screen.getAllByRole('button', { name: /^Report the message/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Report the message from Grace' }));
    const dialog = screen.getByRole('dialog', { name: 'Report a message' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Choose a reason for the report');
    fireEvent.click(within(dialog).getByLabelText('Harassment'));
    fireEvent.change(within(dialog).getByLabelText(/Anything to add/), {
      target: { value: 'twice now' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByText(MODERATION_TEXT.reported)).toBeTruthy();
    expect(fakeChat.requestsOf('report_message')).toEqual([
      { messageId: '2', reason: 'harassment', text: 'twice now' },
    ]);
  });

  it('replaces a message hidden by a moderator, live, and shows a notice as a banner', () => {
    openJoined([message('2', { content: 'buy essays' })]);
    expect(screen.getByText('buy essays')).toBeTruthy();
    act(() =>
      fakeChat.socket.serverEmit(
        'message_updated',
        message('2', { content: MODERATION_TEXT.hidden, hidden: true }),
      ),
    );
    expect(screen.queryByText('buy essays')).toBeNull();
    expect(screen.getByText(MODERATION_TEXT.hidden)).toBeTruthy();
    // A hidden message cannot be reported again.
    expect(screen.queryByRole('button', { name: /^Report the message/ })).toBeNull();

    act(() =>
      fakeChat.socket.serverEmit('moderation_notice', {
        action: 'mute',
        roomName: ROOM,
        reason: 'Be civil.',
        endsAt: '2026-03-02T10:25:00.000Z',
        message:
          'A moderator muted you in the room “Physics 101” until 10:25 UTC. Reason: Be civil.',
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain('Reason: Be civil.');
  });

  it('shows the rules on joining until dismissed, and the slow mode wait after a message', async () => {
    openJoined(
      [],
      metadata({
        rules: { slowModeSeconds: 30, words: [], membersOnly: true, rules: 'Stay on topic.' },
      }),
    );
    const panel = screen.getByRole('region', { name: 'Room rules' });
    expect(within(panel).getByText('Stay on topic.')).toBeTruthy();
    expect(within(panel).getByText(/one message every 30 seconds/)).toBeTruthy();
    expect(within(panel).getByText(/Members only/)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('region', { name: 'Room rules' })).toBeNull();

    expect(screen.getByText(/Slow mode: one message every 30 seconds/)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'hi' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/You can send again in 30 s/)).toBeTruthy();
  });

  it("lets the room's creator set its rules, checked before sending", async () => {
    openJoined([], metadata({ creatorId: 'user-1', creator: 'Ada' }));
    fireEvent.click(screen.getByRole('button', { name: 'Room settings' }));
    const dialog = screen.getByRole('dialog', { name: 'Room settings' });
    fireEvent.change(within(dialog).getByLabelText(/Slow mode/), { target: { value: '3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save rules' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/5 to 300 seconds/);
    fireEvent.change(within(dialog).getByLabelText(/Slow mode/), { target: { value: '20' } });
    fireEvent.change(within(dialog).getByLabelText(/Words this room/), {
      target: { value: 'spoiler, ending' },
    });
    fireEvent.click(within(dialog).getByLabelText(/Members only/));
    fireEvent.change(within(dialog).getByLabelText(/Description and rules/), {
      target: { value: 'Be kind.' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save rules' }));
    await waitFor(() =>
      expect(fakeChat.requestsOf('set_room_rules')).toEqual([
        {
          roomName: ROOM,
          slowModeSeconds: 20,
          words: ['spoiler', 'ending'],
          membersOnly: true,
          rules: 'Be kind.',
        },
      ]),
    );
  });
});
