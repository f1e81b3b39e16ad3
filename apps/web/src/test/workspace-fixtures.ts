// A service's workspace as the API answers for it (overview item, users, groups, Samba shares and
// status), and the fake routes of the service pages, for the service detail tests.
import type {
  SambaShare,
  SambaStatus,
  ServiceOverviewItem,
  ServiceStatusDetail,
  WorkspaceGroup,
  WorkspaceUser,
} from '@debesis/contract';
import { CSRF_COOKIE } from '@debesis/contract';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { makeServiceNetwork, networkHandler } from './network-fixtures.ts';
import { makeService, SERVICE_ID } from './service-fixtures.ts';
import { AT, APPLIED_DAEMON, APPLIED_RESOURCE } from './applied.ts';

/** An active MINI workspace on a node, everything applied. */
export function makeOverviewItem(overrides: Partial<ServiceOverviewItem> = {}): ServiceOverviewItem {
  return {
    ...makeService({
      status: 'active',
      ip_address: '127.0.10.7',
      disk_usage: 1536 * 1024 * 1024,
      file_usage: 1234,
      users_active: 2,
      groups: 1,
      shares: 1,
      uptime: 3 * 86_400 + 4 * 3_600,
    }),
    description: '',
    run_state: 'running',
    display_state: 'running',
    display_reason: null,
    apply_status: 'applied',
    actions: ['stop', 'restart', 'extend', 'cancel', 'terminate'],
    expiry_warning: null,
    days_left: 365,
    terminates_at: null,
    replica: { state: 'none', node: null, last_in_sync_at: null },
    auto_renew: true,
    ...overrides,
  };
}

export function makeStatus(overrides: Partial<ServiceStatusDetail> = {}): ServiceStatusDetail {
  return {
    id: SERVICE_ID,
    name: 'Team drive',
    status: 'active',
    run_state: 'running',
    display_state: 'running',
    display_reason: null,
    apply_status: 'applied',
    generation: 4,
    observed_generation: 4,
    placed: true,
    node_online: true,
    drivers: [{ driver: 'samba', live: true, reason: null }],
    failures: [],
    last_error: null,
    reported_at: AT,
    started_at: AT,
    uptime: 100,
    ...overrides,
  };
}

export function makeWorkspaceUser(overrides: Partial<WorkspaceUser> = {}): WorkspaceUser {
  return {
    id: '7d0c3c52-5f4e-4d3a-9a61-2f0b9c1e8a01',
    name: 'alice',
    uid: 1_000_001,
    active: true,
    primary_group: null,
    groups: [],
    ...APPLIED_RESOURCE,
    ...overrides,
  };
}

export function makeGroup(overrides: Partial<WorkspaceGroup> = {}): WorkspaceGroup {
  return {
    name: 'team',
    description: 'The whole team',
    gid: 1_000_100,
    members: [],
    ...APPLIED_RESOURCE,
    ...overrides,
  };
}

export function makeShare(overrides: Partial<SambaShare> = {}): SambaShare {
  return {
    name: 'projects',
    path: 'shares/projects',
    description: '',
    guest_ok: false,
    browseable: true,
    bind_public_ip: false,
    users: [],
    groups: [],
    ...APPLIED_RESOURCE,
    ...overrides,
  };
}

export function makeSambaStatus(overrides: Partial<SambaStatus> = {}): SambaStatus {
  return {
    ...APPLIED_DAEMON,
    public_address: true,
    live: true,
    reason: null,
    shares: 1,
    settings: {
      workgroup: 'WORKGROUP',
      server_string: 'Debesis',
      min_protocol: 'SMB2',
      apply_status: 'applied',
      apply_error: null,
    },
    ...overrides,
  };
}

export const directoryPath = (path = '') => `/api/v1/user-groups/${SERVICE_ID}${path}`;
export const sambaPath = (path = '') => `/api/v1/samba/${SERVICE_ID}${path}`;
export const servicePath = (path = '') => `/api/v1/services/${SERVICE_ID}${path}`;

/** An error body as the API sends it. */
export function apiError(status: number, detail: string, message: string, errors?: JsonBodyType) {
  return HttpResponse.json({ detail, message, ...(errors ? { errors } : {}) }, { status });
}

/**
 * Answers `answers` in turn, the last one from then on: a list that is applying at first and
 * applied when asked again.
 */
export function inTurn(answers: readonly JsonBodyType[]) {
  let next = 0;
  return () => {
    const answer = answers[Math.min(next, answers.length - 1)];
    next += 1;
    return HttpResponse.json(answer ?? null);
  };
}

/** The routes every tab of one service reads, with a workspace that has what is given. */
export function workspaceHandlers({
  service = makeOverviewItem(),
  users = [makeWorkspaceUser()],
  limit = 5,
  groups = [] as WorkspaceGroup[],
  shares = [] as SambaShare[],
  samba = makeSambaStatus(),
  status = makeStatus(),
  network = makeServiceNetwork(),
} = {}) {
  return [
    networkHandler(network, service.id),
    http.get('/api/v1/services/overview', () => HttpResponse.json({ services: [service] })),
    http.get(servicePath('/status'), () => HttpResponse.json(status)),
    http.get(directoryPath('/users'), () => HttpResponse.json({ users, limit })),
    http.get(directoryPath('/groups'), () => HttpResponse.json({ groups })),
    http.get(sambaPath('/shares'), () => HttpResponse.json({ shares })),
    http.get(sambaPath('/status'), () => HttpResponse.json(samba)),
  ];
}

/** The CSRF cookie a browser has after its first visit, so changes need no extra request. */
export function setCsrfCookie(): void {
  document.cookie = `${CSRF_COOKIE}=csrf; path=/`;
}
