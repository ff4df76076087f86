import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { compareMessageIds } from '../../api/chat-room.ts';
import { mentionParts } from './mention-text.tsx';
import { MessageList } from './message-list.tsx';
import { firstUnreadId } from './new-messages-divider.tsx';
import { mustSeek } from './use-seek-unread.ts';

/*
 * "New messages" (decision 042): a line above the first message someone else sent after the
 * person's read marker, said to screen readers with the count; and a mention of the reader
 * highlighted, in words as well as colour.
 */

const message = (id: string, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  room: 'Physics 101',
  sender: 'Grace',
  senderId: 'user-2',
  content: `Message ${id}`,
  time: '2026-03-02T10:15:00.000Z',
  isSystemMessage: false,
  ...overrides,
});

function show(messages: ChatMessage[], lastReadId: string | null, onReadTo = vi.fn()) {
  render(
    <MessageList
      messages={messages}
      userId="user-1"
      loaded
      hasMore={false}
      loadingOlder={false}
      onLoadOlder={() => {}}
      lastReadId={lastReadId}
      onReadTo={onReadTo}
    />,
  );
  return within(screen.getByRole('region', { name: 'Messages' })).getAllByRole('listitem');
}

describe('the "New messages" line', () => {
  it('goes above the first unread message of someone else, and says how many', () => {
    const items = show(
      [
        message('8'),
        message('9'),
        message('10', { senderId: 'user-1', sender: 'Ada' }),
        message('11'),
        message('12'),
      ],
      '9',
    );
    expect(items.map((item) => item.textContent?.startsWith('New messages'))).toEqual([
      false,
      false,
      false,
      true,
      false,
      false,
    ]);
    expect(items[4]!.textContent).toContain('Message 11');
    expect(screen.getByRole('status').textContent).toBe(
      '2 new messages since you last read this room.',
    );
  });

  it('is not drawn on a first visit, nor when everything was read', () => {
    show([message('1'), message('2')], null);
    expect(screen.queryByText('New messages')).toBeNull();
    expect(firstUnreadId([message('1'), message('2')], '2', 'user-1', compareMessageIds)).toBe(
      undefined,
    );
    // Ids compare as numbers: 10 comes after 9.
    expect(firstUnreadId([message('9'), message('10')], '9', 'user-1', compareMessageIds)).toBe(
      '10',
    );
  });

  it('tells that the newest message was read while the reader is at the bottom', () => {
    const onReadTo = vi.fn();
    show([message('1'), message('2')], '1', onReadTo);
    expect(onReadTo).toHaveBeenCalledWith('2');
  });
});

describe('a mention', () => {
  it('highlights the message and the @name of the reader, in words too', () => {
    const [mine, other] = show(
      [
        message('1', {
          content: 'hey @ada and @Grace, look',
          mentions: [
            { userId: 'user-1', name: 'Ada' },
            { userId: 'user-3', name: 'Grace' },
          ],
        }),
        message('2', {
          content: 'just @Grace',
          mentions: [{ userId: 'user-3', name: 'Grace' }],
        }),
      ],
      null,
    );
    expect(mine!.hasAttribute('data-mentions-me')).toBe(true);
    expect(mine!.textContent).toContain('@ada (mentions you)');
    expect(other!.hasAttribute('data-mentions-me')).toBe(false);
    expect(other!.textContent).not.toContain('mentions you');
  });

  it('splits text and names, longest first, ignoring case', () => {
    expect(
      mentionParts('to @Ada Lovelace, not @ada', [
        { userId: 'a', name: 'Ada' },
        { userId: 'b', name: 'Ada Lovelace' },
      ]).map((part) => [part.text, part.mention?.userId]),
    ).toEqual([
      ['to ', undefined],
      ['@Ada Lovelace', 'b'],
      [', not ', undefined],
      ['@ada', 'a'],
    ]);
  });
});

describe('reaching the first unread or linked message', () => {
  const page = (from: number, count: number) =>
    Array.from({ length: count }, (_, index) => message(String(from + index)));
  const room = (messages: ChatMessage[], hasMore = true) => ({ loaded: true, hasMore, messages });

  it('loads older pages while the place to open at is older than everything held', () => {
    expect(mustSeek(room(page(500, 100)), { lastReadId: '300' })).toBe(true);
    expect(mustSeek(room(page(500, 100)), { lastReadId: '520' })).toBe(false);
    expect(mustSeek(room(page(500, 100)), { focusId: '42', lastReadId: null })).toBe(true);
    expect(mustSeek(room(page(500, 100)), { focusId: '550', lastReadId: null })).toBe(false);
    // Nothing older, or enough pages already: open where it can.
    expect(mustSeek(room(page(500, 100), false), { lastReadId: '300' })).toBe(false);
    expect(mustSeek(room(page(10, 600)), { lastReadId: '1' })).toBe(false);
  });
});
