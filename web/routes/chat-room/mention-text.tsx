import type { Mention } from '#contract/socket/chat.ts';
import styles from './attention.module.css';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');

/**
 * Splits `content` into text and the `@name`s of `mentions` (ignoring case), in order. Exported
 * for tests.
 */
export function mentionParts(
  content: string,
  mentions: readonly Mention[],
): { text: string; mention?: Mention }[] {
  if (mentions.length === 0) return [{ text: content }];
  // Longest first, so '@Ada Lovelace' is not cut at '@Ada'.
  const names = [...mentions].sort((a, b) => b.name.length - a.name.length);
  const pattern = new RegExp(`@(${names.map((m) => escape(m.name)).join('|')})`, 'giu');
  const parts: { text: string; mention?: Mention }[] = [];
  let last = 0;
  for (const match of content.matchAll(pattern)) {
    const mention = names.find((m) => m.name.toLowerCase() === match[1]!.toLowerCase());
    if (!mention) continue;
    if (match.index > last) parts.push({ text: content.slice(last, match.index) });
    parts.push({ text: match[0], mention });
    last = match.index + match[0].length;
  }
  if (last < content.length) parts.push({ text: content.slice(last) });
  return parts;
}

/**
 * A message's text with its mentions styled (decision 042); the reader's own stands out more
 * and says so to screen readers. Text only, never HTML.
 */
export function MentionText({
  content,
  mentions,
  userId,
}: {
  content: string;
  mentions: readonly Mention[];
  userId: string;
}) {
  return (
    <>
      {mentionParts(content, mentions).map((part, index) =>
        part.mention ? (
          <span
            key={index}
            className={part.mention.userId === userId ? styles.mentionMe : styles.mention}
          >
            {part.text}
            {part.mention.userId === userId ? (
              <span className="visually-hidden"> (mentions you)</span>
            ) : null}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/** True when `mentions` names `userId`: the message is highlighted for them. */
export const mentionsUser = (mentions: readonly Mention[] | undefined, userId: string) =>
  mentions?.some((mention) => mention.userId === userId) ?? false;
