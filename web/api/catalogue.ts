import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getBooksResponseSchema,
  itemDetailSchema,
  itemPageSchema,
  postBookResponseSchema,
  relatedItemsSchema,
  searchResponseSchema,
  type ItemType,
  type PostBookRequest,
  type SearchSort,
} from '#contract/http/catalogue.ts';
import { apiPost, apiRequest } from './client.ts';
import { MY_ITEMS_KEY } from './items.ts';

/** What a search screen asks for; empty strings mean "no filter". */
export interface SearchParams {
  q: string;
  type?: ItemType;
  author?: string;
  year?: string;
  category?: string;
  page?: number;
  pageSize?: number;
  featured?: boolean;
  /** Librarians: withdrawn items too, marked so. */
  withdrawn?: boolean;
  /** The facets: a year range, one subject, copies free now; and the order. */
  yearFrom?: string;
  yearTo?: string;
  subject?: string;
  available?: boolean;
  sort?: SearchSort;
  /** The words exactly as typed, without correcting typos ("Search instead for"). */
  exact?: boolean;
}

/** The query string of `/api/search` for these parameters. */
export function searchQueryString(params: SearchParams): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '' && value !== false) query.set(key, String(value));
  }
  return query.toString();
}

/** One page of catalogue results; the previous page stays shown while the next loads. */
export function useCatalogueSearch(params: SearchParams, enabled: boolean) {
  const query = searchQueryString(params);
  return useQuery({
    queryKey: ['search', query],
    queryFn: () => apiRequest(`/search?${query}`, searchResponseSchema),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** An item's details. */
export function useItem(id: string | null) {
  return useQuery({
    queryKey: ['item', id],
    queryFn: () => apiRequest(`/items/${encodeURIComponent(id ?? '')}`, itemDetailSchema),
    enabled: id !== null,
  });
}

/** "More like this" for an item: up to six related items, each with why. */
export function useRelatedItems(id: string | null) {
  return useQuery({
    queryKey: ['item-related', id],
    queryFn: () => apiRequest(`/items/${encodeURIComponent(id ?? '')}/related`, relatedItemsSchema),
    enabled: id !== null,
    staleTime: 60_000,
  });
}

/** One page of an item's held text (pages count from 1). */
export function useItemPage(id: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: ['item-page', id, page],
    queryFn: () =>
      apiRequest(`/items/${encodeURIComponent(id)}/pages?page=${page}`, itemPageSchema),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/** The spec's course materials list, newest first. */
export function useCourseMaterials(enabled = true) {
  return useQuery({
    queryKey: ['course-materials'],
    queryFn: async () => (await apiRequest('/users/get-books', getBooksResponseSchema)).payload,
    enabled,
  });
}

/** Publishes a course material (faculty and librarians). */
export function usePublishCourseMaterial() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PostBookRequest) =>
      apiPost('/faculty/post-book', postBookResponseSchema, body),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['course-materials'] });
      void queryClient.invalidateQueries({ queryKey: ['search'] });
      void queryClient.invalidateQueries({ queryKey: MY_ITEMS_KEY });
    },
  });
}
