// A workspace's NFS as the API answers for it (exports, status, clients, stats), and its fake
// routes, for the NFS tab's tests.
import type { NfsClient, NfsExport, NfsStats, NfsStatus } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from './service-fixtures.ts';
import { AT, APPLIED_DAEMON, APPLIED_RESOURCE } from './applied.ts';

export const nfsPath = (path = '') => `/api/v1/nfs/${SERVICE_ID}${path}`;

/** A read-write export of shares/projects to a /24, owned by alice, applied. */
export function makeNfsExport(overrides: Partial<NfsExport> = {}): NfsExport {
  return {
    path: 'shares/projects',
    client: '192.168.1.0/24',
    access: 'read_write',
    description: '',
    owner: 'alice',
    mount: '127.0.10.7:/shares/projects',
    ...APPLIED_RESOURCE,
    ...overrides,
  };
}

export function makeNfsStatus(overrides: Partial<NfsStatus> = {}): NfsStatus {
  return {
    ...APPLIED_DAEMON,
    port: 2049,
    protocol: 'nfs4',
    live: true,
    serving: true,
    reason: null,
    exports: 1,
    limit: 100,
    clients: 0,
    connected: 0,
    ...overrides,
  };
}

export function makeNfsClient(overrides: Partial<NfsClient> = {}): NfsClient {
  return {
    address: '192.168.1.10',
    version: '4.2',
    connected: true,
    client_name: 'Linux NFSv4.2 laptop',
    mount_point: null,
    exports: ['shares/projects'],
    ...overrides,
  };
}

/** Stats as the API gives them while the server has no counters: clients per export only. */
export function statsOf(exports: readonly NfsExport[], clients: readonly NfsClient[]): NfsStats {
  return {
    counters: 'unavailable',
    reported_at: AT,
    clients: clients.length,
    connected: clients.filter((client) => client.connected).length,
    exports: exports.map((entry) => {
      const admitted = clients.filter((client) => client.exports.includes(entry.path));
      return {
        path: entry.path,
        client: entry.client,
        access: entry.access,
        clients: admitted.length,
        connected: admitted.filter((client) => client.connected).length,
        operations: null,
        bytes_read: null,
        bytes_written: null,
      };
    }),
  };
}

/** The routes the NFS tab reads, with an NFS that has what is given. */
export function nfsHandlers({
  exports = [makeNfsExport()] as NfsExport[],
  status = makeNfsStatus(),
  clients = [] as NfsClient[],
} = {}) {
  return [
    http.get(nfsPath('/status'), () => HttpResponse.json(status)),
    http.get(nfsPath('/shares'), () => HttpResponse.json({ exports, limit: 100 })),
    http.get(nfsPath('/clients'), () => HttpResponse.json({ clients, reported_at: AT })),
    http.get(nfsPath('/stats'), () => HttpResponse.json(statsOf(exports, clients))),
  ];
}
