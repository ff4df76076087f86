import { DUE_SOON_DAYS, type LoanRecord } from '#contract/http/loans.ts';
import { formatDate } from './format.ts';
import type { StatusTone } from './status-badge.tsx';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole calendar days from `from` to `to` in the reader's zone (negative when `to` is earlier). */
export function calendarDaysBetween(from: Date, to: Date): number {
  const start = Date.UTC(from.getFullYear(), from.getMonth(), from.getDate());
  const end = Date.UTC(to.getFullYear(), to.getMonth(), to.getDate());
  return Math.round((end - start) / DAY_MS);
}

function days(count: number): string {
  return `${count} ${count === 1 ? 'day' : 'days'}`;
}

/** Where a loan stands in one word or two, for its badge; the words carry it, not the colour. */
export function loanBadge(loan: LoanRecord, now = new Date()): { label: string; tone: StatusTone } {
  if (loan.status === 'returned') return { label: 'Returned', tone: 'neutral' };
  if (loan.overdue) return { label: 'Overdue', tone: 'negative' };
  if (calendarDaysBetween(now, new Date(loan.dueAt)) <= DUE_SOON_DAYS) {
    return { label: 'Due soon', tone: 'progress' };
  }
  return { label: 'On loan', tone: 'positive' };
}

/**
 * The due date in words: "Due Dec 16, 2026 (in 3 days)", "Overdue: it was due Dec 16, 2026, 2 days
 * ago", or when a returned loan came back.
 */
export function dueText(loan: LoanRecord, now = new Date()): string {
  const due = formatDate(loan.dueAt);
  if (loan.status === 'returned') {
    const back = loan.returnedAt ? formatDate(loan.returnedAt) : 'already';
    return `Returned ${back}; it was due ${due}.`;
  }
  const ahead = calendarDaysBetween(now, new Date(loan.dueAt));
  if (loan.overdue) {
    return ahead >= 0
      ? `Overdue: it was due earlier today, ${due}.`
      : `Overdue: it was due ${due}, ${days(-ahead)} ago.`;
  }
  if (ahead <= 0) return `Due today, ${due}.`;
  if (ahead === 1) return `Due tomorrow, ${due}.`;
  return `Due ${due} (in ${days(ahead)}).`;
}

/** How often it was renewed and how often it still may be, in words. */
export function renewalsText(loan: LoanRecord): string {
  const left = `${loan.renewalsLeft} ${loan.renewalsLeft === 1 ? 'renewal' : 'renewals'} left`;
  if (loan.renewals === 0) return `Not renewed yet · ${left}`;
  return `Renewed ${loan.renewals} ${loan.renewals === 1 ? 'time' : 'times'} · ${left}`;
}
