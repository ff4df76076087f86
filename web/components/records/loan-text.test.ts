import { describe, expect, it } from 'vitest';
import type { LoanRecord } from '#contract/http/loans.ts';
import { formatDate } from './format.ts';
import { calendarDaysBetween, dueText, loanBadge, renewalsText } from './loan-text.ts';

const NOW = new Date(2026, 11, 10, 15, 0);
const at = (day: number, hour = 17) => new Date(2026, 11, day, hour, 0).toISOString();

function loan(overrides: Partial<LoanRecord>): LoanRecord {
  return {
    loanId: 'LOAN-1',
    status: 'on_loan',
    checkedOutAt: at(1),
    dueAt: at(20),
    overdue: false,
    renewals: 0,
    renewalsLeft: 2,
    renewBlockedBecause: null,
    returnedAt: null,
    reservationId: null,
    copy: { barcode: 'DL-0001', location: '' },
    book: { id: 'b1', title: 'Dune', author: 'Frank Herbert', coverImage: '' },
    ...overrides,
  };
}

describe('a loan in words', () => {
  it('counts calendar days, not 24-hour spans', () => {
    expect(calendarDaysBetween(NOW, new Date(2026, 11, 11, 1, 0))).toBe(1);
    expect(calendarDaysBetween(NOW, new Date(2026, 11, 10, 23, 59))).toBe(0);
    expect(calendarDaysBetween(NOW, new Date(2026, 11, 7, 23, 0))).toBe(-3);
  });

  it('says when a loan is due, and how overdue it is', () => {
    expect(dueText(loan({ dueAt: at(20) }), NOW)).toBe(`Due ${formatDate(at(20))} (in 10 days).`);
    expect(dueText(loan({ dueAt: at(11) }), NOW)).toBe(`Due tomorrow, ${formatDate(at(11))}.`);
    expect(dueText(loan({ dueAt: at(10) }), NOW)).toBe(`Due today, ${formatDate(at(10))}.`);
    expect(dueText(loan({ dueAt: at(10, 9), overdue: true }), NOW)).toBe(
      `Overdue: it was due earlier today, ${formatDate(at(10, 9))}.`,
    );
    expect(dueText(loan({ dueAt: at(9), overdue: true }), NOW)).toBe(
      `Overdue: it was due ${formatDate(at(9))}, 1 day ago.`,
    );
    expect(dueText(loan({ status: 'returned', returnedAt: at(8), dueAt: at(9) }), NOW)).toBe(
      `Returned ${formatDate(at(8))}; it was due ${formatDate(at(9))}.`,
    );
  });

  it('badges a loan by where it stands', () => {
    expect(loanBadge(loan({ dueAt: at(20) }), NOW).label).toBe('On loan');
    expect(loanBadge(loan({ dueAt: at(12) }), NOW).label).toBe('Due soon');
    expect(loanBadge(loan({ dueAt: at(9), overdue: true }), NOW)).toEqual({
      label: 'Overdue',
      tone: 'negative',
    });
    expect(loanBadge(loan({ status: 'returned' }), NOW).label).toBe('Returned');
  });

  it('counts renewals', () => {
    expect(renewalsText(loan({}))).toBe('Not renewed yet · 2 renewals left');
    expect(renewalsText(loan({ renewals: 2, renewalsLeft: 0 }))).toBe(
      'Renewed 2 times · 0 renewals left',
    );
  });
});
