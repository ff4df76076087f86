import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { pagePlainText } from '#contract/page-text.ts';
import { mockApi, renderScreen } from '../../test/api-mock.tsx';
import { AnnotatedPage } from './annotated-page.tsx';
import { BOOK_ID, highlight, PAGE_TEXT, readingState } from './reading-fixtures.ts';

const PLAIN = pagePlainText(PAGE_TEXT);
const READING = `GET /items/${BOOK_ID}/reading`;

/** Selects `text` (in one text node of the page) as the browser would, and says so. */
function select(text: string) {
  const root = document.querySelector('[data-offset]')!.parentElement!;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const index = node.textContent?.indexOf(text) ?? -1;
    if (index < 0) continue;
    const range = document.createRange();
    range.setStart(node, index);
    range.setEnd(node, index + text.length);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    act(() => {
      document.dispatchEvent(new Event('selectionchange'));
    });
    return;
  }
  throw new Error(`no text ${text}`);
}

function unselect() {
  document.getSelection()?.removeAllRanges();
  act(() => {
    document.dispatchEvent(new Event('selectionchange'));
  });
}

describe('AnnotatedPage', () => {
  beforeEach(() => document.getSelection()?.removeAllRanges());

  it('marks the reader highlights of this page only, and those whose text still matches', async () => {
    mockApi({
      [READING]: () => ({
        body: readingState({
          highlights: [
            highlight({ id: 'a', note: 'Where it begins' }),
            highlight({ id: 'b', page: 4 }),
            highlight({ id: 'c', start: 10, end: 12, quote: 'No' }),
          ],
        }),
      }),
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} words={['creature']} />);
    const mark = await screen.findByRole('button', { name: 'Chapter' });
    expect(mark.getAttribute('data-highlight')).toBe('a');
    expect(mark.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.querySelectorAll('mark[data-highlight]')).toHaveLength(1);
    expect(document.querySelector('mark:not([data-highlight])')?.textContent).toBe('creature');
  });

  it('highlights a selection, then loads the reading state again', async () => {
    let state = readingState();
    const calls = mockApi({
      [READING]: () => ({ body: state }),
      [`POST /items/${BOOK_ID}/highlights`]: (call) => {
        const body = call.body as { start: number; end: number; quote: string; note: string };
        state = readingState({
          highlights: [
            highlight({ id: 'new', start: body.start, end: body.end, quote: body.quote }),
          ],
        });
        return { status: 201, body: state.highlights[0] };
      },
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    select(' night of ');
    const toolbar = await screen.findByRole('group', { name: /Selected: “night of”/ });
    await userEvent.click(within(toolbar).getByRole('button', { name: 'Highlight' }));
    await waitFor(() =>
      expect(document.querySelector('mark[data-highlight="new"]')).not.toBeNull(),
    );
    const post = calls.find((call) => call.method === 'POST');
    expect(post?.body).toEqual({
      page: 3,
      start: PLAIN.indexOf('night of'),
      end: PLAIN.indexOf(' November'),
      quote: 'night of',
      note: '',
    });
    expect(calls.filter((call) => call.method === 'GET')).toHaveLength(2);
    expect(screen.queryByRole('group', { name: /Selected/ })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Highlighted.');
  });

  it('reaches the toolbar by Tab, keeps it there, saves a note, and Escape dismisses', async () => {
    const calls = mockApi({
      [READING]: () => ({ body: readingState() }),
      [`POST /items/${BOOK_ID}/highlights`]: () => ({ status: 201, body: {} }),
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    await waitFor(() => expect(calls).toHaveLength(1));
    const page = document.querySelector<HTMLElement>('[data-offset]')!.parentElement!;
    page.focus();
    select('dreary');
    await screen.findByRole('group', { name: /Selected: “dreary”/ });
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Highlight');
    // The selection may collapse when the focus moves: the toolbar stays.
    unselect();
    await userEvent.tab();
    expect(document.activeElement?.textContent).toBe('Highlight with note');
    await userEvent.keyboard('{Enter}');
    const box = screen.getByRole('textbox', { name: 'Note on this passage' });
    expect(document.activeElement).toBe(box);
    await userEvent.type(box, 'Gloomy  ');
    await userEvent.click(screen.getByRole('button', { name: 'Save highlight' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toMatchObject({
        quote: 'dreary',
        note: 'Gloomy',
      }),
    );
    select('creature');
    await screen.findByRole('group', { name: /Selected: “creature”/ });
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: /Selected/ })).toBeNull();
  });

  it('says why the server refused a highlight', async () => {
    mockApi({
      [READING]: () => ({ body: readingState() }),
      [`POST /items/${BOOK_ID}/highlights`]: () => ({
        status: 422,
        body: { success: false, message: 'This page has changed: select the text again.' },
      }),
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    await screen.findByText('dreary');
    select('November');
    await userEvent.click(await screen.findByRole('button', { name: 'Highlight' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This page has changed: select the text again.',
    );
  });

  it('opens a highlight to edit or delete its note', async () => {
    let state = readingState({ highlights: [highlight({ id: 'a', note: 'First thought' })] });
    const calls = mockApi({
      [READING]: () => ({ body: state }),
      'PATCH /highlights/a': (call) => {
        state = readingState({
          highlights: [highlight({ id: 'a', note: (call.body as { note: string }).note })],
        });
        return { body: state.highlights[0] };
      },
      'DELETE /highlights/a': () => {
        state = readingState();
        return { status: 204, body: null };
      },
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    const mark = await screen.findByRole('button', { name: 'Chapter' });
    mark.focus();
    await userEvent.keyboard('{Enter}');
    const opened = screen.getByRole('region', { name: /Your highlight: “Chapter”/ });
    expect(document.activeElement).toBe(opened);
    expect(within(opened).getByText('First thought')).toBeTruthy();
    await userEvent.click(within(opened).getByRole('button', { name: 'Edit note' }));
    const box = within(opened).getByRole('textbox', { name: 'Note on this highlight' });
    await userEvent.clear(box);
    await userEvent.type(box, 'Second thought');
    await userEvent.click(within(opened).getByRole('button', { name: 'Save note' }));
    await within(opened).findByText('Second thought');
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ note: 'Second thought' });

    await userEvent.click(within(opened).getByRole('button', { name: 'Delete' }));
    // Asked once more, with the safe answer focused.
    expect(document.activeElement?.textContent).toBe('Keep');
    await userEvent.click(within(opened).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(document.querySelector('mark[data-highlight]')).toBeNull());
    expect(screen.queryByRole('region', { name: /Your highlight/ })).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Highlight deleted.');
  });

  it('does not open a highlight on the click that ends a selection', async () => {
    mockApi({
      [READING]: () => ({ body: readingState({ highlights: [highlight({ id: 'a' })] }) }),
    });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    const mark = await screen.findByRole('button', { name: 'Chapter' });
    select('Chapter');
    fireEvent.click(mark);
    expect(screen.queryByRole('region', { name: /Your highlight/ })).toBeNull();
  });

  it('extends a selection from the keyboard with Shift and the arrows', async () => {
    mockApi({ [READING]: () => ({ body: readingState() }) });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    await screen.findByText('dreary');
    const page = document.querySelector<HTMLElement>('[data-offset]')!.parentElement!;
    expect(page.getAttribute('tabindex')).toBe('0');
    const selection = document.getSelection()! as Selection & { modify?: unknown };
    const modify = vi.fn();
    Object.defineProperty(selection, 'modify', { value: modify, configurable: true });
    try {
      page.focus();
      await userEvent.keyboard('{Shift>}{Control>}{ArrowRight}{/Control}{ArrowDown}{/Shift}');
      expect(modify.mock.calls).toEqual([
        ['extend', 'forward', 'word'],
        ['extend', 'forward', 'line'],
      ]);
      // It starts at the page's first word.
      expect(selection.anchorNode?.textContent).toBe('Chapter 5');
      expect(selection.anchorOffset).toBe(0);
      // Without Shift, the keys are the viewer's.
      await userEvent.keyboard('{ArrowRight}');
      expect(modify).toHaveBeenCalledTimes(2);
    } finally {
      delete (selection as { modify?: unknown }).modify;
    }
  });

  it('picks the word to start from with Ctrl and the arrows, where no caret is drawn', async () => {
    mockApi({ [READING]: () => ({ body: readingState() }) });
    renderScreen(<AnnotatedPage itemId={BOOK_ID} page={3} text={PAGE_TEXT} />);
    await screen.findByText('dreary');
    const page = document.querySelector<HTMLElement>('[data-offset]')!.parentElement!;
    const selection = document.getSelection()! as Selection & { modify?: unknown };
    const modify = vi.fn();
    Object.defineProperty(selection, 'modify', { value: modify, configurable: true });
    try {
      page.focus();
      await userEvent.keyboard('{Control>}{ArrowRight}{ArrowDown}{/Control}');
      expect(modify.mock.calls).toEqual([
        // The next word, selected so that the reader sees it.
        ['extend', 'forward', 'word'],
        // The first word of the next line.
        ['move', 'forward', 'line'],
        ['move', 'backward', 'lineboundary'],
        ['extend', 'forward', 'word'],
      ]);
      expect(selection.anchorNode?.textContent).toBe('Chapter 5');
    } finally {
      delete (selection as { modify?: unknown }).modify;
    }
  });
});
