import { useQuery } from '@tanstack/react-query';
import {
  SUGGEST_QUERY_MIN,
  suggestResponseSchema,
  type Suggestion,
} from '#contract/http/suggestions.ts';
import { useDebouncedValue } from '../hooks/use-debounced-value.ts';
import { apiRequest } from './client.ts';

/** How long typing must pause before suggestions are asked for. */
export const SUGGEST_DEBOUNCE_MS = 150;

const NONE: Suggestion[] = [];

/**
 * As-you-type suggestions for `text` once it has `SUGGEST_QUERY_MIN` characters and typing has
 * paused for {@link SUGGEST_DEBOUNCE_MS}. A request the next keystrokes made stale is aborted
 * (TanStack Query aborts the signal of a query nobody watches any more). While the next answer
 * loads, the last one stays shown if it was for a text that runs on into this one or back ('har'
 * while 'harr' loads), so the list does not flicker; never one for a text since replaced.
 */
export function useSuggestions(text: string, enabled: boolean) {
  const typed = text.trim();
  const settled = useDebouncedValue(typed, SUGGEST_DEBOUNCE_MS);
  const asking = enabled && settled.length >= SUGGEST_QUERY_MIN;
  const query = useQuery({
    queryKey: ['suggest', settled],
    queryFn: async ({ signal }) => {
      const answer = await apiRequest(
        `/search/suggest?${new URLSearchParams({ q: settled }).toString()}`,
        suggestResponseSchema,
        { signal },
      );
      return { text: settled, suggestions: answer.suggestions };
    },
    enabled: asking,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
  const answer = query.data;
  if (!asking || typed.length < SUGGEST_QUERY_MIN || !answer) return NONE;
  const [was, now] = [answer.text.toLowerCase(), typed.toLowerCase()];
  return now.startsWith(was) || was.startsWith(now) ? answer.suggestions : NONE;
}
