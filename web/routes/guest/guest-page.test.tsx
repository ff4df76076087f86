import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestPage, searchQueryFromState } from './guest-page.tsx';

function renderAt(state: unknown) {
  const router = createMemoryRouter([{ path: '/guest', element: <GuestPage /> }], {
    initialEntries: [{ pathname: '/guest', state }],
  });
  render(<RouterProvider router={router} />);
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
