import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookContentsSchema,
  highlightSchema,
  HIGHLIGHTS_PER_BOOK_MAX,
  readingStateSchema,
  recentReadingSchema,
  SEARCH_INSIDE_HITS_MAX,
  searchInsideResponseSchema,
} from '#contract/http/reading.ts';
import { pagePlainText } from '#contract/page-text.ts';
import { NO_SUCH_ITEM } from '../../catalogue/items.ts';
import { STALE_HIGHLIGHT } from '../../reading/store.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const NOW = new Date('2026-12-03T09:00:00Z');
const PASSWORD = 'correct horse battery';

/** The pages of a short novel: `#` chapters, a `##` section, emphasis, a list. */
const NOVEL = [
  '# Chapter 1\n\nIt was on a dreary night of November that I beheld the **creature**.\n\nThe rain pattered dismally against the panes.',
  'I walked on, hoping to escape. The creatures of the night were *silent*.',
  "## A letter from _Geneva_\n\n- my father\n- my cousin\n\nThe creature's eyes were watery.",
  '# Chapter 2\n\nNothing here but a lamp and a table.',
];

describe.each(testDatabaseKinds())('reading on %s', (kind) => {
  let testApp: TestApp;
  let reader: SignedInPerson;
  let other: SignedInPerson;
  let librarian: SignedInPerson;
  let clock = NOW;
  const db = () => testApp.database.db;

  beforeAll(async () => {
    testApp = await createTestApp(kind, { now: () => clock });
    [reader, other, librarian] = await Promise.all([
      signedInPerson(testApp),
      signedInPerson(testApp),
      signedInPerson(testApp, 'librarian'),
    ]);
  });
  afterAll(async () => {
    await testApp.close();
  });

  /** A new book holding `pages`, with any item field overridden. */
  async function book(
    pages: readonly string[],
    fields: { title?: string; authors?: string[]; year?: number } = {},
  ): Promise<string> {
    const row = await db()
      .insertInto('items')
      .values({
        kind: 'book',
        title: fields.title ?? 'Frankenstein',
        authors: fields.authors ?? ['Mary Shelley'],
        year: fields.year ?? 1818,
        source: 'test',
        source_id: crypto.randomUUID(),
        page_count: pages.length,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (pages.length > 0)
      await db()
        .insertInto('item_pages')
        .values(
          pages.map((content, index) => ({ item_id: row.id, page_number: index + 1, content })),
        )
        .execute();
    return row.id;
  }

  const put = (client: TestClient, url: string, payload?: Record<string, unknown>) =>
    client.request({ method: 'PUT', url, ...(payload === undefined ? {} : { payload }) });

  /** A highlight of `quote` on `page` of `itemId`, offsets found in the page's plain text. */
  function highlightOf(page: number, quote: string, note = '') {
    const start = pagePlainText(NOVEL[page - 1]!).indexOf(quote);
    expect(start).toBeGreaterThanOrEqual(0);
    return { page, start, end: start + quote.length, quote, note };
  }

  it('keeps every route for members: a guest gets 401', async () => {
    const itemId = await book(NOVEL);
    const guest = new TestClient(testApp.app, testApp.config.publicUrl);
    for (const url of [
      `/api/items/${itemId}/contents`,
      `/api/items/${itemId}/search-inside?q=creature`,
      `/api/items/${itemId}/reading`,
      `/api/items/${itemId}/notes.md`,
      `/api/items/${itemId}/citation`,
      '/api/reading/preferences',
      '/api/reading/recent',
    ])
      expect((await guest.get(url)).statusCode, url).toBe(401);
    expect((await put(guest, `/api/items/${itemId}/progress`, { page: 1 })).statusCode).toBe(401);
  });

  it('lists the contents from the heading lines, in page order', async () => {
    const itemId = await book(NOVEL);
    const response = await reader.client.get(`/api/items/${itemId}/contents`);
    expect(response.statusCode, response.body).toBe(200);
    expect(bookContentsSchema.parse(response.json())).toEqual({
      itemId,
      pageCount: 4,
      entries: [
        { title: 'Chapter 1', level: 1, page: 1 },
        { title: 'A letter from Geneva', level: 2, page: 3 },
        { title: 'Chapter 2', level: 1, page: 4 },
      ],
    });
    const plain = await book(['No headings at all.', 'None here #either.']);
    expect((await reader.client.get(`/api/items/${plain}/contents`)).json()).toMatchObject({
      entries: [],
    });
  });

  it('answers a bad id with 400, and a missing or withdrawn item as the pages do (404)', async () => {
    const bad = await reader.client.get('/api/items/not-an-id/contents');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe('id must be an item id (a UUID)');
    const missing = await reader.client.get(`/api/items/${crypto.randomUUID()}/reading`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(NO_SUCH_ITEM);
    const withdrawn = await book(NOVEL);
    await db()
      .updateTable('items')
      .set({ withdrawn_at: NOW })
      .where('id', '=', withdrawn)
      .execute();
    for (const url of [`/api/items/${withdrawn}/contents`, `/api/items/${withdrawn}/pages?page=1`])
      expect((await librarian.client.get(url)).json().message, url).toBe(NO_SUCH_ITEM);
  });

  it('searches inside with stemming: pages in order, snippets of plain text, the forms found', async () => {
    const itemId = await book(NOVEL);
    const response = await reader.client.get(`/api/items/${itemId}/search-inside?q=Creatures`);
    expect(response.statusCode, response.body).toBe(200);
    const result = searchInsideResponseSchema.parse(response.json());
    expect(result.query).toBe('Creatures');
    expect(result.total).toBe(3);
    expect(result.hits.map((hit) => hit.page)).toEqual([1, 2, 3]);
    expect(result.words).toEqual(['creature', 'creatures']);
    // Markup never reaches a snippet: `**creature**` is the word alone, the heading's `#` gone.
    expect(result.hits[0]!.snippet).toEqual([
      {
        text: 'Chapter 1 It was on a dreary night of November that I beheld the ',
        match: false,
      },
      { text: 'creature', match: true },
      { text: '. The rain pattered dismally against the panes.', match: false },
    ]);
    expect(result.hits[2]!.snippet.filter((part) => part.match)).toEqual([
      { text: 'creature', match: true },
    ]);
    // Every word must be on the page.
    const both = await reader.client.get(`/api/items/${itemId}/search-inside?q=creature+rain`);
    expect(both.json()).toMatchObject({ total: 1, hits: [{ page: 1 }] });
  });

  it('finds nothing for stop words alone, and refuses an empty query with a sentence', async () => {
    const itemId = await book(NOVEL);
    const stop = await reader.client.get(`/api/items/${itemId}/search-inside?q=the+of`);
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toEqual({ query: 'the of', total: 0, hits: [], words: [] });
    const empty = await reader.client.get(`/api/items/${itemId}/search-inside?q=%20`);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors[0].message).toBe('Type a word to search for in this book.');
    expect((await reader.client.get(`/api/items/${itemId}/search-inside`)).statusCode).toBe(400);
  });

  it('counts every matching page but lists at most the cap', async () => {
    const pages = Array.from({ length: SEARCH_INSIDE_HITS_MAX + 20 }, (_, index) =>
      index % 2 === 0 ? `Page ${index + 1}: a lantern burned low.` : `Page ${index + 1}: dark.`,
    );
    const itemId = await book([...pages, ...pages]);
    const result = searchInsideResponseSchema.parse(
      (await reader.client.get(`/api/items/${itemId}/search-inside?q=lanterns`)).json(),
    );
    expect(result.total).toBe(SEARCH_INSIDE_HITS_MAX + 20);
    expect(result.hits).toHaveLength(SEARCH_INSIDE_HITS_MAX);
    expect(result.hits.slice(0, 3).map((hit) => hit.page)).toEqual([1, 3, 5]);
  });

  it('keeps the last page per person, read back on another device', async () => {
    const itemId = await book(NOVEL);
    const first = await reader.client.get(`/api/items/${itemId}/reading`);
    expect(readingStateSchema.parse(first.json())).toEqual({
      itemId,
      lastPage: null,
      lastReadAt: null,
      bookmarks: [],
      highlights: [],
    });
    const saved = await put(reader.client, `/api/items/${itemId}/progress`, { page: 3 });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ itemId, page: 3, readAt: NOW.toISOString() });
    // The same person signs in on a second browser.
    const phone = new TestClient(testApp.app, testApp.config.publicUrl);
    const login = await phone.post('/api/users/login', { email: reader.email, password: PASSWORD });
    expect(login.statusCode, login.body).toBe(200);
    expect((await phone.get(`/api/items/${itemId}/reading`)).json()).toMatchObject({ lastPage: 3 });
    await put(phone, `/api/items/${itemId}/progress`, { page: 4 });
    expect((await reader.client.get(`/api/items/${itemId}/reading`)).json()).toMatchObject({
      lastPage: 4,
    });
    // Nobody else's.
    expect((await other.client.get(`/api/items/${itemId}/reading`)).json()).toMatchObject({
      lastPage: null,
    });
    const beyond = await put(reader.client, `/api/items/${itemId}/progress`, { page: 5 });
    expect(beyond.statusCode).toBe(422);
    expect(beyond.json().message).toBe('This book has 4 pages: page 5 is not one of them.');
    const zero = await put(reader.client, `/api/items/${itemId}/progress`, { page: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().errors[0].message).toBe('page starts at 1');
  });

  it('bookmarks a page once however often, and removes it (404 when none)', async () => {
    const itemId = await book(NOVEL);
    const url = `/api/items/${itemId}/bookmarks/2`;
    const first = await put(reader.client, url);
    expect(first.statusCode, first.body).toBe(200);
    clock = new Date(NOW.getTime() + 60_000);
    const again = await put(reader.client, url);
    clock = NOW;
    expect(again.json()).toEqual(first.json());
    expect((await reader.client.get(`/api/items/${itemId}/reading`)).json().bookmarks).toEqual([
      { page: 2, createdAt: NOW.toISOString() },
    ]);
    expect((await put(reader.client, `/api/items/${itemId}/bookmarks/9`)).statusCode).toBe(422);
    expect((await reader.client.delete(url)).json()).toEqual({ success: true });
    const gone = await reader.client.delete(url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('There is no bookmark on page 2.');
  });

  it("keeps highlights private: another student and a librarian get 404 for someone's", async () => {
    const itemId = await book(NOVEL);
    const created = await reader.client.post(
      `/api/items/${itemId}/highlights`,
      highlightOf(1, 'I beheld the creature', 'First sight'),
    );
    expect(created.statusCode, created.body).toBe(201);
    const highlight = highlightSchema.parse(created.json());
    expect(highlight).toMatchObject({
      page: 1,
      quote: 'I beheld the creature',
      note: 'First sight',
    });
    for (const stranger of [other, librarian]) {
      const patch = await stranger.client.patch(`/api/highlights/${highlight.id}`, { note: 'x' });
      expect(patch.statusCode).toBe(404);
      expect(patch.json().message).toBe('There is no such highlight.');
      expect((await stranger.client.delete(`/api/highlights/${highlight.id}`)).statusCode).toBe(
        404,
      );
      const theirs = await stranger.client.get(`/api/items/${itemId}/reading`);
      expect(theirs.json().highlights).toEqual([]);
    }
    const missing = await reader.client.patch(`/api/highlights/${crypto.randomUUID()}`, {
      note: 'x',
    });
    expect(missing.json().message).toBe('There is no such highlight.');
    const noted = await reader.client.patch(`/api/highlights/${highlight.id}`, { note: 'Revised' });
    expect(noted.json()).toMatchObject({ id: highlight.id, note: 'Revised' });
    expect((await reader.client.get(`/api/items/${itemId}/reading`)).json().highlights).toEqual([
      noted.json(),
    ]);
    expect((await reader.client.delete(`/api/highlights/${highlight.id}`)).statusCode).toBe(200);
    expect((await reader.client.delete(`/api/highlights/${highlight.id}`)).statusCode).toBe(404);
  });

  it('refuses a highlight whose quote is not on the page, bad input, and beyond the cap', async () => {
    const itemId = await book(NOVEL);
    const url = `/api/items/${itemId}/highlights`;
    const moved = { ...highlightOf(1, 'dreary night'), quote: 'dreary nights' };
    const stale = await reader.client.post(url, moved);
    expect(stale.statusCode).toBe(422);
    expect(stale.json().message).toBe(STALE_HIGHLIGHT);
    // The offsets count the plain text, not the markup (`# `, `**` around "creature").
    const raw = NOVEL[0]!.indexOf('creature');
    const marked = await reader.client.post(url, {
      ...highlightOf(1, 'creature'),
      start: raw,
      end: raw + 'creature'.length,
    });
    expect(marked.statusCode).toBe(422);
    const backwards = await reader.client.post(url, { page: 1, start: 5, end: 2, quote: 'x' });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().errors).toContainEqual({
      path: 'end',
      message: 'end must be after start',
    });
    const long = await reader.client.post(url, {
      ...highlightOf(2, 'silent'),
      note: 'n'.repeat(2001),
    });
    expect(long.json().errors[0].message).toBe('A note is at most 2000 characters.');
    await db()
      .insertInto('highlights')
      .values(
        Array.from({ length: HIGHLIGHTS_PER_BOOK_MAX - 1 }, (_, index) => ({
          user_id: reader.id,
          item_id: itemId,
          page: 1,
          start_offset: index,
          end_offset: index + 1,
          quote: 'x',
        })),
      )
      .execute();
    expect((await reader.client.post(url, highlightOf(2, 'silent'))).statusCode).toBe(201);
    const full = await reader.client.post(url, highlightOf(2, 'creatures'));
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toMatch(/^You have 1000 highlights in this book/);
    // The cap is per person: someone else still highlights the same book.
    expect((await other.client.post(url, highlightOf(2, 'creatures'))).statusCode).toBe(201);
  });

  it('exports the notes of a book as Markdown, page by page, escaped', async () => {
    const itemId = await book(NOVEL, { title: 'Frankenstein; or, the *Modern* Prometheus' });
    await put(reader.client, `/api/items/${itemId}/bookmarks/3`);
    await reader.client.post(
      `/api/items/${itemId}/highlights`,
      highlightOf(3, "The creature's eyes", 'Compare *Milton*\n# not a heading'),
    );
    await reader.client.post(`/api/items/${itemId}/highlights`, highlightOf(1, 'dreary night'));
    await other.client.post(`/api/items/${itemId}/highlights`, highlightOf(2, 'silent', 'theirs'));
    const response = await reader.client.get(`/api/items/${itemId}/notes.md`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="frankenstein-or-the-modern-prometheus-notes.md"',
    );
    expect(response.body).toBe(
      [
        '# Frankenstein; or, the \\*Modern\\* Prometheus',
        'Mary Shelley. *Frankenstein; or, the \\*Modern\\* Prometheus*. 1818. Digi Library.',
        '> dreary night (p. 1)',
        'Bookmark (p. 3)',
        "> The creature's eyes (p. 3)",
        'Compare \\*Milton\\*\n\\# not a heading',
      ].join('\n\n') + '\n',
    );
  });

  it('answers a citation as BibTeX or RIS, and refuses another format', async () => {
    const itemId = await book(NOVEL, { title: 'Frankenstein & Co', authors: ['Mary Shelley'] });
    const bibtex = await reader.client.get(`/api/items/${itemId}/citation`);
    expect(bibtex.statusCode).toBe(200);
    expect(bibtex.headers['content-type']).toBe('application/x-bibtex; charset=utf-8');
    expect(bibtex.headers['content-disposition']).toBe(
      'attachment; filename="frankenstein-co.bib"',
    );
    expect(bibtex.body).toBe(
      '@book{shelley1818frankenstein,\n  author = {Mary Shelley},\n  title = {Frankenstein \\& Co},\n  year = {1818}\n}\n',
    );
    const ris = await reader.client.get(`/api/items/${itemId}/citation?format=ris`);
    expect(ris.headers['content-type']).toBe('application/x-research-info-systems; charset=utf-8');
    expect(ris.body).toBe(
      'TY  - BOOK\r\nAU  - Shelley, Mary\r\nTI  - Frankenstein & Co\r\nPY  - 1818\r\nER  -\r\n',
    );
    const bad = await reader.client.get(`/api/items/${itemId}/citation?format=xml`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].message).toBe('format must be bibtex or ris');
  });

  it('keeps page display per person: defaults, partial changes, bad values refused', async () => {
    const person = await signedInPerson(testApp);
    const url = '/api/reading/preferences';
    expect((await person.client.get(url)).json()).toEqual({
      theme: 'light',
      textSize: 'medium',
      lineWidth: 'medium',
    });
    expect((await put(person.client, url, { theme: 'dark' })).json()).toEqual({
      theme: 'dark',
      textSize: 'medium',
      lineWidth: 'medium',
    });
    expect((await put(person.client, url, { lineWidth: 'wide' })).json()).toEqual({
      theme: 'dark',
      textSize: 'medium',
      lineWidth: 'wide',
    });
    expect((await put(person.client, url, { theme: 'neon' })).statusCode).toBe(400);
    expect((await put(person.client, url, { colour: 'red' })).statusCode).toBe(400);
    expect((await other.client.get(url)).json()).toMatchObject({ theme: 'light' });
  });

  it('lists recent books newest first as catalogue cards, leaving withdrawn ones out', async () => {
    const person = await signedInPerson(testApp);
    const older = await book(NOVEL, { title: 'Older Read' });
    const newer = await book(NOVEL, { title: 'Newer Read' });
    const withdrawn = await book(NOVEL, { title: 'Withdrawn Read' });
    for (const [index, itemId] of [older, withdrawn, newer].entries()) {
      clock = new Date(NOW.getTime() + index * 60_000);
      await put(person.client, `/api/items/${itemId}/progress`, { page: 2 });
    }
    clock = NOW;
    await db()
      .updateTable('items')
      .set({ withdrawn_at: NOW })
      .where('id', '=', withdrawn)
      .execute();
    const recent = recentReadingSchema.parse(
      (await person.client.get('/api/reading/recent')).json(),
    );
    expect(recent.books.map((entry) => [entry.item.title, entry.page, entry.pageCount])).toEqual([
      ['Newer Read', 2, 4],
      ['Older Read', 2, 4],
    ]);
    expect(recent.books[0]!.item).toMatchObject({ id: newer, type: 'book', hasContent: true });
  });

  it("puts one's reading in the data export, and deletes it with the account", async () => {
    const person = await signedInPerson(testApp);
    const itemId = await book(NOVEL, { title: 'Exported Read' });
    await put(person.client, `/api/items/${itemId}/progress`, { page: 2 });
    await put(person.client, `/api/items/${itemId}/bookmarks/2`);
    await put(person.client, '/api/reading/preferences', { theme: 'sepia' });
    await person.client.post(`/api/items/${itemId}/highlights`, highlightOf(2, 'silent', 'Hush'));
    const exported = await person.client.get('/api/users/me/data');
    expect(exported.statusCode).toBe(200);
    expect(exported.json().reading).toEqual({
      lastPages: [{ itemId, title: 'Exported Read', page: 2, readAt: NOW.toISOString() }],
      preferences: { theme: 'sepia', textSize: 'medium', lineWidth: 'medium' },
      bookmarks: [{ itemId, title: 'Exported Read', page: 2, createdAt: NOW.toISOString() }],
      highlights: [
        {
          itemId,
          title: 'Exported Read',
          page: 2,
          quote: 'silent',
          note: 'Hush',
          createdAt: NOW.toISOString(),
          updatedAt: NOW.toISOString(),
        },
      ],
    });
    const deleted = await person.client.request({
      method: 'DELETE',
      url: '/api/users/me',
      payload: { password: PASSWORD },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    for (const table of [
      'reading_progress',
      'reading_preferences',
      'bookmarks',
      'highlights',
    ] as const) {
      const left = await db()
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', person.id)
        .execute();
      expect(left, table).toEqual([]);
    }
  });
});
