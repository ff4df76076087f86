import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  myRequestsResponseSchema,
  requestListResponseSchema,
  requestRecordResponseSchema,
  resourceRequestResponseSchema,
  similarRequestsResponseSchema,
  type RequestStatus,
  type RequestStatusChange,
  type ResourceRequestInput,
  type ResourceType,
} from '#contract/http/requests.ts';
import { apiPost, apiRequest } from './client.ts';

/**
 * Every cached list of requests sits under this key, so one invalidation after any change
 * refreshes the requester's list, the similar matches and the staff table alike.
 */
export const REQUESTS_KEY = ['requests'] as const;

/** Shortest title worth looking up similar requests for (the server refuses shorter ones). */
export const SIMILAR_TITLE_MIN = 3;

/** The signed-in person's own requests, newest first. */
export function useMyRequests() {
  return useQuery({
    queryKey: [...REQUESTS_KEY, 'mine'],
    queryFn: async () => (await apiRequest('/users/requests', myRequestsResponseSchema)).payload,
  });
}

/** Open requests whose titles look like `title`; idle until it has at least three characters. */
export function useSimilarRequests(title: string) {
  const trimmed = title.trim();
  return useQuery({
    queryKey: [...REQUESTS_KEY, 'similar', trimmed],
    queryFn: async () =>
      (
        await apiRequest(
          `/users/requests/similar?${new URLSearchParams({ title: trimmed }).toString()}`,
          similarRequestsResponseSchema,
        )
      ).payload,
    enabled: trimmed.length >= SIMILAR_TITLE_MIN,
    // Keeps the last matches on screen while the next title is looked up, so the list does not flicker.
    placeholderData: keepPreviousData,
  });
}

/** Files a resource request for the signed-in person. */
export function useSubmitRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ResourceRequestInput) =>
      apiPost('/users/requests', resourceRequestResponseSchema, body),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: REQUESTS_KEY }),
  });
}

/** Adds the signed-in person's +1 to a request (repeating it changes nothing). */
export function useSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiPost(`/users/requests/${encodeURIComponent(id)}/support`, requestRecordResponseSchema, {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: REQUESTS_KEY }),
  });
}

/** Filters and order of the staff's requests table; empty strings mean "any". */
export interface RequestListFilters {
  status: RequestStatus | '';
  type: ResourceType | '';
  sort: 'date' | 'support';
}

/** All requests for faculty and librarians, filtered and sorted by the server. */
export function useRequestList(filters: RequestListFilters) {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.type) query.set('type', filters.type);
  query.set('sort', filters.sort);
  const search = query.toString();
  return useQuery({
    queryKey: [...REQUESTS_KEY, 'list', search],
    queryFn: async () =>
      (await apiRequest(`/faculty/get-req?${search}`, requestListResponseSchema)).data,
  });
}

/** Moves a request on (accept, order, make available, reject with a reason). */
export function useChangeRequestStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: RequestStatusChange }) =>
      apiPost(`/faculty/requests/${encodeURIComponent(id)}`, requestRecordResponseSchema, change, {
        method: 'PATCH',
      }),
    // A refused move (409) usually means someone else moved it first: refresh either way.
    onSettled: () => void queryClient.invalidateQueries({ queryKey: REQUESTS_KEY }),
  });
}
