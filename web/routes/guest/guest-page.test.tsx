import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestPage, previewText, searchQueryFromState } from './guest-page.tsx';

function renderAt(state: unknown, search = '') {
  const router = createMemoryRouter([{ path: '/guest', element: <GuestPage /> }], {
    initialEntries: [{ pathname: '/guest', search, state }],
  });
  // No server in unit tests: searches fail fast and the screen says so.
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

describe('guest screen', () => {
  it('reads only a string searchQuery from navigation state', () => {
    expect(searchQueryFromState({ searchQuery: '  dune ' })).toBe('dune');
    expect(searchQueryFromState({ searchQuery: 42 })).toBe('');
    expect(searchQueryFromState(null)).toBe('');
    expect(searchQueryFromState('dune')).toBe('');
  });

  it('shows the query it was given', () => {
    renderAt({ searchQuery: 'neural networks' });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Results for “neural networks”',
    );
  });

  it('reads the query from the address when a link carries it', () => {
    renderAt(undefined, '?q=%20dune%20messiah%20');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'Results for “dune messiah”',
    );
  });

  it('previews descriptions in 100 characters at most', () => {
    expect(previewText('short')).toBe('short');
    const long = 'word '.repeat(40);
    expect(previewText(long).length).toBeLessThanOrEqual(101);
    expect(previewText(long).endsWith('…')).toBe(true);
    expect(previewText(undefined)).toBe('');
  });

  it('tells a person with no query what to do', () => {
    renderAt(undefined);
    expect(screen.getByText('Try searching for a book.')).toBeTruthy();
  });

  it('renders a hostile query as text, never as markup', () => {
    renderAt({ searchQuery: '<img src=x onerror=alert(1)>' });
    expect(document.querySelector('img')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain(
      '<img src=x onerror=alert(1)>',
    );
  });
});
