import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import {
  bookContentsSchema,
  DEFAULT_READING_PREFERENCES,
  readingPreferencesSchema,
  readingStateSchema,
  recentReadingSchema,
  searchInsideResponseSchema,
  type ReadingPreferences,
  type ReadingState,
} from '#contract/http/reading.ts';
import { apiPost, apiRequest } from './client.ts';

/**
 * The caller's own state in one book (last page, bookmarks, highlights). Other hooks that change
 * bookmarks or highlights invalidate exactly this key, so it must stay `['reading', itemId]`.
 */
export function readingKey(itemId: string) {
  return ['reading', itemId] as const;
}

/** "Continue reading": the caller's recent books. */
export const RECENT_READING_KEY = ['reading-recent'] as const;

/** The caller's display preferences (theme, text size, line width). */
export const READING_PREFERENCES_KEY = ['reading-preferences'] as const;

const itemPath = (itemId: string) => `/items/${encodeURIComponent(itemId)}`;

// What a write answers is not used beyond success: its body (or none, a 204) is accepted as is.
const anyAnswer = z.unknown();

/** A book's contents: its heading lines with their pages. */
export function useBookContents(itemId: string, enabled: boolean) {
  return useQuery({
    queryKey: ['reading-contents', itemId],
    queryFn: () => apiRequest(`${itemPath(itemId)}/contents`, bookContentsSchema),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** The pages of a book that hold the words of `query`; nothing is asked while it is empty. */
export function useSearchInside(itemId: string, query: string) {
  const q = query.trim();
  return useQuery({
    queryKey: ['reading-search', itemId, q],
    queryFn: () =>
      apiRequest(
        `${itemPath(itemId)}/search-inside?${new URLSearchParams({ q }).toString()}`,
        searchInsideResponseSchema,
      ),
    enabled: q !== '',
    staleTime: 60_000,
  });
}

/** Where the caller left off in a book, with their bookmarks and highlights. */
export function useReadingState(itemId: string, enabled: boolean) {
  return useQuery({
    queryKey: readingKey(itemId),
    queryFn: () => apiRequest(`${itemPath(itemId)}/reading`, readingStateSchema),
    enabled,
  });
}

/**
 * Keeps the page the caller is on. The cached state takes the page at once without asking again
 * (a refetch would offer "Continue from page N" for the page they are reading).
 */
export function useSaveProgress(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (page: number) =>
      apiPost(`${itemPath(itemId)}/progress`, anyAnswer, { page }, { method: 'PUT' }),
    onSuccess: (_answer, page) => {
      queryClient.setQueryData<ReadingState>(readingKey(itemId), (state) =>
        state ? { ...state, lastPage: page, lastReadAt: new Date().toISOString() } : state,
      );
      void queryClient.invalidateQueries({ queryKey: RECENT_READING_KEY });
    },
  });
}

/** The caller's books, most recently read first (at most six). */
export function useRecentReading(enabled = true) {
  return useQuery({
    queryKey: RECENT_READING_KEY,
    queryFn: () => apiRequest('/reading/recent', recentReadingSchema),
    enabled,
  });
}

/** How the caller likes pages shown; the defaults until known (and for a guest). */
export function useReadingPreferences(enabled = true) {
  return useQuery({
    queryKey: READING_PREFERENCES_KEY,
    queryFn: () => apiRequest('/reading/preferences', readingPreferencesSchema),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/**
 * Changes some of the caller's preferences. Optimistic: the page changes at once, and goes back
 * if the server refuses, so a choice never waits on the network.
 */
export function useUpdateReadingPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: READING_PREFERENCES_KEY,
    mutationFn: (changes: Partial<ReadingPreferences>) =>
      apiPost('/reading/preferences', anyAnswer, changes, { method: 'PUT' }),
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: READING_PREFERENCES_KEY });
      const previous = queryClient.getQueryData<ReadingPreferences>(READING_PREFERENCES_KEY);
      queryClient.setQueryData<ReadingPreferences>(READING_PREFERENCES_KEY, {
        ...DEFAULT_READING_PREFERENCES,
        ...previous,
        ...changes,
      });
      return { previous };
    },
    onError: (_error, _changes, context) => {
      if (context?.previous) queryClient.setQueryData(READING_PREFERENCES_KEY, context.previous);
    },
    onSettled: () => {
      // Once the last of quick successive choices is settled, the server's copy is read: an
      // earlier answer arriving late must not undo a later choice.
      if (queryClient.isMutating({ mutationKey: READING_PREFERENCES_KEY }) === 1)
        void queryClient.invalidateQueries({ queryKey: READING_PREFERENCES_KEY });
    },
  });
}
