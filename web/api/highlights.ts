import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { HighlightCreate, ReadingState } from '#contract/http/reading.ts';
import { apiPost, apiRequest } from './client.ts';
import { readingKey } from './reading.ts';

/**
 * The calls that change the reader's own bookmarks and highlights in one book (issue 24). The
 * state itself is `useReadingState` of `./reading.ts` (key `['reading', itemId]`); every change
 * loads it again, so the page, the bookmark button and "My notes" all show the server's truth.
 */

/**
 * What a change answers is not shown (the state is loaded again), so any body, or none, will do:
 * a 204 without a body is success too.
 */
const anyAnswer = z.unknown();

const itemPath = (itemId: string) => `/items/${encodeURIComponent(itemId)}`;

/** Loads the book's reading state again after any change. */
function useInvalidateReading(itemId: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: readingKey(itemId) });
}

/** Highlights a passage of a page, with a note or none (`POST /api/items/:id/highlights`). */
export function useCreateHighlight(itemId: string) {
  const invalidate = useInvalidateReading(itemId);
  return useMutation({
    mutationFn: (highlight: Omit<HighlightCreate, 'note'> & { note?: string }) =>
      apiPost(`${itemPath(itemId)}/highlights`, anyAnswer, {
        ...highlight,
        note: highlight.note ?? '',
      }),
    onSuccess: invalidate,
  });
}

/** Changes a highlight's note; an empty note clears it (`PATCH /api/highlights/:id`). */
export function useUpdateHighlight(itemId: string) {
  const invalidate = useInvalidateReading(itemId);
  return useMutation({
    mutationFn: ({ id, note }: { id: string; note: string }) =>
      apiPost(`/highlights/${encodeURIComponent(id)}`, anyAnswer, { note }, { method: 'PATCH' }),
    onSuccess: invalidate,
  });
}

/**
 * Deletes a highlight and its note (`DELETE /api/highlights/:id`). It leaves the cached state at
 * once (what showed it usually goes with it), then the state loads again.
 */
export function useDeleteHighlight(itemId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/highlights/${encodeURIComponent(id)}`, anyAnswer, { method: 'DELETE' }),
    onSuccess: (_answer, id) => {
      queryClient.setQueryData<ReadingState>(readingKey(itemId), (state) =>
        state
          ? { ...state, highlights: state.highlights.filter((highlight) => highlight.id !== id) }
          : state,
      );
      void queryClient.invalidateQueries({ queryKey: readingKey(itemId) });
    },
  });
}

/** Bookmarks a page or removes its bookmark (`PUT|DELETE /api/items/:id/bookmarks/:page`). */
export function useSetBookmark(itemId: string) {
  const invalidate = useInvalidateReading(itemId);
  return useMutation({
    mutationFn: ({ page, bookmarked }: { page: number; bookmarked: boolean }) =>
      apiRequest(`${itemPath(itemId)}/bookmarks/${page}`, anyAnswer, {
        method: bookmarked ? 'PUT' : 'DELETE',
      }),
    onSuccess: invalidate,
  });
}

/** Where the Markdown export of the caller's notes in a book is downloaded from. */
export const notesExportUrl = (itemId: string) => `/api${itemPath(itemId)}/notes.md`;

/** Where a book's BibTeX or RIS entry is downloaded from. */
export const citationUrl = (itemId: string, format: 'bibtex' | 'ris') =>
  `/api${itemPath(itemId)}/citation?format=${format}`;
