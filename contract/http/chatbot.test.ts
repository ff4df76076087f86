import { describe, expect, it } from 'vitest';
import { chatbotLinkSchema } from './chatbot.ts';

const accepts = (href: string) => chatbotLinkSchema.safeParse({ label: 'Open', href }).success;

describe('chatbot links', () => {
  it('accept paths inside the app', () => {
    for (const href of [
      '/userprofile/openlibrary?item=42',
      '/offline-book-service',
      '/a/.hidden',
      '/a/..b',
      '/search?q=/../',
    ])
      expect(accepts(href), href).toBe(true);
  });

  it('refuse anything that leaves the app or hides where it goes', () => {
    for (const href of [
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      '/..',
      '/.',
      '/a/../b',
      '/a/./b',
      '/a/..?x',
      '/a/.#y',
      '/a b',
    ])
      expect(accepts(href), href).toBe(false);
  });
});
