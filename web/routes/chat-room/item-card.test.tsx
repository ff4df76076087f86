import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ItemCard } from '#contract/http/item-cards.ts';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { mockApi, testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import { RoomItemCard } from './item-card.tsx';
import { MessageList } from './message-list.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

const BOOK = '0b6a7e4e-2f1c-4d5e-9a1b-1c2d3e4f5a6b';
const PAPER = '1c7b8f5f-3a2d-4e6f-8b2c-2d3e4f5a6b7c';

const CARDS: Record<string, ItemCard> = {
  [BOOK]: {
    id: BOOK,
    type: 'book',
    title: 'Great Expectations',
    authors: ['Charles Dickens'],
    availability: { itemId: BOOK, total: 3, available: 2, queue: 0 },
  },
  [PAPER]: {
    id: PAPER,
    type: 'paper',
    title: 'On Computable Numbers',
    authors: ['Alan Turing'],
    availability: { itemId: PAPER, total: 0, available: 0, queue: 0 },
  },
};

const message = (id: string, content: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  room: 'Physics 101',
  sender: 'Grace',
  senderId: 'user-2',
  content,
  time: '2026-03-02T10:15:00.000Z',
  isSystemMessage: false,
  ...extra,
});

function show(messages: ChatMessage[]) {
  return renderChatScreen(
    <MessageList
      messages={messages}
      userId="user-1"
      loaded
      hasMore={false}
      loadingOlder={false}
      onLoadOlder={() => {}}
    />,
    { path: '/', pattern: '/', user: testUser({ chatUsername: 'Ada' }) },
  );
}

function cardsApi() {
  return mockApi({
    'GET /items/cards': (call) => ({
      body: {
        items: (call.search.get('ids') ?? '')
          .split(',')
          .flatMap((id) => (CARDS[id] ? [CARDS[id]] : [])),
      },
    }),
  });
}

beforeEach(() => fakeChat.reset());

describe('catalogue cards in messages', () => {
  it('fetches every card on the screen in one call and watches their items', async () => {
    const calls = cardsApi();
    show([
      message('1', `Try /userprofile/openlibrary?item=${BOOK} for Thursday`),
      message('2', `And ${window.location.origin}/userprofile/openlibrary?item=${PAPER}`),
      message('3', `Again: /userprofile/openlibrary?item=${BOOK}`),
    ]);
    const book = await screen.findAllByRole('article', { name: 'Great Expectations' });
    expect(book).toHaveLength(2);
    expect(within(book[0]!).getByText('2 of 3 copies free')).toBeTruthy();
    expect(
      within(book[0]!).getByRole('link', { name: 'Reserve a copy of Great Expectations' }),
    ).toBeTruthy();
    const paper = screen.getByRole('article', { name: 'On Computable Numbers' });
    expect(within(paper).getByText('Online')).toBeTruthy();
    expect(within(paper).queryByRole('link', { name: /Reserve/ })).toBeNull();
    expect(calls.filter((call) => call.path === '/items/cards')).toHaveLength(1);
    await waitFor(() =>
      expect(fakeChat.socket.emitted.filter((each) => each.event === 'watch_items')).toEqual([
        { event: 'watch_items', args: [{ itemIds: [BOOK, PAPER] }] },
      ]),
    );
  });

  it('changes the availability in place when the server says it changed', async () => {
    cardsApi();
    show([message('1', `/userprofile/openlibrary?item=${BOOK}`)]);
    const card = await screen.findByRole('article', { name: 'Great Expectations' });
    fakeChat.socket.serverEmit('item_availability', {
      itemId: BOOK,
      total: 3,
      available: 0,
      queue: 3,
    });
    // TanStack Query tells the card on its next tick.
    expect(await within(card).findByText('All 3 copies are out · 3 in the queue')).toBeTruthy();
    expect(
      within(card).getByRole('button', { name: 'Join the waiting list for Great Expectations' }),
    ).toBeTruthy();
  });

  it('shows no card for links to other sites, or under a hidden message', async () => {
    const calls = cardsApi();
    show([
      message('1', `https://elsewhere.example/userprofile/openlibrary?item=${BOOK}`),
      message('2', `/userprofile/openlibrary?item=${BOOK}`, {
        hidden: true,
        content: 'message removed by a moderator',
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(screen.queryByRole('article')).toBeNull();
    expect(calls).toHaveLength(0);
  });

  it('says so when the item is no longer in the catalogue', async () => {
    cardsApi();
    renderChatScreen(<RoomItemCard itemId="2d8c9a6a-4b3e-4f7a-9c3d-3e4f5a6b7c8d" />, {
      path: '/',
      pattern: '/',
      user: testUser({ chatUsername: 'Ada' }),
    });
    expect(await screen.findByText('This item is no longer in the catalogue.')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'The item this room discusses' })).toBeTruthy();
  });
});
