import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RelatedItem } from '#contract/http/catalogue.ts';
import { ROUTES } from '#contract/routes.ts';
import { mockApi, renderScreen } from '../../test/api-mock.tsx';
import { MoreLikeThis } from './more-like-this.tsx';

const ITEM_ID = '11111111-1111-4111-8111-111111111111';

function related(overrides: Partial<RelatedItem> & Pick<RelatedItem, 'id' | 'title'>): RelatedItem {
  return {
    type: 'book',
    authors: ['Ada Quill'],
    year: 2001,
    subjects: [],
    hasContent: false,
    reason: 'Same author',
    ...overrides,
  };
}

const ITEMS: RelatedItem[] = [
  related({
    id: '22222222-2222-4222-8222-222222222222',
    title: 'Tides and Currents',
    type: 'paper',
    reason: 'Similar abstract',
  }),
  related({ id: '33333333-3333-4333-8333-333333333333', title: 'Quill on Rivers' }),
  related({
    id: '44444444-4444-4444-8444-444444444444',
    title: 'Sea Shanties',
    authors: [],
    year: null,
    reason: 'Similar subject',
  }),
];

describe('MoreLikeThis', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists related items as links to their details, each with its reason', async () => {
    const calls = mockApi({
      [`GET /items/${ITEM_ID}/related`]: () => ({ body: { items: ITEMS, byMeaning: true } }),
    });
    renderScreen(<MoreLikeThis itemId={ITEM_ID} />);
    const section = await screen.findByRole('region', { name: 'More like this' });
    const links = await waitFor(() => {
      const found = screen.getAllByRole('link');
      expect(found).toHaveLength(3);
      return found;
    });
    expect(section.getAttribute('aria-busy')).toBe('false');
    expect(links[0]?.textContent).toContain('Tides and Currents');
    expect(links[0]?.textContent).toContain('Ada Quill · 2001');
    expect(links[0]?.textContent).toContain('Similar abstract');
    expect(links[0]?.getAttribute('href')).toBe(
      `${ROUTES.librarySearch}?item=22222222-2222-4222-8222-222222222222`,
    );
    expect(links[1]?.textContent).toContain('Same author');
    expect(links[2]?.textContent).toContain('Unknown author');
    expect(links[2]?.textContent).toContain('Similar subject');
    expect(calls).toHaveLength(1);

    // Reachable from the keyboard, one card after another.
    await userEvent.tab();
    expect(document.activeElement).toBe(links[0]);
    await userEvent.tab();
    expect(document.activeElement).toBe(links[1]);
  });

  it('holds its place while loading, then is not shown when nothing is related', async () => {
    let answer: (value: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    renderScreen(<MoreLikeThis itemId={ITEM_ID} />);
    const section = await screen.findByRole('region', { name: 'More like this' });
    expect(section.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Loading related items…');
    expect(screen.queryAllByRole('link')).toHaveLength(0);

    answer(
      new Response(JSON.stringify({ items: [], byMeaning: false }), {
        headers: { 'content-type': 'application/json' },
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'More like this' })).toBeNull(),
    );
  });

  it('is not shown when the list cannot be read', async () => {
    mockApi({
      [`GET /items/${ITEM_ID}/related`]: () => ({
        status: 404,
        body: { success: false, message: 'There is no such item in the catalogue.' },
      }),
    });
    renderScreen(<MoreLikeThis itemId={ITEM_ID} heading="h3" />);
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'More like this' })).toBeNull(),
    );
  });
});
