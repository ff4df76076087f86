import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModerationQueue } from '#contract/http/moderation.ts';
import type { ChatMessage } from '#contract/socket/chat.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { actionRequest, DeskModerationPage } from './desk-moderation-page.tsx';

const message = (id: number, content: string, sender = 'Alan'): ChatMessage => ({
  id: String(id),
  room: 'Physics',
  sender,
  senderId: `user-${sender}`,
  content,
  time: '2026-11-26T10:00:00.000Z',
  isSystemMessage: false,
});

const QUEUE: ModerationQueue = {
  reports: [
    {
      message: message(7, 'buy essays here'),
      roomName: 'Physics',
      reporterCount: 2,
      reasons: { spam: 2 },
      notes: ['ads again'],
      firstReportedAt: '2026-11-26T10:01:00.000Z',
      before: [2, 3, 4, 5, 6].map((n) => message(n, `before ${n}`, 'Ada')),
      after: [8, 9, 10, 11, 12].map((n) => message(n, `after ${n}`, 'Ada')),
    },
  ],
  hidden: [],
  history: [],
};

describe('/desk/moderation', () => {
  it('shows a reported message in context, with the count and the room, and mutes its sender', async () => {
    const calls = mockApi({
      'GET /moderation/queue': () => ({ body: QUEUE }),
      'POST /moderation/actions': () => ({
        body: {
          action: {
            id: '1',
            actor: 'Desk',
            action: 'mute',
            target: 'Alan',
            roomName: 'Physics',
            messageId: '7',
            scope: 'room',
            reason: 'Spam.',
            createdAt: '2026-11-26T10:05:00.000Z',
            endsAt: '2026-11-26T10:15:00.000Z',
          },
        },
      }),
    });
    renderScreen(<DeskModerationPage />, '/desk/moderation', testUser({ role: 'librarian' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Moderation' })).toBeTruthy();
    const card = (
      await screen.findByRole('heading', { name: /2 reports in “Physics”: Alan/ })
    ).closest('li')!;
    const context = within(card).getByRole('list', {
      name: 'The message with five before and after',
    });
    expect(within(context).getAllByRole('listitem')).toHaveLength(11);
    expect(within(card).getByText(/Reasons: Spam 2/)).toBeTruthy();
    expect(within(card).getByText('Note: ads again')).toBeTruthy();

    // A reason is required: the person affected reads it.
    fireEvent.click(within(card).getByRole('button', { name: 'Apply' }));
    expect(await within(card).findByText(/Please give a reason/)).toBeTruthy();

    fireEvent.change(within(card).getByLabelText('Action'), { target: { value: 'mute-room' } });
    fireEvent.change(within(card).getByLabelText('For how long'), { target: { value: '10m' } });
    fireEvent.change(within(card).getByLabelText(/Reason/), { target: { value: 'Spam.' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        messageId: '7',
        action: 'mute',
        scope: 'room',
        duration: '10m',
        reason: 'Spam.',
      }),
    );
  });

  it('turns each menu choice into its request', () => {
    expect(actionRequest('1', 'dismiss', 'ok', '1h')).toEqual({
      messageId: '1',
      action: 'dismiss',
      reason: 'ok',
    });
    expect(actionRequest('1', 'mute-everywhere', 'r', '1d')).toEqual({
      messageId: '1',
      action: 'mute',
      scope: 'everywhere',
      duration: '1d',
      reason: 'r',
    });
    expect(actionRequest('1', 'remove', 'r', '1h')).toEqual({
      messageId: '1',
      action: 'remove',
      duration: '1h',
      reason: 'r',
    });
    expect(actionRequest('1', 'restore', 'r', '1h')).toEqual({
      messageId: '1',
      action: 'restore',
      reason: 'r',
    });
  });
});
