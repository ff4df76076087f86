import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { UNREAD_NOTICES_KEY } from '../../api/notices.ts';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { FakeChatSocket } from '../../test/fake-chat-socket.tsx';

const live = vi.hoisted(() => ({
  socket: null as unknown,
  held: 0,
  released: 0,
}));
vi.mock('../../api/chat-socket.ts', () => ({
  getChatSocket: () => live.socket,
  holdChatSocket: () => {
    live.held += 1;
    return () => {
      live.released += 1;
    };
  },
}));

const { TopBar } = await import('./top-bar.tsx');

let socket: FakeChatSocket;
beforeEach(() => {
  socket = new FakeChatSocket();
  live.socket = socket;
  live.held = 0;
  live.released = 0;
});

/** The top bar for `user`, with the server counting `unread` unread notices. */
function renderBar(user: CurrentUser | null, unread: number | 'fails') {
  const calls = mockApi({
    'GET /users/me': () => ({ body: { user } }),
    'GET /notices': () =>
      unread === 'fails'
        ? { status: 500, body: { success: false, message: 'Down' } }
        : { body: { payload: [], unread, hasMore: false } },
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, user);
  const router = createMemoryRouter([{ path: '*', element: <TopBar /> }], {
    initialEntries: [ROUTES.studentHome],
  });
  const view = render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { calls, client, view };
}

const bell = (name: string | RegExp) => screen.findByRole('link', { name });

describe('the notices bell', () => {
  it('links to the notices, named with the unread count, and shows the count on a badge', async () => {
    renderBar(testUser(), 3);
    const link = await bell('Notices, 3 unread');
    expect(link.getAttribute('href')).toBe(ROUTES.notices);
    // The badge is for the eye; the name already says it.
    const badge = link.querySelector('[aria-hidden="true"]:not(svg)');
    expect(badge?.textContent).toBe('3');
  });

  it('has no badge and a plain name when nothing is unread', async () => {
    renderBar(testUser(), 0);
    const link = await bell('Notices');
    await waitFor(() => expect(live.held).toBe(1));
    expect(link.textContent).toBe('');
  });

  it('shows a big count as 99+, but names it in full', async () => {
    renderBar(testUser(), 120);
    const link = await bell('Notices, 120 unread');
    expect(link.textContent).toBe('99+');
  });

  it('takes a pushed count from the socket and ignores a malformed push', async () => {
    renderBar(testUser(), 1);
    await bell('Notices, 1 unread');
    await waitFor(() => expect(socket.listenerCount('notices_changed')).toBe(1));
    socket.serverEmit('notices_changed', { unread: 4 });
    expect(await bell('Notices, 4 unread')).toBeTruthy();
    socket.serverEmit('notices_changed', { unread: 'many' });
    socket.serverEmit('notices_changed', null);
    expect(await bell('Notices, 4 unread')).toBeTruthy();
    socket.serverEmit('notices_changed', { unread: 0 });
    expect(await bell('Notices')).toBeTruthy();
  });

  it('asks for the count again after the connection was lost, not on the first connect', async () => {
    const { calls } = renderBar(testUser(), 2);
    await bell('Notices, 2 unread');
    await waitFor(() => expect(live.held).toBe(1));
    const asked = () => calls.filter((call) => call.path === '/notices').length;
    socket.serverEmit('connect');
    expect(asked()).toBe(1);
    socket.serverEmit('disconnect', 'transport close');
    socket.serverEmit('connect');
    await waitFor(() => expect(asked()).toBe(2));
  });

  it('holds the shared socket only once the count has loaded, and lets it go when unmounted', async () => {
    const { view, client } = renderBar(testUser(), 'fails');
    expect(await bell('Notices')).toBeTruthy();
    await waitFor(() => expect(client.getQueryState(UNREAD_NOTICES_KEY)?.status).toBe('error'));
    expect(live.held).toBe(0);
    view.unmount();

    const second = renderBar(testUser(), 2);
    await bell('Notices, 2 unread');
    await waitFor(() => expect(live.held).toBe(1));
    second.view.unmount();
    expect(live.released).toBe(1);
    expect(socket.listenerCount('notices_changed')).toBe(0);
  });

  it('is not there for a guest', async () => {
    const { calls } = renderBar(null, 0);
    expect(await screen.findByRole('link', { name: 'Sign In' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: /^Notices/ })).toBeNull();
    expect(calls.some((call) => call.path === '/notices')).toBe(false);
  });

  it('sits in the bar beside the Menu button, outside the narrow-screen panel', async () => {
    renderBar(testUser(), 1);
    const link = await bell('Notices, 1 unread');
    const menu = screen.getByRole('button', { name: 'Menu' });
    const panel = document.getElementById(menu.getAttribute('aria-controls') ?? '');
    expect(panel?.contains(link)).toBe(false);
    expect(screen.getByRole('banner').contains(link)).toBe(true);
  });
});
