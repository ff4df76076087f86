import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pagePlainText } from '#contract/page-text.ts';
import { PageText, parsePageText } from './page-text.tsx';

const PAGE = '# Chapter 5\n\nIt was on a **dreary** night of *November*.\n\n1. one\n- a_b _two_';

describe('page text', () => {
  it('parses headings, numbered and dash lists, and paragraphs', () => {
    expect(
      parsePageText('# Title\n\nFirst line\nsame paragraph\n\n1. one\n2. two\n- a\n- b\n## Sub'),
    ).toEqual([
      { kind: 'heading', level: 1, text: 'Title' },
      { kind: 'paragraph', text: 'First line same paragraph' },
      { kind: 'ordered', items: ['one', 'two'] },
      { kind: 'unordered', items: ['a', 'b'] },
      { kind: 'heading', level: 2, text: 'Sub' },
    ]);
  });

  it('renders real elements with **bold** as <strong> and *it* / _it_ as <em>', () => {
    const { container } = render(<PageText text={PAGE} />);
    expect(container.querySelector('h3')?.textContent).toBe('Chapter 5');
    expect(container.querySelector('p strong')?.textContent).toBe('dreary');
    expect([...container.querySelectorAll('em')].map((em) => em.textContent)).toEqual([
      'November',
      'two',
    ]);
    expect(container.querySelector('ol li')?.textContent).toBe('one');
    // snake_case stays as written.
    expect(container.querySelector('ul li')?.textContent).toBe('a_b two');
  });

  it('gives every line its offset in the page plain text', () => {
    const { container } = render(<PageText text={PAGE} />);
    const plain = pagePlainText(PAGE);
    const lines = [...container.querySelectorAll('[data-offset]')];
    expect(lines.map((line) => line.localName)).toEqual(['h3', 'p', 'li', 'li']);
    for (const line of lines) {
      const start = Number(line.getAttribute('data-offset'));
      const text = line.textContent ?? '';
      expect(plain.slice(start, start + text.length)).toBe(text);
    }
  });

  it('marks highlights by offset, across emphasis, and describes one with a note', () => {
    const plain = pagePlainText(PAGE);
    const start = plain.indexOf('a dreary');
    const end = plain.indexOf(' night');
    const { container } = render(
      <PageText
        text={PAGE}
        highlights={[
          { id: 'h1', start, end, note: 'Gloomy weather' },
          { id: 'h2', start: 0, end: 7 },
        ]}
      />,
    );
    const marks = [...container.querySelectorAll('mark[data-highlight]')];
    expect(marks.map((mark) => [mark.getAttribute('data-highlight'), mark.textContent])).toEqual([
      ['h2', 'Chapter'],
      ['h1', 'a dreary'],
    ]);
    expect(marks[1]?.querySelector('strong')?.textContent).toBe('dreary');
    const described = marks[1]?.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(document.getElementById(described!)?.textContent).toContain('Gloomy weather');
    expect(marks[0]?.hasAttribute('aria-describedby')).toBe(false);
    // Not clickable unless asked.
    expect(marks[0]?.hasAttribute('tabindex')).toBe(false);
  });

  it('makes each highlight one keyboard stop when it can be opened', () => {
    const plain = pagePlainText(PAGE);
    const onHighlight = vi.fn();
    // From the heading into the paragraph: two marks, one stop.
    const { container } = render(
      <PageText
        text={PAGE}
        highlights={[{ id: 'h1', start: 8, end: plain.indexOf(' was') }]}
        onHighlight={onHighlight}
      />,
    );
    const marks = [...container.querySelectorAll('mark[data-highlight="h1"]')];
    expect(marks.map((mark) => mark.textContent)).toEqual(['5', 'It']);
    expect(marks.map((mark) => mark.getAttribute('tabindex'))).toEqual(['0', null]);
    expect(marks[0]?.getAttribute('role')).toBe('button');
    fireEvent.keyDown(marks[0]!, { key: 'Enter' });
    fireEvent.click(marks[1]!);
    expect(onHighlight.mock.calls).toEqual([['h1'], ['h1']]);
  });

  it('marks whole search words in any case, and the spoken sentence', () => {
    const text = 'The Creature, a creature; creatures and CREATURE.';
    const { container } = render(
      <PageText text={text} words={['creature']} speaking={{ start: 14, end: 24 }} />,
    );
    const words = [...container.querySelectorAll('mark')].map((mark) => mark.textContent);
    expect(words).toEqual(['Creature', 'creature', 'CREATURE']);
    const spoken = [...container.querySelectorAll('span')].map((span) => span.textContent).join('');
    expect(spoken).toBe('a creature');
    expect(container.textContent).toBe(text);
  });

  it('never renders page text as markup', () => {
    const hostile = '<img src=x onerror="alert(1)"> **<script>alert(2)</script>**\n# <b>head</b>';
    const { container } = render(
      <PageText
        text={hostile}
        words={['script', '<b>']}
        highlights={[{ id: 'x', start: 0, end: 9 }]}
      />,
    );
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    // The marked word splits the bold run into pieces; together they hold the text as given.
    expect([...container.querySelectorAll('strong')].map((bold) => bold.textContent).join('')).toBe(
      '<script>alert(2)</script>',
    );
    expect(container.querySelector('mark:not([data-highlight])')?.textContent).toBe('script');
  });
});
