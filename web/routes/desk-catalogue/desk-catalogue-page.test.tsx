import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CatalogueItem, SearchResponse } from '#contract/http/catalogue.ts';
import { type ApiCall, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { DeskCataloguePage } from './desk-catalogue-page.tsx';

const result = (overrides: Partial<CatalogueItem>): CatalogueItem => ({
  id: 'item-1',
  type: 'book',
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  year: 1818,
  subjects: [],
  hasContent: false,
  ...overrides,
});

function answer(items: CatalogueItem[]): { body: SearchResponse } {
  return {
    body: {
      total: items.length,
      page: 1,
      pageSize: 20,
      items,
      facets: { type: { book: items.length, paper: 0, course: 0 } },
    },
  };
}

const searches = (calls: ApiCall[]) =>
  calls.filter((call) => call.path === '/search').map((call) => call.search.toString());

describe('the librarians’ catalogue', () => {
  it('asks for words first, then lists withdrawn items too when asked, each linking to its screen', async () => {
    const calls = mockApi({
      'GET /search': () =>
        answer([
          result({}),
          result({ id: 'item-2', title: 'Frankenstein notes', withdrawn: true, year: null }),
        ]),
    });
    renderScreen(<DeskCataloguePage />, '/desk/catalogue', testUser({ role: 'librarian' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Catalogue' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Add an item' }).getAttribute('href')).toBe(
      '/desk/catalogue/new',
    );
    expect(searches(calls)).toEqual([]);

    fireEvent.change(screen.getByLabelText('Search the catalogue'), {
      target: { value: ' frankenstein ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('2 items match “frankenstein”.')).toBeTruthy();
    expect(searches(calls)).toEqual(['q=frankenstein&page=1&pageSize=20']);

    fireEvent.click(screen.getByLabelText('Show withdrawn items'));
    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'book' } });
    expect(
      await screen.findByText('2 items match “frankenstein” among books, withdrawn ones included.'),
    ).toBeTruthy();
    expect(searches(calls).at(-1)).toBe(
      'q=frankenstein&type=book&withdrawn=true&page=1&pageSize=20',
    );

    const results = screen.getAllByRole('listitem');
    expect(within(results[0]!).queryByText('Withdrawn')).toBeNull();
    expect(results[0]!.textContent).toContain('Mary Shelley · 1818 · Book');
    expect(within(results[1]!).getByText('Withdrawn')).toBeTruthy();
    expect(results[1]!.textContent).toContain('Year unknown');
    expect(
      within(results[1]!).getByRole('link', { name: 'Frankenstein notes' }).getAttribute('href'),
    ).toBe('/desk/catalogue/item-2');
  });

  it('says what to change when nothing matches', async () => {
    mockApi({ 'GET /search': () => answer([]) });
    renderScreen(<DeskCataloguePage />, '/desk/catalogue?q=zzz', testUser({ role: 'librarian' }));
    const results = screen.getByRole('region', { name: 'Search results' });
    await waitFor(() =>
      expect(within(results).getByRole('status').textContent).toBe(
        'No item matches “zzz”. Withdrawn items are left out: tick “Show withdrawn items” to include them.',
      ),
    );
  });
});
