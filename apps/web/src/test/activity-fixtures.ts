// The activity log and the account summary (GET /api/v1/dashboard/) as the API answers them,
// for the activity page and the services list.
import {
  SERVICE_STATUSES,
  type ActivityEntry,
  type ActivityPage,
  type DashboardSummary,
} from '@debesis/contract';
import { http, HttpResponse } from 'msw';

let counter = 0;

export function makeEntry(overrides: Partial<ActivityEntry> = {}): ActivityEntry {
  counter += 1;
  return {
    id: `e0000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    action: 'order created',
    tone: 'success',
    ip: '203.0.113.7',
    created_at: new Date().toISOString(),
    service_id: null,
    service_name: null,
    details: {},
    ...overrides,
  };
}

/** A summary of an account with nothing yet; `overrides` replace whole sections. */
export function makeDashboardSummary(overrides: Partial<DashboardSummary> = {}): DashboardSummary {
  return {
    services: {
      total: 0,
      by_status: Object.fromEntries(
        SERVICE_STATUSES.map((status) => [status, 0]),
      ) as DashboardSummary['services']['by_status'],
    },
    expiring_soon: { within_days: 7, services: [] },
    unpaid_orders: { count: 0, amount: 0, currency: 'EUR', orders: [] },
    credit: { balance: 0, currency: 'EUR' },
    latest_activity: [],
    ...overrides,
  };
}

export function dashboardHandler(summary: DashboardSummary = makeDashboardSummary()) {
  return http.get('/api/v1/dashboard/', () => HttpResponse.json(summary));
}

/**
 * GET /activity/filtered over `entries` as the API would answer: by kind, tone and dates, paged
 * by skip and limit. Each request's query is pushed to `seen`.
 */
export function activityHandler(entries: ActivityEntry[], seen: URLSearchParams[] = []) {
  return http.get('/api/v1/activity/filtered', ({ request }) => {
    const query = new URL(request.url).searchParams;
    seen.push(query);
    const kind = query.get('kind');
    const tone = query.get('tone');
    const matching = entries.filter(
      (entry) =>
        (kind === null || (kind === 'login') === (entry.action === 'user logged in')) &&
        (tone === null || entry.tone === tone),
    );
    const skip = Number(query.get('skip') ?? 0);
    const limit = Number(query.get('limit') ?? 50);
    const page: ActivityPage = {
      items: matching.slice(skip, skip + limit),
      total: matching.length,
      skip,
      limit,
    };
    return HttpResponse.json(page);
  });
}
