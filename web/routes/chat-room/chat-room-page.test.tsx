import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '#contract/http/users.ts';
import { ROUTES, roomPath } from '#contract/routes.ts';
import { CHAT_TEXT, type ChatMessage, type RoomMetadata } from '#contract/socket/chat.ts';
import { testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { ChatRoomPage } from './chat-room-page.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

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

function open(user: CurrentUser = testUser({ chatUsername: 'Ada' }), words: string[] = []) {
  return renderChatScreen(<ChatRoomPage />, {
    path: roomPath(ROOM),
    pattern: ROUTES.chatRoom,
    user,
    words,
  });
}

/** Opens the room and answers the join as the server does. */
function openJoined(
  history: ChatMessage[] = [],
  meta = metadata(),
  user?: CurrentUser,
  words?: string[],
) {
  const rendered = open(user, words);
  fakeChat.socket.serverEmit('room_history', history, { roomName: ROOM, hasMore: false });
  fakeChat.socket.serverEmit('room_metadata', meta);
  return rendered;
}

const input = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
const sendButton = () => screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;

beforeEach(() => fakeChat.reset());

describe('chat room', () => {
  it('joins the room and shows "You" for the person’s own messages, the sender otherwise', () => {
    openJoined([
      message('1', { sender: 'Ada', senderId: 'user-1', content: 'Hello all' }),
      message('2', { content: '<b>not bold</b>' }),
    ]);
    expect(fakeChat.requestsOf('join_room')).toEqual([{ roomName: ROOM }]);
    expect(screen.getByRole('heading', { level: 1, name: 'Chat Room: Physics 101' })).toBeTruthy();
    const items = within(screen.getByRole('region', { name: 'Messages' })).getAllByRole('listitem');
    expect(items[0]?.textContent).toMatch(/^You.*Hello all$/);
    expect(items[1]?.textContent).toMatch(/^Grace/);
    // Plain text, never HTML.
    expect(screen.getByText('<b>not bold</b>')).toBeTruthy();
    expect(items[0]?.querySelector('time')?.getAttribute('datetime')).toBe(
      '2026-03-02T10:15:00.000Z',
    );
    // Not the creator: no badge, no Close Room.
    expect(screen.queryByText('Creator')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close Room' })).toBeNull();

    // A live message from someone else is announced; the history was not.
    const live = document.querySelector('[aria-live="polite"]');
    expect(live?.textContent).toBe('');
    fakeChat.socket.serverEmit('receive_message', message('3', { content: 'Welcome' }));
    expect(live?.textContent).toBe('Grace: Welcome');
  });

  it('marks a demo room as one, and only a demo room', () => {
    openJoined([], metadata({ isDemo: true }));
    expect(screen.getByText('Demo')).toBeTruthy();
    fakeChat.socket.serverEmit('room_metadata', metadata());
    expect(screen.queryByText('Demo')).toBeNull();
  });

  it('shows the empty state, the Creator badge and Close Room for the creator', async () => {
    openJoined([], metadata({ creatorId: 'user-1', creator: 'Ada' }));
    expect(screen.getByText(CHAT_TEXT.noMessages)).toBeTruthy();
    expect(screen.getByText('Creator')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close Room' }));
    const dialog = screen.getByRole('dialog', { name: 'Close Room' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close Room' }));
    await waitFor(() =>
      expect(fakeChat.requestsOf('close_room')).toEqual([{ roomName: ROOM, username: 'Ada' }]),
    );
  });

  it('sends with Enter, not Shift+Enter, and keeps the draft when the server refuses', async () => {
    openJoined();
    fireEvent.change(input(), { target: { value: 'Hello' } });
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    expect(fakeChat.requestsOf('send_message')).toHaveLength(0);

    fakeChat.answers.send_message = () => ({
      ok: false,
      message: 'You are sending messages too fast.',
    });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are sending messages too fast.',
    );
    expect(input().value).toBe('Hello');

    fakeChat.answers.send_message = () => ({ ok: true, id: '7' });
    fireEvent.click(sendButton());
    await waitFor(() => expect(input().value).toBe(''));
    expect(fakeChat.requestsOf('send_message').at(-1)).toEqual({
      room: ROOM,
      message: 'Hello',
      sender: 'Ada',
      clientId: expect.any(String),
    });
  });

  it('holds a message typed before the join is answered until it is, then sends it', async () => {
    // The server refuses a message from a socket not yet in the room: a quick typist waits.
    let answerJoin: (ack: { ok: true }) => void = () => {};
    fakeChat.answers.join_room = () => new Promise((resolve) => (answerJoin = resolve));
    open();
    fireEvent.change(input(), { target: { value: 'First!' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fakeChat.requestsOf('send_message')).toHaveLength(0);
    answerJoin({ ok: true });
    await waitFor(() => expect(input().value).toBe(''));
    expect(fakeChat.requestsOf('send_message')).toEqual([
      { room: ROOM, message: 'First!', sender: 'Ada', clientId: expect.any(String) },
    ]);
  });

  it('sends a retry of an unacknowledged message with its client id, and a new message with a new one', async () => {
    openJoined();
    // No answer: the message may have been stored all the same.
    fakeChat.answers.send_message = () => ({ ok: false, message: 'no answer' });
    fireEvent.change(input(), { target: { value: 'Hello' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect((await screen.findByRole('alert')).textContent).toBe('no answer');
    expect(input().value).toBe('Hello');
    fakeChat.answers.send_message = () => ({ ok: true, id: '7' });
    fireEvent.click(sendButton());
    await waitFor(() => expect(input().value).toBe(''));
    // The same words again, once the first was acknowledged: another message.
    fireEvent.change(input(), { target: { value: 'Hello' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(fakeChat.requestsOf('send_message')).toHaveLength(3));
    const [first, retry, next] = fakeChat
      .requestsOf('send_message')
      .map((sent) => (sent as { clientId: string }).clientId);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(retry).toBe(first);
    expect(next).not.toBe(first);
  });

  it('keeps what is typed while a message is on its way, and sends it next, in order', async () => {
    openJoined();
    const acks: ((ack: { ok: true; id: string }) => void)[] = [];
    fakeChat.answers.send_message = () => new Promise((resolve) => acks.push(resolve));
    fireEvent.change(input(), { target: { value: 'First' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    // The box empties at once; the next message is typed and sent before the first is answered.
    expect(input().value).toBe('');
    fireEvent.change(input(), { target: { value: 'Second' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.change(input(), { target: { value: 'Third, still typing' } });
    expect(fakeChat.requestsOf('send_message')).toHaveLength(1);
    acks.shift()!({ ok: true, id: '1' });
    await waitFor(() => expect(fakeChat.requestsOf('send_message')).toHaveLength(2));
    acks.shift()!({ ok: true, id: '2' });
    await waitFor(() => expect(acks).toHaveLength(0));
    expect(
      fakeChat.requestsOf('send_message').map((sent) => (sent as { message: string }).message),
    ).toEqual(['First', 'Second']);
    expect(input().value).toBe('Third, still typing');
  });

  it('puts refused messages back in the box with what was typed after them', async () => {
    openJoined();
    let answer: (ack: { ok: false; message: string }) => void = () => {};
    fakeChat.answers.send_message = () => new Promise((resolve) => (answer = resolve));
    fireEvent.change(input(), { target: { value: 'One' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.change(input(), { target: { value: 'Two' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.change(input(), { target: { value: 'Three' } });
    answer({ ok: false, message: 'You are sending messages too fast.' });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'You are sending messages too fast.',
    );
    expect(input().value).toBe('One\nTwo\nThree');
    expect(fakeChat.requestsOf('send_message')).toHaveLength(1);
  });

  it('is restricted by the room metadata: banner, warning, input and Send disabled', async () => {
    openJoined([], metadata({ abuseDetected: true }));
    expect(screen.getByText(CHAT_TEXT.restricted)).toBeTruthy();
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain(CHAT_TEXT.abuseWarning);
    expect(dialog.textContent).toContain(CHAT_TEXT.abuseWarningMore);
    expect(input().disabled).toBe(true);
    expect(sendButton().disabled).toBe(true);
    // Only the creator or a librarian may lift it.
    expect(screen.queryByRole('button', { name: 'Lift restriction' })).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(input().disabled).toBe(true);
    // The message box is disabled, so the banner takes the focus.
    await waitFor(() =>
      expect(document.activeElement?.textContent).toContain(CHAT_TEXT.restricted),
    );
  });

  it('does not send a message the shared matcher flags; restricts the room here and reports it', () => {
    openJoined([], metadata(), undefined, ['frobnicate']);
    fireEvent.change(input(), { target: { value: 'you frobnicate' } });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(fakeChat.requestsOf('send_message')).toHaveLength(0);
    // The server hears the room and the text, so that its own matcher can agree and restrict the
    // room for everyone.
    expect(fakeChat.requestsOf('report_abuse')).toEqual([
      { roomName: ROOM, text: 'you frobnicate' },
    ]);
    expect(screen.getByText(CHAT_TEXT.restricted)).toBeTruthy();
    expect(screen.getByRole('dialog').textContent).toContain(CHAT_TEXT.abuseWarning);
    expect(input().disabled).toBe(true);
  });

  it('lets a librarian lift a restriction set by the server', async () => {
    openJoined(
      [],
      metadata({ abuseDetected: true }),
      testUser({ role: 'librarian', chatUsername: 'Lib' }),
    );
    fireEvent.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: 'Acknowledge' }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Lift restriction' }));
    await waitFor(() =>
      expect(fakeChat.requestsOf('lift_restriction')).toEqual([{ roomName: ROOM }]),
    );
    fakeChat.socket.serverEmit('room_metadata', metadata({ abuseDetected: false }));
    expect(screen.queryByText(CHAT_TEXT.restricted)).toBeNull();
    expect(input().disabled).toBe(false);
  });

  it('alerts when the room is closed and goes to the student home', async () => {
    const { router } = openJoined([message('1')]);
    fakeChat.socket.serverEmit('room_closed', { roomName: ROOM });
    const alert = screen.getByRole('alertdialog', { name: 'Room closed' });
    expect(alert.textContent).toContain(CHAT_TEXT.roomClosed(ROOM));
    expect(input().disabled).toBe(true);
    fireEvent.click(within(alert).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.studentHome));
  });

  it('leaves the room and returns to the forum', async () => {
    const { router } = openJoined();
    fireEvent.click(screen.getByRole('button', { name: 'Leave Room' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.discussionForum));
    expect(fakeChat.socket.emitted.some((sent) => sent.event === 'leave_room')).toBe(true);
  });

  it('says so when the room does not exist, with a way back to the forum', async () => {
    fakeChat.answers.join_room = () => ({
      ok: false,
      message: 'This room does not exist any more. It may have been closed.',
    });
    open();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This room does not exist any more. It may have been closed.',
    );
    expect(
      screen.getByRole('link', { name: 'Back to the discussion forum' }).getAttribute('href'),
    ).toBe(ROUTES.discussionForum);
  });

  it('sends someone without a chat username to the forum to choose one', async () => {
    const { router } = open(testUser({ chatUsername: '' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(ROUTES.discussionForum));
    expect(fakeChat.requests).toHaveLength(0);
  });

  it('rejoins after a reconnect from the last message held, without duplicates', () => {
    openJoined([message('9'), message('10')]);
    fakeChat.socket.serverEmit('disconnect', 'transport close');
    fakeChat.socket.serverEmit('connect');
    expect(fakeChat.requestsOf('join_room').at(-1)).toEqual({ roomName: ROOM, after: '10' });
    // A live copy of 11 raced the history of the gap.
    fakeChat.socket.serverEmit('receive_message', message('11'));
    fakeChat.socket.serverEmit('room_history', [message('11'), message('12')], {
      roomName: ROOM,
      hasMore: false,
    });
    const texts = within(screen.getByRole('region', { name: 'Messages' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p')?.textContent);
    expect(texts).toEqual(['Message 9', 'Message 10', 'Message 11', 'Message 12']);
  });

  it('shows the latest page instead when too much was missed to catch up', () => {
    openJoined([message('9'), message('10')]);
    fakeChat.socket.serverEmit('disconnect', 'transport close');
    fakeChat.socket.serverEmit('connect');
    fakeChat.socket.serverEmit('room_history', [message('3001'), message('3002')], {
      roomName: ROOM,
      hasMore: true,
      replace: true,
    });
    const texts = within(screen.getByRole('region', { name: 'Messages' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p')?.textContent);
    expect(texts).toEqual(['Message 3001', 'Message 3002']);
    expect(screen.getByRole('button', { name: 'Load older messages' })).toBeTruthy();
  });

  it('loads older messages with the button, before the oldest held', async () => {
    fakeChat.answers.load_history = () => ({
      ok: true,
      history: [message('3'), message('4')],
      hasMore: false,
    });
    open();
    fakeChat.socket.serverEmit('room_history', [message('5')], { roomName: ROOM, hasMore: true });
    fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: /older messages/ })).toBeNull(),
    );
    expect(fakeChat.requestsOf('load_history')).toEqual([{ roomName: ROOM, before: '5' }]);
    expect(
      within(screen.getByRole('region', { name: 'Messages' })).getAllByRole('listitem'),
    ).toHaveLength(3);
  });
});
