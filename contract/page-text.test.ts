import { describe, expect, it } from 'vitest';
import {
  inlineRuns,
  pageHeadings,
  pagePlainText,
  pageSegments,
  parsePageText,
  plainLine,
} from './page-text.ts';

const PAGE = [
  '# Chapter **5**',
  '',
  'It was on a *dreary* night',
  'of _November_.',
  '',
  '1. first',
  '2) second',
  '- dash',
  '## Letter _IV_',
].join('\n');

describe('page text parser', () => {
  it('splits a line into plain, bold and italic runs, dropping the markers', () => {
    expect(inlineRuns('a **b** *c* _d_ e')).toEqual([
      { text: 'a ' },
      { text: 'b', bold: true },
      { text: ' ' },
      { text: 'c', italic: true },
      { text: ' ' },
      { text: 'd', italic: true },
      { text: ' e' },
    ]);
    expect(plainLine('a **b** *c* _d_ e')).toBe('a b c d e');
  });

  it('leaves snake_case, file names, lone stars and spaced stars untouched', () => {
    for (const text of ['snake_case_name', 'file_name.txt', '2 * 3 * 4', 'a * b', '**', '*', '_'])
      expect(plainLine(text)).toBe(text);
    expect(plainLine('__init__')).toBe('__init__');
  });

  it('reads headings, lists and paragraphs, joining a paragraph lines with a space', () => {
    expect(parsePageText(PAGE)).toEqual([
      { kind: 'heading', level: 1, text: 'Chapter **5**' },
      { kind: 'paragraph', text: 'It was on a *dreary* night of _November_.' },
      { kind: 'ordered', items: ['first', 'second'] },
      { kind: 'unordered', items: ['dash'] },
      { kind: 'heading', level: 2, text: 'Letter _IV_' },
    ]);
    expect(parsePageText('a\r\nb\r\rc')).toEqual([
      { kind: 'paragraph', text: 'a b' },
      { kind: 'paragraph', text: 'c' },
    ]);
  });

  it('gives each line its offset in the plain text, one line break between lines', () => {
    const plain = pagePlainText(PAGE);
    expect(plain).toBe(
      'Chapter 5\nIt was on a dreary night of November.\nfirst\nsecond\ndash\nLetter IV',
    );
    const segments = pageSegments(PAGE);
    expect(segments.map(({ block, item, text, start }) => ({ block, item, text, start }))).toEqual([
      { block: 0, item: 0, text: 'Chapter 5', start: 0 },
      { block: 1, item: 0, text: 'It was on a dreary night of November.', start: 10 },
      { block: 2, item: 0, text: 'first', start: 48 },
      { block: 2, item: 1, text: 'second', start: 54 },
      { block: 3, item: 0, text: 'dash', start: 61 },
      { block: 4, item: 0, text: 'Letter IV', start: 66 },
    ]);
    for (const segment of segments)
      expect(plain.slice(segment.start, segment.start + segment.text.length)).toBe(segment.text);
    expect(segments[1]?.source).toBe('It was on a *dreary* night of _November_.');
  });

  it('lists the headings as read, with their level', () => {
    expect(pageHeadings(PAGE)).toEqual([
      { level: 1, title: 'Chapter 5' },
      { level: 2, title: 'Letter IV' },
    ]);
    expect(pageHeadings('no headings here')).toEqual([]);
  });

  it('has no lines and no text for an empty page', () => {
    expect(pageSegments('')).toEqual([]);
    expect(pagePlainText('\n\n  \n')).toBe('');
  });

  it('never turns text into anything but text', () => {
    const hostile = '<script>alert(1)</script> **<b>x</b>**';
    expect(plainLine(hostile)).toBe('<script>alert(1)</script> <b>x</b>');
  });
});
