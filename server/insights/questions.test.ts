import { describe, expect, it } from 'vitest';
import { questionKey, stem } from './questions.ts';

describe('the grouping key of an unanswered chatbot question', () => {
  it('groups wordings of the same question', () => {
    expect(questionKey('Can I bring my dog to the library?')).toBe('bring dog library');
    expect(questionKey('can i bring a DOG into the library')).toBe('bring dog library');
    expect(questionKey('What is the wifi password?')).toBe(questionKey('wifi password please'));
    expect(questionKey('Opening hours on holidays')).toBe(
      questionKey('holiday opening hour, please?'),
    );
  });
  it('keeps different questions apart', () => {
    expect(questionKey('bike parking')).not.toBe(questionKey('car parking'));
  });
  it('keeps a question of stop words only as its own text', () => {
    expect(questionKey('What?')).toBe('what');
    expect(questionKey('who?')).not.toBe(questionKey('what?'));
    expect(questionKey('?!')).toBe('');
  });
  it('stems lightly, never below three letters', () => {
    expect(stem('holidays')).toBe('holiday');
    expect(stem('libraries')).toBe('library');
    expect(stem('opening')).toBe('open');
    expect(stem('classes')).toBe('class');
    expect(stem('bus')).toBe('bus');
    expect(stem('sing')).toBe('sing');
  });
  it('stays within the scope column it is kept in', () => {
    expect(questionKey('word'.repeat(100)).length).toBeLessThanOrEqual(200);
  });
});
