import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render } from '@testing-library/react';
import { type ReactNode, useSyncExternalStore } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { CurrentUser } from '#contract/http/users.ts';
import type { Ack, RoomSummary } from '#contract/socket/chat.ts';
import type { ChatConnection, ChatRequestEvent } from '../api/chat-socket.ts';
import { SESSION_KEY } from '../api/session.ts';

type Listener = (...args: never[]) => void;

/** A stand-in for the Socket.IO client: records what the screen emits, lets a test push events. */
export class FakeChatSocket {
  connected = true;
  readonly emitted: { event: string; args: unknown[] }[] = [];
  private readonly listeners = new Map<string, Set<Listener>>();

  on(event: string, listener: Listener) {
    const set = this.listeners.get(event) ?? new Set();
    set.add(listener);
    this.listeners.set(event, set);
    return this;
  }

  off(event: string, listener: Listener) {
    this.listeners.get(event)?.delete(listener);
    return this;
  }

  emit(event: string, ...args: unknown[]) {
    this.emitted.push({ event, args });
    return this;
  }

  /** The server sends `event` (or the socket reports `connect`). */
  serverEmit(event: string, ...args: unknown[]) {
    act(() => {
      for (const listener of [...(this.listeners.get(event) ?? [])])
        (listener as (...values: unknown[]) => void)(...args);
    });
  }

  listenerCount(event: string): number {
    return this.listeners.get(event)?.size ?? 0;
  }
}

const subscribers = new Set<() => void>();
const subscribe = (subscriber: () => void) => {
  subscribers.add(subscriber);
  return () => {
    subscribers.delete(subscriber);
  };
};
const notify = () => act(() => subscribers.forEach((subscriber) => subscriber()));

/** The fake chat server of one test: its socket, pushed state and answers to requests. */
export const fakeChat = {
  socket: new FakeChatSocket(),
  connection: { status: 'connected' } as ChatConnection,
  rooms: null as RoomSummary[] | null,
  requests: [] as { event: ChatRequestEvent; payload: unknown }[],
  /** The acknowledgement of each request; `{ ok: true }` when none is set. */
  answers: {} as Partial<Record<ChatRequestEvent, (payload: never) => Ack | Promise<Ack>>>,

  reset() {
    fakeChat.socket = new FakeChatSocket();
    fakeChat.connection = { status: 'connected' };
    fakeChat.rooms = null;
    fakeChat.requests = [];
    fakeChat.answers = {};
  },
  setRooms(rooms: RoomSummary[]) {
    fakeChat.rooms = rooms;
    notify();
  },
  setConnection(connection: ChatConnection) {
    fakeChat.connection = connection;
    notify();
  },
  requestsOf(event: ChatRequestEvent): unknown[] {
    return fakeChat.requests
      .filter((request) => request.event === event)
      .map((request) => request.payload);
  },
};

/** What `vi.mock('…/api/chat-socket.ts')` returns: the module's exports over `fakeChat`. */
export const fakeChatSocketModule = {
  OFFLINE_MESSAGE: 'offline',
  NO_ANSWER_MESSAGE: 'no answer',
  getChatSocket: () => fakeChat.socket,
  useChatConnection: () => useSyncExternalStore(subscribe, () => fakeChat.connection),
  useAvailableRooms: () => useSyncExternalStore(subscribe, () => fakeChat.rooms),
  chatRequest: async (event: ChatRequestEvent, payload: unknown): Promise<Ack> => {
    fakeChat.requests.push({ event, payload });
    const answer = fakeChat.answers[event] as ((body: unknown) => Ack | Promise<Ack>) | undefined;
    return answer ? answer(payload) : { ok: true };
  },
  leaveChatRoom: () => {
    fakeChat.socket.emit('leave_room');
  },
};

/** Stands for every other screen: says where the app went. */
function Elsewhere() {
  return <p>Now at {useLocation().pathname}</p>;
}

/**
 * Renders a chat screen at `path` (matched by `pattern`) for `user`, with the library's extra
 * moderation words already loaded. Any other path shows 'Now at {path}'.
 */
export function renderChatScreen(
  element: ReactNode,
  {
    path,
    pattern,
    user,
    words = [],
  }: {
    path: string;
    pattern: string;
    user: CurrentUser;
    words?: string[];
  },
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, user);
  client.setQueryData(['chat', 'moderation-words'], words);
  const router = createMemoryRouter(
    [
      { path: pattern, element },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

/** A room of the list as the server presents it, created by Grace, one person in it. */
export const testRoom = (roomName: string, overrides: Partial<RoomSummary> = {}): RoomSummary => ({
  roomName,
  description: '',
  creator: 'Grace',
  creatorId: 'user-2',
  createdAt: '2026-03-02T10:15:00.000Z',
  memberCount: 1,
  abuseDetected: false,
  ...overrides,
});
