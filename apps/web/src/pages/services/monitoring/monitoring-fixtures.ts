// A service's monitoring as the API answers for it, and the fake routes of the monitoring tab,
// for its tests: every answer typed by the contract, so a fixture that drifts fails to compile.
import type {
  ActivityEvent,
  ActivityResponse,
  Alert,
  MonitoringStatusResponse,
  ServiceQuotaResponse,
  Task,
} from '@debesis/contract';
import { MONITORING_BASE_PATH } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from '../../../test/service-fixtures.ts';

export const GB = 1024 ** 3;
export const MB = 1024 ** 2;
const HOUR_MS = 3_600_000;

export const monitoringPath = (path: string) => `${MONITORING_BASE_PATH}${path}`;
export const servicePath = (path: string) => monitoringPath(`/services/${SERVICE_ID}${path}`);

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

export function makeEvent(overrides: Partial<ActivityEvent> = {}): ActivityEvent {
  return {
    id: 'smb:1:1',
    at: ago(5 * 60_000),
    source: 'smb',
    kind: 'file_written',
    user: 'alice',
    path: '/shares/docs/report.pdf',
    target: null,
    bytes: 2 * MB,
    remote_address: '127.0.20.5',
    ...overrides,
  };
}

/** `buckets` hourly buckets ending now; `perBucket(index)` events in each, SMB and FTP. */
export function makeActivity(
  overrides: Partial<ActivityResponse> = {},
  buckets = 24,
  perBucket: (index: number) => { smb: number; ftp: number } = () => ({ smb: 0, ftp: 0 }),
): ActivityResponse {
  const start = Date.now() - buckets * HOUR_MS;
  const series = Array.from({ length: buckets }, (_, index) => {
    const { smb, ftp } = perBucket(index);
    return {
      start: new Date(start + index * HOUR_MS).toISOString(),
      events: smb + ftp,
      bytes: (smb + ftp) * MB,
      by_source: { ...(smb > 0 ? { smb } : {}), ...(ftp > 0 ? { ftp } : {}) },
    };
  });
  const events = series.reduce((sum, bucket) => sum + bucket.events, 0);
  return {
    from: new Date(start).toISOString(),
    to: new Date().toISOString(),
    bucket_seconds: 3600,
    series,
    totals: { events, bytes: events * MB, by_kind: events > 0 ? { file_written: events } : {} },
    users: [],
    events: [],
    next_before: null,
    ...overrides,
  };
}

export function makeQuota(overrides: Partial<ServiceQuotaResponse> = {}): ServiceQuotaResponse {
  return {
    service_id: SERVICE_ID,
    size_bytes: 50 * GB,
    used_bytes: 12 * GB,
    free_bytes: 38 * GB,
    used_percent: 24,
    files: 1234,
    measured_at: ago(10 * 60_000),
    trend: [
      { at: ago(2 * HOUR_MS), used_bytes: 11 * GB, files: 1200 },
      { at: ago(HOUR_MS), used_bytes: 12 * GB, files: 1234 },
    ],
    growth_bytes_per_day: GB,
    full_in_days: 38,
    users: [
      { user_id: null, user: 'alice', bytes: 9 * GB, files: 1000 },
      { user_id: null, user: 'bob', bytes: 2 * GB, files: 200 },
    ],
    other_bytes: GB,
    users_measured_at: ago(HOUR_MS),
    ...overrides,
  };
}

export function makeAlert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: '3b8e1c2d-4f5a-4b6c-8d7e-9f0a1b2c3d4e',
    kind: 'disk_warning',
    level: 'warning',
    service_id: SERVICE_ID,
    service_name: 'Team drive',
    subject: null,
    params: { percent: 83 },
    raised_at: ago(2 * HOUR_MS),
    cleared_at: null,
    ...overrides,
  };
}

export function makeTask(overrides: Partial<Task> = {}): Task {
  return {
    id: `apply:${SERVICE_ID}:4`,
    kind: 'apply',
    state: 'completed',
    service_id: SERVICE_ID,
    service_name: 'Team drive',
    subject: '4',
    started_at: '2026-01-10T09:00:00.000Z',
    finished_at: '2026-01-10T09:00:05.000Z',
    duration_ms: 65_000,
    error_code: null,
    error: null,
    ...overrides,
  };
}

export function makeMonitoringStatus(
  overrides: Partial<MonitoringStatusResponse> = {},
): MonitoringStatusResponse {
  return {
    service_id: SERVICE_ID,
    node: { name: 'node-1', online: true, last_seen_at: ago(30_000) },
    last_apply: {
      generation: 4,
      observed_generation: 4,
      applied_at: ago(HOUR_MS),
      ok: true,
      error_code: null,
    },
    daemons: [
      {
        name: 'samba',
        state: 'up',
        started_at: ago(3 * 86_400_000),
        uptime_seconds: 3 * 86_400 + 4 * 3_600,
        starts_24h: 1,
        reason: null,
      },
      {
        name: 'backup-clients',
        state: 'down',
        started_at: null,
        uptime_seconds: null,
        starts_24h: 4,
        reason: 'exited with code 1',
      },
    ],
    reported_at: ago(30_000),
    active_alerts: 1,
    ...overrides,
  };
}

/** The monitoring routes, each answering what is given; `seen` collects every URL asked for. */
export function monitoringHandlers({
  activity = makeActivity(),
  quota = makeQuota(),
  alerts = [makeAlert()],
  tasks = [makeTask()],
  status = makeMonitoringStatus(),
  seen = [] as URL[],
} = {}) {
  const record = (request: Request) => seen.push(new URL(request.url));
  return [
    http.get(servicePath('/activity'), ({ request }) => {
      record(request);
      return HttpResponse.json(activity);
    }),
    http.get(servicePath('/quota'), ({ request }) => {
      record(request);
      return HttpResponse.json(quota);
    }),
    http.get(servicePath('/status'), ({ request }) => {
      record(request);
      return HttpResponse.json(status);
    }),
    http.get(monitoringPath('/alerts'), ({ request }) => {
      record(request);
      return HttpResponse.json({ alerts });
    }),
    http.get(monitoringPath('/tasks'), ({ request }) => {
      record(request);
      return HttpResponse.json({ tasks });
    }),
  ];
}
