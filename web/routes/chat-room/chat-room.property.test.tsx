import { fireEvent } from '@testing-library/react';
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES, roomPath } from '#contract/routes.ts';
import {
  createRoomSchema,
  type ChatMessage,
  type RoomMetadata,
  type RoomSummary,
} from '#contract/socket/chat.ts';
import { testUser } from '../../test/api-mock.tsx';
import { fakeChat, renderChatScreen } from '../../test/fake-chat-socket.tsx';
import {
  assertRenders,
  expectInert,
  expectShown,
  hostileText,
  hostileWords,
} from '../../test/hostile-text.ts';
import { DiscussionForumPage } from '../discussion-forum/discussion-forum-page.tsx';
import { filterRooms } from '../discussion-forum/room-list.tsx';
import { ChatRoomPage } from './chat-room-page.tsx';
import { formatMessageTime } from './message-list.tsx';

vi.mock(
  '../../api/chat-socket.ts',
  async () => (await import('../../test/fake-chat-socket.tsx')).fakeChatSocketModule,
);

/*
 * The chat screens: the forum shows the person's chat name and every room's name, description
 * and creator, and turns a room name into the address of its room; a room shows its name (from
 * the address, then the server), each message's sender and text, and announces live messages.
 * Property: hostile names and messages show exactly as given, never as markup, and Join opens
 * the room's own path in the app.
 */

const ME = testUser({ id: 'user-1', chatUsername: 'Ada' });

/**
 * Room names the server accepts and stores: trimmed, 1 to 60 characters, no control character
 * and no lone surrogate (which it refuses as text it cannot store).
 */
const roomName = hostileWords.filter((name) => {
  const parsed = createRoomSchema.shape.roomName.safeParse(name);
  return parsed.success && parsed.data === name && !/[\uD800-\uDFFF]/u.test(name);
});

const message = (id: number, room: string): fc.Arbitrary<ChatMessage> =>
  fc.record({
    id: fc.constant(String(id)),
    room: fc.constant(room),
    sender: hostileWords,
    senderId: fc.constantFrom<string | null>('user-1', 'user-2', null),
    content: hostileText,
    time: fc.oneof(
      hostileText,
      fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
    ),
    isSystemMessage: fc.boolean(),
  });

const roomCase = roomName.chain((name) =>
  fc.record({
    name: fc.constant(name),
    history: fc
      .integer({ min: 0, max: 4 })
      .chain((count) => fc.tuple(...Array.from({ length: count }, (_, i) => message(i + 1, name)))),
    metadata: fc.record({
      roomName: fc.constant(name),
      creator: hostileWords,
      creatorId: fc.constantFrom('user-1', 'user-2'),
      abuseDetected: fc.constant(false),
    }) as fc.Arbitrary<RoomMetadata>,
    live: message(99, name).map((live) => ({ ...live, senderId: 'user-2' })),
  }),
);

const room = (index: number): fc.Arbitrary<RoomSummary> =>
  fc.record({
    // Unique names: the list is keyed by name, as the server keeps them unique.
    roomName: hostileWords.map((name) => `${name} #${index}`),
    description: hostileText,
    creator: hostileWords,
    creatorId: fc.constantFrom('user-1', 'user-2'),
    createdAt: fc.constant('2026-03-02T08:00:00.000Z'),
    memberCount: fc.nat(1_000),
    abuseDetected: fc.boolean(),
  });

const forumCase = fc.record({
  username: hostileWords,
  rooms: fc
    .integer({ min: 1, max: 4 })
    .chain((count) => fc.tuple(...Array.from({ length: count }, (_, index) => room(index)))),
  pick: fc.nat(),
});

/** The button of a room's row whose text starts with `label`. */
const button = (item: Element, label: string) =>
  [...item.querySelectorAll('button')].find((candidate) =>
    candidate.textContent?.startsWith(label),
  )!;

beforeEach(() => fakeChat.reset());

describe('chat room (fast-check)', () => {
  it('formats any message time without throwing: the time, or the text as it came', () => {
    fc.assert(
      fc.property(hostileText, (time) => {
        const shown = formatMessageTime(time);
        if (Number.isNaN(new Date(time).getTime())) expect(shown).toBe(time);
      }),
      { numRuns: 200 },
    );
  });

  it('shows hostile room names, senders and messages as text', async () => {
    await assertRenders(roomCase, ({ name, history, metadata, live }) => {
      fakeChat.reset();
      renderChatScreen(<ChatRoomPage />, {
        path: roomPath(name),
        pattern: ROUTES.chatRoom,
        user: ME,
      });
      // The address carried the name unchanged.
      expect(fakeChat.requestsOf('join_room')).toEqual([{ roomName: name }]);
      expect(document.querySelector('h1')?.textContent).toBe(`Chat Room: ${name}`);
      fakeChat.socket.serverEmit('room_history', history, { roomName: name, hasMore: false });
      fakeChat.socket.serverEmit('room_metadata', metadata);
      fakeChat.socket.serverEmit('receive_message', live);

      expect(document.querySelector('h1')?.textContent).toBe(`Chat Room: ${name}`);
      const list = document.querySelector('[aria-label="Messages"]')!;
      const items = list.querySelectorAll('li');
      expect(items).toHaveLength(history.length + 1);
      [...history, live].forEach((sent, index) => {
        const item = items[index]!;
        const mine = sent.senderId === ME.id;
        expectShown([mine ? 'You' : sent.sender, sent.content], item);
        expect(item.querySelector('p')?.textContent).toBe(sent.content);
      });
      const announced = document.querySelector('[aria-live="polite"]');
      expect(announced?.textContent).toBe(`${live.sender}: ${live.content}`);
      expect(document.title).toBe(`Chat Room: ${name} · Digi Library`);
      expectInert();
    });
  });
});

describe('discussion forum (fast-check)', () => {
  it('filters rooms by any query without throwing, keeping only rooms whose name holds it', () => {
    fc.assert(
      fc.property(fc.array(room(0), { maxLength: 5 }), hostileText, (rooms, query) => {
        const shown = filterRooms(rooms, query);
        for (const kept of shown)
          expect(kept.roomName.toLowerCase()).toContain(query.trim().toLowerCase());
        if (query.trim() === '') expect(shown).toEqual(rooms);
      }),
      { numRuns: 200 },
    );
  });

  it('shows hostile names, descriptions and creators as text, and Join opens the room’s path', async () => {
    await assertRenders(forumCase, ({ username, rooms, pick }) => {
      fakeChat.reset();
      const { router } = renderChatScreen(<DiscussionForumPage />, {
        path: ROUTES.discussionForum,
        pattern: ROUTES.discussionForum,
        user: testUser({ id: 'user-1', chatUsername: username }),
      });
      fakeChat.setRooms(rooms);
      const identity = [...document.querySelectorAll('p')].find((p) =>
        p.textContent?.startsWith('You chat as '),
      );
      expect(identity?.querySelector('strong')?.textContent).toBe(username);
      const items = document.querySelectorAll('section[aria-labelledby="rooms-title"] li');
      expect(items).toHaveLength(rooms.length);
      rooms.forEach((summary, index) => {
        const item = items[index]!;
        expect(item.querySelector('h3')?.textContent).toBe(summary.roomName);
        expectShown([summary.description, summary.creator], item);
      });
      expectInert();

      const chosen = rooms[pick % rooms.length]!;
      const item = items[pick % rooms.length]!;
      if (chosen.creatorId === 'user-1') {
        // The confirmation names the room as text too.
        fireEvent.click(button(item, 'Delete'));
        expectShown([`“${chosen.roomName}”`], document.querySelector('dialog[open]')!);
        expectInert();
      }
      fireEvent.click(button(item, 'Join'));
      expect(router.state.location.pathname).toBe(roomPath(chosen.roomName));
    });
  });
});
