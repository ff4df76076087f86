import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import type { SharedReadingList } from '#contract/http/shelf.ts';
import { ROUTES, sharedListPath } from '#contract/routes.ts';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { SharedListPage } from './shared-list-page.tsx';

const TOKEN = 'A'.repeat(32);

function card(n: number): CatalogueItem {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    type: 'book',
    title: `Book ${n}`,
    authors: [`Author ${n}`],
    year: null,
    subjects: [],
    hasContent: false,
  };
}

const LIST: SharedReadingList = {
  name: 'Seminar texts',
  description: 'For Thursday',
  ownerName: 'Mary Shelley',
  mine: false,
  items: [card(2), card(1)],
};

/** The screen at its route pattern, so `:token` is read from the address as in the app. */
function renderShared() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, testUser({ name: 'Percy' }));
  const router = createMemoryRouter([{ path: ROUTES.sharedList, element: <SharedListPage /> }], {
    initialEntries: [sharedListPath(TOKEN)],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('a shared reading list', () => {
  it('shows the list read-only, in its order, each item with Save', async () => {
    const saved = new Set<string>();
    const calls = mockApi({
      [`GET /shared-lists/${TOKEN}`]: () => ({ body: LIST }),
      'GET /shelf': () => ({
        body: {
          items: [card(1), card(2)]
            .filter((item) => saved.has(item.id))
            .map((item) => ({ ...item, savedAt: '2026-11-20T10:00:00.000Z' })),
        },
      }),
      [`PUT /shelf/${card(2).id}`]: () => {
        saved.add(card(2).id);
        return { body: { itemId: card(2).id, saved: true } };
      },
    });
    renderShared();
    expect(await screen.findByRole('heading', { level: 1, name: 'Seminar texts' })).toBeTruthy();
    expect(screen.getByText('For Thursday')).toBeTruthy();
    expect(screen.getByText(/Shared by Mary Shelley/)).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Seminar texts, in order' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual([card(2), card(1)].map((item) => `${ROUTES.librarySearch}?item=${item.id}`));
    expect(screen.queryByRole('button', { name: /Move|Remove|Delete|Share|Rename/ })).toBeNull();

    fireEvent.click(
      await within(list).findByRole('button', { name: /^Save to my shelf\s?: Book 2/ }),
    );
    expect(await within(list).findByRole('button', { name: /^Saved\s?: Book 2/ })).toBeTruthy();
    expect(
      calls.some((call) => call.method === 'PUT' && call.path === `/shelf/${card(2).id}`),
    ).toBe(true);
  });

  it('says plainly when the link no longer works', async () => {
    mockApi({
      [`GET /shared-lists/${TOKEN}`]: () => ({
        status: 404,
        body: { success: false, message: 'This reading list is not shared.' },
      }),
    });
    renderShared();
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This list is not shared' }),
    ).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to my shelf' }).getAttribute('href')).toBe(
      ROUTES.shelf,
    );
  });
});
