import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import type { ReadingList, SavedItem } from '#contract/http/shelf.ts';
import { ROUTES } from '#contract/routes.ts';
import { mockApi, renderScreen, testUser, type ApiCall } from '../../test/api-mock.tsx';
import { ShelfPage } from './shelf-page.tsx';

function card(n: number, overrides: Partial<CatalogueItem> = {}): CatalogueItem {
  return {
    id: `00000000-0000-4000-8000-00000000000${n}`,
    type: 'book',
    title: `Book ${n}`,
    authors: [`Author ${n}`],
    year: 1800 + n,
    subjects: [],
    hasContent: false,
    ...overrides,
  };
}

const LIST_ID = '11111111-1111-4111-8111-111111111111';

/** A fake server for the shelf: saved items, and lists each with its items in order. */
function fakeServer({ saved = [card(1), card(2), card(3)], lists = [] as ReadingList[] } = {}) {
  const state = {
    saved: saved.map((item): SavedItem => ({ ...item, savedAt: '2026-11-20T10:00:00.000Z' })),
    lists,
  };
  const summary = (list: ReadingList) => {
    const { items, ...rest } = list;
    return { ...rest, itemCount: items.length };
  };
  const full = (list: ReadingList) => ({ ...list, itemCount: list.items.length });
  const byPath = (path: string) => state.lists.find((list) => path.includes(list.id))!;
  const calls = mockApi({
    'GET /shelf': () => ({ body: { items: state.saved } }),
    [`DELETE /shelf/${card(1).id}`]: () => {
      state.saved = state.saved.filter((item) => item.id !== card(1).id);
      return { body: { itemId: card(1).id, saved: false } };
    },
    'GET /lists': () => ({ body: { lists: state.lists.map(summary) } }),
    'POST /lists': ({ body }) => {
      const list: ReadingList = {
        id: LIST_ID,
        name: (body as { name: string }).name,
        description: '',
        shared: false,
        shareToken: null,
        itemCount: 0,
        createdAt: '2026-11-20T10:00:00.000Z',
        updatedAt: '2026-11-20T10:00:00.000Z',
        items: [],
      };
      state.lists = [list, ...state.lists];
      return { status: 201, body: list };
    },
    [`GET /lists/${LIST_ID}`]: ({ path }) => ({ body: full(byPath(path)) }),
    [`PATCH /lists/${LIST_ID}`]: ({ path, body }) => {
      const list = byPath(path);
      const patch = body as { shared?: boolean; name?: string };
      if (patch.shared !== undefined) {
        list.shared = patch.shared;
        list.shareToken = patch.shared ? 'A'.repeat(32) : null;
      }
      if (patch.name) list.name = patch.name;
      return { body: full(list) };
    },
    [`DELETE /lists/${LIST_ID}`]: () => {
      state.lists = [];
      return { body: { id: LIST_ID, deleted: true } };
    },
    [`POST /lists/${LIST_ID}/items`]: ({ path, body }) => {
      const list = byPath(path);
      const item = state.saved.find((saved) => saved.id === (body as { itemId: string }).itemId)!;
      list.items = [...list.items, { ...item, addedAt: '2026-11-20T11:00:00.000Z' }];
      return { body: full(list) };
    },
    [`PUT /lists/${LIST_ID}/order`]: ({ path, body }) => {
      const list = byPath(path);
      const ids = (body as { itemIds: string[] }).itemIds;
      list.items = ids.map((id) => list.items.find((item) => item.id === id)!);
      return { body: full(list) };
    },
  });
  return { calls, state };
}

function listWith(items: CatalogueItem[]): ReadingList {
  return {
    id: LIST_ID,
    name: 'Week 1',
    description: 'Before the seminar',
    shared: false,
    shareToken: null,
    itemCount: items.length,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    items: items.map((item) => ({ ...item, addedAt: '2026-11-20T11:00:00.000Z' })),
  };
}

/** A Move button's name (happy-dom puts a space before the hidden title; browsers do not). */
const move = (direction: string, title: string) => new RegExp(`^Move ${direction}\\s?: ${title}$`);
const renderShelf = () => renderScreen(<ShelfPage />, ROUTES.shelf, testUser());
const orderOf = () =>
  within(screen.getByRole('list', { name: 'Week 1, in order' }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('a')?.textContent ?? '');
const bodiesOf = (calls: ApiCall[], method: string, suffix: string) =>
  calls.filter((call) => call.method === method && call.path.endsWith(suffix)).map((c) => c.body);

describe('the My shelf screen', () => {
  it('shows the saved items as cards, newest first, and removes one', async () => {
    const { calls } = fakeServer();
    renderShelf();
    expect(screen.getByRole('heading', { level: 1, name: 'My shelf' })).toBeTruthy();
    const saved = await screen.findByRole('list', { name: 'Saved items, newest first' });
    const links = within(saved).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(
      [1, 2, 3].map((n) => `${ROUTES.librarySearch}?item=${card(n).id}`),
    );
    fireEvent.click(within(saved).getByRole('button', { name: 'Remove “Book 1” from your shelf' }));
    expect(await screen.findByText('Removed “Book 1” from your shelf.')).toBeTruthy();
    expect(
      calls.some((call) => call.method === 'DELETE' && call.path === `/shelf/${card(1).id}`),
    ).toBe(true);
    await waitFor(() => expect(within(saved).queryByRole('link', { name: /Book 1/ })).toBeNull());
  });

  it('says what to do when nothing is saved and there are no lists', async () => {
    fakeServer({ saved: [] });
    renderShelf();
    expect(await screen.findByText(/Nothing saved yet/)).toBeTruthy();
    expect(await screen.findByText(/No reading lists yet/)).toBeTruthy();
  });

  it('makes a list and adds a saved item to it', async () => {
    const { calls } = fakeServer();
    renderShelf();
    fireEvent.click(await screen.findByRole('button', { name: 'Create list' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Give the list a name.');
    fireEvent.change(screen.getByLabelText('New list name'), { target: { value: 'Week 1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Week 1' })).toBeTruthy();
    expect(bodiesOf(calls, 'POST', '/lists')).toEqual([{ name: 'Week 1' }]);

    const choose = screen.getByLabelText('Add a saved item');
    fireEvent.change(choose, { target: { value: card(2).id } });
    fireEvent.click(screen.getByRole('button', { name: 'Add to list' }));
    expect(await screen.findByText('Added “Book 2”.')).toBeTruthy();
    expect(bodiesOf(calls, 'POST', '/items')).toEqual([{ itemId: card(2).id }]);
    expect(orderOf()).toEqual([expect.stringContaining('Book 2')]);
    // What is in the list is no longer offered.
    expect(
      within(screen.getByLabelText('Add a saved item'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Choose one of your saved items', 'Book 1', 'Book 3']);
  });

  it('reorders with Move up and Move down, the focus following the item', async () => {
    const { calls } = fakeServer({ lists: [listWith([card(1), card(2), card(3)])] });
    renderShelf();
    await screen.findByRole('list', { name: 'Week 1, in order' });
    expect(orderOf()).toEqual([
      expect.stringContaining('Book 1'),
      expect.stringContaining('Book 2'),
      expect.stringContaining('Book 3'),
    ]);
    // The ends cannot move further.
    expect(
      (screen.getByRole('button', { name: move('up', 'Book 1') }) as HTMLButtonElement).disabled,
    ).toBe(true);
    expect(
      (screen.getByRole('button', { name: move('down', 'Book 3') }) as HTMLButtonElement).disabled,
    ).toBe(true);

    const up = screen.getByRole('button', { name: move('up', 'Book 3') });
    up.focus();
    fireEvent.click(up);
    expect(await screen.findByText('Moved “Book 3” up: now 2 of 3.')).toBeTruthy();
    expect(bodiesOf(calls, 'PUT', '/order')).toEqual([
      { itemIds: [card(1).id, card(3).id, card(2).id] },
    ]);
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: move('up', 'Book 3') }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: move('up', 'Book 3') }));
    await screen.findByText('Moved “Book 3” up: now 1 of 3.');
    // At the top, Move up is off: the focus goes to the same item's Move down.
    await waitFor(() =>
      expect(document.activeElement).toBe(
        screen.getByRole('button', { name: move('down', 'Book 3') }),
      ),
    );
    fireEvent.click(screen.getByRole('button', { name: move('down', 'Book 1') }));
    await screen.findByText('Moved “Book 1” down: now 3 of 3.');
    expect(orderOf()).toEqual([
      expect.stringContaining('Book 3'),
      expect.stringContaining('Book 2'),
      expect.stringContaining('Book 1'),
    ]);
  });

  it('shares by link, copies it, and stops sharing', async () => {
    fakeServer({ lists: [listWith([card(1)])] });
    const writeText = vi.fn(() => Promise.resolve());
    const had = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    onTestFinished(() => {
      if (had) Object.defineProperty(navigator, 'clipboard', had);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    });
    renderShelf();
    expect(await screen.findByText('Private: only you can see this list.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Share by link' }));
    const link = (await screen.findByLabelText(/Link to share/)) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/lists/shared/${'A'.repeat(32)}`);
    expect(link.readOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText('Link copied.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(link.value);
    fireEvent.click(screen.getByRole('button', { name: 'Stop sharing' }));
    expect(await screen.findByText(/the old link no longer works/)).toBeTruthy();
    expect(screen.queryByLabelText(/Link to share/)).toBeNull();
  });

  it('deletes a list only after asking', async () => {
    const { calls } = fakeServer({ lists: [listWith([card(1)])] });
    renderShelf();
    fireEvent.click(await screen.findByRole('button', { name: 'Delete list' }));
    const ask = screen.getByRole('alertdialog', { name: 'Delete “Week 1”?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Keep it' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete list' }));
    fireEvent.click(
      within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete list' }),
    );
    expect(await screen.findByText('The list was deleted.')).toBeTruthy();
    expect(await screen.findByText(/No reading lists yet/)).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `/lists/${LIST_ID}`,
    ]);
  });
});
