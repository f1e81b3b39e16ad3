// A workspace's network link as GET /api/v1/network/{id} answers it (contract ServiceNetwork).
import type { ServiceNetwork } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from './service-fixtures.ts';

export const GIB = 1024 ** 3;

/** Reached by any client (a node with client routes), 10 % of a MINI's 100 GB used. */
export function makeServiceNetwork(overrides: Partial<ServiceNetwork> = {}): ServiceNetwork {
  return {
    reachable_from: 'routes',
    client_routes: ['0.0.0.0/0'],
    vpn_only: false,
    services_address: '198.18.0.1',
    reported_at: '2026-11-20T10:00:00.000Z',
    bandwidth: {
      period_start: '2026-11-03T09:00:00.000Z',
      period_end: '2026-12-03T09:00:00.000Z',
      limit_bytes: 100 * GIB,
      used_bytes: 10 * GIB,
      received_bytes: 6 * GIB,
      sent_bytes: 4 * GIB,
      percent: 10,
      throttled: false,
      throttle_kbit: 10_000,
    },
    ...overrides,
  };
}

export function networkHandler(network: ServiceNetwork = makeServiceNetwork(), serviceId = SERVICE_ID) {
  return http.get(`/api/v1/network/${serviceId}`, () => HttpResponse.json(network));
}
