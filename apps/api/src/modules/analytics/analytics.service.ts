// Owns analytics events: what the public site's visitors did, stored only when their browser
// sends it, which it does only after consent to "all" cookies (the web app's consent module).
// Limited per IP address so a script cannot fill the table; the address itself is not stored.
import type { AnalyticsEventRequest, AnalyticsEventResponse } from '@debesis/contract';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { AnalyticsQueries } from './analytics.queries.ts';

export function createAnalyticsService(deps: {
  queries: Pick<AnalyticsQueries, 'insert'>;
  limiter: Pick<RateLimiter, 'assertAllowed' | 'record'>;
  now: () => Date;
}) {
  return {
    async record(event: AnalyticsEventRequest, meta: { ip: string | null }): Promise<AnalyticsEventResponse> {
      const limits: Parameters<RateLimiter['record']>[0] = [[LIMITS.analyticsPerIp, meta.ip ?? 'unknown']];
      await deps.limiter.assertAllowed(limits);
      await deps.limiter.record(limits);
      await deps.queries.insert({
        name: event.name,
        path: event.path,
        target: event.target ?? null,
        language: event.language ?? null,
        createdAt: deps.now(),
      });
      return { status: 'accepted' };
    },
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;
