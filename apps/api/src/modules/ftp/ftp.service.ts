// FTP and SFTP of a workspace (spec §3 "FTP", §6, §7 "FTP"): each service user's access (enabled,
// read_write or read_only), the `ftp-advanced` settings, the sessions the node reports, and the
// `ftp` and `sftp` sections of the desired state for the node agent.
//
// Rules: FTP users are the service's users, read through the directory module, with the password
// they have there (the node signs them in with its SHA-512 crypt: one password for SMB, FTP and
// SFTP). A hosting customer expects to reach their files over FTP/SFTP at once, so both servers
// are on for a new service and every user may use them, read and write: a user's access is stored
// only once the owner changes it, and a user created later starts with the default too. Nothing is
// served while no user may sign in (none, or all inactive or disabled): the sections then say off.
// The settings are checked by the contract as the node checks them, so a refused value is a field
// error here and nothing is applied. Every change goes through the workspace change pipeline;
// when the directory deletes a user it calls `ftpDirectoryDependent` in its transaction.
import {
  FTP_DEFAULT_PORT,
  FTP_DEFAULT_SETTINGS,
  FTP_DEFAULT_USER_ACCESS,
  SFTP_DEFAULT_PORT,
  type FileSessionsReport,
  type FtpProtocol,
  type FtpSectionState,
  type FtpServerStatus,
  type FtpSessionsResponse,
  type FtpSettings,
  type FtpSettingsRequest,
  type FtpStatus,
  type FtpUser,
  type FtpUserPermissions,
  type FtpUsersResponse,
  type SftpSectionState,
  type WorkspaceApplyResponse,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import type { DirectoryReader } from '../directory/directory.reader.ts';
import { resourceStatus } from '../services/resource-status.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { applyProgress, reportedDriver } from '../workspace/feature-status.ts';
import {
  servicesAddressOf,
  type DirectoryDependent,
  type FeatureReportContext,
  type PlanFacts,
} from '../workspace/workspace-feature.ts';
import {
  createFtpQueries,
  type FtpSettingsRow,
  type FtpSettingsValues,
  type FtpUserRow,
} from './ftp.queries.ts';

/** The names the node's agent gives its FTP and SFTP drivers in its reports. */
export const FTP_DRIVER = NODE_DRIVERS.ftp;
export const SFTP_DRIVER = NODE_DRIVERS.sftp;
/** What the FTP driver reports as failed: a user it could not let in (agent FILE access). */
export const FTP_USER_FAILURE_KIND = 'ftp_user';
export const FTP_FAILURE_KINDS = [FTP_USER_FAILURE_KIND] as const;
/** The settings' own "resource": never reported failed, applied once the node has their generation. */
const SETTINGS_RESOURCE = 'ftp_settings';

type Reader = Pick<DirectoryReader, 'usersNamed' | 'listUsers'>;
type DirectoryUser = Awaited<ReturnType<Reader['listUsers']>>[number];

const DEFAULT_VALUES: FtpSettingsValues = {
  ftpEnabled: FTP_DEFAULT_SETTINGS.ftp_enabled,
  sftpEnabled: FTP_DEFAULT_SETTINGS.sftp_enabled,
  passivePortMin: FTP_DEFAULT_SETTINGS.passive_port_min,
  passivePortMax: FTP_DEFAULT_SETTINGS.passive_port_max,
  maxClients: FTP_DEFAULT_SETTINGS.max_clients,
  maxClientsPerUser: FTP_DEFAULT_SETTINGS.max_clients_per_user,
  idleTimeoutMinutes: FTP_DEFAULT_SETTINGS.idle_timeout_minutes,
  tlsRequired: FTP_DEFAULT_SETTINGS.tls_required,
};

/** The request's fields by the row's names, in the order the activity lists them. */
const SETTINGS_FIELDS = [
  ['ftpEnabled', 'ftp_enabled'],
  ['sftpEnabled', 'sftp_enabled'],
  ['passivePortMin', 'passive_port_min'],
  ['passivePortMax', 'passive_port_max'],
  ['maxClients', 'max_clients'],
  ['maxClientsPerUser', 'max_clients_per_user'],
  ['idleTimeoutMinutes', 'idle_timeout_minutes'],
  ['tlsRequired', 'tls_required'],
] as const satisfies ReadonlyArray<readonly [keyof FtpSettingsValues, keyof FtpSettingsRequest]>;

function valuesOf(row: FtpSettingsRow | undefined): FtpSettingsValues {
  if (!row) return DEFAULT_VALUES;
  return Object.fromEntries(SETTINGS_FIELDS.map(([key]) => [key, row[key]])) as unknown as FtpSettingsValues;
}

/** One user's access: their stored row, else the default. */
interface Access {
  user: DirectoryUser;
  enabled: boolean;
  permissions: FtpUserPermissions;
  /** The generation the node must reach for this user's access to be applied. */
  changedGeneration: number;
}

function accessOf(users: readonly DirectoryUser[], rows: readonly FtpUserRow[]): Access[] {
  const byUser = new Map(rows.map((row) => [row.userId, row]));
  return users.map((user) => {
    const row = byUser.get(user.id);
    return {
      user,
      enabled: row?.enabled ?? FTP_DEFAULT_USER_ACCESS.enabled,
      permissions: row?.permissions ?? FTP_DEFAULT_USER_ACCESS.permissions,
      changedGeneration: Math.max(user.changedGeneration, row?.changedGeneration ?? 0),
    };
  });
}

const canSignIn = (access: Access) => access.user.active && access.enabled;

/** Keeps FTP access consistent when the directory deletes a user (groups hold no FTP access). */
export const ftpDirectoryDependent: DirectoryDependent = {
  async userRemoved(tx, { userId }) {
    await createFtpQueries(tx).deleteUser(userId);
  },
  async groupRemoved() {},
};

/** Stores a report's `features.ftp` or `features.sftp`: the sessions signed in now. */
export function ftpReportStore(protocol: FtpProtocol, directory: (db: Db) => Reader) {
  return async (tx: Tx, { serviceId, at }: FeatureReportContext, report: FileSessionsReport) => {
    const users = await directory(tx).listUsers(serviceId);
    const accountId = users[0]?.accountId;
    if (!accountId) return;
    const byName = new Map(users.map((user) => [user.name, user]));
    const q = createFtpQueries(tx);
    const rows = report.sessions.flatMap((session) => {
      const user = byName.get(session.user);
      const since = new Date(session.connected_since);
      if (!user || Number.isNaN(since.getTime())) return [];
      return [
        {
          serviceId,
          accountId,
          protocol,
          userId: user.id,
          remoteAddress: session.remote_address ?? null,
          connectedSince: since,
        },
      ];
    });
    await q.replaceSessions(serviceId, protocol, rows);
    await q.markReported(serviceId, accountId, protocol, at);
  };
}

export function createFtpService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  plans: PlanFacts;
  /** The directory read on a given handle (the change's transaction, or the database). */
  directory: (db: Db) => Reader;
}) {
  const { changes } = deps;
  const queries = createFtpQueries(deps.db);

  async function accessList(db: Db, serviceId: string): Promise<Access[]> {
    return accessOf(
      await deps.directory(db).listUsers(serviceId),
      await createFtpQueries(db).usersOf(serviceId),
    );
  }

  function presentUser(service: ServiceRow, access: Access, sessions: number): FtpUser {
    const { status, error } = resourceStatus(service, {
      kind: FTP_USER_FAILURE_KIND,
      name: access.user.name,
      changedGeneration: access.changedGeneration,
    });
    return {
      name: access.user.name,
      active: access.user.active,
      enabled: access.enabled,
      permissions: access.permissions,
      sessions,
      apply_status: status,
      apply_error: error,
    };
  }

  async function presentUsers(db: Db, service: ServiceRow): Promise<FtpUser[]> {
    const sessions = await createFtpQueries(db).sessionsOf(service.id);
    return (await accessList(db, service.id)).map((access) =>
      presentUser(service, access, sessions.filter((session) => session.userId === access.user.id).length),
    );
  }

  function presentSettings(service: ServiceRow, row: FtpSettingsRow | undefined): FtpSettings {
    const values = valuesOf(row);
    const { status, error } = resourceStatus(service, {
      kind: SETTINGS_RESOURCE,
      name: SETTINGS_RESOURCE,
      changedGeneration: row?.changedGeneration ?? 0,
    });
    return {
      ...(Object.fromEntries(SETTINGS_FIELDS.map(([key, field]) => [field, values[key]])) as Omit<
        FtpSettingsRequest,
        'anonymous'
      > as Required<Omit<FtpSettingsRequest, 'anonymous'>>),
      anonymous: false,
      default: !row,
      apply_status: status,
      apply_error: error,
    };
  }

  /** One user's access changed through the change pipeline; an unknown user is 404. */
  function changeAccess(
    accountId: string,
    serviceId: string,
    userName: string,
    meta: ChangeMeta,
    next: (current: Access) => Pick<Access, 'enabled' | 'permissions'>,
    activity: (access: Access) => {
      action: 'FTP user enabled' | 'FTP user disabled' | 'FTP permissions updated';
      details: Record<string, unknown>;
    },
  ): Promise<FtpUser> {
    return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
      const [user] = await deps.directory(tx).usersNamed(service.id, [userName]);
      if (!user) throw new AppError('workspace_user_not_found');
      const q = createFtpQueries(tx);
      const sessions = (await q.sessionsOf(service.id)).filter(
        (session) => session.userId === user.id,
      ).length;
      const [current] = accessOf(
        [user],
        (await q.usersOf(service.id)).filter((row) => row.userId === user.id),
      );
      if (!current) throw new AppError('workspace_user_not_found');
      const wanted = next(current);
      if (wanted.enabled === current.enabled && wanted.permissions === current.permissions)
        return { unchanged: presentUser(service, current, sessions) };
      await q.saveUser({
        userId: user.id,
        serviceId: service.id,
        accountId,
        enabled: wanted.enabled,
        permissions: wanted.permissions,
        changedGeneration: generation,
        updatedAt: at,
      });
      const changed: Access = { ...current, ...wanted, changedGeneration: generation };
      const note = activity(changed);
      return {
        result: presentUser(service, changed, sessions),
        activity: [{ action: note.action, tone: 'info', details: note.details }],
      };
    });
  }

  /** A server's state: serving only when the node runs it, nothing expected while it is off. */
  function serverStatus(
    service: ServiceRow,
    driverName: string,
    expected: boolean,
    enabled: boolean,
    port: number,
  ): FtpServerStatus {
    const driver = reportedDriver(service, driverName);
    return {
      enabled,
      port,
      live: driver ? driver.live : null,
      serving: expected ? (driver?.serving ?? null) : null,
      reason: driver?.reason ?? null,
    };
  }

  return {
    async status(accountId: string, serviceId: string): Promise<FtpStatus> {
      const service = await changes.owned(accountId, serviceId);
      const settings = valuesOf(await queries.findSettings(service.id));
      const access = await accessList(deps.db, service.id);
      const anyone = access.some(canSignIn);
      return {
        placed: service.nodeId !== null,
        address: await servicesAddressOf(deps.plans, service),
        ftp: serverStatus(
          service,
          FTP_DRIVER,
          anyone && settings.ftpEnabled,
          settings.ftpEnabled,
          FTP_DEFAULT_PORT,
        ),
        sftp: serverStatus(
          service,
          SFTP_DRIVER,
          anyone && settings.sftpEnabled,
          settings.sftpEnabled,
          SFTP_DEFAULT_PORT,
        ),
        mode: 'passive',
        passive_port_min: settings.passivePortMin,
        passive_port_max: settings.passivePortMax,
        tls_required: settings.tlsRequired,
        ...applyProgress(service, FTP_FAILURE_KINDS),
        users: access.filter(canSignIn).length,
        users_total: access.length,
        sessions: (await queries.sessionsOf(service.id)).length,
      };
    },

    async listUsers(accountId: string, serviceId: string): Promise<FtpUsersResponse> {
      const service = await changes.owned(accountId, serviceId);
      return { users: await presentUsers(deps.db, service) };
    },

    setEnabled(accountId: string, serviceId: string, user: string, enabled: boolean, meta: ChangeMeta) {
      return changeAccess(
        accountId,
        serviceId,
        user,
        meta,
        (current) => ({ enabled, permissions: current.permissions }),
        (access) => ({
          action: enabled ? 'FTP user enabled' : 'FTP user disabled',
          details: { name: access.user.name },
        }),
      );
    },

    setPermissions(
      accountId: string,
      serviceId: string,
      user: string,
      permissions: FtpUserPermissions,
      meta: ChangeMeta,
    ) {
      return changeAccess(
        accountId,
        serviceId,
        user,
        meta,
        (current) => ({ enabled: current.enabled, permissions }),
        (access) => ({ action: 'FTP permissions updated', details: { name: access.user.name, permissions } }),
      );
    },

    async sessions(accountId: string, serviceId: string): Promise<FtpSessionsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const names = new Map(
        (await deps.directory(deps.db).listUsers(service.id)).map((user) => [user.id, user.name]),
      );
      const reportedAt = await queries.reportedAt(service.id);
      return {
        sessions: (await queries.sessionsOf(service.id)).map((session) => ({
          protocol: session.protocol,
          user: names.get(session.userId) ?? '',
          remote_address: session.remoteAddress,
          connected_since: session.connectedSince.toISOString(),
        })),
        reported_at: reportedAt?.toISOString() ?? null,
      };
    },

    async settings(accountId: string, serviceId: string): Promise<FtpSettings> {
      const service = await changes.owned(accountId, serviceId);
      return presentSettings(service, await queries.findSettings(service.id));
    },

    async updateSettings(
      accountId: string,
      serviceId: string,
      request: FtpSettingsRequest,
      meta: ChangeMeta,
    ): Promise<FtpSettings> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createFtpQueries(tx);
        const current = await q.findSettings(service.id);
        const before = valuesOf(current);
        const next = Object.fromEntries(
          SETTINGS_FIELDS.map(([key, field]) => [key, request[field]]),
        ) as unknown as FtpSettingsValues;
        const fields = SETTINGS_FIELDS.filter(([key]) => next[key] !== before[key]).map(([, field]) => field);
        if (fields.length === 0) return { unchanged: presentSettings(service, current) };
        const row = await q.saveSettings({
          serviceId: service.id,
          accountId,
          ...next,
          changedGeneration: generation,
          updatedAt: at,
        });
        return {
          result: presentSettings(service, row),
          activity: [{ action: 'FTP settings updated', tone: 'info', details: { fields } }],
        };
      });
    },

    /** Asks the node to apply the FTP/SFTP configuration again: a new generation, nothing else. */
    async reload(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'FTP reloaded', tone: 'info' }],
      }));
    },

    /**
     * The `ftp` and `sftp` sections: none while the service has no users; each server off while
     * it is switched off or nobody may sign in. The users list is SFTP's too.
     */
    async desiredSection(serviceId: string): Promise<{ ftp?: FtpSectionState; sftp?: SftpSectionState }> {
      const access = await accessList(deps.db, serviceId);
      if (access.length === 0) return {};
      const settings = valuesOf(await queries.findSettings(serviceId));
      const anyone = access.some(canSignIn);
      return {
        ftp: {
          enabled: anyone && settings.ftpEnabled,
          port: FTP_DEFAULT_PORT,
          passive_port_min: settings.passivePortMin,
          passive_port_max: settings.passivePortMax,
          max_clients: settings.maxClients,
          max_clients_per_user: settings.maxClientsPerUser,
          idle_timeout_minutes: settings.idleTimeoutMinutes,
          tls_required: settings.tlsRequired,
          users: access.map((entry) => ({
            name: entry.user.name,
            enabled: entry.enabled,
            permissions: entry.permissions,
          })),
        },
        sftp: { enabled: anyone && settings.sftpEnabled, port: SFTP_DEFAULT_PORT },
      };
    },
  };
}

export type FtpService = ReturnType<typeof createFtpService>;
