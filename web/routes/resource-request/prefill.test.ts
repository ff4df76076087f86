import { describe, expect, it } from 'vitest';
import { requestPrefill } from './prefill.ts';

describe('requestPrefill', () => {
  it('reads the title and maps a catalogue type to the form’s', () => {
    expect(requestPrefill('?title=The%20Quantum%20Teapot&type=book')).toEqual({
      title: 'The Quantum Teapot',
      resourceType: 'book',
    });
    expect(requestPrefill('?title=x&type=paper').resourceType).toBe('article');
    expect(requestPrefill('?type=courseMaterial').resourceType).toBe('courseMaterial');
  });

  it('leaves out what is missing or unknown', () => {
    expect(requestPrefill('')).toEqual({});
    expect(requestPrefill('?title=%20%20&type=spaceship')).toEqual({});
  });
});
