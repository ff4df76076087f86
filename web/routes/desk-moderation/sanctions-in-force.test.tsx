import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModerationQueue } from '#contract/http/moderation.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { DeskModerationPage } from './desk-moderation-page.tsx';
import { sanctionWhat } from './sanctions-in-force.tsx';

/* Ending a mute or removal early from the queue (decision 044). */

const QUEUE: ModerationQueue = {
  reports: [],
  hidden: [],
  history: [],
  sanctions: [
    {
      id: '4',
      kind: 'mute',
      person: 'Alan',
      roomName: 'Physics',
      reason: 'Be civil.',
      endsAt: '2026-11-26T11:00:00.000Z',
    },
  ],
};

describe('mutes and removals in force', () => {
  it('lists each with its reason and end, and ends one early with a reason', async () => {
    const calls = mockApi({
      'GET /moderation/queue': () => ({ body: QUEUE }),
      'POST /moderation/sanctions/4/end': () => ({
        body: {
          action: {
            id: '9',
            actor: 'Desk',
            action: 'lift',
            target: 'Alan',
            roomName: 'Physics',
            messageId: null,
            scope: 'room',
            reason: 'Apologised.',
            createdAt: '2026-11-26T10:30:00.000Z',
            endsAt: '2026-11-26T10:30:00.000Z',
          },
        },
      }),
    });
    renderScreen(<DeskModerationPage />, '/desk/moderation', testUser({ role: 'librarian' }));
    const item = (await screen.findByRole('heading', { name: 'Alan: Muted in “Physics”' })).closest(
      'li',
    )!;
    expect(within(item).getByText(/Reason: Be civil\./)).toBeTruthy();
    fireEvent.click(within(item).getByRole('button', { name: 'End the mute now' }));
    expect(await within(item).findByText(/Please give a reason/)).toBeTruthy();
    fireEvent.change(within(item).getByLabelText(/Why end it early/), {
      target: { value: 'Apologised.' },
    });
    fireEvent.click(within(item).getByRole('button', { name: 'End the mute now' }));
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
        reason: 'Apologised.',
      }),
    );
  });

  it('says where each applies', () => {
    const base = QUEUE.sanctions![0]!;
    expect(sanctionWhat({ ...base, roomName: null })).toBe('Muted everywhere');
    expect(sanctionWhat({ ...base, kind: 'remove' })).toBe('Removed from “Physics”');
  });
});
