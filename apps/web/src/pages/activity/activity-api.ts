// The activity calls of spec service-management §7 as the activity page, the services list and a
// service's Activity tab use them: the filtered log (management or login history), the account
// summary (GET /api/v1/dashboard/), a service's own entries (GET /activity/audit/{id}) and its log
// (GET /services/{id}/logs). Empty filter values never leave the browser (spec §5).
import {
  activityPageSchema,
  dashboardSummarySchema,
  SERVICE_LOG_LINES_DEFAULT,
  serviceLogsSchema,
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

export const serviceAuditPath = (serviceId: string) =>
  `/api/v1/activity/audit/${encodeURIComponent(serviceId)}`;
export const serviceLogPath = (serviceId: string) => `/api/v1/services/${encodeURIComponent(serviceId)}/logs`;

/** One page of a service's own entries (GET /activity/audit/{serviceId}). */
export function useServiceAudit(serviceId: string, page: number, limit: number) {
  return useQuery({
    queryKey: [...ACTIVITY_QUERY_KEY, 'audit', serviceId, page, limit],
    queryFn: () =>
      api.get(serviceAuditPath(serviceId), activityPageSchema, {
        params: { skip: (page - 1) * limit, limit },
      }),
    placeholderData: keepPreviousData,
  });
}

/** The newest lines of a service's log (spec §9: 100 by default), oldest first as the API gives them. */
export function useServiceLog(serviceId: string, lines = SERVICE_LOG_LINES_DEFAULT) {
  return useQuery({
    queryKey: [...ACTIVITY_QUERY_KEY, 'log', serviceId, lines],
    queryFn: () => api.get(serviceLogPath(serviceId), serviceLogsSchema, { params: { lines } }),
  });
}
