import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { StudentHomePage } from './student-home-page.tsx';

const WAITING = /waiting for a librarian’s approval/;

describe('the student home', () => {
  it('tells a faculty sign-up waiting for approval that it is one, and nobody else', async () => {
    mockApi({
      'GET /users/reservations': () => ({ body: { payload: [] } }),
      'GET /users/requests': () => ({ body: { payload: [] } }),
    });
    renderScreen(<StudentHomePage />, '/userprofile', testUser({ facultyRequest: 'waiting' }));
    const notice = await screen.findByText(WAITING);
    expect(notice.getAttribute('role')).toBe('status');
  });

  it('shows no such notice to a student', async () => {
    mockApi({
      'GET /users/reservations': () => ({ body: { payload: [] } }),
      'GET /users/requests': () => ({ body: { payload: [] } }),
    });
    renderScreen(<StudentHomePage />, '/userprofile', testUser());
    await screen.findByRole('heading', { name: /Welcome/ });
    expect(screen.queryByText(WAITING)).toBeNull();
  });

  it('shows the student’s loans first, above the reservations', async () => {
    mockApi({
      'GET /users/loans': () => ({
        body: {
          payload: [
            {
              loanId: 'LOAN-1',
              status: 'on_loan',
              checkedOutAt: '2026-03-01T09:00:00.000Z',
              dueAt: '2026-03-04T09:00:00.000Z',
              overdue: true,
              renewals: 0,
              renewalsLeft: 2,
              renewBlockedBecause: null,
              returnedAt: null,
              reservationId: null,
              copy: { barcode: 'DL-0001', location: '' },
              book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', coverImage: '' },
            },
          ],
        },
      }),
      'GET /users/reservations': () => ({ body: { payload: [] } }),
      'GET /users/requests': () => ({ body: { payload: [] } }),
      'GET /users/holds': () => ({ body: { payload: [] } }),
    });
    renderScreen(<StudentHomePage />, '/userprofile', testUser());
    const loans = screen.getByRole('heading', { level: 2, name: 'My loans' });
    const reservations = screen.getByRole('heading', { level: 2, name: 'My reservations' });
    expect(
      loans.compareDocumentPosition(reservations) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    const section = loans.closest('section')!;
    expect(await within(section).findByRole('heading', { name: 'Dune' })).toBeTruthy();
    expect(within(section).getByText('Overdue')).toBeTruthy();
    expect(within(section).getByRole('button', { name: /^Renew\W+Dune$/ })).toBeTruthy();
  });
});
