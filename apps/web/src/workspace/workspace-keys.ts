// Query keys of one service's workspace (users, groups, shares, Samba and the features after it).
// Everything about a service sits under ['services', id], so a change invalidates the service's
// lists and the overview's counts together (SERVICES_QUERY_KEY is their common prefix); a backup's
// snapshot and a storage snapshot's folders, which never change, are the exceptions (backupSnapshotKey,
// snapshotFolderKey).
import { SERVICES_QUERY_KEY } from '../services/services-api.ts';

export const workspaceKeys = {
  all: (serviceId: string) => [...SERVICES_QUERY_KEY, 'workspace', serviceId] as const,
  users: (serviceId: string) => [...workspaceKeys.all(serviceId), 'users'] as const,
  userGroups: (serviceId: string, user: string) =>
    [...workspaceKeys.all(serviceId), 'user-groups', user] as const,
  groups: (serviceId: string) => [...workspaceKeys.all(serviceId), 'groups'] as const,
  groupMembers: (serviceId: string, group: string) =>
    [...workspaceKeys.all(serviceId), 'group-members', group] as const,
  shares: (serviceId: string) => [...workspaceKeys.all(serviceId), 'shares'] as const,
  sambaStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'samba-status'] as const,
  status: (serviceId: string) => [...workspaceKeys.all(serviceId), 'status'] as const,
  config: (serviceId: string) => [...workspaceKeys.all(serviceId), 'config'] as const,
  vpnUsers: (serviceId: string) => [...workspaceKeys.all(serviceId), 'vpn-users'] as const,
  vpnStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'vpn-status'] as const,
  vpnSessions: (serviceId: string) => [...workspaceKeys.all(serviceId), 'vpn-sessions'] as const,
  vpnTraffic: (serviceId: string, range: string) =>
    [...workspaceKeys.all(serviceId), 'vpn-traffic', range] as const,
  nfsExports: (serviceId: string) => [...workspaceKeys.all(serviceId), 'nfs-exports'] as const,
  nfsStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'nfs-status'] as const,
  ldapStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ldap-status'] as const,
  ldapConfig: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ldap-config'] as const,
  ldapUsers: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ldap-users'] as const,
  nfsClients: (serviceId: string) => [...workspaceKeys.all(serviceId), 'nfs-clients'] as const,
  nfsStats: (serviceId: string) => [...workspaceKeys.all(serviceId), 'nfs-stats'] as const,
  ftpStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ftp-status'] as const,
  ftpUsers: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ftp-users'] as const,
  ftpSettings: (serviceId: string) => [...workspaceKeys.all(serviceId), 'ftp-settings'] as const,
  backupSchedules: (serviceId: string) => [...workspaceKeys.all(serviceId), 'backup-schedules'] as const,
  /** The history, all of it or one schedule's (`null`: all). */
  backupSessions: (serviceId: string, scheduleId: string | null) =>
    [...workspaceKeys.all(serviceId), 'backup-sessions', scheduleId ?? 'all'] as const,
  backupRestores: (serviceId: string) => [...workspaceKeys.all(serviceId), 'backup-restores'] as const,
  backupUsage: (serviceId: string) => [...workspaceKeys.all(serviceId), 'backup-usage'] as const,
  snapshots: (serviceId: string) => [...workspaceKeys.all(serviceId), 'snapshots'] as const,
  subusers: (serviceId: string) => [...workspaceKeys.all(serviceId), 'subusers'] as const,
  backupSources: (serviceId: string) => [...workspaceKeys.all(serviceId), 'backup-sources'] as const,
  backupClients: (serviceId: string) => [...workspaceKeys.all(serviceId), 'backup-clients'] as const,
  shareLinks: (serviceId: string) => [...workspaceKeys.all(serviceId), 'share-links'] as const,
  /** Monitoring: `window` is `h<hours>` or `m<minutes>` (real time). */
  monitoringActivity: (serviceId: string, window: string) =>
    [...workspaceKeys.all(serviceId), 'monitoring-activity', window] as const,
  monitoringUserActivity: (serviceId: string, userId: string, window: string) =>
    [...workspaceKeys.all(serviceId), 'monitoring-user-activity', userId, window] as const,
  monitoringQuota: (serviceId: string, hours: number) =>
    [...workspaceKeys.all(serviceId), 'monitoring-quota', hours] as const,
  monitoringTasks: (serviceId: string, hours: number) =>
    [...workspaceKeys.all(serviceId), 'monitoring-tasks', hours] as const,
  monitoringAlerts: (serviceId: string, hours: number) =>
    [...workspaceKeys.all(serviceId), 'monitoring-alerts', hours] as const,
  monitoringStatus: (serviceId: string) => [...workspaceKeys.all(serviceId), 'monitoring-status'] as const,
};

/**
 * A folder of a backup's snapshot. A snapshot never changes, so its folders sit outside the
 * service's keys: a change elsewhere (a restore asked for, a schedule paused) does not ask the
 * storage node to list them again.
 */
export const backupSnapshotKey = (serviceId: string, sessionId: string, path: string) =>
  ['backup-snapshots', serviceId, sessionId, path] as const;
/** A folder of one of the storage's own snapshots: read-only, so outside the workspace's keys too. */
export const snapshotFolderKey = (serviceId: string, name: string, path: string) =>
  ['snapshot-folders', serviceId, name, path] as const;

/** A path segment: service ids, user, group and share names go into URLs encoded. */
export const segment = (value: string): string => encodeURIComponent(value);
