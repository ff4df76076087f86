import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import { coverColour } from '../../components/catalogue/cover.tsx';
import { mockApi } from '../../test/api-mock.tsx';
import { GuestPage, previewText, searchQueryFromState } from './guest-page.tsx';

/** A book result, with overrides. */
function book(overrides: Partial<CatalogueItem>): CatalogueItem {
  return {
    id: 'b1',
    type: 'book',
    title: 'Dune',
    authors: ['Frank Herbert'],
    year: 1965,
    subjects: [],
    hasContent: true,
    ...overrides,
  };
}

/** A fake `/api/search` answering with these items. */
function searchAnswers(items: CatalogueItem[]) {
  mockApi({
    'GET /search': () => ({
      body: {
        total: items.length,
        page: 1,
        pageSize: items.length,
        items,
        facets: { type: { book: items.length, paper: 0, course: 0 } },
      },
    }),
  });
}

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

  it('gives a book without a cover, or whose cover fails to load, the generated cover', async () => {
    searchAnswers([
      book({ id: 'b1', title: 'Dune', authors: ['Frank Herbert'] }),
      book({ id: 'b2', title: 'Emma', authors: ['Jane Austen'], coverUrl: '/covers/emma.jpg' }),
    ]);
    renderAt({ searchQuery: 'novels' });
    const [dune, emma] = await screen.findAllByRole('listitem');

    expect(dune!.querySelector('img')).toBeNull();
    const generated = dune!.querySelector<HTMLElement>('[data-generated-cover]')!;
    expect(generated.textContent).toBe('DuneFrank Herbert');
    expect(generated.dataset.colour).toBe(String(coverColour('Dune')));
    expect(generated.getAttribute('aria-hidden')).toBe('true');

    const image = emma!.querySelector('img')!;
    expect(image.getAttribute('src')).toBe('/covers/emma.jpg');
    expect(image.getAttribute('alt')).toBe('');
    fireEvent.error(image);
    expect(emma!.querySelector('img')).toBeNull();
    expect(emma!.querySelector('[data-generated-cover]')?.textContent).toBe('EmmaJane Austen');
  });
});
