import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Suggestion } from '#contract/http/suggestions.ts';
import { mockApi } from '../../test/api-mock.tsx';
import { Highlighted, SearchSuggest } from './search-suggest.tsx';

const SUGGESTIONS: Suggestion[] = [
  {
    kind: 'title',
    text: 'Harry Potter',
    itemId: 'item-1',
    itemType: 'book',
    detail: 'J. K. Rowling, 1997',
    matched: [[0, 3]],
  },
  {
    kind: 'title',
    text: 'Harmonic Analysis',
    itemId: 'item-2',
    itemType: 'paper',
    matched: [[0, 3]],
  },
  { kind: 'author', text: 'Rowan Harper', matched: [[6, 9]] },
];

function Box({ onOpenItem = vi.fn(), onAuthor = vi.fn(), onSubmit = vi.fn() }) {
  const [value, setValue] = useState('');
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(value);
      }}
    >
      <label htmlFor="box">Keywords</label>
      <SearchSuggest
        id="box"
        value={value}
        onValueChange={setValue}
        onOpenItem={onOpenItem}
        onAuthor={onAuthor}
      />
    </form>
  );
}

function renderBox(handlers: Parameters<typeof Box>[0] = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <Box {...handlers} />
    </QueryClientProvider>,
  );
  return screen.getByRole('combobox', { name: 'Keywords' });
}

const answering = () =>
  mockApi({ 'GET /search/suggest': () => ({ body: { suggestions: SUGGESTIONS } }) });

afterEach(() => vi.unstubAllGlobals());

describe('search suggestions', () => {
  it('is a closed combobox until two characters are typed', async () => {
    const calls = answering();
    const input = renderBox();
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-autocomplete')).toBe('list');
    const list = document.getElementById(input.getAttribute('aria-controls') ?? '');
    expect(list?.getAttribute('role')).toBe('listbox');
    await userEvent.type(input, 'h');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(0);
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('asks once typing pauses, and lists titles and authors with the match marked', async () => {
    const calls = answering();
    const input = renderBox();
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    // Typed quickly: one request, for the whole text, not one per key.
    expect(calls.map((call) => call.search.get('q'))).toEqual(['har']);
    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Harry Potter, Book · J. K. Rowling, 1997',
      'Harmonic Analysis, Paper',
      'Rowan Harper, Search by author',
    ]);
    expect(options[0]?.querySelector('mark')?.textContent).toBe('Har');
    expect(options[2]?.querySelector('mark')?.textContent).toBe('Har');
    expect(screen.getByRole('status').textContent).toContain('3 suggestions');
  });

  it('moves with the arrow keys, naming the highlighted option, and Enter opens a title', async () => {
    answering();
    const onOpenItem = vi.fn();
    const input = renderBox({ onOpenItem });
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    expect(input.getAttribute('aria-activedescendant')).toBeNull();

    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    const options = screen.getAllByRole('option');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]?.id);
    expect(options[1]?.getAttribute('aria-selected')).toBe('true');
    expect(options[0]?.getAttribute('aria-selected')).toBe('false');
    // Up from the first wraps to the last; down from the last to the first.
    await userEvent.keyboard('{ArrowUp}{ArrowUp}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[2]?.id);
    await userEvent.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]?.id);

    await userEvent.keyboard('{Enter}');
    expect(onOpenItem).toHaveBeenCalledWith('item-1');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(input);
  });

  it('runs a search by author from an author option', async () => {
    answering();
    const onAuthor = vi.fn();
    const onSubmit = vi.fn();
    const input = renderBox({ onAuthor, onSubmit });
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(onAuthor).toHaveBeenCalledWith('Rowan Harper');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('submits the typed search with Enter when nothing is highlighted', async () => {
    answering();
    const onSubmit = vi.fn();
    const onOpenItem = vi.fn();
    const input = renderBox({ onSubmit, onOpenItem });
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.keyboard('{Enter}');
    expect(onSubmit).toHaveBeenCalledWith('har');
    expect(onOpenItem).not.toHaveBeenCalled();
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes with Escape, keeping the text, and opens again with the down arrow', async () => {
    answering();
    const input = renderBox();
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.keyboard('{ArrowDown}{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(input.getAttribute('aria-activedescendant')).toBeNull();
    expect((input as HTMLInputElement).value).toBe('har');
    await userEvent.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-activedescendant')).toBe(screen.getAllByRole('option')[0]?.id);
  });

  it('never shows the list of a text since replaced while the new one loads', async () => {
    answering();
    const input = renderBox();
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.clear(input);
    await userEvent.type(input, 'zo');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    // The answer for the new text comes after the pause.
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
  });

  it('closes when Tab leaves the box', async () => {
    answering();
    const input = renderBox();
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.tab();
    expect(document.activeElement).not.toBe(input);
    expect(input.getAttribute('aria-expanded')).toBe('false');
  });

  it('opens a title chosen with the mouse', async () => {
    answering();
    const onOpenItem = vi.fn();
    const input = renderBox({ onOpenItem });
    await userEvent.type(input, 'har');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
    await userEvent.click(screen.getAllByRole('option')[1]!);
    expect(onOpenItem).toHaveBeenCalledWith('item-2');
  });

  it('aborts a request that more typing made stale', async () => {
    const signals: AbortSignal[] = [];
    vi.stubGlobal('fetch', (_input: string, init: RequestInit = {}) => {
      if (init.signal) signals.push(init.signal);
      // Never answers: the next keystrokes overtake it.
      return new Promise(() => {});
    });
    const input = renderBox();
    await userEvent.type(input, 'ha');
    await waitFor(() => expect(signals).toHaveLength(1));
    await userEvent.type(input, 'rr');
    await waitFor(() => expect(signals).toHaveLength(2));
    await act(async () => {});
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[1]?.aborted).toBe(false);
  });
});

describe('Highlighted', () => {
  it('marks the ranges as elements, ignoring ones out of order or out of the text', () => {
    const { container } = render(
      <p>
        <Highlighted
          text="<b>Lord</b> of the Rings"
          matched={[
            [12, 14],
            [3, 7],
            [5, 9],
            [30, 40],
          ]}
        />
      </p>,
    );
    expect([...container.querySelectorAll('mark')].map((mark) => mark.textContent)).toEqual([
      'Lord',
      '</',
      'of',
    ]);
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toBe('<b>Lord</b> of the Rings');
  });
});
