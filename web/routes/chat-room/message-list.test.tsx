import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { MessageList } from './message-list.tsx';

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

function show(messages: ChatMessage[]) {
  render(
    <MessageList
      messages={messages}
      userId="user-1"
      loaded
      hasMore={false}
      loadingOlder={false}
      onLoadOlder={() => {}}
    />,
  );
  return within(screen.getByRole('region', { name: 'Messages' })).getAllByRole('listitem');
}

describe('the message list', () => {
  it('badges a librarian’s messages "Staff" in words, beside the name, and no one else’s', () => {
    const [staff, student, own] = show([
      message('1', { sender: 'Desk Librarian', senderId: 'lib-1', isStaff: true }),
      // A name alone proves nothing: only the server's flag badges.
      message('2', { sender: 'Librarian99', senderId: 'user-3' }),
      message('3', { sender: 'Ada', senderId: 'user-1', isStaff: true }),
    ]);
    expect(within(staff!).getByText('Staff')).toBeTruthy();
    expect(staff!.textContent).toMatch(/^Desk LibrarianStaff/);
    expect(within(staff!).getByText('Staff').getAttribute('title')).toBe(
      'A member of the library staff',
    );
    expect(within(student!).queryByText('Staff')).toBeNull();
    // A librarian sees their own badge too, after 'You'.
    expect(own!.textContent).toMatch(/^YouStaff/);
  });
});
