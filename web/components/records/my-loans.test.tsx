import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { LoanRecord } from '#contract/http/loans.ts';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { formatDate } from './format.ts';
import { MyLoans } from './my-loans.tsx';

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function loan(overrides: Partial<LoanRecord> = {}): LoanRecord {
  return {
    loanId: 'LOAN-1',
    status: 'on_loan',
    checkedOutAt: inDays(-10),
    dueAt: inDays(11),
    overdue: false,
    renewals: 0,
    renewalsLeft: 2,
    renewBlockedBecause: null,
    returnedAt: null,
    reservationId: 'RES-1',
    copy: { barcode: 'DL-0001', location: 'Main hall' },
    book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', coverImage: '' },
    ...overrides,
  };
}

const LATE = loan({
  loanId: 'LOAN-2',
  dueAt: inDays(-2),
  overdue: true,
  renewals: 1,
  renewalsLeft: 1,
  renewBlockedBecause: 'Someone is waiting for this book.',
  book: { id: 'b2', title: 'Emma', author: 'Jane Austen', coverImage: '' },
});

const BACK = loan({
  loanId: 'LOAN-3',
  status: 'returned',
  returnedAt: inDays(-20),
  dueAt: inDays(-21),
  renewalsLeft: 0,
  renewBlockedBecause: 'It has been returned.',
  book: { id: 'b3', title: 'Middlemarch', author: 'George Eliot', coverImage: '' },
});

const item = (title: string) => screen.getByRole('heading', { name: title }).closest('li')!;

describe('my loans', () => {
  it('shows each loan’s due date, overdue in words, renewals left, and why one cannot be renewed', async () => {
    mockApi({ 'GET /users/loans': () => ({ body: { payload: [LATE, loan(), BACK] } }) });
    renderScreen(<MyLoans />, '/', testUser());
    await screen.findByRole('heading', { name: 'Emma' });

    const late = item('Emma');
    expect(within(late).getByText('Overdue')).toBeTruthy();
    expect(
      within(late).getByText(`Overdue: it was due ${formatDate(LATE.dueAt)}, 2 days ago.`),
    ).toBeTruthy();
    expect(within(late).getByText(/Please bring it back to the library desk/)).toBeTruthy();
    expect(within(late).getByText('Renewed 1 time · 1 renewal left')).toBeTruthy();
    expect(
      within(late).getByText('Cannot be renewed: Someone is waiting for this book.'),
    ).toBeTruthy();
    expect(within(late).queryByRole('button', { name: /Renew/ })).toBeNull();

    const out = item('Dune');
    expect(within(out).getByText('On loan')).toBeTruthy();
    expect(within(out).getByText(`Due ${formatDate(loan().dueAt)} (in 11 days).`)).toBeTruthy();
    expect(within(out).getByText('Not renewed yet · 2 renewals left')).toBeTruthy();

    // Returned loans are folded away, and never offer Renew.
    const folded = screen.getByText('Returned loans (1)').closest('details')!;
    expect(folded.open).toBe(false);
    expect(within(folded).getByRole('heading', { name: 'Middlemarch', hidden: true })).toBeTruthy();
    expect(within(folded).queryByRole('button', { hidden: true })).toBeNull();
  });

  it('marks a loan due within two days as due soon', async () => {
    mockApi({
      'GET /users/loans': () => ({ body: { payload: [loan({ dueAt: inDays(1) })] } }),
    });
    renderScreen(<MyLoans />, '/', testUser());
    await screen.findByRole('heading', { name: 'Dune' });
    expect(screen.getByText('Due soon')).toBeTruthy();
    expect(screen.getByText(`Due tomorrow, ${formatDate(inDays(1))}.`)).toBeTruthy();
  });

  it('renews a loan, and shows the server’s reason when it refuses', async () => {
    const user = userEvent.setup();
    let refuse = true;
    const calls = mockApi({
      'GET /users/loans': () => ({ body: { payload: [loan()] } }),
      'POST /users/loans/LOAN-1/renew': () =>
        refuse
          ? {
              status: 409,
              body: {
                success: false,
                message: 'Someone is waiting for this book.',
              },
            }
          : {
              body: {
                success: true,
                loan: loan({ dueAt: '2026-12-30T17:00:00.000Z', renewals: 1, renewalsLeft: 1 }),
              },
            },
    });
    renderScreen(<MyLoans />, '/', testUser());
    const renew = await screen.findByRole('button', { name: /^Renew\W+Dune$/ });
    await user.click(renew);
    const refusal = await screen.findByText('Not renewed: Someone is waiting for this book.');
    expect(refusal.getAttribute('role')).toBe('alert');

    refuse = false;
    await user.click(renew);
    const said = await screen.findByText(
      `Renewed: now due ${formatDate('2026-12-30T17:00:00.000Z')}.`,
    );
    expect(said.getAttribute('role')).toBe('status');
    expect(document.activeElement).toBe(said);
    expect(refusal.textContent).toBe('');
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(2);
    // The list is asked again, so the due date and renewals left shown are the server's.
    expect(calls.filter((call) => call.path === '/users/loans').length).toBeGreaterThan(1);
  });

  it('says so when there are no loans', async () => {
    mockApi({ 'GET /users/loans': () => ({ body: { payload: [] } }) });
    renderScreen(<MyLoans />, '/', testUser());
    expect(await screen.findByText(/You have no books on loan/)).toBeTruthy();
  });
});
