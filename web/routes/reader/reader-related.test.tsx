import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import nodeConsole from 'node:console';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEY } from '../../api/session.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { ReaderPage } from './reader-page.tsx';

const ITEM_ID = '11111111-1111-4111-8111-111111111111';
const DRIVE_LINK = `https://drive.google.com/file/d/${'A'.repeat(28)}/view`;

function renderReader(state: Record<string, string>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(SESSION_KEY, testUser());
  const router = createMemoryRouter([{ path: '/reader', element: <ReaderPage /> }], {
    initialEntries: [{ pathname: '/reader', state }],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  // happy-dom loads no frame and says so on Node's console: expected here.
  vi.spyOn(nodeConsole, 'error').mockImplementation(() => {});
});
afterEach(() => vi.unstubAllGlobals());

describe('the reader opened from a course material', () => {
  it('shows "More like this" for the item it was opened from', async () => {
    const calls = mockApi({
      [`GET /items/${ITEM_ID}/related`]: () => ({
        body: {
          byMeaning: false,
          items: [
            {
              id: '22222222-2222-4222-8222-222222222222',
              type: 'course',
              title: 'Linear Algebra Notes',
              authors: ['Dr. Test'],
              year: 2025,
              subjects: ['maths'],
              hasContent: false,
              reason: 'Same author',
            },
          ],
        },
      }),
    });
    renderReader({ driveLink: DRIVE_LINK, itemId: ITEM_ID });
    const link = await screen.findByRole('link', { name: /Linear Algebra Notes/ });
    expect(link.textContent).toContain('Same author');
    expect(screen.getByRole('heading', { level: 2, name: 'More like this' })).toBeTruthy();
    expect(calls.map((call) => call.path)).toEqual([`/items/${ITEM_ID}/related`]);
  });

  it('asks nothing when opened with a link alone', () => {
    const calls = mockApi({});
    renderReader({ driveLink: DRIVE_LINK });
    expect(screen.queryByRole('region', { name: 'More like this' })).toBeNull();
    expect(calls).toHaveLength(0);
  });
});
