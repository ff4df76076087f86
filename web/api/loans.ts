import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deskActivityResponseSchema,
  deskLoanResponseSchema,
  deskLoansResponseSchema,
  loanResponseSchema,
  myLoansResponseSchema,
  type CheckOutRequest,
} from '#contract/http/loans.ts';
import { apiPost, apiRequest } from './client.ts';
import { RESERVATIONS_KEY } from './reservations.ts';

/**
 * Loans sit under the reservations' key: a check-out collects a reservation, a return frees a copy
 * that may be offered to the next in a waiting list, so the desk's day, the holder's lists and the
 * books' free copies change with them. A desk move on a reservation refreshes the loans too.
 */
export const LOANS_KEY = [...RESERVATIONS_KEY, 'loans'] as const;

/** The signed-in person's own loans. */
export const MY_LOANS_KEY = [...LOANS_KEY, 'mine'] as const;

/** What the desk recorded; refreshed by every desk move, which all invalidate the reservations. */
export const DESK_ACTIVITY_KEY = [...RESERVATIONS_KEY, 'desk-activity'] as const;

/** The signed-in person's loans: those out first (soonest due), then returned ones. */
export function useMyLoans() {
  return useQuery({
    queryKey: MY_LOANS_KEY,
    queryFn: async () => (await apiRequest('/users/loans', myLoansResponseSchema)).payload,
  });
}

/** Renews one of the signed-in person's loans; the answer is the loan with its new due date. */
export function useRenewMyLoan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (loanId: string) =>
      (
        await apiRequest(`/users/loans/${encodeURIComponent(loanId)}/renew`, loanResponseSchema, {
          method: 'POST',
        })
      ).loan,
    // A refusal (someone joined the queue meanwhile) means the list's reasons are stale too.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: MY_LOANS_KEY }),
  });
}

/** What the desk's loan list asks for: only the overdue ones, and words to narrow it. */
export interface DeskLoansFilter {
  overdue?: boolean;
  q?: string;
}

/** The copies out, soonest due first, with how many match and how many of those are overdue. */
export function useDeskLoans(filter: DeskLoansFilter = {}) {
  const params = new URLSearchParams();
  if (filter.overdue) params.set('overdue', 'true');
  const q = filter.q?.trim();
  if (q) params.set('q', q);
  const query = params.toString();
  return useQuery({
    queryKey: [...LOANS_KEY, 'desk', query],
    queryFn: () => apiRequest(`/desk/loans${query ? `?${query}` : ''}`, deskLoansResponseSchema),
    // While the next filter's answer loads, the list shown stays instead of a spinner.
    placeholderData: keepPreviousData,
  });
}

/** The desk's latest recorded actions, newest first. */
export function useDeskActivity() {
  return useQuery({
    queryKey: DESK_ACTIVITY_KEY,
    queryFn: async () => (await apiRequest('/desk/activity', deskActivityResponseSchema)).payload,
  });
}

/**
 * After any desk circulation move, refused ones too (a refusal often means the screen was stale):
 * the pickups, loans, activity and waiting lists under the reservations' key, and searches' shelves.
 */
function circulationChanged(queryClient: ReturnType<typeof useQueryClient>): void {
  void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY });
  void queryClient.invalidateQueries({ queryKey: ['search'] });
}

/**
 * Checks out the copy with `barcode`: to the reservation given, to the person with `email`, or to
 * the only active reservation of its book. Answers the new loan with its borrower.
 */
export function useCheckOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (request: CheckOutRequest) =>
      (await apiPost('/desk/loans', deskLoanResponseSchema, request)).loan,
    onSettled: () => circulationChanged(queryClient),
  });
}

/** Checks in the copy with `barcode`; answers the loan it ended. */
export function useReturnCopy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (barcode: string) =>
      (await apiPost('/desk/returns', deskLoanResponseSchema, { barcode })).loan,
    onSettled: () => circulationChanged(queryClient),
  });
}

/** Renews a loan at the desk; answers the loan with its new due date. */
export function useDeskRenew() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (loanId: string) =>
      (
        await apiRequest(
          `/desk/loans/${encodeURIComponent(loanId)}/renew`,
          deskLoanResponseSchema,
          { method: 'POST' },
        )
      ).loan,
    onSettled: () => circulationChanged(queryClient),
  });
}
