import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { LibrarySearchPage } from './library-search-page.tsx';

const item = {
  id: 'item-1',
  type: 'book',
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  year: 1818,
  subjects: ['gothic'],
  description: '',
  coverUrl: '',
  hasContent: false,
};

describe('"Showing results for" after a typo', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says what it searched for, and searches the words as typed when asked', async () => {
    const calls = mockApi({
      'GET /search': (call) => ({
        body:
          call.search.get('exact') === 'true'
            ? {
                total: 0,
                page: 1,
                pageSize: 12,
                items: [],
                facets: { type: { book: 0, paper: 0, course: 0 } },
                suggestion: 'frankenstein',
              }
            : {
                total: 1,
                page: 1,
                pageSize: 12,
                items: [item],
                facets: { type: { book: 1, paper: 0, course: 0 } },
                correctedQuery: 'frankenstein',
              },
      }),
    });
    const { router } = renderScreen(<LibrarySearchPage />, '/library?q=frankenstien', testUser());
    const shown = await screen.findByText(
      (_, element) =>
        element?.tagName === 'P' && /^Showing results for/.test(element.textContent ?? ''),
    );
    expect(shown.textContent).toBe(
      'Showing results for frankenstein. Search instead for frankenstien',
    );
    await userEvent.click(screen.getByRole('button', { name: 'frankenstien' }));
    await waitFor(() => expect(router.state.location.search).toContain('exact=true'));
    expect(
      await screen.findByText(
        (_, element) => element?.tagName === 'P' && /^Did you mean/.test(element.textContent ?? ''),
      ),
    ).toBeDefined();
    expect(calls.at(-1)?.search.get('exact')).toBe('true');
    // Following the suggestion searches it with corrections on again.
    await userEvent.click(screen.getByRole('button', { name: 'frankenstein' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=frankenstein'));
  });
});
