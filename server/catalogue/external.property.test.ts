import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogueItemSchema } from '#contract/http/catalogue.ts';
import { hostileString, hostileValue } from '../test/json-schema-arbitrary.ts';
import { fromBooksApi, fromOpenLibrary, webUrl } from './external.ts';

/*
 * Outside book sources answer whatever they answer. Property: reading an answer never throws
 * anything but the two documented refusals of a wrong shape (which become a quiet note), every
 * result it keeps is a valid result card, and the addresses it keeps (the link out, the cover)
 * are http(s) web addresses: the screens open them as they are.
 */

const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_123);
const RUNS = 150;

/** Addresses a source may send: web pages, and ones that must never reach a screen. */
const address = fc.oneof(
  fc.webUrl(),
  hostileString,
  fc.constantFrom(
    'javascript:alert(1)',
    ' JAVASCRIPT:alert(1)',
    '\u0000javascript:alert(1)',
    'java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    '//evil.example/cover.jpg',
    '/relative/cover.jpg',
  ),
);

const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof(arbitrary, hostileValue, fc.constant(undefined));

const openLibraryDoc = fc.record(
  {
    key: maybe(fc.oneof(fc.constant('/works/OL1W'), hostileString)),
    title: maybe(hostileString),
    author_name: maybe(fc.array(fc.oneof(hostileString, hostileValue), { maxLength: 3 })),
    first_publish_year: maybe(fc.integer()),
    subject: maybe(fc.array(hostileString, { maxLength: 3 })),
    cover_i: maybe(fc.integer()),
  },
  { requiredKeys: [] },
);

const volume = fc.record(
  {
    id: maybe(hostileString),
    volumeInfo: maybe(
      fc.record(
        {
          title: maybe(hostileString),
          authors: maybe(fc.array(hostileString, { maxLength: 3 })),
          description: maybe(hostileString),
          publishedDate: maybe(hostileString),
          categories: maybe(fc.array(hostileString, { maxLength: 3 })),
          imageLinks: maybe(fc.record({ thumbnail: maybe(address) }, { requiredKeys: [] })),
          infoLink: maybe(address),
        },
        { requiredKeys: [] },
      ),
    ),
  },
  { requiredKeys: [] },
);

/** An answer: the right shape with hostile entries (nulls among them), or anything at all. */
const answer = (list: 'docs' | 'items', entry: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.dictionary(
        fc.constant(list),
        fc.array(fc.oneof(entry, hostileValue), { maxLength: 6 }),
        { minKeys: 1 },
      ),
    },
    { weight: 1, arbitrary: hostileValue },
    { weight: 1, arbitrary: fc.anything() },
  );

const isWebAddress = (value: string) => ['http:', 'https:'].includes(new URL(value).protocol);

function checkCards(read: () => unknown[], refusals: string[]) {
  let cards: unknown[];
  try {
    cards = read();
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    expect(refusals).toContain((error as Error).message);
    return;
  }
  for (const card of cards) {
    const parsed = catalogueItemSchema.safeParse(card);
    expect(parsed.success, JSON.stringify(card)).toBe(true);
    for (const url of [parsed.data?.url, parsed.data?.coverUrl])
      if (url !== undefined) expect(isWebAddress(url), url).toBe(true);
  }
}

describe('outside book sources (fast-check)', () => {
  it('reads any Open Library answer into valid cards, or refuses its shape', () => {
    fc.assert(
      fc.property(answer('docs', openLibraryDoc), (body) =>
        checkCards(() => fromOpenLibrary(body), ['no docs in the answer']),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('reads any books API answer into valid cards with web addresses only, or refuses its shape', () => {
    fc.assert(
      fc.property(answer('items', volume), (body) =>
        checkCards(() => fromBooksApi(body), ['items is not a list']),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('keeps a web address and drops every other (regression)', () => {
    // Found by the property above: a books API's infoLink and thumbnail reached the screens as
    // they came, `javascript:` included, and one null entry lost the whole answer.
    const cards = fromBooksApi({
      items: [
        null,
        {
          id: 'v1',
          volumeInfo: {
            title: 'Dune',
            infoLink: 'javascript:alert(1)',
            imageLinks: { thumbnail: 'data:image/svg+xml,<svg onload=alert(1)>' },
          },
        },
        {
          id: 'v2',
          volumeInfo: {
            title: 'Emma',
            infoLink: 'https://books.example/emma',
            imageLinks: { thumbnail: 'http://covers.example/emma.jpg' },
          },
        },
      ],
    });
    expect(cards.map((card) => [card.title, card.url, card.coverUrl])).toEqual([
      ['Dune', undefined, undefined],
      ['Emma', 'https://books.example/emma', 'http://covers.example/emma.jpg'],
    ]);
    expect(fromOpenLibrary({ docs: [null, { title: 'Emma', key: 42 }] })).toHaveLength(1);
    expect(webUrl(' JAVASCRIPT:alert(1)')).toBeUndefined();
  });
});
