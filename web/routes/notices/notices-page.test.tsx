import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { Notice } from '#contract/http/notices.ts';
import { ROUTES } from '#contract/routes.ts';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser, type ApiCall } from '../../test/api-mock.tsx';
import { NoticesPage } from './notices-page.tsx';

function notice(id: number, overrides: Partial<Notice> = {}): Notice {
  return {
    id: String(id),
    kind: 'hold_offered',
    title: `Notice ${id}`,
    body: `What notice ${id} says.`,
    link: `/offline-book-service?book=book-${id}`,
    createdAt: new Date(Date.UTC(2026, 10, 1, 9, id)).toISOString(),
    readAt: null,
    ...overrides,
  };
}

/** Says where the app went when a notice's link is followed. */
function Elsewhere() {
  const location = useLocation();
  return <p>Now at {location.pathname + location.search}</p>;
}

/** The server's notices, newest first: the highest id first, as the server orders them. */
function fakeServer(all: Notice[], { failRead = false } = {}) {
  const state = { notices: all };
  const unread = () => state.notices.filter((item) => item.readAt === null).length;
  const calls = mockApi({
    'GET /notices': ({ search }) => {
      const before = search.get('before');
      const limit = Number(search.get('limit'));
      const older = before
        ? state.notices.filter((item) => Number(item.id) < Number(before))
        : state.notices;
      return {
        body: { payload: older.slice(0, limit), unread: unread(), hasMore: older.length > limit },
      };
    },
    'POST /notices/read': ({ body }) => {
      if (failRead) return { status: 503, body: { success: false, message: 'Try again soon.' } };
      const { ids, all: every } = body as { ids?: string[]; all?: boolean };
      state.notices = state.notices.map((item) =>
        every || ids?.includes(item.id) ? { ...item, readAt: '2026-11-02T10:00:00.000Z' } : item,
      );
      return { body: { unread: unread() } };
    },
  });
  return { calls, state };
}

function renderNotices() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, testUser());
  const router = createMemoryRouter(
    [
      { path: ROUTES.notices, element: <NoticesPage /> },
      { path: '*', element: <Elsewhere /> },
    ],
    { initialEntries: [ROUTES.notices] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { client, router };
}

const items = () =>
  within(screen.getByRole('list', { name: /Your notices/ })).getAllByRole('listitem');
const reads = (calls: ApiCall[]) =>
  calls.filter((call) => call.path === '/notices/read').map((call) => call.body);

describe('the notices screen', () => {
  it('lists notices newest first with their title as a link, body, time, and unread marked', async () => {
    fakeServer([notice(3), notice(2, { readAt: '2026-11-01T12:00:00.000Z' }), notice(1)]);
    renderNotices();
    expect(await screen.findByRole('heading', { level: 1, name: 'Notices' })).toBeTruthy();
    await screen.findByRole('link', { name: 'Notice 3' });
    const [newest, middle, oldest] = items() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(newest).getByRole('link', { name: 'Notice 3' }).getAttribute('href')).toBe(
      '/offline-book-service?book=book-3',
    );
    expect(within(newest).getByText('What notice 3 says.')).toBeTruthy();
    expect(
      within(newest)
        .getByText(/Nov 1, 2026/)
        .getAttribute('datetime'),
    ).toBe(notice(3).createdAt);
    expect(within(newest).getByText('Unread')).toBeTruthy();
    expect(within(middle).queryByText('Unread')).toBeNull();
    expect(within(oldest).getByText('Unread')).toBeTruthy();
    expect(screen.getByText('2 unread notices.')).toBeTruthy();
  });

  it('marks all as read, says so, and keeps the focus on the button', async () => {
    const { calls } = fakeServer([notice(2), notice(1)]);
    renderNotices();
    await screen.findByRole('link', { name: 'Notice 2' });
    const button = screen.getByRole('button', { name: 'Mark all as read' });
    button.focus();
    fireEvent.click(button);
    expect((await screen.findByRole('status')).textContent).toBe(
      'All your notices are marked as read.',
    );
    expect(reads(calls)).toEqual([{ all: true }]);
    expect(screen.queryByText('Unread')).toBeNull();
    expect(screen.getByText('No unread notices.')).toBeTruthy();
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(button);
    // Nothing is left to mark: pressing again asks nothing.
    fireEvent.click(button);
    expect(reads(calls)).toHaveLength(1);
  });

  it('says so when marking all fails', async () => {
    fakeServer([notice(1)], { failRead: true });
    renderNotices();
    await screen.findByRole('link', { name: 'Notice 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Try again soon.');
    expect(screen.getByText('Unread')).toBeTruthy();
  });

  it('marks a notice read when its link is followed, and goes where it points', async () => {
    const { calls, state } = fakeServer([notice(2), notice(1)]);
    const { client } = renderNotices();
    fireEvent.click(await screen.findByRole('link', { name: 'Notice 1' }));
    expect(await screen.findByText('Now at /offline-book-service?book=book-1')).toBeTruthy();
    await waitFor(() => expect(reads(calls)).toEqual([{ ids: ['1'] }]));
    await waitFor(() => expect(client.getQueryData(['notices', 'unread'])).toBe(1));
    expect(state.notices.map((item) => item.readAt === null)).toEqual([true, false]);
  });

  it('does not mark again a notice already read', async () => {
    const { calls } = fakeServer([notice(1, { readAt: '2026-11-01T12:00:00.000Z' })]);
    renderNotices();
    fireEvent.click(await screen.findByRole('link', { name: 'Notice 1' }));
    await screen.findByText(/Now at/);
    expect(reads(calls)).toEqual([]);
  });

  it('follows only links inside the app', async () => {
    fakeServer([
      notice(2, { title: 'Far away', link: 'https://evil.example/' }),
      notice(1, { title: 'Protocol-relative', link: '//evil.example/' }),
    ]);
    renderNotices();
    await screen.findByText('Far away');
    expect(screen.queryByRole('link', { name: 'Far away' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Protocol-relative' })).toBeNull();
  });

  it('loads older notices before the last one shown, focusing the first of them', async () => {
    const all = Array.from({ length: 25 }, (_, index) => notice(25 - index));
    const { calls } = fakeServer(all);
    renderNotices();
    await screen.findByRole('link', { name: 'Notice 25' });
    expect(items()).toHaveLength(20);
    fireEvent.click(screen.getByRole('button', { name: 'Load older notices' }));
    await screen.findByRole('link', { name: 'Notice 1' });
    expect(items()).toHaveLength(25);
    const pages = calls.filter((call) => call.path === '/notices' && call.search.has('before'));
    expect(pages.map((call) => call.search.get('before'))).toEqual(['6']);
    await waitFor(() => expect(document.activeElement).toBe(items()[20]));
    // The last page: the button goes.
    expect(screen.queryByRole('button', { name: 'Load older notices' })).toBeNull();
  });

  it('says in words when there are no notices', async () => {
    fakeServer([]);
    renderNotices();
    expect(await screen.findByText(/You have no notices yet/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Load older notices' })).toBeNull();
  });

  it('says so when the notices cannot be loaded, and tries again', async () => {
    let fail = true;
    mockApi({
      'GET /notices': () =>
        fail
          ? { status: 503, body: { success: false, message: 'The library is busy.' } }
          : { body: { payload: [notice(1)], unread: 1, hasMore: false } },
    });
    renderNotices();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Your notices could not be loaded. The library is busy.',
    );
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: 'Notice 1' })).toBeTruthy();
  });
});
