import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchResponseSchema } from '#contract/http/catalogue.ts';
import { seedDemoData } from '../db/seed.ts';
import { createTestApp, testConfig } from '../test/app.ts';
import { createExternalSearch, fromBooksApi, fromOpenLibrary } from './external.ts';

/** Answers in the two services' real response shapes; `/slow` and `/broken` misbehave. */
function fakeServices() {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    hits.push(url.pathname + url.search);
    const q = url.searchParams.get('q') ?? '';
    if (url.pathname.startsWith('/slow')) {
      setTimeout(() => response.end('{"docs":[]}'), 3_500);
      return;
    }
    if (url.pathname.startsWith('/broken')) {
      response.writeHead(500).end('oops');
      return;
    }
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/search.json') {
      response.end(
        JSON.stringify({
          numFound: 1,
          docs: [
            {
              key: '/works/OL1W',
              title: `Dune (${q})`,
              author_name: ['Frank Herbert'],
              first_publish_year: 1965,
              subject: ['Science fiction'],
              cover_i: 42,
            },
            { key: '/works/OL2W', author_name: ['No Title'] },
          ],
        }),
      );
    } else {
      response.end(
        JSON.stringify({
          kind: 'books#volumes',
          totalItems: 1,
          items: [
            {
              id: 'vol1',
              volumeInfo: {
                title: 'Dune Messiah',
                authors: ['Frank Herbert'],
                publishedDate: '1969-10-15',
                description: 'The sequel.',
                categories: ['Fiction'],
                imageLinks: { thumbnail: 'https://books.example/thumb.jpg' },
                infoLink: 'https://books.example/vol1',
              },
            },
          ],
        }),
      );
    }
  });
  return { server, hits };
}

describe('outside book sources', () => {
  const { server, hits } = fakeServices();
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads both services’ answer shapes', () => {
    expect(
      fromOpenLibrary({
        docs: [
          {
            key: '/works/OL1W',
            title: ' X ',
            author_name: ['A'],
            first_publish_year: 2000,
            subject: ['s'],
          },
        ],
      }),
    ).toEqual([
      {
        id: 'openlibrary:/works/OL1W',
        type: 'book',
        title: 'X',
        authors: ['A'],
        year: 2000,
        subjects: ['s'],
        url: 'https://openlibrary.org/works/OL1W',
        hasContent: false,
        external: 'Open Library',
      },
    ]);
    expect(fromBooksApi({ totalItems: 0 })).toEqual([]);
    expect(() => fromOpenLibrary({ nope: true })).toThrow();
  });

  it('merges them under our own results, marked as external, and caches them', async () => {
    const testApp = await createTestApp('pglite', {
      env: { OPEN_LIBRARY_URL: `${base}/search.json`, BOOKS_API_URL: `${base}/books/v1/volumes` },
    });
    try {
      await seedDemoData(testApp.database.db);
      const response = await testApp.app.inject({ url: '/api/search?q=time' });
      const body = searchResponseSchema.parse(response.json());
      expect(body.items[0]).toMatchObject({ title: 'The Time Machine' });
      expect(
        body.items.filter((item) => item.external).map((item) => [item.external, item.title]),
      ).toEqual([
        ['Open Library', 'Dune (time)'],
        ['Books', 'Dune Messiah'],
      ]);
      expect(body.items.find((item) => item.external === 'Books')).toMatchObject({
        year: 1969,
        coverUrl: 'https://books.example/thumb.jpg',
        url: 'https://books.example/vol1',
      });
      expect(body.total).toBe(1);
      expect(hits.filter((hit) => hit.includes('q=time'))).toHaveLength(2);
      await testApp.app.inject({ url: '/api/search?q=TIME' });
      expect(hits.filter((hit) => /q=time/i.test(hit))).toHaveLength(2);
      // Not for papers, nor past the first page.
      await testApp.app.inject({ url: '/api/search?q=quantum&type=paper' });
      await testApp.app.inject({ url: '/api/search?q=quantum&page=2' });
      expect(hits.some((hit) => hit.includes('quantum'))).toBe(false);
    } finally {
      await testApp.close();
    }
  });

  it('sends identical searches made at the same time as one request to each source', async () => {
    const search = createExternalSearch(
      testConfig({
        OPEN_LIBRARY_URL: `${base}/search.json`,
        BOOKS_API_URL: `${base}/books/v1/volumes`,
      }),
      pino({ level: 'silent' }),
    );
    const answers = await Promise.all([
      search.search('concurrent'),
      search.search('Concurrent'),
      search.search('concurrent'),
    ]);
    expect(hits.filter((hit) => /q=concurrent/i.test(hit))).toHaveLength(2);
    for (const answer of answers) {
      expect(answer.notes).toEqual([]);
      expect(answer.items.map((item) => item.external)).toEqual(['Open Library', 'Books']);
    }
  });

  it('never caches a failed outside search: the next search asks again', async () => {
    const search = createExternalSearch(
      testConfig({ OPEN_LIBRARY_URL: `${base}/broken/search.json` }),
      pino({ level: 'silent' }),
    );
    const note = 'External source unavailable: Open Library. Showing the library’s own results.';
    const together = await Promise.all([search.search('failing'), search.search('failing')]);
    expect(together.map((answer) => answer.notes)).toEqual([[note], [note]]);
    expect(hits.filter((hit) => hit.includes('q=failing'))).toHaveLength(1);
    expect((await search.search('failing')).notes).toEqual([note]);
    expect(hits.filter((hit) => hit.includes('q=failing'))).toHaveLength(2);
  });

  it('cuts a slow source off at 3 seconds even when memory is collected meanwhile', async () => {
    // A loaded machine collects garbage during the wait. Node 20 could collect a time-out signal
    // inside AbortSignal.any() then, and the slow source's empty answer came back with no note.
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const search = createExternalSearch(
      testConfig({ OPEN_LIBRARY_URL: `${base}/slow/search.json` }),
      pino({ level: 'silent' }),
    );
    const collecting = setInterval(gc, 200);
    try {
      const answer = await search.search('collected');
      expect(answer.notes).toEqual([
        'External source unavailable: Open Library. Showing the library’s own results.',
      ]);
    } finally {
      clearInterval(collecting);
    }
  });

  it('answers within about 3 seconds with a quiet note when a source is slow or broken', async () => {
    const testApp = await createTestApp('pglite', {
      env: {
        OPEN_LIBRARY_URL: `${base}/slow/search.json`,
        BOOKS_API_URL: `${base}/broken/volumes`,
      },
    });
    try {
      await seedDemoData(testApp.database.db);
      // The slow source answers after 3.5 s: its note can only appear if the time-out cut it off.
      const response = await testApp.app.inject({ url: '/api/search?q=pride' });
      const body = searchResponseSchema.parse(response.json());
      expect(response.statusCode).toBe(200);
      expect(body.items.map((item) => item.title)).toEqual(['Pride and Prejudice']);
      expect(body.notes).toEqual([
        'External source unavailable: Open Library. Showing the library’s own results.',
        'External source unavailable: Books. Showing the library’s own results.',
      ]);
    } finally {
      await testApp.close();
    }
  });
});
