import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import fc from 'fast-check';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { CatalogueItem, CourseMaterial, ItemDetail } from '#contract/http/catalogue.ts';
import type { ReservationBook } from '#contract/http/reservations.ts';
import { GUEST_DESCRIPTION_PREVIEW, RESULT_TOPICS_SHOWN } from '#contract/limits.ts';
import { webAddress } from '../../components/links/web-address.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
  isAllowedUrl,
} from '../../test/hostile-text.ts';
import { GuestPage, previewText } from '../guest/guest-page.tsx';
import { BookChoice } from '../reservation/book-choice.tsx';
import { LibrarySearchPage } from './library-search-page.tsx';

/*
 * The catalogue's screens: the library search shows results (ours and outside sources', which
 * link out), course materials (which link to their documents), an item's details and its pages,
 * notes and a "did you mean"; the guest search shows the landing page's query and results with
 * covers and previews; the reservation screen shows books with their covers. Property: hostile
 * titles, authors, topics, descriptions and addresses show as text, never as markup, and every
 * link or image address is http(s) or a path in the app (`webAddress`).
 */

const RUNS = 10;

/** An address from the data: a web page, or anything else an import or outside source holds. */
const address = fc.oneof(
  fc.webUrl(),
  fc.webPath(),
  hostileText,
  fc.constantFrom(
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    '\u0000javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'data:image/svg+xml,<svg onload=alert(1)>',
    'vbscript:msgbox(1)',
    '//evil.example/x',
    '/\\evil.example/x',
    '/\t/evil.example',
    'http:evil.example',
    '/covers/1.jpg',
    'covers/1.jpg',
  ),
);

const unique = (index: number) => hostileWords.map((text) => `${text}#${index}`);

const result = (index: number): fc.Arbitrary<CatalogueItem> =>
  fc.record(
    {
      id: fc.constant(`item-${index}`),
      type: fc.constantFrom('book' as const, 'paper' as const),
      title: unique(index),
      authors: fc.array(hostileWords, { maxLength: 3 }),
      year: fc.option(fc.integer({ min: -3000, max: 3000 })),
      subjects: fc.array(hostileWords, { maxLength: 5 }),
      description: hostileText,
      url: address,
      hasContent: fc.boolean(),
      external: hostileWords,
    },
    { requiredKeys: ['id', 'type', 'title', 'authors', 'year', 'subjects', 'hasContent'] },
  );

const material = (index: number): fc.Arbitrary<CourseMaterial> =>
  fc.record({
    _id: fc.constant(`course-${index}`),
    title: unique(index),
    author: hostileWords,
    publishedDate: hostileWords,
    driveLink: address,
    instituteName: hostileWords,
    genre: hostileWords,
  });

const some = <T,>(item: (index: number) => fc.Arbitrary<T>) =>
  fc
    .integer({ min: 1, max: 4 })
    .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => item(index))));

/** The card (a result or a course material) whose title is `title`. */
const cardOf = (title: string) =>
  [...document.querySelectorAll('li')].find((item) => item.textContent?.includes(title));

/** The links that open in a new tab are exactly the data's addresses that `webAddress` keeps. */
function expectLinksOut(urls: readonly (string | undefined)[]) {
  const hrefs = [...document.querySelectorAll('a[target="_blank"]')].map((a) =>
    a.getAttribute('href'),
  );
  expect(hrefs).toEqual(urls.flatMap((url) => (webAddress(url) ? [url] : [])));
}

/** A guest search result: ours or an outside source's, with a cover and maybe a link out. */
const guestItem = (index: number): fc.Arbitrary<CatalogueItem> =>
  fc.record(
    {
      id: fc.constant(`item-${index}`),
      type: fc.constant('book' as const),
      title: hostileWords,
      authors: fc.array(hostileWords, { maxLength: 3 }),
      year: fc.option(fc.integer({ min: -3000, max: 3000 })),
      subjects: fc.array(hostileText, { maxLength: 3 }),
      description: hostileText,
      coverUrl: address,
      url: address,
      hasContent: fc.boolean(),
      external: hostileWords,
    },
    { requiredKeys: ['id', 'type', 'title', 'authors', 'year', 'subjects', 'hasContent'] },
  );

/** No lone surrogate (with the u flag a pair is one code point, so only a lone one matches). */
const wellFormed = (text: string) => !/[\uD800-\uDFFF]/u.test(text);

function renderGuest(searchQuery: string) {
  const router = createMemoryRouter([{ path: '/guest', element: <GuestPage /> }], {
    initialEntries: [{ pathname: '/guest', state: { searchQuery } }],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

/** A book on the reservation screen, its cover from the catalogue's imported files. */
const book = (index: number): fc.Arbitrary<ReservationBook> =>
  fc.record({
    _id: fc.constant(`book-${index}`),
    title: hostileWords,
    author: hostileWords,
    coverImage: address,
    genre: hostileWords,
    available: fc.boolean(),
    description: hostileText,
    copies: fc.nat(5),
    freeCopies: fc.nat(5),
  });

describe('library search (fast-check)', () => {
  it('shows hostile results, notes and a suggestion as text; outside results link to web pages only', async () => {
    await assertRenders(
      fc.record({
        items: some(result),
        notes: fc.uniqueArray(unique(9), { maxLength: 2 }),
        suggestion: fc.option(hostileWords, { nil: undefined }),
      }),
      async ({ items, notes, suggestion }) => {
        mockApi({
          'GET /search': () => ({
            body: {
              total: items.length,
              page: 1,
              pageSize: 12,
              items,
              facets: { type: { book: items.length, paper: 0, course: 0 } },
              notes,
              ...(suggestion === undefined ? {} : { suggestion }),
            },
          }),
        });
        renderScreen(<LibrarySearchPage />, '/library?q=x', testUser());
        await waitFor(() => expect(cardOf(items[0]!.title)).toBeDefined());
        for (const sent of items) {
          const topics = sent.subjects.slice(0, RESULT_TOPICS_SHOWN).join(', ');
          expectShown(
            [
              sent.title,
              sent.authors.join(', ') || 'Unknown author',
              topics,
              sent.external ? `From ${sent.external}` : '',
            ],
            cardOf(sent.title),
          );
        }
        expectShown([...notes, suggestion ?? '']);
        expectLinksOut(items.filter((sent) => sent.external).map((sent) => sent.url));
        expectInert();
      },
      RUNS,
    );
  });

  it('shows hostile course materials as text; their links go to web pages only', async () => {
    await assertRenders(
      some(material),
      async (materials) => {
        mockApi({ 'GET /users/get-books': () => ({ body: { payload: materials } }) });
        renderScreen(<LibrarySearchPage />, '/library?tab=courses', testUser());
        await waitFor(() => expect(cardOf(materials[0]!.title)).toBeDefined());
        for (const sent of materials)
          expectShown(
            [
              sent.title,
              `By ${sent.author}`,
              `Published: ${sent.publishedDate}`,
              `Institution: ${sent.instituteName}`,
              sent.genre,
            ],
            cardOf(sent.title),
          );
        expectLinksOut(materials.map((sent) => sent.driveLink));
        expectInert();
      },
      RUNS,
    );
  });

  it('shows a hostile item’s details and page text as text', async () => {
    await assertRenders(
      fc.record({
        title: hostileWords,
        authors: fc.array(hostileWords, { maxLength: 3 }),
        description: hostileWords,
        isbn: hostileWords,
        content: hostileText,
      }),
      async ({ title, authors, description, isbn, content }) => {
        const detail: ItemDetail = {
          id: 'item-1',
          type: 'book',
          title,
          authors,
          year: 1999,
          subjects: [],
          description,
          isbn,
          hasContent: true,
          pageCount: 3,
          copies: 1,
        };
        mockApi({
          'GET /items/item-1': () => ({ body: detail }),
          'GET /items/item-1/pages': () => ({
            body: { itemId: 'item-1', page: 1, pageCount: 3, content },
          }),
        });
        renderScreen(<LibrarySearchPage />, '/library?item=item-1', testUser());
        await waitFor(() => expect(document.querySelector('[aria-busy="false"]')).not.toBeNull());
        expect(document.querySelector('h2')?.textContent).toBe(title);
        expectShown([
          [authors.join(', '), '1999', `ISBN ${isbn}`].filter(Boolean).join(' · '),
          description,
        ]);
        expectInert();
      },
      RUNS,
    );
  });
});

describe('web addresses (fast-check)', () => {
  it('keeps an address only when it is a web page or a path on this site, unchanged', () => {
    fc.assert(
      fc.property(address, (text) => {
        const kept = webAddress(text);
        if (kept === undefined) return;
        expect(kept).toBe(text);
        expect(isAllowedUrl(kept), text).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('drops script and data addresses and other sites written as paths (regression)', () => {
    // Found by the properties below: outside results' links, course materials' links and
    // covers reached href and src as they came, `javascript:` and `data:` included.
    for (const text of [
      'javascript:alert(1)',
      ' JAVASCRIPT:alert(1)',
      'data:text/html,x',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
    ])
      expect(webAddress(text), text).toBeUndefined();
    for (const text of ['https://covers.example/1.jpg', '/covers/1.jpg'])
      expect(webAddress(text)).toBe(text);
  });
});

describe('guest search (fast-check)', () => {
  it('previews any description as a prefix of at most 100 characters, never half an emoji', () => {
    fc.assert(
      fc.property(
        fc.oneof(hostileText, fc.string({ unit: 'grapheme', maxLength: 150 })),
        (text) => {
          const preview = previewText(text);
          const cut = preview.endsWith('…') && preview !== text ? preview.slice(0, -1) : preview;
          expect(text.startsWith(cut)).toBe(true);
          expect(cut.length).toBeLessThanOrEqual(GUEST_DESCRIPTION_PREVIEW);
          if (wellFormed(text)) expect(wellFormed(preview)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts a preview before an emoji, not inside it (regression)', () => {
    // Found by the property above: a cut between a surrogate pair's halves showed as '�'.
    const text = `${'a'.repeat(GUEST_DESCRIPTION_PREVIEW - 1)}🙂 and more`;
    expect(previewText(text)).toBe(`${'a'.repeat(GUEST_DESCRIPTION_PREVIEW - 1)}…`);
  });

  it('shows a hostile query and hostile results as text, linking out only to web pages', async () => {
    await assertRenders(
      fc.record({
        query: hostileWords,
        items: fc
          .integer({ min: 1, max: 4 })
          .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => guestItem(i)))),
      }),
      async ({ query, items }) => {
        mockApi({
          'GET /search': () => ({
            body: {
              total: items.length,
              page: 1,
              pageSize: 20,
              items,
              facets: { type: { book: items.length, paper: 0, course: 0 } },
            },
          }),
        });
        renderGuest(query);
        expect(document.querySelector('h1')?.textContent).toBe(`Results for “${query.trim()}”`);
        await waitFor(() => expect(document.querySelectorAll('li')).toHaveLength(items.length));
        const rows = document.querySelectorAll('li');
        items.forEach((sent, index) => {
          expectShown(
            [
              sent.title,
              sent.authors.join(', '),
              previewText(sent.description),
              sent.external ? `from ${sent.external}` : '',
            ],
            rows[index],
          );
        });
        expectInert({ tags: ['img'] });
      },
      RUNS,
    );
  });
});

describe('reservation books (fast-check)', () => {
  it('shows hostile books as text, with covers from web addresses only', async () => {
    await assertRenders(
      fc
        .integer({ min: 1, max: 4 })
        .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => book(index)))),
      (books) => {
        // A book with no free copy offers its waiting list, which needs the query client.
        const { container } = render(
          <QueryClientProvider client={new QueryClient()}>
            <BookChoice books={books} selectedId={null} onSelect={() => {}} />
          </QueryClientProvider>,
        );
        const cards = container.querySelectorAll('li');
        books.forEach((sent, index) => {
          const card = cards[index]!;
          expect(card.querySelector('label')?.textContent).toBe(sent.title);
          expectShown([`${sent.author} · ${sent.genre}`, sent.description], card);
          const cover = card.querySelector('img');
          expect(cover?.getAttribute('src') ?? undefined).toBe(webAddress(sent.coverImage));
          if (cover) expect(cover.getAttribute('alt')).toBe(`Cover of ${sent.title}`);
        });
        expectInert({ tags: ['img'] });
      },
      RUNS,
    );
  });
});
