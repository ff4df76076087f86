import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  THREADS_TEXT,
  type Ack,
  type ChatMessage,
  type ReactionsBatch,
  type ReactionsChanged,
} from '#contract/socket/chat.ts';
import type * as ThreadsModule from '../../api/chat-threads.ts';
import {
  applyReactions,
  applyReactionsBatch,
  refreshQuotes,
  withHeldReactions,
} from '../../api/chat-threads.ts';
import { MessageList } from './message-list.tsx';
import { reactedBy } from './reactions.tsx';
import { JUMP_NOT_FOUND, useThreads } from './use-threads.tsx';

const requests = {
  edit: vi.fn(async () => ({ ok: true as const })),
  remove: vi.fn(async () => ({ ok: true as const })),
  react: vi.fn(async (): Promise<Ack> => ({ ok: true })),
};
/** What the room's screen hears of this tab's own toggles (the acknowledgement's `reaction`). */
const onReacted = vi.fn();
vi.mock('../../api/chat-threads.ts', async (original) => ({
  ...(await original<typeof ThreadsModule>()),
  useThreadRequests: () => requests,
}));

const message = (id: string, overrides: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  room: 'Physics 101',
  sender: 'Grace',
  senderId: 'user-2',
  content: `Message ${id}`,
  time: new Date().toISOString(),
  isSystemMessage: false,
  ...overrides,
});

/** The room's list with the threads' slots, as the room's screen wires them. */
function Room({
  messages,
  hasMore = false,
  loadOlder = () => {},
}: {
  messages: ChatMessage[];
  hasMore?: boolean;
  loadOlder?: () => void;
}) {
  const threads = useThreads({
    roomName: 'Physics 101',
    userId: 'user-1',
    messages,
    hasMore,
    loadingOlder: false,
    loadOlder,
    onReacted,
    disabled: false,
  });
  return (
    <>
      <p role="alert">{threads.error}</p>
      <MessageList
        messages={messages}
        userId="user-1"
        loaded
        hasMore={hasMore}
        loadingOlder={false}
        onLoadOlder={loadOlder}
        threads={threads.slots}
      />
      <div data-composer onKeyDown={threads.onComposerKeyDown}>
        {threads.banner}
        <textarea aria-label="Message" />
        <output data-testid="reply-to">{threads.replyTo ?? ''}</output>
      </div>
      {threads.dialogs}
    </>
  );
}

/** A room whose older pages each bring one message, and none after `pages` of them. */
function PagedRoom({ pages, onPage }: { pages: number; onPage: () => void }) {
  const [messages, setMessages] = useState([
    message('50', { replyTo: { id: '1', sender: 'Grace', excerpt: 'Message 1' } }),
  ]);
  const loaded = messages.length - 1;
  return (
    <Room
      messages={messages}
      hasMore={loaded < pages}
      loadOlder={() => {
        onPage();
        setMessages((held) => [message(String(40 - held.length)), ...held]);
      }}
    />
  );
}

beforeEach(() => {
  for (const fn of Object.values(requests)) fn.mockClear();
  // jsdom lays nothing out.
  Element.prototype.scrollIntoView = vi.fn();
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

describe('replies, reactions, edits and deletions in the browser', () => {
  it('keeps held reactions through an edit, drops them on deletion, and refreshes quotes', () => {
    const held = message('1', { reactions: [{ emoji: '👍', count: 1, names: ['Ada'] }] });
    const edited = message('1', { content: 'Changed', editedAt: '2026-11-26T10:00:00.000Z' });
    expect(withHeldReactions(held, edited).reactions).toEqual(held.reactions);
    const deleted = message('1', { content: THREADS_TEXT.deleted, deleted: true });
    expect(withHeldReactions(held, deleted).reactions).toBeUndefined();
    expect(withHeldReactions(held, { ...edited, reactions: [] }).reactions).toBeUndefined();
    const reply = message('2', { replyTo: { id: '1', sender: 'Grace', excerpt: 'Message 1' } });
    expect(refreshQuotes([held, reply], edited)[1]!.replyTo).toEqual({
      id: '1',
      sender: 'Grace',
      excerpt: 'Changed',
    });
    expect(refreshQuotes([held, reply], deleted)[1]!.replyTo).toEqual({
      id: '1',
      sender: 'Grace',
      excerpt: '',
      deleted: true,
    });
  });

  it('keeps "mine" per person from who toggled', () => {
    const held = [
      message('1', { reactions: [{ emoji: '🎉', count: 1, names: ['Me'], mine: true }] }),
    ];
    const change: ReactionsChanged = {
      roomName: 'Physics 101',
      messageId: '1',
      reactions: [
        { emoji: '👍', count: 1, names: ['Grace'] },
        { emoji: '🎉', count: 1, names: ['Me'] },
      ],
      by: 'user-2',
      emoji: '👍',
      added: true,
    };
    expect(applyReactions(held, change, 'user-1')[0]!.reactions).toEqual([
      { emoji: '👍', count: 1, names: ['Grace'], mine: false },
      { emoji: '🎉', count: 1, names: ['Me'], mine: true },
    ]);
    const mine = applyReactions(held, { ...change, by: 'user-1' }, 'user-1');
    expect(mine[0]!.reactions![0]).toMatchObject({ emoji: '👍', mine: true });
    expect(reactedBy({ emoji: '👍', count: 5, names: ['Ada', 'Alan'] })).toBe(
      'Ada, Alan and 3 others',
    );
    expect(reactedBy({ emoji: '👍', count: 10, names: ['Ada', 'Alan', 'Grace'] })).toBe(
      'Ada, Alan, Grace and 7 others',
    );
    expect(reactedBy({ emoji: '👍', count: 4, names: ['Ada', 'Alan', 'Grace'] })).toBe(
      'Ada, Alan, Grace and 1 other',
    );
  });

  it('takes a room’s batch of counts without changing "mine"', () => {
    const held = [
      message('1', { reactions: [{ emoji: '🎉', count: 1, names: ['Me'], mine: true }] }),
      message('2'),
      message('3', { deleted: true }),
    ];
    const batch: ReactionsBatch = {
      roomName: 'Physics 101',
      messages: [
        // Read just before this person's own 🎉: it stays, theirs, until the next batch.
        { messageId: '1', reactions: [{ emoji: '👍', count: 3, names: ['Grace', 'Ada', 'Bo'] }] },
        { messageId: '2', reactions: [{ emoji: '❤️', count: 1, names: ['Grace'] }] },
        { messageId: '3', reactions: [{ emoji: '❤️', count: 1, names: ['Grace'] }] },
      ],
    };
    const next = applyReactionsBatch(held, batch);
    expect(next[0]!.reactions).toEqual([
      { emoji: '👍', count: 3, names: ['Grace', 'Ada', 'Bo'], mine: false },
      { emoji: '🎉', count: 1, names: ['Me'], mine: true },
    ]);
    expect(next[1]!.reactions).toEqual([{ emoji: '❤️', count: 1, names: ['Grace'], mine: false }]);
    expect(next[2]!.reactions).toBeUndefined();
    // None left: the message holds none.
    const none = applyReactionsBatch(next, {
      roomName: 'Physics 101',
      messages: [{ messageId: '2', reactions: [] }],
    });
    expect(none[1]!.reactions).toBeUndefined();
    expect(applyReactionsBatch(held, { roomName: 'Physics 101', messages: [] })).toBe(held);
  });

  it('replies with a banner that Escape cancels', () => {
    render(<Room messages={[message('1')]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Reply to the message from Grace' }));
    expect(screen.getByText(/Replying to/).textContent).toContain('Replying to Grace');
    expect(screen.getByTestId('reply-to').textContent).toBe('1');
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Escape' });
    expect(screen.queryByText(/Replying to/)).toBeNull();
    expect(screen.getByTestId('reply-to').textContent).toBe('');
  });

  it('opens the reaction picker with the focus in it, reacts, and closes on Escape', async () => {
    render(
      <Room
        messages={[
          message('1', {
            reactions: [{ emoji: '👍', count: 2, names: ['Ada', 'Alan'], mine: true }],
          }),
        ]}
      />,
    );
    const count = screen.getByRole('button', { name: /^thumbs up, 2: Ada and Alan/ });
    expect(count.getAttribute('aria-pressed')).toBe('true');
    const open = screen.getByRole('button', { name: 'React to the message from Grace' });
    fireEvent.click(open);
    const picker = screen.getByRole('group', { name: 'Choose a reaction' });
    expect(document.activeElement).toBe(within(picker).getByRole('button', { name: 'thumbs up' }));
    fireEvent.keyDown(picker, { key: 'Escape' });
    expect(screen.queryByRole('group', { name: 'Choose a reaction' })).toBeNull();
    expect(document.activeElement).toBe(open);
    fireEvent.click(open);
    const reaction: ReactionsChanged = {
      roomName: 'Physics 101',
      messageId: '1',
      reactions: [{ emoji: '🎉', count: 1, names: ['Me'] }],
      by: 'user-1',
      emoji: '🎉',
      added: true,
    };
    requests.react.mockResolvedValueOnce({ ok: true, reaction });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'party' }));
    });
    expect(requests.react).toHaveBeenCalledWith('1', '🎉');
    // The acknowledgement carries the toggle: the room applies it without a second frame.
    expect(onReacted).toHaveBeenCalledWith(reaction);
  });

  it('offers Edit and Delete on one’s own message within the window only', async () => {
    render(
      <Room
        messages={[
          message('1', { senderId: 'user-1', sender: 'Me' }),
          message('2', {
            senderId: 'user-1',
            sender: 'Me',
            time: new Date(Date.now() - 11 * 60_000).toISOString(),
          }),
          message('3'),
          message('4', { senderId: 'user-1', sender: 'Me', editedAt: new Date().toISOString() }),
        ]}
      />,
    );
    const [recent, old, others, edited] = within(
      screen.getByRole('region', { name: 'Messages' }),
    ).getAllByRole('listitem');
    expect(within(recent!).queryByRole('button', { name: 'Edit your message' })).not.toBeNull();
    expect(within(old!).queryByRole('button', { name: 'Edit your message' })).toBeNull();
    expect(within(others!).queryByRole('button', { name: 'Delete your message' })).toBeNull();
    expect(within(edited!).getByText(THREADS_TEXT.edited)).toBeTruthy();
    fireEvent.click(within(recent!).getByRole('button', { name: 'Edit your message' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Your message' }), {
      target: { value: 'Message 1, better' },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(requests.edit).toHaveBeenCalledWith('1', 'Message 1, better');
    fireEvent.click(within(recent!).getByRole('button', { name: 'Delete your message' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    });
    expect(requests.remove).toHaveBeenCalledWith('1');
  });

  it('jumps to a quoted message held, and loads older pages (bounded) for one that is not', async () => {
    const quote = { id: '1', sender: 'Grace', excerpt: 'Message 1' };
    const { unmount } = render(
      <Room messages={[message('1'), message('2', { replyTo: quote })]} />,
    );
    fireEvent.click(screen.getByRole('button', { name: /^Replying to Grace: Message 1/ }));
    const original = document.querySelector('[data-message-id="1"]');
    expect(document.activeElement).toBe(original);
    unmount();

    const onPage = vi.fn();
    render(<PagedRoom pages={3} onPage={onPage} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /^Replying to Grace/ }));
    });
    // One page at a time until there is none; the original is not among them.
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(JUMP_NOT_FOUND));
    expect(onPage).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('alert').textContent).toBe(JUMP_NOT_FOUND);
  });
});
