import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { pagePlainText } from '#contract/page-text.ts';
import { PageText } from '../catalogue/page-text.tsx';
import { passageOfRange, passageOfSelection } from './selection.ts';

const PAGE = '# Chapter 5\n\nIt was on a **dreary** night of *November*.\n\n1. one\n2. two';
const PLAIN = pagePlainText(PAGE);

/** The page rendered in a box after a paragraph that is not part of it. */
function setup(highlights: { id: string; start: number; end: number }[] = []) {
  const { container } = render(
    <div>
      <p id="before">Outside the page</p>
      <div id="page">
        <PageText text={PAGE} highlights={highlights} />
      </div>
    </div>,
  );
  const root = container.querySelector('#page')!;
  return { root, container };
}

/** The text node under `element` that holds `text`, and where `text` starts in it. */
function at(element: Element, text: string): [Node, number] {
  const walker = element.ownerDocument.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const index = node.textContent?.indexOf(text) ?? -1;
    if (index >= 0) return [node, index];
  }
  throw new Error(`no text ${text}`);
}

function range(start: [Node, number], end: [Node, number]): Range {
  const result = document.createRange();
  result.setStart(...start);
  result.setEnd(...end);
  return result;
}

describe('selection to a passage', () => {
  it('maps a selection inside one line, across bold, to plain-text offsets', () => {
    const { root } = setup();
    const [from, fromOffset] = at(root, 'a ');
    const [to] = at(root, ' night');
    const passage = passageOfRange(root, range([from, fromOffset], [to, 6]), PLAIN);
    expect(passage).toEqual({
      start: PLAIN.indexOf('a dreary'),
      end: PLAIN.indexOf(' of'),
      quote: 'a dreary night',
    });
  });

  it('keeps the line break between lines and trims spaces at both ends', () => {
    const { root } = setup();
    const [from, fromOffset] = at(root, ' 5');
    const [to, toOffset] = at(root, ' was');
    const passage = passageOfRange(root, range([from, fromOffset], [to, toOffset + 1]), PLAIN);
    expect(passage).toEqual({ start: 8, end: PLAIN.indexOf(' was'), quote: '5\nIt' });
  });

  it('counts text inside highlights the same as plain text', () => {
    const { root } = setup([{ id: 'h', start: 10, end: 20 }]);
    const [from] = at(root, 'was');
    const [to, toOffset] = at(root, 'on ');
    const passage = passageOfRange(root, range([from, 3], [to, toOffset + 2]), PLAIN);
    expect(passage?.quote).toBe('was on');
    expect(PLAIN.slice(passage!.start, passage!.end)).toBe('was on');
  });

  it('takes a boundary between lines as the next line start or the previous line end', () => {
    const { root } = setup();
    const list = root.querySelector('ol')!;
    const passage = passageOfRange(root, range([list, 0], [list, 2]), PLAIN);
    expect(passage?.quote).toBe('one\ntwo');
    const whole = passageOfRange(root, range([root, 0], [root, root.childNodes.length]), PLAIN);
    expect(whole).toEqual({ start: 0, end: PLAIN.length, quote: PLAIN });
  });

  it('cuts a selection that starts outside the page at its edge', () => {
    const { root, container } = setup();
    const [to, toOffset] = at(root, 'Chapter');
    const passage = passageOfRange(
      root,
      range([container.querySelector('#before')!.firstChild!, 0], [to, toOffset + 7]),
      PLAIN,
    );
    expect(passage).toEqual({ start: 0, end: 7, quote: 'Chapter' });
  });

  it('has no passage for nothing, spaces only, or a selection elsewhere', () => {
    const { root, container } = setup();
    const [node, offset] = at(root, 'It');
    expect(passageOfRange(root, range([node, offset], [node, offset]), PLAIN)).toBeNull();
    const [space] = at(root, 'a ');
    const spaceAt = (space.textContent ?? '').indexOf(' ', (space.textContent ?? '').indexOf('a '));
    expect(passageOfRange(root, range([space, spaceAt], [space, spaceAt + 1]), PLAIN)).toBeNull();
    const outside = container.querySelector('#before')!.firstChild!;
    expect(passageOfRange(root, range([outside, 0], [outside, 7]), PLAIN)).toBeNull();
    expect(passageOfSelection(root, null, PLAIN)).toBeNull();
  });

  it('reads the document selection', () => {
    const { root } = setup();
    const [node, offset] = at(root, 'night');
    const selection = window.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range([node, offset], [node, offset + 5]));
    expect(passageOfSelection(root, selection, PLAIN)?.quote).toBe('night');
    selection.removeAllRanges();
  });
});
