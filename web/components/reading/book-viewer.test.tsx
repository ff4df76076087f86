import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSearchParams } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ItemDetail } from '#contract/http/catalogue.ts';
import type {
  BookContents,
  ReadingPreferences,
  ReadingState,
  SearchInsideResponse,
} from '#contract/http/reading.ts';
import { LibrarySearchPage } from '../../routes/library-search/library-search-page.tsx';
import {
  type ApiCall,
  type ApiRoutes,
  mockApi,
  renderScreen,
  testUser,
} from '../../test/api-mock.tsx';
import { BookViewer, type PageRenderer } from './book-viewer.tsx';
import { currentChapter } from './contents-panel.tsx';

const ID = '11111111-1111-4111-8111-111111111111';
const PAGES = 5;

const ITEM: ItemDetail = {
  id: ID,
  type: 'book',
  title: 'The Lantern Keeper',
  authors: ['Ada Quill'],
  year: 1901,
  subjects: [],
  hasContent: true,
  pageCount: PAGES,
  copies: 0,
};

const CONTENTS: BookContents = {
  itemId: ID,
  pageCount: PAGES,
  entries: [
    { title: 'Chapter 1', level: 1, page: 1 },
    { title: 'Chapter 2', level: 1, page: 2 },
    { title: 'Chapter 3', level: 1, page: 4 },
  ],
};

function readingState(lastPage: number | null): ReadingState {
  return {
    itemId: ID,
    lastPage,
    lastReadAt: lastPage ? '2026-11-20T10:00:00.000Z' : null,
    bookmarks: [],
    highlights: [],
  };
}

/** The fake server of one book: page N reads "Text of page N." */
function bookApi({
  lastPage = null,
  preferences = { theme: 'light', textSize: 'medium', lineWidth: 'medium' },
  search,
  extra = {},
}: {
  lastPage?: number | null;
  preferences?: ReadingPreferences;
  search?: (call: ApiCall) => SearchInsideResponse;
  /** More answers of the fake server (the library search's own). */
  extra?: ApiRoutes;
} = {}): ApiCall[] {
  let saved = preferences;
  const routes: ApiRoutes = {
    [`GET /items/${ID}`]: () => ({ body: ITEM }),
    [`GET /items/${ID}/pages`]: (call) => {
      const page = Number(call.search.get('page'));
      return { body: { itemId: ID, page, pageCount: PAGES, content: `Text of page ${page}.` } };
    },
    [`GET /items/${ID}/contents`]: () => ({ body: CONTENTS }),
    [`GET /items/${ID}/reading`]: () => ({ body: readingState(lastPage) }),
    [`GET /items/${ID}/related`]: () => ({ body: { items: [], byMeaning: false } }),
    [`PUT /items/${ID}/progress`]: () => ({ body: readingState(lastPage) }),
    'GET /reading/preferences': () => ({ body: saved }),
    'PUT /reading/preferences': (call) => {
      saved = { ...saved, ...(call.body as Partial<ReadingPreferences>) };
      return { body: saved };
    },
  };
  if (search) routes[`GET /items/${ID}/search-inside`] = (call) => ({ body: search(call) });
  return mockApi({ ...routes, ...extra });
}

/** The viewer with its page in the address, as the library search holds it. */
function Harness({ renderPage }: { renderPage?: PageRenderer }) {
  const [params, setParams] = useSearchParams();
  return (
    <BookViewer
      item={ITEM}
      page={params.has('page') ? Number(params.get('page')) : null}
      onPageChange={(page, options) => setParams({ page: String(page) }, options)}
      renderPage={renderPage}
    />
  );
}

function renderViewer(path = '/read', renderPage?: PageRenderer) {
  return renderScreen(<Harness renderPage={renderPage} />, path, testUser());
}

const pageShown = (page: number) => screen.findByText(`Text of page ${page}.`);

describe('the book viewer', () => {
  // Leaving a book keeps the page not yet kept: let that call reach the fake server, not the
  // real fetch that the shared clean-up puts back.
  afterEach(async () => {
    cleanup();
    await new Promise((resolve) => setTimeout(resolve, 0));
  });

  it('opens at the page the address names, moves the address on, and Back returns', async () => {
    bookApi();
    const { router } = renderScreen(
      <LibrarySearchPage />,
      `/userprofile/openlibrary?item=${ID}&page=2`,
      testUser(),
    );
    await pageShown(2);
    expect(screen.getByText(`Page 2 of ${PAGES}`)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown(3);
    expect(router.state.location.search).toBe(`?item=${ID}&page=3`);
    await act(() => router.navigate(-1));
    await pageShown(2);
    expect(screen.getByText(`Page 2 of ${PAGES}`)).toBeTruthy();
  });

  it('opens a result at its first page and goes back to the results’ page it came from', async () => {
    bookApi({
      extra: {
        'GET /search': () => ({
          body: {
            total: 30,
            page: 2,
            pageSize: 12,
            items: [{ ...ITEM, copies: undefined, pageCount: undefined }],
            facets: { type: { book: 30, paper: 0, course: 0 } },
          },
        }),
      },
    });
    const { router } = renderScreen(
      <LibrarySearchPage />,
      '/userprofile/openlibrary?q=lantern&page=2',
      testUser(),
    );
    await userEvent.click(await screen.findByRole('button', { name: /The Lantern Keeper/ }));
    await pageShown(1);
    expect(router.state.location.search).toBe(`?q=lantern&item=${ID}&resultsPage=2`);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown(2);
    await userEvent.click(screen.getByRole('button', { name: /Back to results/ }));
    expect(router.state.location.search).toBe('?q=lantern&page=2');
  });

  it('shows the last page for a page past the end, and says so in the address', async () => {
    bookApi();
    const { router } = renderViewer('/read?page=99');
    await pageShown(PAGES);
    expect(router.state.location.search).toBe(`?page=${PAGES}`);
    expect(screen.getByRole('button', { name: 'Next' }).hasAttribute('disabled')).toBe(true);
  });

  it('turns pages with the arrow keys, but not while typing in a field', async () => {
    bookApi();
    const { router } = renderViewer('/read?page=1');
    await pageShown(1);
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    await pageShown(2);
    fireEvent.keyDown(document.body, { key: 'ArrowRight' });
    await pageShown(3);
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    await pageShown(2);
    expect(router.state.location.search).toBe('?page=2');

    await userEvent.click(screen.getByRole('button', { name: 'Search in book' }));
    const box = screen.getByLabelText('Words to find in this book');
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    expect(router.state.location.search).toBe('?page=2');
  });

  it('announces a new page through the pager only: the page, with its toolbars, is not live', async () => {
    bookApi();
    renderViewer('/read?page=2');
    await pageShown(2);
    const area = screen.getByRole('region', { name: `Page 2 of ${PAGES}` });
    expect(area.getAttribute('aria-live')).toBeNull();
    expect(area.querySelector('[aria-live]')).toBeNull();
    const pager = screen.getByRole('navigation', { name: 'Book pages' });
    expect(pager.querySelector('[aria-live="polite"]')?.textContent).toBe(`Page 2 of ${PAGES}`);
  });

  it('turns the page on a sideways swipe of a finger, not of a mouse', async () => {
    bookApi();
    const { router } = renderViewer('/read?page=2');
    await pageShown(2);
    const area = screen.getByRole('region', { name: `Page 2 of ${PAGES}` });
    const swipe = (pointerType: string, fromX: number, toX: number) => {
      fireEvent.pointerDown(area, { pointerId: 1, pointerType, clientX: fromX, clientY: 100 });
      fireEvent.pointerUp(area, { pointerId: 1, pointerType, clientX: toX, clientY: 110 });
    };
    swipe('mouse', 300, 100);
    expect(router.state.location.search).toBe('?page=2');
    swipe('touch', 300, 280);
    expect(router.state.location.search).toBe('?page=2');
    swipe('touch', 300, 100);
    await pageShown(3);
  });

  it('lists the contents, jumps to a chapter and shows the chapter above the text', async () => {
    bookApi();
    const { router } = renderViewer('/read?page=1');
    await pageShown(1);
    const contentsButton = screen.getByRole('button', { name: 'Contents' });
    await userEvent.click(contentsButton);
    expect(contentsButton.getAttribute('aria-expanded')).toBe('true');
    const panel = screen.getByRole('region', { name: 'Contents' });
    const chapters = within(panel).getByRole('navigation', { name: 'Chapters' });
    expect(within(chapters).getAllByRole('button')).toHaveLength(3);
    expect(
      within(chapters)
        .getByRole('button', { name: /^Chapter 1/ })
        .getAttribute('aria-current'),
    ).toBe('true');

    await userEvent.click(within(chapters).getByRole('button', { name: /^Chapter 3\W+page 4$/ }));
    await pageShown(4);
    expect(router.state.location.search).toBe('?page=4');
    expect(screen.getByText('Chapter 3', { selector: 'p' })).toBeTruthy();
    // Page 5 is still in chapter 3: the last heading at or before the page.
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown(5);
    expect(screen.getByText('Chapter 3', { selector: 'p' })).toBeTruthy();

    // Escape closes the panel and gives the focus back to its button.
    await userEvent.click(within(chapters).getByRole('button', { name: /^Chapter 2/ }));
    await pageShown(2);
    within(panel)
      .getByRole('button', { name: /^Chapter 2/ })
      .focus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Contents' })).toBeNull();
    expect(document.activeElement).toBe(contentsButton);
  });

  it('searches inside the book: every hit with its snippet as text, and a jump that marks the words', async () => {
    const calls = bookApi({
      search: (call) => ({
        query: call.search.get('q') ?? '',
        total: 2,
        words: ['lantern', 'lanterns'],
        hits: [
          {
            page: 2,
            snippet: [
              { text: 'the old ', match: false },
              { text: 'lantern', match: true },
              { text: ' <b>burned</b>', match: false },
            ],
          },
          { page: 4, snippet: [{ text: 'Lanterns', match: true }] },
        ],
      }),
    });
    const renderPage = vi.fn<PageRenderer>(({ text }) => <p>{text}</p>);
    const { router } = renderViewer('/read?page=1', renderPage);
    await pageShown(1);
    await userEvent.click(screen.getByRole('button', { name: 'Search in book' }));
    const box = screen.getByLabelText('Words to find in this book');
    expect(document.activeElement).toBe(box);
    await userEvent.type(box, 'lanterns{Enter}');

    const hits = await screen.findByRole('list', { name: 'Pages found' });
    expect(screen.getByText('2 pages hold “lanterns”.')).toBeTruthy();
    const buttons = within(hits).getAllByRole('button');
    expect(buttons).toHaveLength(2);
    expect(buttons[0]!.textContent).toBe('Page 2the old lantern <b>burned</b>');
    expect(buttons[0]!.querySelector('mark')?.textContent).toBe('lantern');
    expect(buttons[0]!.querySelector('b')).toBeNull();
    expect(calls.find((call) => call.path.endsWith('/search-inside'))?.search.get('q')).toBe(
      'lanterns',
    );

    await userEvent.click(buttons[1]!);
    await pageShown(4);
    expect(router.state.location.search).toBe('?page=4');
    expect(renderPage).toHaveBeenLastCalledWith(
      expect.objectContaining({ page: 4, words: ['lantern', 'lanterns'] }),
    );
  });

  it('says when nothing was typed, and when no page holds the words', async () => {
    bookApi({
      search: (call) => ({ query: call.search.get('q') ?? '', total: 0, words: [], hits: [] }),
    });
    renderViewer('/read?page=1');
    await pageShown(1);
    await userEvent.click(screen.getByRole('button', { name: 'Search in book' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert').textContent).toBe('Type a word to search for in this book.');
    await userEvent.type(screen.getByLabelText('Words to find in this book'), 'zeppelin{Enter}');
    expect(await screen.findByText('No page holds “zeppelin”.')).toBeTruthy();
  });

  it('offers to continue where the reader left off when the address names no page', async () => {
    bookApi({ lastPage: 4 });
    const { router } = renderViewer('/read');
    await pageShown(1);
    expect(await screen.findByText('You were reading page 4 last time.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Continue from page 4' }));
    await pageShown(4);
    expect(router.state.location.search).toBe('?page=4');
    expect(screen.queryByRole('button', { name: 'Continue from page 4' })).toBeNull();
  });

  it('starts from the beginning when asked, and offers nothing when the address names a page', async () => {
    bookApi({ lastPage: 4 });
    renderViewer('/read');
    await userEvent.click(await screen.findByRole('button', { name: 'Start from the beginning' }));
    expect(screen.queryByText(/You were reading page/)).toBeNull();
    await pageShown(1);

    bookApi({ lastPage: 4 });
    renderViewer('/read?page=2');
    await pageShown(2);
    // The reading state has been read by now (the page asked for it first).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(/You were reading page/)).toBeNull();
  });

  it('keeps the page read, once it has stayed for a second, not every page turned', async () => {
    const calls = bookApi();
    renderViewer('/read?page=1');
    await pageShown(1);
    const next = screen.getByRole('button', { name: 'Next' });
    await userEvent.click(next);
    await pageShown(2);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown(3);
    const saves = () =>
      calls.filter((call) => call.method === 'PUT' && call.path.endsWith('/progress'));
    expect(saves()).toHaveLength(0);
    await waitFor(() => expect(saves()).toHaveLength(1), { timeout: 3000 });
    expect(saves()[0]!.body).toEqual({ page: 3 });
  });

  it('keeps the page at once when the reader leaves the book before a second has passed', async () => {
    const calls = bookApi();
    renderViewer('/read?page=1');
    await pageShown(1);
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));
    await pageShown(2);
    // The viewer goes (back to the results): unmounted at once.
    cleanup();
    await waitFor(() =>
      expect(
        calls
          .filter((call) => call.method === 'PUT' && call.path.endsWith('/progress'))
          .map((call) => call.body),
      ).toEqual([{ page: 2 }]),
    );
  });

  it('applies the reader’s display preferences and keeps a change at once', async () => {
    const calls = bookApi({
      preferences: { theme: 'dark', textSize: 'large', lineWidth: 'narrow' },
    });
    renderViewer('/read?page=1');
    await pageShown(1);
    const area = screen.getByRole('region', { name: `Page 1 of ${PAGES}` });
    await waitFor(() => expect(area.getAttribute('data-theme')).toBe('dark'));
    expect(area.getAttribute('data-size')).toBe('large');
    expect(area.parentElement?.getAttribute('data-width')).toBe('narrow');

    await userEvent.click(screen.getByRole('button', { name: 'Display' }));
    const display = screen.getByRole('region', { name: 'Display' });
    expect((within(display).getByRole('radio', { name: 'Dark' }) as HTMLInputElement).checked).toBe(
      true,
    );
    await userEvent.click(within(display).getByRole('radio', { name: 'Sepia' }));
    expect(area.getAttribute('data-theme')).toBe('sepia');
    await userEvent.click(within(display).getByRole('radio', { name: 'Extra large' }));
    expect(area.getAttribute('data-size')).toBe('x-large');
    const puts = calls.filter(
      (call) => call.method === 'PUT' && call.path === '/reading/preferences',
    );
    expect(puts.map((call) => call.body)).toEqual([{ theme: 'sepia' }, { textSize: 'x-large' }]);
    await waitFor(() => expect(area.getAttribute('data-theme')).toBe('sepia'));
  });

  it('names the chapter by the book’s top-level headings, not a section lower on the page', () => {
    const entries = [
      { title: 'About', level: 1, page: 1 },
      { title: 'What to look for', level: 2, page: 1 },
      { title: 'Letter 1', level: 1, page: 3 },
      { title: 'A section', level: 2, page: 4 },
    ] as const;
    expect(currentChapter(entries, 1)?.title).toBe('About');
    expect(currentChapter(entries, 2)?.title).toBe('About');
    expect(currentChapter(entries, 4)?.title).toBe('Letter 1');
    expect(currentChapter(entries.slice(3), 3)).toBeNull();
    expect(currentChapter([], 3)).toBeNull();
  });
});
