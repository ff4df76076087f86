import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  copySchema,
  itemCopiesResponseSchema,
  type CopyCreate,
  type CopyUpdate,
} from '#contract/http/copies.ts';
import {
  itemHistoryResponseSchema,
  managedItemSchema,
  myItemsResponseSchema,
  type ItemCreate,
  type ItemUpdate,
  type ManagedItem,
} from '#contract/http/items.ts';
import { apiPost, apiRequest } from './client.ts';
import { RESERVATIONS_KEY } from './reservations.ts';

const itemPath = (id: string) => `/items/${encodeURIComponent(id)}`;

/** Cache keys of one item's librarian views; `['item', id]` is the details `useItem` reads. */
export const itemKeys = {
  details: (id: string) => ['item', id] as const,
  copies: (id: string) => ['item-copies', id] as const,
  history: (id: string) => ['item-history', id] as const,
};

/** Cache key of the caller's own course materials (`GET /api/items/mine`). */
export const MY_ITEMS_KEY = ['my-items'] as const;

/**
 * After a change to an item: its details from the answer, and whatever shows it elsewhere
 * (searches, course materials, the reservable books and their free copies, its history).
 */
function itemChanged(queryClient: QueryClient, item: ManagedItem): void {
  queryClient.setQueryData(itemKeys.details(item.id), item);
  void queryClient.invalidateQueries({ queryKey: itemKeys.history(item.id) });
  void queryClient.invalidateQueries({ queryKey: ['search'] });
  void queryClient.invalidateQueries({ queryKey: ['course-materials'] });
  void queryClient.invalidateQueries({ queryKey: MY_ITEMS_KEY });
  void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY });
}

/** After a change to one of an item's copies: its copies, counts and history. */
function copiesChanged(queryClient: QueryClient, itemId: string): void {
  void queryClient.invalidateQueries({ queryKey: itemKeys.copies(itemId) });
  void queryClient.invalidateQueries({ queryKey: itemKeys.details(itemId) });
  void queryClient.invalidateQueries({ queryKey: itemKeys.history(itemId) });
  void queryClient.invalidateQueries({ queryKey: RESERVATIONS_KEY });
}

/** An item's copies; librarians get each copy with its barcode. */
export function useItemCopies(id: string) {
  return useQuery({
    queryKey: itemKeys.copies(id),
    queryFn: () => apiRequest(`${itemPath(id)}/copies`, itemCopiesResponseSchema),
  });
}

/** An item's recorded changes, newest first (librarians). */
export function useItemHistory(id: string) {
  return useQuery({
    queryKey: itemKeys.history(id),
    queryFn: async () =>
      (await apiRequest(`${itemPath(id)}/history`, itemHistoryResponseSchema)).changes,
  });
}

/** The course materials the caller published, newest first, unpublished ones too (faculty). */
export function useMyItems() {
  return useQuery({
    queryKey: MY_ITEMS_KEY,
    queryFn: async () => (await apiRequest('/items/mine', myItemsResponseSchema)).items,
  });
}

/** Adds an item to the catalogue (librarians). */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fields: ItemCreate) => apiPost('/items', managedItemSchema, fields),
    onSuccess: (item) => itemChanged(queryClient, item),
  });
}

/** Changes some of an item's fields (librarians; faculty their own course materials); a `null` clears an optional one. */
export function useUpdateItem(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: ItemUpdate) =>
      apiPost(itemPath(id), managedItemSchema, patch, { method: 'PATCH' }),
    onSuccess: (item) => itemChanged(queryClient, item),
  });
}

/** Withdraws (unpublishes) an item (`true`) or restores it (`false`). */
export function useSetWithdrawn(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (withdrawn: boolean) =>
      withdrawn
        ? apiRequest(itemPath(id), managedItemSchema, { method: 'DELETE' })
        : apiRequest(`${itemPath(id)}/restore`, managedItemSchema, { method: 'POST' }),
    onSuccess: (item) => itemChanged(queryClient, item),
  });
}

/** Adds a copy of the item; a taken barcode fails with 409. */
export function useAddCopy(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (copy: CopyCreate) => apiPost(`${itemPath(itemId)}/copies`, copySchema, copy),
    onSuccess: () => copiesChanged(queryClient, itemId),
  });
}

/** Changes a copy, found by the barcode it carries now. */
export function useUpdateCopy(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ barcode, patch }: { barcode: string; patch: CopyUpdate }) =>
      apiPost(`/copies/${encodeURIComponent(barcode)}`, copySchema, patch, { method: 'PATCH' }),
    onSuccess: () => copiesChanged(queryClient, itemId),
  });
}
