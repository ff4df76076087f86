import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertRenders, expectInert, hostileText, HOSTILE_TEXTS } from '../../test/hostile-text.ts';
import { PageText, parsePageText } from './page-text.tsx';

/*
 * The page viewer is the one renderer that parses markup (headings, lists, **bold**), so it gets
 * the strongest checks: only its own eight tags with no attribute at all, nothing shown that the
 * text did not hold (in order), and every line's words shown exactly.
 */

const RUNS = 25;
const PAGE_TAGS = new Set(['h3', 'h4', 'h5', 'p', 'ol', 'ul', 'li', 'strong']);
/** What makes a line a heading or a list item. */
const MARKERS = ['', '', '# ', '## ', '### ', '#### ', '1. ', '12) ', '- ', '* ', '• ', '-', '**'];
/**
 * A line that the viewer reads as plain words: no marker at its start, no line break, and no `*`
 * that could pair up with the `**` around it.
 */
const isPlainLine = (text: string) =>
  text.trim() === text &&
  text !== '' &&
  !/^(#{1,3}\s|\d+[.)]\s|[-*•]\s)/.test(text) &&
  !text.includes('**') &&
  !text.startsWith('*') &&
  !text.endsWith('*') &&
  !/[\r\n]/.test(text);

/** A page: lines of hostile text behind random markers, some blank. */
const page = fc
  .array(fc.tuple(fc.constantFrom(...MARKERS), hostileText), { maxLength: 8 })
  .map((lines) => lines.map(([marker, text]) => marker + text).join('\n'));

/** Whether every character of `shown` appears in `source`, in the same order. */
function isSubsequence(shown: string, source: string): boolean {
  let at = 0;
  for (const char of shown) {
    at = source.indexOf(char, at);
    if (at === -1) return false;
    at += char.length;
  }
  return true;
}

const visible = (text: string) => text.replace(/\s+/g, '');

describe('page text (fast-check)', () => {
  it('parses any text into blocks of single lines, never throwing', () => {
    fc.assert(
      fc.property(fc.oneof(page, fc.string({ unit: 'binary', maxLength: 400 })), (text) => {
        for (const block of parsePageText(text)) {
          const texts = 'items' in block ? block.items : [block.text];
          for (const line of texts) expect(/[\r\n]/.test(line)).toBe(false);
          if (block.kind === 'heading') expect([1, 2, 3]).toContain(block.level);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('renders only its own tags, without attributes, and shows nothing the text did not hold', async () => {
    await assertRenders(
      page,
      (text) => {
        const { container } = render(<PageText text={text} />);
        expectInert();
        for (const element of container.querySelectorAll('*')) {
          expect(PAGE_TAGS.has(element.localName), element.outerHTML.slice(0, 200)).toBe(true);
          expect(element.attributes.length, element.outerHTML.slice(0, 200)).toBe(0);
        }
        expect(isSubsequence(visible(container.textContent ?? ''), visible(text))).toBe(true);
      },
      RUNS,
    );
  });

  it('shows every plain line exactly, as a heading, an item, a paragraph or in bold', async () => {
    const line = hostileText.filter(isPlainLine);
    await assertRenders(
      fc.array(fc.tuple(fc.constantFrom('', '# ', '### ', '2. ', '- ', '**'), line), {
        minLength: 1,
        maxLength: 6,
      }),
      (lines) => {
        const text = lines
          .map(([marker, words]) => (marker === '**' ? `**${words}**` : marker + words))
          .join('\n\n');
        const { container } = render(<PageText text={text} />);
        expectInert();
        const shown = container.textContent ?? '';
        for (const [marker, words] of lines) {
          expect(shown.includes(words), JSON.stringify(words)).toBe(true);
          if (marker === '**')
            expect(
              [...container.querySelectorAll('strong')].some((bold) => bold.textContent === words),
            ).toBe(true);
        }
      },
      RUNS,
    );
  });

  it('shows each of the fifty XSS payloads as text', () => {
    const payloads = HOSTILE_TEXTS.filter(isPlainLine);
    const { container } = render(<PageText text={payloads.join('\n\n')} />);
    expectInert();
    expect(container.querySelectorAll('p')).toHaveLength(payloads.length);
    payloads.forEach((payload, index) =>
      expect(container.querySelectorAll('p')[index]?.textContent).toBe(payload),
    );
  });
});
