import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../test/api-mock.tsx';
import { AppLayout } from './app-layout.tsx';

function renderLayout(element: ReactNode) {
  mockApi({ 'GET /users/me': () => ({ body: { user: null } }) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ element, children: [{ path: '/', element: <h1>Home</h1> }] }],
    { initialEntries: ['/'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('AppLayout', () => {
  it("keeps the footer out of view while the first screen's code loads", () => {
    renderLayout(
      <AppLayout>
        <p role="status">Loading…</p>
      </AppLayout>,
    );
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    // Hidden, not absent: it fetches the library's details meanwhile.
    expect(screen.queryByRole('contentinfo')).toBeNull();
    expect(document.querySelector('footer')?.hidden).toBe(true);
  });

  it('shows the footer under a screen', () => {
    renderLayout(<AppLayout />);
    expect(screen.getByRole('heading', { name: 'Home' })).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });
});
