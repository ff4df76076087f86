import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CatalogueItem, SearchResponse } from '#contract/http/catalogue.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { LibrarySearchPage } from './library-search-page.tsx';
import { activeFilterCount, yearRangeLabel } from './search-facets.tsx';

const item = (overrides: Partial<CatalogueItem>): CatalogueItem => ({
  id: 'item-1',
  type: 'book',
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  year: 1818,
  subjects: ['gothic'],
  hasContent: false,
  ...overrides,
});

const answer = (overrides: Partial<SearchResponse> = {}): SearchResponse => ({
  total: 2,
  page: 1,
  pageSize: 12,
  items: [
    item({}),
    item({ id: 'item-2', title: 'Dracula', authors: ['Bram Stoker'], coverUrl: '/covers/2.jpg' }),
  ],
  facets: { type: { book: 2, paper: 5, course: 1 } },
  facetCounts: {
    subjects: [
      { value: 'gothic', count: 2 },
      { value: 'horror', count: 1 },
    ],
    years: [
      { from: 1800, to: 1899, count: 2 },
      { from: 1990, to: 1999, count: 1 },
    ],
    available: 1,
  },
  ...overrides,
});

/** Renders the screen at `path` over a fake search; returns the router and the calls made. */
async function searchScreen(path: string, body: SearchResponse = answer()) {
  const calls = mockApi({ 'GET /search': () => ({ body }) });
  const { router } = renderScreen(<LibrarySearchPage />, path, testUser());
  await screen.findByRole('button', { name: /Frankenstein/ });
  const lastSearch = () => calls.filter((call) => call.path === '/search').at(-1)!.search;
  const url = () => new URLSearchParams(router.state.location.search);
  return { calls, router, lastSearch, url };
}

describe('library search facets and sort', () => {
  it('shows the facets with their counts, and the counts per type on the tabs', async () => {
    await searchScreen('/library?q=gothic');
    const facets = screen.getByRole('region', { name: 'Refine results' });
    expect(within(facets).getByRole('button', { name: 'gothic 2 results' })).toBeTruthy();
    expect(within(facets).getByRole('button', { name: 'horror 1 result' })).toBeTruthy();
    expect(within(facets).getByRole('button', { name: '1800–1899 2 results' })).toBeTruthy();
    expect(within(facets).getByRole('button', { name: '1990s 1 result' })).toBeTruthy();
    expect(within(facets).getByRole('checkbox', { name: /Free to reserve now/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Books 2' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Research Papers 5' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Course Materials' })).toBeTruthy();
  });

  it('applies a subject, a year range and availability through the URL, and removes them', async () => {
    const { lastSearch, url } = await searchScreen('/library?q=gothic&page=2');
    fireEvent.click(screen.getByRole('button', { name: 'horror 1 result' }));
    await waitFor(() => expect(lastSearch().get('subject')).toBe('horror'));
    expect(url().get('subject')).toBe('horror');
    // A new facet starts at the first page.
    expect(url().get('page')).toBeNull();
    expect(
      screen.getByRole('button', { name: 'horror 1 result' }).getAttribute('aria-pressed'),
    ).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: '1990s 1 result' }));
    await waitFor(() => expect(lastSearch().get('yearFrom')).toBe('1990'));
    expect(lastSearch().get('yearTo')).toBe('1999');
    expect(url().get('subject')).toBe('horror');

    fireEvent.click(screen.getByRole('checkbox', { name: /Free to reserve now/ }));
    await waitFor(() => expect(lastSearch().get('available')).toBe('true'));

    // Pressing a chosen facet again removes it; "clear" removes them all.
    fireEvent.click(screen.getByRole('button', { name: 'horror 1 result' }));
    await waitFor(() => expect(url().get('subject')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Clear subject, years and availability' }));
    await waitFor(() => expect(url().get('yearFrom')).toBeNull());
    expect(url().get('available')).toBeNull();
    expect(url().get('q')).toBe('gothic');
  });

  it('keeps a chosen subject or range listed when the counts no longer name it', async () => {
    await searchScreen('/library?q=gothic&subject=vampires&yearFrom=1850&yearTo=1860');
    expect(screen.getByRole('button', { name: 'vampires' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByRole('button', { name: '1850–1860' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });

  it('sorts by the select, through the URL; relevance is the default and not sent', async () => {
    const { lastSearch, url } = await searchScreen('/library?q=gothic');
    expect(lastSearch().get('sort')).toBeNull();
    const sort = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement;
    expect(sort.value).toBe('relevance');
    fireEvent.change(sort, { target: { value: 'year' } });
    await waitFor(() => expect(lastSearch().get('sort')).toBe('year'));
    expect(url().get('sort')).toBe('year');
    fireEvent.change(sort, { target: { value: 'relevance' } });
    await waitFor(() => expect(url().get('sort')).toBeNull());
  });

  it('folds the filters behind a Filters button that says how many apply', async () => {
    await searchScreen('/library?q=gothic&author=shelley&subject=gothic&yearFrom=1800&yearTo=1899');
    const toggle = screen.getByRole('button', { name: 'Filters 3 active' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    const controlled = toggle.getAttribute('aria-controls')!.split(' ');
    expect(controlled).toHaveLength(2);
    for (const id of controlled) {
      expect(document.getElementById(id)?.getAttribute('data-open')).toBe('false');
    }
    // The author field and the facets are inside what it folds.
    expect(document.getElementById(controlled[0]!)?.contains(screen.getByLabelText('Author'))).toBe(
      true,
    );
    expect(
      document
        .getElementById(controlled[1]!)
        ?.contains(screen.getByRole('region', { name: 'Refine results' })),
    ).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    for (const id of controlled) {
      expect(document.getElementById(id)?.getAttribute('data-open')).toBe('true');
    }
  });

  it('shows covers on the result cards: the image at a fixed size, else a generated one', async () => {
    await searchScreen('/library?q=gothic');
    const dracula = screen.getByRole('button', { name: /Dracula/ });
    const image = dracula.querySelector('img')!;
    expect(image.getAttribute('src')).toBe('/covers/2.jpg');
    // Decorative beside the title: the card's name is its words, once.
    expect(image.getAttribute('alt')).toBe('');
    expect(image.getAttribute('loading')).toBe('lazy');
    expect([image.getAttribute('width'), image.getAttribute('height')]).toEqual(['64', '96']);
    // No cover: a generated one, hidden from screen readers.
    const frankenstein = screen.getByRole('button', { name: /Frankenstein/ });
    const generated = frankenstein.querySelector('[data-generated-cover]')!;
    expect(generated.getAttribute('aria-hidden')).toBe('true');
    expect(generated.textContent).toBe('FrankensteinMary Shelley');
    // A cover that fails to load gives way to a generated one.
    fireEvent.error(image);
    await waitFor(() => expect(dracula.querySelector('img')).toBeNull());
    expect(dracula.querySelector('[data-generated-cover]')?.textContent).toBe('DraculaBram Stoker');
  });

  it('shows no facets, sort or counts before a search', async () => {
    mockApi({ 'GET /search': () => ({ body: answer() }) });
    renderScreen(<LibrarySearchPage />, '/library', testUser());
    await screen.findByRole('button', { name: /Frankenstein/ });
    expect(screen.queryByRole('region', { name: 'Refine results' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Sort by' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Books' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Filters' })).toBeTruthy();
  });
});

describe('facet helpers', () => {
  it('names year ranges as decades, ranges or single years', () => {
    expect(yearRangeLabel(1990, 1999)).toBe('1990s');
    expect(yearRangeLabel(1800, 1899)).toBe('1800–1899');
    expect(yearRangeLabel(1605, 1799)).toBe('1605–1799');
    expect(yearRangeLabel(1813, 1813)).toBe('1813');
    expect(yearRangeLabel('1900', '')).toBe('From 1900');
    expect(yearRangeLabel('', '1900')).toBe('Up to 1900');
  });

  it('counts the filters that apply, a year range once', () => {
    const none = { subject: '', yearFrom: '', yearTo: '', available: false };
    expect(activeFilterCount(none)).toBe(0);
    expect(activeFilterCount({ ...none, author: 'x', category: 'history', year: '' })).toBe(2);
    expect(activeFilterCount({ ...none, yearFrom: '1900', yearTo: '1999', available: true })).toBe(
      2,
    );
  });
});
