// Samba shares and the workspace's Samba settings (spec §3 "Samba share", §5, §7 "Samba"), and
// the `samba` section of the desired state for the node agent.
//
// Rules: a share's name follows the node contract and is unique in the service; its path is a
// folder inside the workspace (`shares/<name>` unless given), never above it and never one of
// the folders the node keeps (home, backups, system); its users are users of the service, whose
// write, execute or admin permission needs read too (no permission at all keeps a user out, even
// through a group); its groups are groups of the service; a share open to guests is not served
// on the public address. Users and groups are read through the directory module; when one is
// deleted the directory calls `sambaDirectoryDependent` in its transaction (samba.feature.ts
// registers it with the workspace feature registry).
import type { z } from 'zod';
import {
  SAMBA_DEFAULT_SETTINGS,
  SAMBA_SHARES_MAX,
  type createSambaShareRequestSchema,
  type SambaSettings,
  type sambaSettingsRequestSchema,
  type SambaShare,
  type SambaSharePermissionsRequest,
  type SambaSharePermissionsResponse,
  type SambaSharesResponse,
  type SambaSectionState,
  type SambaShareUser,
  type sambaShareUserRequestSchema,
  type SambaShareUsersResponse,
  type SambaStatus,
  type updateSambaShareRequestSchema,
  type WorkspaceApplyResponse,
  NODE_DRIVERS,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { DirectoryReader } from '../directory/directory.reader.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { applyProgress, reportedDriver } from '../workspace/feature-status.ts';
import {
  servicesAddressOf,
  type DesiredContext,
  type DirectoryDependent,
  type PlanFacts,
} from '../workspace/workspace-feature.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import {
  desiredShares,
  presentSettings,
  presentShare,
  shareGroups,
  shareUsers,
  type SambaSnapshot,
} from './samba.presenter.ts';
import {
  createSambaQueries,
  type SambaQueries,
  type SambaShareRow,
  type SharePermissionsValues,
} from './samba.queries.ts';

/** The name the node's agent gives its Samba driver in its reports. */
export const SAMBA_DRIVER = NODE_DRIVERS.samba;
/** What the Samba driver reports as failed: a share it could not serve. */
export const SAMBA_FAILURE_KINDS = ['share'] as const;

type Reader = Pick<DirectoryReader, 'usersNamed' | 'groupsNamed' | 'names'>;
type ShareUserEntry = z.output<typeof sambaShareUserRequestSchema>;
type CreateShare = z.output<typeof createSambaShareRequestSchema>;
type UpdateShare = z.output<typeof updateSambaShareRequestSchema>;
type SettingsChange = z.output<typeof sambaSettingsRequestSchema>;

/** Keeps shares consistent when the directory deletes a user or a group, or renames a group. */
export const sambaDirectoryDependent: DirectoryDependent = {
  async userRemoved(tx, { userId, generation, at }) {
    const q = createSambaQueries(tx);
    await q.markSharesChanged(await q.removeUserEverywhere(userId), generation, at);
  },
  async groupRemoved(tx, { groupId, generation, at }) {
    const q = createSambaQueries(tx);
    await q.markSharesChanged(await q.removeGroupEverywhere(groupId), generation, at);
  },
  async groupRenamed(tx, { groupId, generation, at }) {
    const q = createSambaQueries(tx);
    await q.markSharesChanged(await q.sharesOfGroup(groupId), generation, at);
  },
};

function requireShare(share: SambaShareRow | undefined): SambaShareRow {
  if (!share) throw new AppError('samba_share_not_found');
  return share;
}

function throwFieldErrors(errors: AppFieldError[]): void {
  if (errors.length > 0) throw new AppError('validation_error', { fieldErrors: errors });
}

/**
 * Writing, executing and administering need reading too. No permission at all is allowed: the
 * node keeps such a user out of the share even when one of their groups is let in.
 */
function readCovers(permissions: SharePermissionsValues): boolean {
  return permissions.read || !(permissions.write || permissions.execute || permissions.admin);
}

function refusePublicGuestShare(share: { guestOk: boolean; bindPublicIp: boolean }): void {
  if (share.guestOk && share.bindPublicIp) throw new AppError('samba_guest_share_public');
}

/**
 * A NAT plan gives the workspace no public address of its own: its shares are reachable through
 * its VPN only, so serving one "on the public IP" is refused. A share made public before a change
 * to such a plan keeps its flag but is sent to the node without it (desiredSection).
 *
 * Asked before the change's transaction, never inside it: the catalogue may be read from the
 * database, and on the embedded PGlite (one connection) a read beside an open transaction waits
 * for that transaction, which waits for the read.
 */
async function planHasPublicAddress(
  plans: PlanFacts,
  changes: WorkspaceChanges,
  accountId: string,
  serviceId: string,
): Promise<boolean> {
  return plans.publicAddress((await changes.owned(accountId, serviceId)).productId);
}

export function createSambaService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  /** The directory read on a given handle (the change's transaction, or the database). */
  directory: (db: Db) => Reader;
  plans: PlanFacts;
}) {
  const { changes } = deps;
  const queries = createSambaQueries(deps.db);

  async function snapshotOf(db: Db, serviceId: string): Promise<SambaSnapshot> {
    const q = createSambaQueries(db);
    return {
      shares: await q.listShares(serviceId),
      users: await q.usersOfService(serviceId),
      groups: await q.groupsOfService(serviceId),
      names: await deps.directory(db).names(serviceId),
    };
  }

  async function presented(db: Db, service: ServiceRow, shareId: string): Promise<SambaShare> {
    const snapshot = await snapshotOf(db, service.id);
    const share = requireShare(snapshot.shares.find((candidate) => candidate.id === shareId));
    return presentShare(service, snapshot, share);
  }

  /** The share's users and groups by id, every unknown or repeated name a field error. */
  async function resolveAccess(
    db: Db,
    serviceId: string,
    request: { users?: ShareUserEntry[] | undefined; groups?: string[] | undefined },
    errors: AppFieldError[],
  ) {
    const reader = deps.directory(db);
    const users: Array<{ userId: string } & SharePermissionsValues> = [];
    if (request.users) {
      const known = await reader.usersNamed(
        serviceId,
        request.users.map((user) => user.name),
      );
      const seen = new Set<string>();
      request.users.forEach((entry, index) => {
        const field = `users.${index}`;
        if (seen.has(entry.name)) return void errors.push({ field: `${field}.name`, code: 'listed_twice' });
        seen.add(entry.name);
        const user = known.find((candidate) => candidate.name === entry.name);
        if (!user) return void errors.push({ field: `${field}.name`, code: 'workspace_user_unknown' });
        if (!readCovers(entry)) {
          return void errors.push({ field: `${field}.read`, code: 'share_permissions_need_read' });
        }
        users.push({
          userId: user.id,
          read: entry.read,
          write: entry.write,
          execute: entry.execute,
          admin: entry.admin,
        });
      });
    }
    const groups: string[] = [];
    if (request.groups) {
      const known = await reader.groupsNamed(serviceId, request.groups);
      const seen = new Set<string>();
      request.groups.forEach((name, index) => {
        if (seen.has(name)) return void errors.push({ field: `groups.${index}`, code: 'listed_twice' });
        seen.add(name);
        const group = known.find((candidate) => candidate.name === name);
        if (group) groups.push(group.id);
        else errors.push({ field: `groups.${index}`, code: 'workspace_group_unknown' });
      });
    }
    return { users, groups };
  }

  async function shareAndUser(db: Db, serviceId: string, shareName: string, userName: string) {
    const share = requireShare(await createSambaQueries(db).findShare(serviceId, shareName));
    const [user] = await deps.directory(db).usersNamed(serviceId, [userName]);
    if (!user) throw new AppError('workspace_user_not_found');
    const entry = (await createSambaQueries(db).usersOfShare(share.id)).find(
      (candidate) => candidate.userId === user.id,
    );
    return { share, user, entry };
  }

  return {
    async listShares(accountId: string, serviceId: string): Promise<SambaSharesResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(deps.db, service.id);
      return { shares: snapshot.shares.map((share) => presentShare(service, snapshot, share)) };
    },

    async createShare(
      accountId: string,
      serviceId: string,
      request: CreateShare,
      meta: ChangeMeta,
    ): Promise<SambaShare> {
      refusePublicGuestShare({ guestOk: request.guest_ok, bindPublicIp: request.bind_public_ip });
      if (request.bind_public_ip && !(await planHasPublicAddress(deps.plans, changes, accountId, serviceId)))
        throw new AppError('samba_public_ip_not_in_plan');
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createSambaQueries(tx);
        if (await q.findShare(service.id, request.name)) throw new AppError('samba_share_exists');
        if ((await q.countShares(service.id)) >= SAMBA_SHARES_MAX) {
          throw new AppError('samba_share_limit', { extra: { limit: SAMBA_SHARES_MAX } });
        }
        const errors: AppFieldError[] = [];
        const access = await resolveAccess(tx, service.id, request, errors);
        throwFieldErrors(errors);
        const share = await q.insertShare({
          serviceId: service.id,
          accountId,
          name: request.name,
          path: request.path ?? `shares/${request.name}`,
          description: request.description,
          guestOk: request.guest_ok,
          browseable: request.browseable,
          bindPublicIp: request.bind_public_ip,
          changedGeneration: generation,
          createdAt: at,
          updatedAt: at,
        });
        await q.insertShareUsers(access.users.map((user) => ({ shareId: share.id, ...user })));
        await q.insertShareGroups(access.groups.map((groupId) => ({ shareId: share.id, groupId })));
        return {
          result: await presented(tx, service, share.id),
          activity: [{ action: 'Samba share created', tone: 'success', details: { name: share.name } }],
        };
      });
    },

    async updateShare(
      accountId: string,
      serviceId: string,
      name: string,
      request: UpdateShare,
      meta: ChangeMeta,
    ): Promise<SambaShare> {
      const publicAddress =
        !request.bind_public_ip || (await planHasPublicAddress(deps.plans, changes, accountId, serviceId));
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createSambaQueries(tx);
        const share = requireShare(await q.findShare(service.id, name));
        const next = {
          path: request.path ?? share.path,
          description: request.description ?? share.description,
          guestOk: request.guest_ok ?? share.guestOk,
          browseable: request.browseable ?? share.browseable,
          bindPublicIp: request.bind_public_ip ?? share.bindPublicIp,
        };
        refusePublicGuestShare(next);
        if (request.bind_public_ip && !share.bindPublicIp && !publicAddress)
          throw new AppError('samba_public_ip_not_in_plan');
        const errors: AppFieldError[] = [];
        const access = await resolveAccess(
          tx,
          service.id,
          { users: request.users, groups: request.groups },
          errors,
        );
        throwFieldErrors(errors);
        const before = await snapshotOf(tx, service.id);
        const fields: string[] = (Object.keys(next) as Array<keyof typeof next>).filter(
          (key) => next[key] !== share[key],
        );
        if (request.users) {
          await q.deleteShareUsers(share.id);
          await q.insertShareUsers(access.users.map((user) => ({ shareId: share.id, ...user })));
        }
        if (request.groups) {
          await q.deleteShareGroups(share.id);
          await q.insertShareGroups(access.groups.map((groupId) => ({ shareId: share.id, groupId })));
        }
        const after = await snapshotOf(tx, service.id);
        if (JSON.stringify(shareUsers(before, share.id)) !== JSON.stringify(shareUsers(after, share.id))) {
          fields.push('users');
        }
        if (JSON.stringify(shareGroups(before, share.id)) !== JSON.stringify(shareGroups(after, share.id))) {
          fields.push('groups');
        }
        if (fields.length === 0) return { unchanged: presentShare(service, after, share) };
        await q.updateShare(share.id, { ...next, changedGeneration: generation, updatedAt: at });
        return {
          result: await presented(tx, service, share.id),
          activity: [{ action: 'Samba share updated', tone: 'info', details: { name: share.name, fields } }],
        };
      });
    },

    async deleteShare(accountId: string, serviceId: string, name: string, meta: ChangeMeta): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, service }) => {
        const q = createSambaQueries(tx);
        const share = requireShare(await q.findShare(service.id, name));
        await q.deleteShare(share.id);
        return {
          result: undefined,
          activity: [{ action: 'Samba share deleted', tone: 'warning', details: { name: share.name } }],
        };
      });
    },

    async shareUsers(accountId: string, serviceId: string, name: string): Promise<SambaShareUsersResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(deps.db, service.id);
      const share = requireShare(snapshot.shares.find((candidate) => candidate.name === name));
      return { users: shareUsers(snapshot, share.id) };
    },

    async addShareUser(
      accountId: string,
      serviceId: string,
      name: string,
      request: ShareUserEntry,
      meta: ChangeMeta,
    ): Promise<SambaShareUser> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createSambaQueries(tx);
        const share = requireShare(await q.findShare(service.id, name));
        const [user] = await deps.directory(tx).usersNamed(service.id, [request.name]);
        const errors: AppFieldError[] = [];
        if (!user) errors.push({ field: 'name', code: 'workspace_user_unknown' });
        if (!readCovers(request)) errors.push({ field: 'read', code: 'share_permissions_need_read' });
        throwFieldErrors(errors);
        if (!user) throw new AppError('workspace_user_not_found');
        if ((await q.usersOfShare(share.id)).some((entry) => entry.userId === user.id)) {
          throw new AppError('samba_share_user_exists');
        }
        const permissions = {
          read: request.read,
          write: request.write,
          execute: request.execute,
          admin: request.admin,
        };
        await q.insertShareUsers([{ shareId: share.id, userId: user.id, ...permissions }]);
        await q.markSharesChanged([share.id], generation, at);
        return {
          result: { name: user.name, ...permissions },
          activity: [
            {
              action: 'Samba share user added',
              tone: 'info',
              details: { share: share.name, user: user.name, ...permissions },
            },
          ],
        };
      });
    },

    async removeShareUser(
      accountId: string,
      serviceId: string,
      shareName: string,
      userName: string,
      meta: ChangeMeta,
    ): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const { share, user, entry } = await shareAndUser(tx, service.id, shareName, userName);
        if (!entry) throw new AppError('samba_share_user_not_found');
        const q = createSambaQueries(tx);
        await q.deleteShareUser(share.id, user.id);
        await q.markSharesChanged([share.id], generation, at);
        return {
          result: undefined,
          activity: [
            {
              action: 'Samba share user removed',
              tone: 'info',
              details: { share: share.name, user: user.name },
            },
          ],
        };
      });
    },

    async permissions(
      accountId: string,
      serviceId: string,
      name: string,
    ): Promise<SambaSharePermissionsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(deps.db, service.id);
      const share = requireShare(snapshot.shares.find((candidate) => candidate.name === name));
      return {
        share: share.name,
        permissions: [
          ...shareUsers(snapshot, share.id).map((user) => ({ kind: 'user' as const, ...user })),
          ...shareGroups(snapshot, share.id).map((group) => ({
            kind: 'group' as const,
            name: group,
            read: true,
            write: true,
            execute: false,
            admin: false,
          })),
        ],
      };
    },

    async setPermissions(
      accountId: string,
      serviceId: string,
      shareName: string,
      userName: string,
      request: SambaSharePermissionsRequest,
      meta: ChangeMeta,
    ): Promise<SambaShareUser> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const { share, user, entry } = await shareAndUser(tx, service.id, shareName, userName);
        if (!entry) throw new AppError('samba_share_user_not_found');
        const permissions = {
          read: request.read ?? entry.read,
          write: request.write ?? entry.write,
          execute: request.execute ?? entry.execute,
          admin: request.admin ?? entry.admin,
        };
        if (!readCovers(permissions))
          throwFieldErrors([{ field: 'read', code: 'share_permissions_need_read' }]);
        const result = { name: user.name, ...permissions };
        const same = (Object.keys(permissions) as Array<keyof typeof permissions>).every(
          (key) => permissions[key] === entry[key],
        );
        if (same) return { unchanged: result };
        const q = createSambaQueries(tx);
        await q.updateShareUser(share.id, user.id, permissions);
        await q.markSharesChanged([share.id], generation, at);
        return {
          result,
          activity: [
            {
              action: 'Samba share permissions updated',
              tone: 'info',
              details: { share: share.name, user: user.name, ...permissions },
            },
          ],
        };
      });
    },

    async status(accountId: string, serviceId: string): Promise<SambaStatus> {
      const service = await changes.owned(accountId, serviceId);
      const driver = reportedDriver(service, SAMBA_DRIVER);
      return {
        placed: service.nodeId !== null,
        address: await servicesAddressOf(deps.plans, service),
        public_address: await deps.plans.publicAddress(service.productId),
        live: driver ? driver.live : null,
        reason: driver?.reason ?? null,
        ...applyProgress(service, SAMBA_FAILURE_KINDS),
        shares: await queries.countShares(service.id),
        settings: presentSettings(service, await queries.findSettings(service.id)),
      };
    },

    /** Asks the node to apply the Samba configuration again: a new generation, nothing else. */
    async reload(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'Samba reloaded', tone: 'info' }],
      }));
    },

    async updateSettings(
      accountId: string,
      serviceId: string,
      request: SettingsChange,
      meta: ChangeMeta,
    ): Promise<SambaSettings> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createSambaQueries(tx);
        const current = await q.findSettings(service.id);
        const next = {
          workgroup: request.workgroup ?? current?.workgroup ?? SAMBA_DEFAULT_SETTINGS.workgroup,
          serverString:
            request.server_string ?? current?.serverString ?? SAMBA_DEFAULT_SETTINGS.server_string,
          minProtocol: request.min_protocol ?? current?.minProtocol ?? SAMBA_DEFAULT_SETTINGS.min_protocol,
        };
        const before = current ?? {
          workgroup: SAMBA_DEFAULT_SETTINGS.workgroup,
          serverString: SAMBA_DEFAULT_SETTINGS.server_string,
          minProtocol: SAMBA_DEFAULT_SETTINGS.min_protocol,
        };
        const fields = (Object.keys(next) as Array<keyof typeof next>).filter(
          (key) => next[key] !== before[key],
        );
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
          activity: [{ action: 'Samba settings updated', tone: 'info', details: { fields } }],
        };
      });
    },

    /** The `samba` section of the service's desired state. */
    async desiredSection({
      serviceId,
      publicAddress,
    }: DesiredContext): Promise<{ samba: SambaSectionState }> {
      const settings = await queries.findSettings(serviceId);
      const shares = desiredShares(await snapshotOf(deps.db, serviceId));
      return {
        samba: {
          shares: publicAddress ? shares : shares.map((share) => ({ ...share, bind_public_ip: false })),
          settings: settings
            ? {
                workgroup: settings.workgroup,
                server_string: settings.serverString,
                min_protocol: settings.minProtocol,
              }
            : SAMBA_DEFAULT_SETTINGS,
        },
      };
    },

    /** Shares of each service, for the services overview. */
    async counts(serviceIds: string[]): Promise<Map<string, { shares: number }>> {
      const result = new Map(serviceIds.map((id) => [id, { shares: 0 }]));
      for (const row of await queries.countsByService(serviceIds)) {
        const entry = result.get(row.serviceId);
        if (entry) entry.shares = row.total;
      }
      return result;
    },
  };
}

export type SambaService = ReturnType<typeof createSambaService>;
export type { SambaQueries };
