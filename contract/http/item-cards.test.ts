import { describe, expect, it } from 'vitest';
import {
  availabilityText,
  extractItemIds,
  itemCardsQuerySchema,
  itemLink,
  queueText,
} from './item-cards.ts';

const A = '0b6a7e4e-2f1c-4d5e-9a1b-1c2d3e4f5a6b';
const B = '1c7b8f5f-3a2d-4e6f-8b2c-2d3e4f5a6b7c';
const C = '2d8c9a6a-4b3e-4f7a-9c3d-3e4f5a6b7c8d';
const D = '3e9dab7b-5c4f-4a8b-8d4e-4f5a6b7c8d9e';
const ORIGIN = 'https://library.example';

describe('extractItemIds', () => {
  it('finds relative links and absolute links of this app, in order, once each', () => {
    const text = `Read ${itemLink(A)} and ${ORIGIN}/userprofile/openlibrary?item=${B}&page=3, then ${itemLink(A)} again.`;
    expect(extractItemIds(text, [ORIGIN])).toEqual([A, B]);
  });

  it('leaves out links to other sites, malformed ids and other screens', () => {
    const text = [
      `https://elsewhere.example/userprofile/openlibrary?item=${A}`,
      '/userprofile/openlibrary?item=not-an-id',
      `/desk/catalogue/${B}`,
      `/userprofile/openlibrary?q=dickens`,
    ].join(' ');
    expect(extractItemIds(text, [ORIGIN])).toEqual([]);
  });

  it('stops at three cards per message, and ignores trailing punctuation', () => {
    const text = [A, B, C, D].map((id) => `(${itemLink(id)}).`).join(' ');
    expect(extractItemIds(text, [])).toEqual([A, B, C]);
  });

  it('reads the item among other parameters and in upper case', () => {
    expect(extractItemIds(`/userprofile/openlibrary?q=x&item=${A.toUpperCase()}`)).toEqual([A]);
  });
});

describe('itemCardsQuerySchema', () => {
  it('splits, lower-cases and de-duplicates the ids', () => {
    expect(itemCardsQuerySchema.parse({ ids: `${A}, ${A.toUpperCase()},${B}` })).toEqual({
      ids: [A, B],
    });
  });

  it('refuses an empty list and text that is not an id', () => {
    expect(itemCardsQuerySchema.safeParse({ ids: '' }).success).toBe(false);
    expect(itemCardsQuerySchema.safeParse({ ids: 'x' }).success).toBe(false);
  });
});

describe('availability in words', () => {
  it('says copies free, all out, or online', () => {
    expect(availabilityText({ itemId: A, total: 3, available: 2, queue: 0 })).toBe(
      '2 of 3 copies free',
    );
    expect(availabilityText({ itemId: A, total: 3, available: 0, queue: 3 })).toBe(
      'All 3 copies are out',
    );
    expect(availabilityText({ itemId: A, total: 0, available: 0, queue: 0 })).toBe('Online');
    expect(queueText({ queue: 3 })).toBe('3 in the queue');
    expect(queueText({ queue: 0 })).toBe('');
  });
});
