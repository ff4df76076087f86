import { render } from '@testing-library/react';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pagePlainText, plainLine } from '#contract/page-text.ts';
import { assertRenders, expectInert, hostileText, HOSTILE_TEXTS } from '../../test/hostile-text.ts';
import { PageText, parsePageText } from './page-text.tsx';

/*
 * The page viewer is the one renderer that parses markup (headings, lists, **bold**, italics),
 * so it gets the strongest checks: only its own tags with no attribute but each line's numeric
 * `data-offset` (and, on marks, the class and ids the viewer sets), nothing shown that the text
 * did not hold (in order), every line's words shown exactly, and marks that cover exactly the
 * offsets asked for.
 */

const RUNS = 25;
const PAGE_TAGS = new Set(['h3', 'h4', 'h5', 'p', 'ol', 'ul', 'li', 'strong', 'em']);
/** Lines carry their offset; nothing else has an attribute. */
const LINE_TAGS = new Set(['h3', 'h4', 'h5', 'p', 'li']);
/** What makes a line a heading or a list item. */
const MARKERS = ['', '', '# ', '## ', '### ', '#### ', '1. ', '12) ', '- ', '* ', '• ', '-', '**'];
/**
 * A line that the viewer reads as plain words: no marker at its start, no line break, no
 * emphasis of its own, and no `*` that could pair up with the `**` around it.
 */
const isPlainLine = (text: string) =>
  text.trim() === text &&
  plainLine(text) === text &&
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
          const html = element.outerHTML.slice(0, 200);
          expect(PAGE_TAGS.has(element.localName), html).toBe(true);
          const names = [...element.attributes].map((attribute) => attribute.name);
          expect(names, html).toEqual(LINE_TAGS.has(element.localName) ? ['data-offset'] : []);
          if (names.length > 0) expect(element.getAttribute('data-offset'), html).toMatch(/^\d+$/);
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

  it('marks exactly the highlighted offsets, keeping the text as it was', async () => {
    await assertRenders(
      page
        .filter((text) => pagePlainText(text).length > 1)
        .chain((text) => {
          const length = pagePlainText(text).length;
          return fc.tuple(
            fc.constant(text),
            fc
              .integer({ min: 0, max: length - 1 })
              .chain((start) =>
                fc.tuple(fc.constant(start), fc.integer({ min: start + 1, max: length })),
              ),
          );
        }),
      ([text, [start, end]]) => {
        const plain = pagePlainText(text);
        const { container } = render(
          <PageText
            text={text}
            highlights={[{ id: 'h', start, end, note: '<b>note</b>' }]}
            speaking={{ start, end }}
            words={[plain.slice(start, end)]}
            onHighlight={() => {}}
          />,
        );
        expectInert();
        const lines = [...container.querySelectorAll('[data-offset]')];
        expect(lines.map((line) => line.textContent).join('\n')).toBe(plain);
        const marked = [...container.querySelectorAll('mark[data-highlight]')]
          .map((mark) => mark.textContent)
          .join('');
        expect(marked).toBe(plain.slice(start, end).replace(/\n/g, ''));
        expect(container.querySelectorAll('[tabindex]')).toHaveLength(marked === '' ? 0 : 1);
      },
      RUNS,
    );
  });
});
