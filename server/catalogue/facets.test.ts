import { describe, expect, it } from 'vitest';
import { yearRanges } from './facets.ts';

describe('yearRanges', () => {
  it('groups years into a few ranges, oldest first, decades for recent years', () => {
    expect(
      yearRanges([
        { year: 2023, count: 2 },
        { year: 1813, count: 1 },
        { year: 1605, count: 1 },
        { year: 1790, count: 3 },
        { year: 1865, count: 1 },
        { year: 1925, count: 4 },
        { year: 1965, count: 1 },
        { year: 1997, count: 2 },
        { year: 1999, count: 1 },
        { year: 2009, count: 5 },
      ]),
    ).toEqual([
      { from: 1605, to: 1799, count: 4 },
      { from: 1800, to: 1899, count: 2 },
      { from: 1900, to: 1949, count: 4 },
      { from: 1950, to: 1969, count: 1 },
      { from: 1990, to: 1999, count: 3 },
      { from: 2000, to: 2009, count: 5 },
      { from: 2020, to: 2029, count: 2 },
    ]);
  });

  it('reaches past the last decade and before the common era; nothing gives nothing', () => {
    expect(yearRanges([{ year: 2031, count: 1 }])).toEqual([{ from: 2020, to: 2031, count: 1 }]);
    expect(yearRanges([{ year: -380, count: 1 }])).toEqual([{ from: -380, to: 1799, count: 1 }]);
    expect(yearRanges([])).toEqual([]);
  });
});
