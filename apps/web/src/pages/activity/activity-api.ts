// The activity calls of spec service-management §7 as the activity page and the services list
// use them: the filtered log (management or login history) and the account summary
// (GET /api/v1/dashboard/). Empty filter values never leave the browser (spec §5).
import {
  activityPageSchema,
  dashboardSummarySchema,
  withoutBlankFilters,
  type ActivityKind,
  type ActivityTone,
} from '@debesis/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client.ts';

export const ACTIVITY_FILTERED_PATH = '/api/v1/activity/filtered';
export const DASHBOARD_PATH = '/api/v1/dashboard/';
export const ACTIVITY_QUERY_KEY = ['activity'] as const;

export interface ActivityFilterValues {
  tone: ActivityTone | '';
  start_date: string;
  end_date: string;
}

export const NO_ACTIVITY_FILTERS: ActivityFilterValues = { tone: '', start_date: '', end_date: '' };

/** The query of one page of a history: blank filters dropped, skip from the page number. */
export function activityParams(
  kind: ActivityKind,
  filters: ActivityFilterValues,
  page: number,
  limit: number,
): Record<string, string | number> {
  return {
    ...withoutBlankFilters({ kind, ...filters }),
    skip: (page - 1) * limit,
    limit,
  };
}

export function useActivity(kind: ActivityKind, filters: ActivityFilterValues, page: number, limit: number) {
  return useQuery({
    queryKey: [...ACTIVITY_QUERY_KEY, kind, filters, page, limit],
    queryFn: () =>
      api.get(ACTIVITY_FILTERED_PATH, activityPageSchema, {
        params: activityParams(kind, filters, page, limit),
      }),
    // The page on screen stays while the next page of the same history loads; another history
    // never shows the previous one's entries.
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === kind ? keepPreviousData(previous) : undefined,
  });
}

export function useDashboardSummary() {
  return useQuery({
    queryKey: [...ACTIVITY_QUERY_KEY, 'dashboard'],
    queryFn: () => api.get(DASHBOARD_PATH, dashboardSummarySchema),
  });
}
