// A workspace's backups (spec §7 "Backups", base /api/v1/backups/{serviceId}): every call the
// backups tab makes, typed by the contract (packages/contract/src/features/backups/backups.ts, backup-clients.ts).
// A backup or a restore is a job the storage node runs when it can: a list that shows one queued
// or running is asked again every 2 s until none is, so its progress moves and its end shows by
// itself; a list with nothing underway is not asked again. The backup clients push by themselves,
// whenever their machines do: their list is asked again every 15 s while the tab is open and the
// browser shows it.
import {
  backupBrowseResponseSchema,
  backupClientCreatedSchema,
  backupClientSchema,
  backupClientsResponseSchema,
  backupRestoreSchema,
  backupRestoresResponseSchema,
  backupScheduleSchema,
  backupSchedulesResponseSchema,
  backupSessionSchema,
  backupSessionsResponseSchema,
  backupSourcesResponseSchema,
  backupUsageSchema,
  backupVpnConfigResponseSchema,
  type BackupRestoreRequest,
  type BackupSessionStatus,
  type CreateBackupClientRequest,
  type CreateBackupScheduleRequest,
  type UpdateBackupScheduleRequest,
} from '@debesis/contract';
import { useQuery } from '@tanstack/react-query';
import { api, noContent } from '../api/client.ts';
import { toApiError } from '../api/api-error.ts';
import { saveFile } from '../lib/save-file.ts';
import { saveVpnConfig } from './vpn-api.ts';
import { backupSnapshotKey, segment, workspaceKeys } from './workspace-keys.ts';

const base = (serviceId: string) => `/api/v1/backups/${segment(serviceId)}`;
const schedulePath = (serviceId: string, id: string) => `${base(serviceId)}/schedules/${segment(id)}`;
const sessionPath = (serviceId: string, id: string) => `${base(serviceId)}/sessions/${segment(id)}`;
const clientPath = (serviceId: string, id: string) => `${base(serviceId)}/clients/${segment(id)}`;

/** How often a list is asked again while a backup or restore in it is queued or running. */
export const BACKUP_PROGRESS_POLL_MS = 2_000;

/**
 * How often the backup clients are asked again: whether each is connected or pushing changes
 * with its own machine, not with anything the tab does. Not while the browser hides the tab
 * (react-query's refetchIntervalInBackground stays off).
 */
export const BACKUP_CLIENTS_POLL_MS = 15_000;

/** Queued or running: the job has not ended yet. */
export function isUnderway(status: BackupSessionStatus): boolean {
  return status === 'queued' || status === 'running';
}

/** A query's refetchInterval: every BACKUP_PROGRESS_POLL_MS while any job is underway, else never. */
export function whileUnderway(statuses: readonly BackupSessionStatus[] | undefined): number | false {
  return statuses?.some(isUnderway) ? BACKUP_PROGRESS_POLL_MS : false;
}

export const backupsApi = {
  schedules: (serviceId: string) => api.get(`${base(serviceId)}/schedules`, backupSchedulesResponseSchema),
  createSchedule: (serviceId: string, body: CreateBackupScheduleRequest) =>
    api.post(`${base(serviceId)}/schedules`, body, backupScheduleSchema),
  updateSchedule: (serviceId: string, id: string, body: UpdateBackupScheduleRequest) =>
    api.put(schedulePath(serviceId, id), body, backupScheduleSchema),
  deleteSchedule: (serviceId: string, id: string) => api.delete(schedulePath(serviceId, id), noContent),
  /** Run now: the new history entry, queued. */
  trigger: (serviceId: string, id: string) =>
    api.post(`${schedulePath(serviceId, id)}/trigger`, {}, backupSessionSchema),
  /** The history, newest first; one schedule's when `scheduleId` is given. */
  sessions: (serviceId: string, scheduleId: string | null) =>
    api.get(`${base(serviceId)}/sessions`, backupSessionsResponseSchema, {
      params: { schedule_id: scheduleId ?? undefined },
    }),
  browse: (serviceId: string, sessionId: string, path: string) =>
    api.get(`${sessionPath(serviceId, sessionId)}/browse`, backupBrowseResponseSchema, { params: { path } }),
  /** The restore asked for, queued (202). */
  restore: (serviceId: string, sessionId: string, body: BackupRestoreRequest) =>
    api.post(`${sessionPath(serviceId, sessionId)}/restore`, body, backupRestoreSchema),
  restores: (serviceId: string) => api.get(`${base(serviceId)}/restores`, backupRestoresResponseSchema),
  usage: (serviceId: string) => api.get(`${base(serviceId)}/usage`, backupUsageSchema),
  sources: (serviceId: string) => api.get(`${base(serviceId)}/sources`, backupSourcesResponseSchema),
  clients: (serviceId: string) => api.get(`${base(serviceId)}/clients`, backupClientsResponseSchema),
  /** The new client with its password (201): the one answer that carries it. */
  createClient: (serviceId: string, body: CreateBackupClientRequest) =>
    api.post(`${base(serviceId)}/clients`, body, backupClientCreatedSchema),
  /** Revoked for good: it can no longer connect or push; its backups stay. */
  disconnectClient: (serviceId: string, id: string) =>
    api.post(`${clientPath(serviceId, id)}/disconnect`, {}, backupClientSchema),
  /** The client and its backups (204). */
  deleteClient: (serviceId: string, id: string) => api.delete(clientPath(serviceId, id), noContent),
  clientVpnConfig: (serviceId: string, id: string) =>
    api.get(`${base(serviceId)}/vpn-config`, backupVpnConfigResponseSchema, { params: { client_id: id } }),
};

/** Fetches one file of a backup (GET sessions/{id}/download) and hands it to the browser. */
export function downloadBackupFile(serviceId: string, sessionId: string, path: string, name: string) {
  return downloadNodeFile(`${sessionPath(serviceId, sessionId)}/download`, path, name);
}

/**
 * Fetches one file a storage node streams (a backup's or a snapshot's, `url` with `?path=`) with
 * the session's token and hands it to the browser as a download. The answer comes as bytes; an
 * error's JSON body does too, and is read back so it becomes the ApiError with the server's words
 * it would be anywhere else.
 */
export async function downloadNodeFile(url: string, path: string, name: string): Promise<void> {
  let response;
  try {
    response = await api.http.get<ArrayBuffer>(url, { params: { path }, responseType: 'arraybuffer' });
  } catch (error) {
    const failed = error as { response?: { data?: unknown } };
    const body = failed.response?.data;
    if (failed.response && body instanceof ArrayBuffer) {
      try {
        failed.response.data = JSON.parse(new TextDecoder().decode(body)) as unknown;
      } catch {
        // Not JSON: the status alone says what went wrong.
      }
    }
    throw toApiError(error);
  }
  saveFile(response.data, name, 'application/octet-stream');
}

/** Fetches a backup client's `.ovpn` and hands it to the browser as a download; its file name. */
export async function downloadBackupClientConfig(serviceId: string, id: string): Promise<string> {
  const config = await backupsApi.clientVpnConfig(serviceId, id);
  saveVpnConfig(config);
  return config.filename;
}

/** The schedules, asked again while one's last backup is underway (its status in the row moves). */
export function useBackupSchedules(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.backupSchedules(serviceId),
    queryFn: () => backupsApi.schedules(serviceId),
    refetchInterval: (query) =>
      whileUnderway(query.state.data?.schedules.flatMap((schedule) => schedule.last_session?.status ?? [])),
  });
}

export function useBackupSessions(serviceId: string, scheduleId: string | null) {
  return useQuery({
    queryKey: workspaceKeys.backupSessions(serviceId, scheduleId),
    queryFn: () => backupsApi.sessions(serviceId, scheduleId),
    refetchInterval: (query) => whileUnderway(query.state.data?.sessions.map((session) => session.status)),
  });
}

export function useBackupRestores(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.backupRestores(serviceId),
    queryFn: () => backupsApi.restores(serviceId),
    refetchInterval: (query) => whileUnderway(query.state.data?.restores.map((restore) => restore.status)),
  });
}

export function useBackupUsage(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.backupUsage(serviceId),
    queryFn: () => backupsApi.usage(serviceId),
  });
}

/** The backup clients, their limit and where they push; asked again every BACKUP_CLIENTS_POLL_MS. */
export function useBackupClients(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.backupClients(serviceId),
    queryFn: () => backupsApi.clients(serviceId),
    refetchInterval: BACKUP_CLIENTS_POLL_MS,
  });
}

/** The shares, home folders and exports a schedule may back up (the schedule form's choices). */
export function useBackupSources(serviceId: string) {
  return useQuery({
    queryKey: workspaceKeys.backupSources(serviceId),
    queryFn: () => backupsApi.sources(serviceId),
  });
}

/** A folder of a backup's snapshot (the storage node lists it); it never changes once listed. */
export function useBackupFolder(serviceId: string, sessionId: string, path: string) {
  return useQuery({
    queryKey: backupSnapshotKey(serviceId, sessionId, path),
    queryFn: () => backupsApi.browse(serviceId, sessionId, path),
    staleTime: Infinity,
  });
}
