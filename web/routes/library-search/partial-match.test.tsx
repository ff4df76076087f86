import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SearchResponse } from '#contract/http/catalogue.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { LibrarySearchPage } from './library-search-page.tsx';

const item = {
  id: 'item-1',
  type: 'paper',
  title: 'Convolutional Networks for Image Recognition',
  authors: ['Ada Quill'],
  year: 2015,
  subjects: ['cs.CV'],
  description: '',
  coverUrl: '',
  hasContent: false,
};

function answer(extra: Partial<SearchResponse>) {
  return {
    total: 1,
    page: 1,
    pageSize: 12,
    items: [item],
    facets: { type: { book: 1, paper: 0, course: 0 } },
    ...extra,
  };
}

/** Issue 23: a search says when its results hold only some of the words, or were found by meaning. */
describe('how the results were found', () => {
  afterEach(() => vi.unstubAllGlobals());

  const cases: [Partial<SearchResponse>, string | null][] = [
    [{ partialMatch: true }, 'No item has every word you searched for: these have most of them.'],
    [
      { partialMatch: true, byMeaning: true },
      'No item has every word you searched for: these have most of them, or are about what you described.',
    ],
    [{ byMeaning: true }, 'Some results are about what you described without using your words.'],
    [{}, null],
  ];

  it.each(cases)('says so for %o', async (extra, text) => {
    mockApi({ 'GET /search': () => ({ body: answer(extra) }) });
    renderScreen(<LibrarySearchPage />, '/library?q=brain%20inspired%20computing', testUser());
    await screen.findAllByText('Convolutional Networks for Image Recognition');
    if (text) expect(screen.getByText(text)).toBeDefined();
    else expect(screen.queryByText(/what you described|most of them/)).toBeNull();
  });
});
