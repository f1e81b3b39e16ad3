// A workspace's VPN as the API answers for it (users, status, sessions, traffic), and its fake
// routes, for the VPN tab's tests.
import type { VpnSession, VpnStatus, VpnTrafficResponse, VpnUser } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from './service-fixtures.ts';
import { AT, APPLIED_DAEMON, APPLIED_RESOURCE } from './applied.ts';

export const MB = 1024 ** 2;
export const GB = 1024 ** 3;

export const vpnPath = (path = '') => `/api/v1/vpn/${SERVICE_ID}${path}`;

/** An enabled, offline user with no limit and nothing used, everything applied. */
export function makeVpnUser(overrides: Partial<VpnUser> = {}): VpnUser {
  return {
    id: '0b9d6c1e-8a47-4f2b-9d3e-5c6a7b8c9d01',
    username: 'alice',
    enabled: true,
    full_name: 'Alice Example',
    email: 'alice@example.com',
    traffic_limit_bytes: 0,
    traffic_used_bytes: 0,
    over_limit: false,
    revoked_at: null,
    online: false,
    real_ip: null,
    virtual_ip: null,
    bytes_sent: 0,
    bytes_received: 0,
    connected_since: null,
    ...APPLIED_RESOURCE,
    ...overrides,
  };
}

export function makeVpnStatus(overrides: Partial<VpnStatus> = {}): VpnStatus {
  return {
    ...APPLIED_DAEMON,
    port: 1194,
    protocol: 'udp',
    tunnel_address: '10.8.0.1',
    tunnel_network: '10.8.0.0/24',
    live: true,
    serving: true,
    reason: null,
    users: 1,
    sessions: 0,
    limit: 5,
    ...overrides,
  };
}

export function makeVpnSession(overrides: Partial<VpnSession> = {}): VpnSession {
  return {
    user_id: '0b9d6c1e-8a47-4f2b-9d3e-5c6a7b8c9d01',
    username: 'alice',
    backup_client: false,
    real_address: '127.0.20.5:51234',
    virtual_address: '10.8.0.2',
    bytes_sent: 3 * MB,
    bytes_received: 1536 * 1024,
    connected_since: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

/** `count` hourly buckets ending now, `bytes(i)` received and half as much sent in each. */
export function makeTraffic(
  range: VpnTrafficResponse['range'],
  count: number,
  bytes: (index: number) => number,
): VpnTrafficResponse {
  const step = range === '24h' ? 3_600_000 : 86_400_000;
  const start = Date.UTC(2026, 0, 10, 0, 0, 0) - count * step;
  return {
    range,
    buckets: Array.from({ length: count }, (_, index) => ({
      start: new Date(start + index * step).toISOString(),
      bytes_received: bytes(index),
      bytes_sent: Math.floor(bytes(index) / 2),
    })),
  };
}

/** The routes the VPN tab reads, with a VPN that has what is given. */
export function vpnHandlers({
  users = [makeVpnUser()],
  limit = 5,
  status = makeVpnStatus(),
  sessions = [] as VpnSession[],
  traffic = makeTraffic('24h', 24, () => 0),
} = {}) {
  return [
    http.get(vpnPath('/status'), () => HttpResponse.json(status)),
    http.get(vpnPath('/users'), () => HttpResponse.json({ users, limit })),
    http.get(vpnPath('/sessions'), () => HttpResponse.json({ sessions, reported_at: AT })),
    http.get(vpnPath('/traffic'), ({ request }) => {
      const range = new URL(request.url).searchParams.get('range');
      return HttpResponse.json(range === traffic.range ? traffic : { range, buckets: [] });
    }),
  ];
}
