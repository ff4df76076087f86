import { useQuery } from '@tanstack/react-query';
import {
  deskTodaySchema,
  insightsResponseSchema,
  myMaterialsInsightsSchema,
  openedResponseSchema,
  type InsightsPanel,
  type InsightsPeriod,
} from '#contract/http/insights.ts';
import { apiPost, apiRequest } from './client.ts';

/** Everything cached about library insights. */
export const INSIGHTS_KEY = ['insights'] as const;

/** Every insights panel of one period (librarians). */
export function useInsights(period: InsightsPeriod) {
  return useQuery({
    queryKey: [...INSIGHTS_KEY, 'library', period],
    queryFn: () => apiRequest(`/insights?period=${period}`, insightsResponseSchema),
  });
}

/** The address of one panel's CSV download. */
export function insightsCsvAddress(panel: InsightsPanel, period: InsightsPeriod): string {
  return `/api/insights/export.csv?${new URLSearchParams({ panel, period: String(period) })}`;
}

/** How often the caller's own published course materials were opened, per week. */
export function useMyMaterialOpens(enabled = true) {
  return useQuery({
    queryKey: [...INSIGHTS_KEY, 'my-materials'],
    queryFn: () => apiRequest('/insights/my-materials', myMaterialsInsightsSchema),
    enabled,
  });
}

/** The desk's numbers for today: pickups waiting, overdue loans, open requests. */
export function useDeskToday() {
  return useQuery({
    queryKey: [...INSIGHTS_KEY, 'today'],
    queryFn: () => apiRequest('/insights/today', deskTodaySchema),
  });
}

/**
 * Tells the server a course material was opened in the reader, to be counted (never linked to
 * the person). Fire and forget: a failure changes nothing for the reader.
 */
export function countMaterialOpened(itemId: string): void {
  apiPost(`/items/${encodeURIComponent(itemId)}/opened`, openedResponseSchema, {}).catch(() => {});
}
