import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deletedListSchema,
  readingListSchema,
  readingListsResponseSchema,
  savedItemsResponseSchema,
  savedStateSchema,
  sharedReadingListSchema,
  type ReadingList,
  type UpdateReadingList,
} from '#contract/http/shelf.ts';
import { apiPost, apiRequest } from './client.ts';

/** Everything cached about the caller's shelf; sign-out clears it with the rest. */
export const SHELF_KEY = ['shelf'] as const;
/** The caller's saved items, newest first. */
export const SAVED_ITEMS_KEY = [...SHELF_KEY, 'saved'] as const;
/** The caller's reading lists (the overview with counts). */
export const READING_LISTS_KEY = [...SHELF_KEY, 'lists'] as const;
/** One of the caller's lists with its items. */
export const readingListKey = (id: string) => [...READING_LISTS_KEY, id] as const;
/** A list shared by link. */
export const sharedListKey = (token: string) => [...SHELF_KEY, 'shared', token] as const;

const listPath = (id: string) => `/lists/${encodeURIComponent(id)}`;

/** The caller's saved items, newest first; off while `enabled` is false (a guest). */
export function useSavedItems(enabled = true) {
  return useQuery({
    queryKey: SAVED_ITEMS_KEY,
    queryFn: async () => (await apiRequest('/shelf', savedItemsResponseSchema)).items,
    enabled,
  });
}

/** Saves an item to the shelf (`saved: true`) or takes it off, then reads the shelf again. */
export function useSetSaved() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ itemId, saved }: { itemId: string; saved: boolean }) =>
      apiRequest(`/shelf/${encodeURIComponent(itemId)}`, savedStateSchema, {
        method: saved ? 'PUT' : 'DELETE',
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SAVED_ITEMS_KEY }),
  });
}

/** The caller's reading lists, newest first, with item counts. */
export function useReadingLists(enabled = true) {
  return useQuery({
    queryKey: READING_LISTS_KEY,
    queryFn: async () => (await apiRequest('/lists', readingListsResponseSchema)).lists,
    enabled,
  });
}

/** One of the caller's lists with its items in order; off while `id` is null. */
export function useReadingList(id: string | null) {
  return useQuery({
    queryKey: readingListKey(id ?? ''),
    queryFn: () => apiRequest(listPath(id!), readingListSchema),
    enabled: id !== null,
  });
}

/**
 * Keeps a changed list's answer as that list's cache and reads the overview again (its count, its
 * name and sharing).
 */
function useListChanged() {
  const queryClient = useQueryClient();
  return (list: ReadingList) => {
    queryClient.setQueryData(readingListKey(list.id), list);
    void queryClient.invalidateQueries({ queryKey: READING_LISTS_KEY, exact: true });
  };
}

/** Makes a new private list. */
export function useCreateList() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: (fields: { name: string; description?: string }) =>
      apiPost('/lists', readingListSchema, fields),
    onSuccess: changed,
  });
}

/** Renames, describes, shares or unshares a list. */
export function useUpdateList() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: ({ id, ...patch }: UpdateReadingList & { id: string }) =>
      apiPost(listPath(id), readingListSchema, patch, { method: 'PATCH' }),
    onSuccess: changed,
  });
}

/** Deletes a list. */
export function useDeleteList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest(listPath(id), deletedListSchema, { method: 'DELETE' }),
    onSuccess: ({ id }) => {
      queryClient.removeQueries({ queryKey: readingListKey(id) });
      return queryClient.invalidateQueries({ queryKey: READING_LISTS_KEY, exact: true });
    },
  });
}

/** Appends an item to a list (409 when it is in it already). */
export function useAddToList() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: ({ listId, itemId }: { listId: string; itemId: string }) =>
      apiPost(`${listPath(listId)}/items`, readingListSchema, { itemId }),
    onSuccess: changed,
  });
}

/** Takes an item out of a list. */
export function useRemoveFromList() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: ({ listId, itemId }: { listId: string; itemId: string }) =>
      apiRequest(`${listPath(listId)}/items/${encodeURIComponent(itemId)}`, readingListSchema, {
        method: 'DELETE',
      }),
    onSuccess: changed,
  });
}

/** Puts a list in a new order: every item's id, once, in the order wanted. */
export function useReorderList() {
  const changed = useListChanged();
  return useMutation({
    mutationFn: ({ listId, itemIds }: { listId: string; itemIds: string[] }) =>
      apiPost(`${listPath(listId)}/order`, readingListSchema, { itemIds }, { method: 'PUT' }),
    onSuccess: changed,
  });
}

/** A list shared by link, read-only. */
export function useSharedList(token: string) {
  return useQuery({
    queryKey: sharedListKey(token),
    queryFn: () =>
      apiRequest(`/shared-lists/${encodeURIComponent(token)}`, sharedReadingListSchema),
    retry: false,
  });
}
