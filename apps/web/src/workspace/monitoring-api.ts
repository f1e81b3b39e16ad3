// A service's monitoring (spec §3 `monitoring` tab, §9 windows; base /api/v1/monitoring): every
// call the monitoring tab makes, typed by the contract (packages/contract/src/features/monitoring/monitoring.ts). The
// tasks and alerts routes are the account's, asked for one service (`service_id`); their keys sit
// under the service's all the same, so a change to the service refreshes them with the rest.
import {
  activityResponseSchema,
  alertsResponseSchema,
  MONITORING_BASE_PATH,
  monitoringStatusResponseSchema,
  serviceQuotaResponseSchema,
  tasksResponseSchema,
  type ActivityEventKind,
  type ActivityResponse,
  type ActivitySource,
  type AlertLevel,
} from '@debesis/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';
import { segment, workspaceKeys } from './workspace-keys.ts';

/** §9: a window of hours, or real time (the last `minutes`, minute by minute). */
export type ActivityWindow = { hours: number } | { minutes: number };

/** What narrows an activity page beyond its window. */
export interface ActivityFilter {
  kind?: ActivityEventKind;
  source?: ActivitySource;
  /** One workspace user's events (by name). */
  user?: string;
  limit?: number;
}

/**
 * How often real time is asked again. The node reports every pass and the buckets are a minute
 * wide: 10 s keeps the newest minute moving without asking for the same answer many times over.
 */
export const REALTIME_POLL_MS = 10_000;

/** The window as a key segment: `h24`, `m100`. */
const windowKey = (window: ActivityWindow): string =>
  'minutes' in window ? `m${window.minutes}` : `h${window.hours}`;

const activityParams = (window: ActivityWindow, filter: ActivityFilter, before: string | undefined) => ({
  ...('minutes' in window ? { minutes: window.minutes } : { hours: window.hours }),
  kind: filter.kind,
  source: filter.source,
  user: filter.user,
  limit: filter.limit,
  before,
});

export const monitoringApi = {
  serviceActivity: (
    serviceId: string,
    window: ActivityWindow,
    filter: ActivityFilter = {},
    before?: string,
  ) =>
    api.get(`${MONITORING_BASE_PATH}/services/${segment(serviceId)}/activity`, activityResponseSchema, {
      params: activityParams(window, filter, before),
    }),
  userActivity: (userId: string, window: ActivityWindow, filter: ActivityFilter = {}, before?: string) =>
    api.get(`${MONITORING_BASE_PATH}/users/${segment(userId)}/activity`, activityResponseSchema, {
      params: activityParams(window, filter, before),
    }),
  serviceQuota: (serviceId: string, hours: number) =>
    api.get(`${MONITORING_BASE_PATH}/services/${segment(serviceId)}/quota`, serviceQuotaResponseSchema, {
      params: { hours },
    }),
  tasks: (query: { hours: number; serviceId?: string; jobId?: string }) =>
    api.get(`${MONITORING_BASE_PATH}/tasks`, tasksResponseSchema, {
      params: { hours: query.hours, service_id: query.serviceId, job_id: query.jobId },
    }),
  alerts: (query: { hours: number; serviceId?: string; level?: AlertLevel }) =>
    api.get(`${MONITORING_BASE_PATH}/alerts`, alertsResponseSchema, {
      params: { hours: query.hours, service_id: query.serviceId, level: query.level },
    }),
  status: (serviceId: string) =>
    api.get(`${MONITORING_BASE_PATH}/services/${segment(serviceId)}/status`, monitoringStatusResponseSchema),
};

/** Real time asks again every REALTIME_POLL_MS; a window of hours only when asked. */
const pollOf = (window: ActivityWindow): number | false => ('minutes' in window ? REALTIME_POLL_MS : false);

/** The older page after `page`, or none. */
const nextBefore = (page: ActivityResponse): string | undefined => page.next_before ?? undefined;

/**
 * A service's activity: the first page carries the chart, totals and top users; "Load more" adds
 * older events (`next_before`). Real time asks again by itself, every page it has loaded.
 */
export function useServiceActivity(serviceId: string, window: ActivityWindow, filter: ActivityFilter = {}) {
  return useInfiniteQuery({
    queryKey: [...workspaceKeys.monitoringActivity(serviceId, windowKey(window)), filter],
    queryFn: ({ pageParam }) => monitoringApi.serviceActivity(serviceId, window, filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextBefore,
    refetchInterval: pollOf(window),
  });
}

/** One workspace user's activity (`userId`: the user's id), paged as the service's. */
export function useUserActivity(
  serviceId: string,
  userId: string,
  window: ActivityWindow,
  filter: ActivityFilter = {},
) {
  return useInfiniteQuery({
    queryKey: [...workspaceKeys.monitoringUserActivity(serviceId, userId, windowKey(window)), filter],
    queryFn: ({ pageParam }) => monitoringApi.userActivity(userId, window, filter, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: nextBefore,
    refetchInterval: pollOf(window),
  });
}

export function useServiceQuota(serviceId: string, hours: number) {
  return useQuery({
    queryKey: workspaceKeys.monitoringQuota(serviceId, hours),
    queryFn: () => monitoringApi.serviceQuota(serviceId, hours),
  });
}

/** The service's tasks started within `hours` (provisioning, applies, backups, restores). */
export function useServiceTasks(serviceId: string, hours: number) {
  return useQuery({
    queryKey: workspaceKeys.monitoringTasks(serviceId, hours),
    queryFn: () => monitoringApi.tasks({ hours, serviceId }),
  });
}

/** The service's alerts raised within `hours`, and every one still active. */
export function useServiceAlerts(serviceId: string, hours: number) {
  return useQuery({
    queryKey: workspaceKeys.monitoringAlerts(serviceId, hours),
    queryFn: () => monitoringApi.alerts({ hours, serviceId }),
  });
}

export function useMonitoringStatus(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.monitoringStatus(serviceId),
    queryFn: () => monitoringApi.status(serviceId),
  });
}
