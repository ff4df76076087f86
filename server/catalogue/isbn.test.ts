import { describe, expect, it } from 'vitest';
import { normaliseIsbn } from './isbn.ts';

describe('normaliseIsbn', () => {
  it('gives the ISBN-13 of an ISBN-10, hyphenated, spaced or bare', () => {
    expect(normaliseIsbn('0306406152')).toBe('9780306406157');
    expect(normaliseIsbn('0-306-40615-2')).toBe('9780306406157');
    expect(normaliseIsbn(' 0 306 40615 2 ')).toBe('9780306406157');
    expect(normaliseIsbn('ISBN 0-306-40615-2')).toBe('9780306406157');
  });

  it('keeps a valid ISBN-13 as its 13 digits', () => {
    expect(normaliseIsbn('978-0-306-40615-7')).toBe('9780306406157');
    expect(normaliseIsbn('9780306406157')).toBe('9780306406157');
    expect(normaliseIsbn('ISBN-13: 978 0 306 40615 7')).toBe('9780306406157');
  });

  it('takes an X check digit, upper or lower case', () => {
    expect(normaliseIsbn('080442957X')).toBe('9780804429573');
    expect(normaliseIsbn('0-8044-2957-x')).toBe('9780804429573');
    expect(normaliseIsbn('043965548X')).toBe('9780439655484');
  });

  it('takes a 979 ISBN-13, which has no ISBN-10', () => {
    expect(normaliseIsbn('979-10-90636-07-1')).toBe('9791090636071');
    expect(normaliseIsbn('9798886451740')).toBe('9798886451740');
  });

  it('refuses a wrong check digit, in either form', () => {
    expect(normaliseIsbn('0-306-40615-3')).toBeNull();
    expect(normaliseIsbn('978-0-306-40615-8')).toBeNull();
    expect(normaliseIsbn('9791090636072')).toBeNull();
    // An X is a check digit of ISBN-10s only.
    expect(normaliseIsbn('978030640615X')).toBeNull();
  });

  it('refuses what is not an ISBN at all', () => {
    for (const input of [
      '',
      '   ',
      '12-AB',
      '030640615',
      '03064061522',
      '978030640615',
      '0306406152 0306406152',
      '0306X06152',
      '0306406152;',
      // 979-0 is the ISMN of printed music, not an ISBN.
      '9790260000438',
      '1'.repeat(500),
    ]) {
      expect(normaliseIsbn(input), input).toBeNull();
    }
  });
});
