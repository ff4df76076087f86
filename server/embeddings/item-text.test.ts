import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  EMBEDDED_AUTHORS,
  EMBEDDING_TEXT_CHARACTERS,
  EMBEDDING_TEXT_WORDS,
  embeddingText,
  textHash,
  type EmbeddableItem,
} from './item-text.ts';

const item = (overrides: Partial<EmbeddableItem> = {}): EmbeddableItem => ({
  title: 'Frankenstein',
  authors: ['Mary Shelley'],
  subjects: ['Gothic fiction', 'Science fiction'],
  description: 'A scientist creates a living being and abandons it.',
  ...overrides,
});

const words = (count: number, word = 'word') => Array.from({ length: count }, () => word).join(' ');

describe('embeddingText', () => {
  it('gives title, authors, subjects and description as sentences, in that order', () => {
    expect(embeddingText(item())).toBe(
      'Frankenstein. Mary Shelley. Gothic fiction, Science fiction. A scientist creates a living being and abandons it.',
    );
  });

  it('keeps punctuation that ends a part and adds no full stop after it', () => {
    expect(embeddingText(item({ title: 'Who Moved My Cheese?', authors: [], subjects: [] }))).toBe(
      'Who Moved My Cheese? A scientist creates a living being and abandons it.',
    );
  });

  it('collapses whitespace and leaves out empty parts', () => {
    expect(
      embeddingText({
        title: '  The   Hobbit\n',
        authors: ['', ' J. R. R.  Tolkien '],
        subjects: ['  '],
        description: null,
      }),
    ).toBe('The Hobbit. J. R. R. Tolkien.');
  });

  it('is empty for an item with nothing but empty fields', () => {
    expect(embeddingText({ title: ' ', authors: [], subjects: [], description: '' })).toBe('');
  });

  it('names only the first authors', () => {
    const authors = Array.from({ length: 40 }, (_, index) => `Author ${index + 1}`);
    const text = embeddingText(item({ authors }));
    expect(text).toContain(`Author ${EMBEDDED_AUTHORS}.`);
    expect(text).not.toContain(`Author ${EMBEDDED_AUTHORS + 1}`);
  });

  it('appends the pages after the description while the bound leaves room', () => {
    const text = embeddingText(item({ description: null }), [
      'Chapter 1. It was a dreary night.',
      'Page two.',
    ]);
    expect(text).toBe(
      'Frankenstein. Mary Shelley. Gothic fiction, Science fiction. Chapter 1. It was a dreary night. Page two.',
    );
  });

  it(`stops after ${EMBEDDING_TEXT_WORDS} words, the title and subjects kept`, () => {
    const text = embeddingText(item({ description: words(5_000, 'long') }), [words(1_000, 'page')]);
    expect(text.split(' ')).toHaveLength(EMBEDDING_TEXT_WORDS);
    expect(
      text.startsWith('Frankenstein. Mary Shelley. Gothic fiction, Science fiction. long'),
    ).toBe(true);
    expect(text).not.toContain('page');
  });

  it(`stops at ${EMBEDDING_TEXT_CHARACTERS} characters whatever the words, at a space`, () => {
    const text = embeddingText(item({ description: words(100, 'x'.repeat(100)) }));
    expect(text.length).toBeLessThanOrEqual(EMBEDDING_TEXT_CHARACTERS);
    expect(text.endsWith('x'.repeat(100))).toBe(true);
    // A single giant "word" is cut too.
    const giant = embeddingText({
      title: 'y'.repeat(1_000_000),
      authors: [],
      subjects: [],
      description: null,
    });
    expect(giant.length).toBeLessThanOrEqual(EMBEDDING_TEXT_CHARACTERS);
  });

  it('gives the same text for the same item', () => {
    expect(embeddingText(item())).toBe(embeddingText(item()));
  });
});

describe('textHash', () => {
  it('is the md5 in hex of the model and the text', () => {
    expect(textHash('Frankenstein.', 'use-lite-512')).toMatch(/^[0-9a-f]{32}$/);
    expect(textHash('Frankenstein.', 'use-lite-512')).toBe(
      createHash('md5').update('use-lite-512\nFrankenstein.').digest('hex'),
    );
  });

  it('changes with the text and with the model', () => {
    const hash = textHash('Frankenstein.', 'use-lite-512');
    expect(textHash('Frankenstein!', 'use-lite-512')).not.toBe(hash);
    expect(textHash('Frankenstein.', 'another-model')).not.toBe(hash);
    expect(textHash('Frankenstein.', 'use-lite-512')).toBe(hash);
  });
});
