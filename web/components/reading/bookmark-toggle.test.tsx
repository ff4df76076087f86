import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen } from '../../test/api-mock.tsx';
import { BookmarkToggle } from './bookmark-toggle.tsx';
import { BOOK_ID, readingState } from './reading-fixtures.ts';

describe('BookmarkToggle', () => {
  it('bookmarks the page and removes the bookmark, as a pressed toggle', async () => {
    let pages: number[] = [2];
    const state = () =>
      readingState({
        bookmarks: pages.map((page) => ({ page, createdAt: '2026-11-20T10:00:00Z' })),
      });
    const calls = mockApi({
      [`GET /items/${BOOK_ID}/reading`]: () => ({ body: state() }),
      [`PUT /items/${BOOK_ID}/bookmarks/5`]: () => {
        pages = [...pages, 5];
        return { body: { page: 5, createdAt: '2026-11-20T10:00:00Z' } };
      },
      [`DELETE /items/${BOOK_ID}/bookmarks/5`]: () => {
        pages = pages.filter((page) => page !== 5);
        return { status: 204, body: null };
      },
    });
    renderScreen(<BookmarkToggle itemId={BOOK_ID} page={5} />);
    const button = await screen.findByRole('button', { name: 'Bookmark this page' });
    await waitFor(() => expect(button.hasAttribute('disabled')).toBe(false));
    expect(button.getAttribute('aria-pressed')).toBe('false');

    button.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(button.getAttribute('aria-pressed')).toBe('true'));
    expect(button.textContent).toContain('Remove bookmark');
    // The focus stays on the button while it saves.
    expect(document.activeElement).toBe(button);

    await userEvent.click(button);
    await waitFor(() => expect(button.textContent).toContain('Bookmark this page'));
    await waitFor(() => expect(calls.filter((call) => call.method === 'GET')).toHaveLength(3));
    expect(calls.map((call) => call.method)).toEqual(['GET', 'PUT', 'GET', 'DELETE', 'GET']);
  });

  it('shows the page as bookmarked when it is, and says why a change failed', async () => {
    mockApi({
      [`GET /items/${BOOK_ID}/reading`]: () => ({
        body: readingState({ bookmarks: [{ page: 5, createdAt: '2026-11-20T10:00:00Z' }] }),
      }),
      [`DELETE /items/${BOOK_ID}/bookmarks/5`]: () => 'network-error',
    });
    renderScreen(<BookmarkToggle itemId={BOOK_ID} page={5} />);
    const button = await screen.findByRole('button', { name: 'Remove bookmark' });
    expect(button.getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(button);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The bookmark could not be saved. Try again.',
    );
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });
});
