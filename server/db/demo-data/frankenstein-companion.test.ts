import { describe, expect, it } from 'vitest';
import { pageHeadings, pagePlainText, parsePageText } from '#contract/page-text.ts';
import { DEMO_ITEMS, demoGuidePages } from '../demo-data.ts';
import { FRANKENSTEIN_COMPANION_PAGES } from './frankenstein-companion.ts';

/** The 1831 text's divisions, in order: what the book's contents must list. */
const HEADINGS = [
  ...[1, 2, 3, 4].map((letter) => `Letter ${letter}`),
  ...Array.from({ length: 24 }, (_, index) => `Chapter ${index + 1}`),
];

const demoItem = (sourceId: string) => {
  const item = DEMO_ITEMS.find((candidate) => candidate.source_id === sourceId);
  if (!item) throw new Error(`no demo item ${sourceId}`);
  return item;
};

describe('the Frankenstein reading companion', () => {
  const pages = FRANKENSTEIN_COMPANION_PAGES;

  it('has one page per letter and chapter, each opening with its heading, in order', () => {
    expect(pages).toHaveLength(28);
    expect(pages.map((page) => page.split('\n')[0])).toEqual(
      HEADINGS.map((heading) => `# ${heading}`),
    );
    // The contents are built from level-1 headings: exactly one per page, the letter or chapter.
    for (const page of pages)
      expect(pageHeadings(page).filter((heading) => heading.level === 1)).toHaveLength(1);
  });

  it('keeps every page short: within 2,500 characters and 120–220 words of text', () => {
    for (const page of pages) {
      const heading = page.split('\n')[0];
      expect(page.length, heading).toBeLessThanOrEqual(2_500);
      const words = pagePlainText(page).split(/\s+/).filter(Boolean).length - 2; // heading words
      expect(words, heading).toBeGreaterThanOrEqual(120);
      expect(words, heading).toBeLessThanOrEqual(220);
    }
  });

  it('ends every page with a "Look for" list of one or two lines', () => {
    for (const page of pages) {
      const blocks = parsePageText(page);
      const heading = page.split('\n')[0];
      expect(blocks.at(-2), heading).toEqual({ kind: 'paragraph', text: '**Look for**' });
      const list = blocks.at(-1);
      expect(list?.kind, heading).toBe('unordered');
      if (list?.kind === 'unordered') expect(list.items.length, heading).toBeLessThanOrEqual(2);
    }
  });

  it('holds no raw HTML, and every emphasis mark is one the viewer renders', () => {
    for (const page of pages) {
      const heading = page.split('\n')[0];
      expect(page, heading).not.toMatch(/[<>]|&[#a-z0-9]+;/i);
      // A stray `*` or `_` would show as a literal character: all of them pair up into emphasis.
      expect(pagePlainText(page), heading).not.toMatch(/[*_]/);
    }
  });

  it('names the creature on most pages from Chapter 5 on, for the search-inside scenario', () => {
    const fromChapter5 = pages.slice(HEADINGS.indexOf('Chapter 5'));
    const naming = fromChapter5.filter((page) => /\bcreature\b/i.test(page));
    expect(naming.length).toBeGreaterThanOrEqual(15);
  });
});

describe('the demo Frankenstein’s pages', () => {
  it('are the reading guide, which announces the companion, then the companion', () => {
    const pages = demoGuidePages(demoItem('book-frankenstein'));
    expect(pages).toHaveLength(30);
    expect(pages[0]).toMatch(/^# About Frankenstein/);
    expect(pages[1]).toMatch(/^# Study questions/);
    expect(pages[1]).toMatch(/chapter-by-chapter companion/);
    expect(pages.slice(2)).toEqual(FRANKENSTEIN_COMPANION_PAGES);
  });

  it('leave the other guided books with their two pages', () => {
    const pages = demoGuidePages(demoItem('book-pride-and-prejudice'));
    expect(pages).toHaveLength(2);
    expect(pages[1]).not.toMatch(/companion/);
  });
});
