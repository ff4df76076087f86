import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SOCKET_DEFAULTS } from '#contract/limits.ts';
import type { RoomSummary } from '#contract/socket/chat.ts';
import { FakeChatSocket } from '../test/fake-chat-socket.tsx';

/** Socket.IO's client, as far as the module uses it. */
class FakeIoSocket extends FakeChatSocket {
  active = false;
  connect = vi.fn(() => {
    this.active = true;
  });
  disconnect = vi.fn(() => {
    this.active = false;
    this.connected = false;
  });
}

const fake = vi.hoisted(() => ({ socket: null as unknown, options: null as unknown }));
vi.mock('socket.io-client', () => ({
  io: (options: unknown) => {
    fake.options = options;
    return fake.socket;
  },
}));

const { chatRequest, holdChatSocket, useAvailableRooms, useChatConnection, OFFLINE_MESSAGE } =
  await import('./chat-socket.ts');

const socket = new FakeIoSocket();
socket.connected = false;
fake.socket = socket;

function Probe() {
  const connection = useChatConnection();
  const rooms = useAvailableRooms();
  return (
    <p>
      {connection.status === 'refused' ? connection.message : connection.status}
      {rooms ? ` · ${rooms.length} rooms` : ''}
    </p>
  );
}

afterEach(() => vi.useRealTimers());

describe('the chat socket', () => {
  it('connects with the spec defaults while a chat screen is mounted, and closes after it', async () => {
    vi.useFakeTimers();
    const { unmount } = render(<Probe />);
    expect(fake.options).toMatchObject({
      path: '/socket.io',
      autoConnect: false,
      ...SOCKET_DEFAULTS,
    });
    expect(socket.connect).toHaveBeenCalledOnce();
    expect(screen.getByText('connecting')).toBeTruthy();

    socket.connected = true;
    socket.serverEmit('connect');
    socket.serverEmit('available_rooms', [{ roomName: 'Physics 101' } as RoomSummary]);
    expect(screen.getByText('connected · 1 rooms')).toBeTruthy();

    socket.connected = false;
    socket.serverEmit('disconnect', 'transport close');
    expect(screen.getByText('reconnecting · 1 rooms')).toBeTruthy();
    expect(await chatRequest('create_room', { roomName: 'X' })).toEqual({
      ok: false,
      message: OFFLINE_MESSAGE,
    });

    unmount();
    expect(socket.disconnect).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(5_000));
    expect(socket.disconnect).toHaveBeenCalledOnce();
  });

  it('shows the server’s sentence when it refuses the connection, and tries again on the next visit', () => {
    const { unmount } = render(<Probe />);
    socket.active = false;
    socket.serverEmit('connect_error', new Error('Please sign in to use the chat.'));
    expect(screen.getByText('Please sign in to use the chat.')).toBeTruthy();
    unmount();
    socket.connect.mockClear();
    render(<Probe />);
    expect(socket.connect).toHaveBeenCalledOnce();
  });

  it('answers a request with the server’s acknowledgement', async () => {
    socket.connected = true;
    const pending = chatRequest('create_room', { roomName: 'X' });
    const sent = socket.emitted.at(-1);
    expect(sent?.event).toBe('create_room');
    (sent?.args[1] as (answer: unknown) => void)({
      ok: false,
      message: 'A room with that name already exists',
    });
    expect(await pending).toEqual({ ok: false, message: 'A room with that name already exists' });
  });

  it('stays connected while the notices bell holds it, chat screens sharing the connection', () => {
    vi.useFakeTimers();
    socket.connected = false;
    socket.active = false;
    socket.connect.mockClear();
    socket.disconnect.mockClear();
    const release = holdChatSocket();
    expect(socket.connect).toHaveBeenCalledOnce();
    socket.connected = true;
    socket.serverEmit('connect');

    const { unmount } = render(<Probe />);
    expect(screen.getByText(/^connected/)).toBeTruthy();
    unmount();
    act(() => vi.advanceTimersByTime(5_000));
    expect(socket.connect).toHaveBeenCalledOnce();
    expect(socket.disconnect).not.toHaveBeenCalled();

    release();
    release();
    act(() => vi.advanceTimersByTime(5_000));
    expect(socket.disconnect).toHaveBeenCalledOnce();
  });
});
