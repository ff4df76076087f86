import { type ReactNode } from 'react';

/** A block of page text: a heading, a list, or a paragraph. */
export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; text: string }
  | { kind: 'ordered' | 'unordered'; items: string[] }
  | { kind: 'paragraph'; text: string };

/**
 * Parses the viewer's small markup: `#`, `##`, `###` heading lines, `1.` numbered and `-` (or `*`)
 * list lines, and paragraphs separated by blank lines. Everything else is text.
 */
export function parsePageText(text: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const ordered = /^\d+[.)]\s+(.*)$/.exec(line);
    const unordered = /^[-*•]\s+(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, text: heading[2]! });
    } else if (ordered || unordered) {
      flush();
      const kind = ordered ? 'ordered' : 'unordered';
      const item = (ordered ?? unordered)![1]!;
      const last = blocks.at(-1);
      if (last && last.kind === kind) last.items.push(item);
      else blocks.push({ kind, items: [item] });
    } else {
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}

/** Text with `**bold**` spans as real `<strong>` elements; nothing is ever parsed as HTML. */
export function InlineText({ text }: { text: string }) {
  const parts: ReactNode[] = [];
  const pattern = /\*\*(.+?)\*\*/g;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push(<strong key={match.index}>{match[1]}</strong>);
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <>{parts}</>;
}

/**
 * One page of a held text rendered as elements. Page headings start at h3, below the screen's
 * own h1 and the book's h2, so the document outline stays right.
 */
export function PageText({ text }: { text: string }) {
  return (
    <>
      {parsePageText(text).map((block, index) => {
        if (block.kind === 'heading') {
          const Tag = (['h3', 'h4', 'h5'] as const)[block.level - 1]!;
          return (
            <Tag key={index}>
              <InlineText text={block.text} />
            </Tag>
          );
        }
        if (block.kind === 'paragraph') {
          return (
            <p key={index}>
              <InlineText text={block.text} />
            </p>
          );
        }
        const List = block.kind === 'ordered' ? 'ol' : 'ul';
        return (
          <List key={index}>
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex}>
                <InlineText text={item} />
              </li>
            ))}
          </List>
        );
      })}
    </>
  );
}
