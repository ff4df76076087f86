import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { DeskReservation } from '#contract/http/reservations.ts';
import { RESERVATION_TIME_SLOTS } from '#contract/limits.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { LibraryDeskPage } from './library-desk-page.tsx';

const ACTIVE: DeskReservation = {
  reservationId: 'RES-0042',
  status: 'active',
  date: '2026-03-02',
  formattedDate: 'Monday, March 2',
  timeSlot: '9:00-9:30 AM',
  slotStartsAt: '2026-03-02T09:00:00.000Z',
  expiresAt: '2026-03-03T09:00:00.000Z',
  createdAt: '2026-03-01T08:00:00.000Z',
  book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', genre: 'SF', coverImage: '' },
  holder: { name: 'Ada Lovelace', email: 'ada@example.edu', phoneNumber: '+44 20 7946 0000' },
};

function pickups(date: string) {
  return {
    date,
    formattedDate: 'Monday, March 2',
    slots: RESERVATION_TIME_SLOTS.map((timeSlot, index) => ({
      timeSlot,
      reservations: index === 0 ? [ACTIVE] : [],
    })),
    onLoan: [{ ...ACTIVE, reservationId: 'RES-0007', status: 'collected' as const }],
  };
}

describe('library desk', () => {
  it('shows the day by slot, marks a pickup and a return, and changes day', async () => {
    const calls = mockApi({
      'GET /desk/pickups': (call) => ({ body: pickups(call.search.get('date') ?? '2026-03-02') }),
      'PATCH /desk/reservations/RES-0042': () => ({
        body: { success: true, reservation: { ...ACTIVE, status: 'collected' } },
      }),
    });
    renderScreen(<LibraryDeskPage />, '/desk', testUser({ role: 'librarian' }));
    expect(screen.getByRole('heading', { level: 1, name: 'Library desk' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: '9:00-9:30 AM' })).toBeTruthy();
    expect((screen.getByLabelText('Date') as HTMLInputElement).value).toBe('2026-03-02');
    expect(screen.getAllByText('No reservations in this slot.')).toHaveLength(4);
    expect(screen.getAllByRole('link', { name: 'ada@example.edu' })).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'On loan' })).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Mark returned/ })).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: /^Mark collected/ }));
    expect(await screen.findByText('“Dune” for Ada Lovelace: collected.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ status: 'collected' });

    fireEvent.change(screen.getByLabelText('Date'), { target: { value: '2026-03-03' } });
    await waitFor(() => expect(calls.at(-1)?.search.get('date')).toBe('2026-03-03'));
  });
});
