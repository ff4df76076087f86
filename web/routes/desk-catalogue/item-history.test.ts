import { describe, expect, it } from 'vitest';
import type { ItemChange } from '#contract/http/items.ts';
import { describeChange } from './item-history.tsx';

describe('history entries in words', () => {
  const change = (overrides: Partial<ItemChange>): ItemChange => ({
    id: '1',
    at: '2026-03-01T10:00:00.000Z',
    by: { id: 'u1', name: 'Dana Okafor' },
    action: 'edited',
    changes: {},
    ...overrides,
  });

  it('say what changed from what to what', () => {
    expect(
      describeChange(
        change({
          changes: {
            year: { from: 1818, to: 1831 },
            isbn: { from: '9780141439471', to: null },
            subjects: { from: [], to: ['gothic', 'horror'] },
            type: { from: 'book', to: 'course' },
          },
        }),
      ),
    ).toEqual({
      summary: 'Edited the item',
      details: [
        'Year changed from “1818” to “1831”',
        'ISBN cleared (was “9780141439471”)',
        'Subjects set to “gothic, horror”',
        'Type changed from “Book” to “Course material”',
      ],
    });
  });

  it('name the copy added or changed', () => {
    expect(
      describeChange(
        change({
          action: 'copy_added',
          changes: {
            barcode: { from: null, to: 'DL-7' },
            location: { from: null, to: 'Annex' },
            status: { from: null, to: 'available' },
            note: { from: null, to: '' },
          },
        }),
      ),
    ).toEqual({ summary: 'Added copy DL-7', details: ['Location: Annex', 'Status: Available'] });
    expect(
      describeChange(
        change({
          action: 'copy_changed',
          changes: {
            copy: { from: 'DL-7', to: 'DL-7' },
            status: { from: 'available', to: 'in_repair' },
          },
        }),
      ),
    ).toEqual({
      summary: 'Changed copy DL-7',
      details: ['Status changed from “Available” to “In repair”'],
    });
    expect(describeChange(change({ action: 'withdrawn' })).summary).toBe(
      'Withdrew the item: hidden from everyone but librarians',
    );
  });
});
