import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PageText, parsePageText } from './page-text.tsx';

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

  it('renders real elements with **bold** as <strong>', () => {
    const { container } = render(<PageText text={'# Chapter\n\nA **bold** move.\n\n1. x\n- y'} />);
    expect(container.querySelector('h3')?.textContent).toBe('Chapter');
    expect(container.querySelector('p strong')?.textContent).toBe('bold');
    expect(container.querySelector('ol li')?.textContent).toBe('x');
    expect(container.querySelector('ul li')?.textContent).toBe('y');
  });

  it('never renders page text as markup', () => {
    const hostile = '<img src=x onerror="alert(1)"> **<script>alert(2)</script>**\n# <b>head</b>';
    const { container } = render(<PageText text={hostile} />);
    expect(container.querySelector('img, script, b')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">');
    expect(container.querySelector('strong')?.textContent).toBe('<script>alert(2)</script>');
  });
});
