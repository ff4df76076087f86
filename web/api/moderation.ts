import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  endSanctionResponseSchema,
  MODERATION_POLL_MS,
  moderationActionResponseSchema,
  moderationQueueResponseSchema,
  type EndSanctionRequest,
  type ModerationActionRequest,
} from '#contract/http/moderation.ts';
import { apiPost, apiRequest } from './client.ts';

const QUEUE_KEY = ['moderation-queue'] as const;

/**
 * The librarians' moderation queue, asked again every `MODERATION_POLL_MS` while the screen is
 * open (decision 040: polling, so the queue needs no socket of its own).
 */
export function useModerationQueue() {
  return useQuery({
    queryKey: QUEUE_KEY,
    queryFn: () => apiRequest('/moderation/queue', moderationQueueResponseSchema),
    refetchInterval: MODERATION_POLL_MS,
  });
}

/** One action on a reported message; the queue is read again after. */
export function useModerate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ModerationActionRequest) =>
      apiPost('/moderation/actions', moderationActionResponseSchema, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUEUE_KEY }),
  });
}

/** Ends a mute or removal early, with why (decision 044); the queue is read again after. */
export function useEndSanction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string } & EndSanctionRequest) =>
      apiPost(`/moderation/sanctions/${encodeURIComponent(id)}/end`, endSanctionResponseSchema, {
        reason,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: QUEUE_KEY }),
  });
}
