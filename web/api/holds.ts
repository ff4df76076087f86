import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { holdResponseSchema, myHoldsResponseSchema } from '#contract/http/holds.ts';
import { apiPost, apiRequest } from './client.ts';
import { RESERVATIONS_KEY } from './reservations.ts';

/**
 * The caller's waiting-list places, under the reservations' key: joining, leaving, an offer taken
 * or a reservation cancelled all change free copies and places together.
 */
export const HOLDS_KEY = [...RESERVATIONS_KEY, 'holds'] as const;

/** The caller's waiting lists: offers first, then places in queues, then past ones. */
export function useMyHolds() {
  return useQuery({
    queryKey: HOLDS_KEY,
    queryFn: async () => (await apiRequest('/users/holds', myHoldsResponseSchema)).payload,
  });
}

/** After joining or leaving: the places, the books' free copies, and searches' shelves. */
function holdsChanged(queryClient: ReturnType<typeof useQueryClient>): void {
  void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY });
  void queryClient.invalidateQueries({ queryKey: ['search'] });
}

/** Joins a book's waiting list (answering the place already held when joined before). */
export function useJoinWaitingList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (bookId: string) =>
      (await apiPost('/users/holds', holdResponseSchema, { bookId })).hold,
    onSuccess: () => holdsChanged(queryClient),
  });
}

/** Leaves a waiting list, or declines an offered copy (it goes to the next in line). */
export function useLeaveWaitingList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (holdId: string) =>
      (
        await apiRequest(`/users/holds/${encodeURIComponent(holdId)}`, holdResponseSchema, {
          method: 'DELETE',
        })
      ).hold,
    onSuccess: () => holdsChanged(queryClient),
  });
}
