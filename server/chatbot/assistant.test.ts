import { describe, expect, it } from 'vitest';
import { likeReason, recommendationTopic } from './assistant.ts';

describe('recommendationTopic', () => {
  it('leaves the occasion out and keeps the signals recommend.ts reads', () => {
    expect(recommendationTopic('adventure book to read over the break')).toBe('adventure book');
    expect(recommendationTopic('classic romance novel')).toBe('classic romance novel');
    expect(recommendationTopic("i'm bored what should i read")).toBe('');
  });

  it('reads everyday names as the catalogue’s subjects', () => {
    expect(recommendationTopic('classic sci fi book')).toBe('classic science fiction book');
    expect(recommendationTopic('a good whodunit')).toBe('a good mystery');
    expect(recommendationTopic('detective stories')).toBe('mystery');
  });

  it('reads a tone alone as its genre, and beside a genre as nothing', () => {
    expect(recommendationTopic('spooky gothic book')).toBe('gothic book');
    expect(recommendationTopic('something spooky')).toBe('horror');
  });
});

describe('likeReason', () => {
  it('words a shared subject as the item page’s "More like this" does', () => {
    expect(likeReason('Shares the subjects gothic, horror')).toBe(
      'Similar subject: gothic, horror',
    );
    expect(likeReason('Shares the subject gothic; similar description')).toBe(
      'Similar subject: gothic; similar description',
    );
    expect(likeReason('Same author: H. G. Wells')).toBe('Same author: H. G. Wells');
  });
});
