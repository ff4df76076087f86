import { useQuery } from '@tanstack/react-query';
import { healthResponseSchema, type HealthResponse } from '#contract/http/health.ts';
import { apiRequest } from './client.ts';

/** Cache key of `GET /api/health`. */
export const HEALTH_KEY = ['health'] as const;

/** How often the desk asks again while items are still being prepared for search by meaning. */
export const MEANING_PROGRESS_INTERVAL_MS = 10_000;

/** Whether the server is still embedding items: search by meaning on, and fewer ready than all. */
export function preparingMeaning(health: HealthResponse | undefined): boolean {
  const meaning = health?.searchByMeaning;
  return (
    meaning?.available === true &&
    meaning.embedded !== undefined &&
    meaning.total !== undefined &&
    meaning.embedded < meaning.total
  );
}

/**
 * The server's health, with whether search by meaning is on and how many items are ready for
 * it; asked again every ten seconds while the server is still preparing them.
 */
export function useHealth() {
  return useQuery({
    queryKey: HEALTH_KEY,
    queryFn: () => apiRequest('/health', healthResponseSchema),
    refetchInterval: (current) =>
      preparingMeaning(current.state.data) ? MEANING_PROGRESS_INTERVAL_MS : false,
  });
}
