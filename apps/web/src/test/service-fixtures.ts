// Services as GET /services/overview lists them, for the pages that read the overview.
import type { ServiceSummary } from '@debesis/contract';
import { http, HttpResponse } from 'msw';

export const SERVICE_ID = '7d1f0a52-3c4b-4e8a-9f61-2b5c8d7e9a01';

/** A MINI workspace (50 GB, 5 users, 12-month period), being set up. */
export function makeService(overrides: Partial<ServiceSummary> = {}): ServiceSummary {
  return {
    id: SERVICE_ID,
    order_id: 'ord-1',
    name: 'Team drive',
    plan: 'MINI',
    product_id: 'mini',
    period_id: '12m',
    status: 'processing',
    valid_until: '2027-01-15T09:00:00.000Z',
    ip_address: null,
    disk_space: 50,
    disk_usage: null,
    file_usage: null,
    users_active: 0,
    users_total: 5,
    groups: 0,
    shares: 0,
    monthly_price: 1499,
    uptime: null,
    ...overrides,
  };
}

/** GET /services/overview answering with `services`. */
export function overviewHandler(services: ServiceSummary[]) {
  return http.get('/api/v1/services/overview', () => HttpResponse.json({ services }));
}
