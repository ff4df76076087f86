import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, renderScreen } from '../../test/api-mock.tsx';
import { NotesPanel } from './notes-panel.tsx';
import { BOOK_ID, highlight, readingState } from './reading-fixtures.ts';

const READING = `GET /items/${BOOK_ID}/reading`;

describe('NotesPanel', () => {
  it('lists bookmarks and highlights by page, in order, and jumps to a page', async () => {
    mockApi({
      [READING]: () => ({
        body: readingState({
          bookmarks: [
            { page: 9, createdAt: '2026-11-20T10:00:00Z' },
            { page: 2, createdAt: '2026-11-20T10:00:00Z' },
          ],
          highlights: [
            highlight({ id: 'late', page: 2, start: 40, end: 45, quote: 'later', note: '' }),
            highlight({ id: 'early', page: 2, start: 3, end: 8, quote: 'early', note: 'See p. 9' }),
            highlight({ id: 'other', page: 5, quote: 'on five' }),
          ],
        }),
      }),
    });
    const onJump = vi.fn();
    renderScreen(
      <NotesPanel
        itemId={BOOK_ID}
        title="Frankenstein; or, The Modern Prometheus"
        onJump={onJump}
      />,
    );
    const panel = screen.getByRole('region', { name: 'My notes' });
    expect(
      within(panel).getByText(/private: nobody else sees them, librarians included/),
    ).toBeTruthy();
    const pages = await within(panel).findAllByRole('button', { name: /^Page \d+$/ });
    expect(pages.map((page) => page.textContent)).toEqual(['Page 2', 'Page 5', 'Page 9']);
    const quotes = within(panel).getAllByRole('button', { name: /^Go to page/ });
    expect(quotes.map((quote) => quote.textContent)).toEqual(['“early”', '“later”', '“on five”']);
    expect(within(panel).getByText('See p. 9')).toBeTruthy();
    expect(within(panel).getAllByText('Bookmarked')).toHaveLength(2);

    await userEvent.click(pages[1]!);
    await userEvent.click(quotes[0]!);
    expect(onJump.mock.calls).toEqual([[5], [2]]);

    const markdown = within(panel).getByRole('link', { name: 'Export as Markdown' });
    expect(markdown.getAttribute('href')).toBe(`/api/items/${BOOK_ID}/notes.md`);
    expect(markdown.getAttribute('download')).toBe(
      'frankenstein-or-the-modern-prometheus-notes.md',
    );
    expect(within(panel).getByRole('link', { name: 'BibTeX' }).getAttribute('href')).toBe(
      `/api/items/${BOOK_ID}/citation?format=bibtex`,
    );
    expect(within(panel).getByRole('link', { name: 'RIS' }).getAttribute('href')).toBe(
      `/api/items/${BOOK_ID}/citation?format=ris`,
    );
  });

  it('says how to highlight when there is nothing yet', async () => {
    mockApi({ [READING]: () => ({ body: readingState() }) });
    renderScreen(<NotesPanel itemId={BOOK_ID} title="Frankenstein" onJump={() => {}} />);
    expect((await screen.findByText(/No notes yet/)).textContent).toContain(
      'Select words on a page and choose Highlight',
    );
  });

  it('edits and deletes a note, and removes a bookmark', async () => {
    let state = readingState({
      bookmarks: [{ page: 4, createdAt: '2026-11-20T10:00:00Z' }],
      highlights: [highlight({ id: 'h', page: 4, note: '' })],
    });
    const calls = mockApi({
      [READING]: () => ({ body: state }),
      'PATCH /highlights/h': (call) => {
        const { note } = call.body as { note: string };
        state = { ...state, highlights: [highlight({ id: 'h', page: 4, note })] };
        return { body: state.highlights[0] };
      },
      'DELETE /highlights/h': () => {
        state = { ...state, highlights: [] };
        return { status: 204, body: null };
      },
      [`DELETE /items/${BOOK_ID}/bookmarks/4`]: () => {
        state = { ...state, bookmarks: [] };
        return { status: 204, body: null };
      },
    });
    renderScreen(<NotesPanel itemId={BOOK_ID} title="Frankenstein" onJump={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add a note' }));
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Note on this highlight' }),
      'Key scene',
    );
    await userEvent.keyboard('{Enter}');
    // Enter in a text box is a new line: the note is saved with its button.
    await userEvent.click(screen.getByRole('button', { name: 'Save note' }));
    await screen.findByText(/Key scene/);
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ note: 'Key scene' });
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Edit note'));

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText(/Key scene/)).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Remove bookmark on page 4' }));
    await screen.findByText(/No notes yet/);
  });
});

describe('NotesPanel in a frame that heads it', () => {
  it('has no heading nor landmark of its own: the viewer panel around it is both', async () => {
    mockApi({ [READING]: () => ({ body: readingState() }) });
    renderScreen(
      <NotesPanel itemId={BOOK_ID} title="Frankenstein" onJump={() => {}} heading={false} />,
    );
    await screen.findByText(/No notes yet/);
    expect(screen.queryByRole('region')).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();
  });
});
