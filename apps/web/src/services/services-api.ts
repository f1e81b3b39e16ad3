// The owner's services as every dashboard page reads them: one query of
// GET /api/v1/services/overview (spec §7), shared by the services list, the plans pages and the
// extension page, so a change made on one page refreshes them all.
import { servicesOverviewSchema, type ServicesOverview, type ServiceSummary } from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api/client.ts';

export const SERVICES_OVERVIEW_PATH = '/api/v1/services/overview';
/** Invalidating ['services'] refreshes the overview and anything else about services. */
export const SERVICES_QUERY_KEY = ['services'] as const;

/** `refetchInterval`: how often this page asks again (while something it shows is changing). */
export function useServicesOverview(
  options: { refetchInterval?: (data: ServicesOverview | undefined) => number | false } = {},
) {
  const { refetchInterval } = options;
  return useQuery({
    queryKey: [...SERVICES_QUERY_KEY, 'overview'],
    queryFn: () => api.get(SERVICES_OVERVIEW_PATH, servicesOverviewSchema),
    refetchInterval: (query) => refetchInterval?.(query.state.data) ?? false,
  });
}

/** The service the spec's lookup picks from the overview list ('Service not found' when absent). */
export function findService<Service extends ServiceSummary>(
  services: readonly Service[],
  id: string | null | undefined,
): Service | null {
  return id ? (services.find((service) => service.id === id) ?? null) : null;
}

/** valid_until as a date, or null when it is missing or not a date (spec §8). */
export function validUntilOf(service: ServiceSummary): Date | null {
  const date = new Date(service.valid_until);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Expired or quarantined, or past its paid time: a plan change is refused until it is extended. */
export function isServiceLapsed(service: ServiceSummary, now: Date = new Date()): boolean {
  if (service.status === 'expired' || service.status === 'quarantined') return true;
  const until = validUntilOf(service);
  return until !== null && until.getTime() <= now.getTime();
}
