// A workspace's backups as the API answers for them (schedules, history, a backup's folders,
// restores, usage, the folders a schedule may name, backup clients), and their fake routes, for
// the backups tab's tests.
import type {
  SnapshotsListResponse,
  BackupBrowseResponse,
  BackupClient,
  BackupClientsResponse,
  BackupRestore,
  BackupSchedule,
  BackupSession,
  BackupSources,
  BackupUsage,
  SnapshotEntry,
} from '@debesis/contract';
import { PROVIDER_BACKUP_RETENTION } from '@debesis/contract';
import { http, HttpResponse } from 'msw';
import { SERVICE_ID } from './service-fixtures.ts';
import { AT } from './applied.ts';

export const backupsPath = (path = '') => `/api/v1/backups/${SERVICE_ID}${path}`;

/** The storage's snapshots (GET /api/v1/snapshots/{id}): two scheduled, none on demand, by default. */
export function makeSnapshotsList(overrides: Partial<SnapshotsListResponse> = {}): SnapshotsListResponse {
  return {
    supported: true,
    reason: null,
    snapshots: [
      { name: '@GMT-2026.01.10-09.45.00', taken_at: '2026-01-10T09:45:00.000Z', kind: 'scheduled' },
      { name: '@GMT-2026.01.10-09.30.00', taken_at: '2026-01-10T09:30:00.000Z', kind: 'scheduled' },
    ],
    reported_at: '2026-01-10T09:45:05.000Z',
    interval_minutes: 15,
    ...overrides,
  };
}

export const PROVIDER_SCHEDULE_ID = '0b6e4f1a-2c3d-4e5f-8a9b-1c2d3e4f5a6b';
export const SCHEDULE_ID = '1c7f5a2b-3d4e-4f6a-9b0c-2d3e4f5a6b7c';
export const SESSION_ID = '2d8a6b3c-4e5f-4a7b-8c1d-3e4f5a6b7c8d';
export const RESTORE_ID = '3e9b7c4d-5f6a-4b8c-9d2e-4f5a6b7c8d9e';
export const CLIENT_ID = '4f0c8d5e-6a7b-4c9d-8e3f-5a6b7c8d9e0a';

/** Where the clients push: the workspace tunnel's server address and the REST server's port. */
export const CLIENT_ENDPOINT: BackupClientsResponse['endpoint'] = { address: '10.8.0.1', port: 8000 };
/** The clients' quota of the fixtures' workspace (its plan's disk, 100 GB). */
export const CLIENT_QUOTA_BYTES = 100 * 1024 ** 3;
export const clientsUsedBytes = (clients: readonly BackupClient[]) =>
  clients.reduce((sum, client) => sum + (client.repository_bytes ?? 0), 0);

/** The owner's weekly backup of the projects share and alice's home, Sunday 02:00 in Vilnius, active. */
export function makeBackupSchedule(overrides: Partial<BackupSchedule> = {}): BackupSchedule {
  return {
    id: SCHEDULE_ID,
    name: 'Projects weekly',
    frequency: 'weekly',
    hour: 2,
    minute: 0,
    weekday: 0,
    month_day: 1,
    time_zone: 'Europe/Vilnius',
    paths: [
      { kind: 'share', name: 'projects' },
      { kind: 'home', name: 'alice' },
    ],
    keep_full: 4,
    keep_incremental: 14,
    full_every_days: 7,
    state: 'active',
    provider_managed: false,
    next_run_at: '2026-01-11T00:00:00.000Z',
    last_session: null,
    created_at: AT,
    ...overrides,
  };
}

/** The provider's daily backup of the whole workspace (§9: seven days kept). */
export function makeProviderSchedule(overrides: Partial<BackupSchedule> = {}): BackupSchedule {
  return makeBackupSchedule({
    id: PROVIDER_SCHEDULE_ID,
    name: 'Daily backup',
    frequency: 'daily',
    paths: [],
    ...PROVIDER_BACKUP_RETENTION,
    provider_managed: true,
    next_run_at: '2026-01-11T00:00:00.000Z',
    last_session: { id: SESSION_ID, status: 'completed', at: AT },
    ...overrides,
  });
}

/** A completed incremental run of the weekly schedule that can be browsed. */
export function makeBackupSession(overrides: Partial<BackupSession> = {}): BackupSession {
  return {
    id: SESSION_ID,
    schedule_id: SCHEDULE_ID,
    schedule_name: 'Projects weekly',
    type: 'incremental',
    trigger: 'schedule',
    status: 'completed',
    created_at: AT,
    started_at: AT,
    finished_at: '2026-01-10T09:01:05.000Z',
    duration_seconds: 65,
    size_added: 1536 * 1024 * 1024,
    files: 1200,
    files_new: 12,
    progress: null,
    browsable: true,
    pruned: false,
    error_code: null,
    error: null,
    ...overrides,
  };
}

export function makeBackupRestore(overrides: Partial<BackupRestore> = {}): BackupRestore {
  return {
    id: RESTORE_ID,
    session_id: SESSION_ID,
    path: '/shares/projects',
    target: 'folder',
    restored_to: '/shares/projects (restored 2026-01-10)',
    status: 'completed',
    created_at: AT,
    finished_at: AT,
    files_restored: 40,
    error_code: null,
    error: null,
    ...overrides,
  };
}

export function makeBackupUsage(overrides: Partial<BackupUsage> = {}): BackupUsage {
  return {
    repository_bytes: 3 * 1024 * 1024 * 1024,
    stored_bytes: 2 * 1024 * 1024 * 1024,
    snapshots: 9,
    measured_at: AT,
    last_success_at: AT,
    ...overrides,
  };
}

/** A laptop that is online and has pushed 12 backups, the last one an hour ago. */
export function makeBackupClient(overrides: Partial<BackupClient> = {}): BackupClient {
  const name = overrides.name ?? 'ona-laptop';
  return {
    id: CLIENT_ID,
    name,
    status: 'connected',
    revoked_at: null,
    vpn_online: true,
    pushing: false,
    last_push_at: new Date(Date.now() - 60 * 60_000).toISOString(),
    off_node_at: new Date(Date.now() - 59 * 60_000).toISOString(),
    snapshots: 12,
    repository_bytes: 1536 * 1024 * 1024,
    repository_url: `rest:http://${name}@10.8.0.1:8000/${name}/`,
    created_at: AT,
    ...overrides,
  };
}

export const BACKUP_SOURCES: BackupSources = {
  shares: ['projects', 'media'],
  homes: ['alice', 'bob'],
  exports: ['shares/projects'],
};

export function entry(name: string, overrides: Partial<SnapshotEntry> = {}): SnapshotEntry {
  return { name, type: 'dir', size: null, modified_at: AT, ...overrides };
}

export function listing(path: string, entries: SnapshotEntry[], truncated = false): BackupBrowseResponse {
  return { path, entries, truncated };
}

/** The routes the backups tab reads, with backups that have what is given. */
export function backupHandlers({
  schedules = [makeProviderSchedule(), makeBackupSchedule()] as BackupSchedule[],
  sessions = [makeBackupSession()] as BackupSession[],
  restores = [] as BackupRestore[],
  usage = makeBackupUsage(),
  sources = BACKUP_SOURCES,
  clients = [] as BackupClient[],
  clientLimit = 5,
  snapshots = makeSnapshotsList(),
} = {}) {
  return [
    http.get(`/api/v1/snapshots/${SERVICE_ID}`, () => HttpResponse.json(snapshots)),
    http.get(backupsPath('/schedules'), () => HttpResponse.json({ schedules })),
    http.get(backupsPath('/sessions'), () => HttpResponse.json({ sessions })),
    http.get(backupsPath('/restores'), () => HttpResponse.json({ restores })),
    http.get(backupsPath('/usage'), () => HttpResponse.json(usage)),
    http.get(backupsPath('/sources'), () => HttpResponse.json(sources)),
    http.get(backupsPath('/clients'), () =>
      HttpResponse.json({
        clients,
        limit: clientLimit,
        endpoint: CLIENT_ENDPOINT,
        quota: { bytes: CLIENT_QUOTA_BYTES, used_bytes: clientsUsedBytes(clients) },
      }),
    ),
  ];
}
