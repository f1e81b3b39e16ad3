// Service users and groups (spec §3, §5, §7 "Users and groups"): what the owner may do with them,
// and the `users`/`groups` sections of the workspace's desired state for the node agent.
//
// Rules: names follow the node contract (checked by the request schemas); a name is unique among
// the service's users and among its groups (a user and a group may share one, as on Unix); the
// plan's users count limits the active users (an inactive user cannot sign in and counts against
// no limit; activating one is refused while the active users fill the plan, and a plan change
// must hold the active users); a user is primary member of at most one
// group, and making them primary elsewhere moves the role. Deleting a user takes them out of
// their groups and out of what depends on them (Samba shares: the registry's `dependents`);
// deleting a group takes it out of shares, and its primary members fall back to the `users`
// group. Renaming a group keeps its gid and memberships; the shares that let it in are stamped
// with the generation, since the node names the group in them.
// Every change runs through the workspace change pipeline: one transaction with the generation
// bump, every touched row stamped with the new generation and the activity entry, then a
// wake-up of the node. directory.feature.ts registers it as the `users` workspace feature.
import type { z } from 'zod';
import {
  WORKSPACE_GROUPS_MAX,
  type createWorkspaceGroupRequestSchema,
  type createWorkspaceUserRequestSchema,
  type updateWorkspaceGroupRequestSchema,
  type updateWorkspaceUserRequestSchema,
  type WorkspaceApplyResponse,
  type WorkspaceGroup,
  type WorkspaceGroupMembersResponse,
  type WorkspaceGroupsResponse,
  type WorkspaceGroupState,
  type WorkspaceUser,
  type WorkspaceUserGroupsResponse,
  type WorkspaceUsersResponse,
  type WorkspaceUserState,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { ServiceRow } from '../services/workspace-rows.ts';
import {
  desiredDirectory,
  presentGroup,
  presentMembers,
  presentUser,
  type DirectorySnapshot,
} from './directory.presenter.ts';
import {
  createDirectoryQueries,
  type DirectoryQueries,
  type WorkspaceGroupRow,
  type WorkspaceUserRow,
} from './directory.queries.ts';
import { hashWorkspacePassword } from './passwords.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { DirectoryDependent } from '../workspace/workspace-feature.ts';

/** What other modules may read of the directory, on the handle they give (their transaction). */
export function createDirectoryReader(db: Db) {
  const queries = createDirectoryQueries(db);
  return {
    usersNamed: (serviceId: string, names: string[]) => queries.usersNamed(serviceId, names),
    /** Every user of the service, by name. */
    listUsers: (serviceId: string) => queries.listUsers(serviceId),
    /** One user by name (names are lower case: the name rule) or by id, with its password hashes. */
    findUser: (serviceId: string, name: string) => queries.findUser(serviceId, name.toLowerCase()),
    findUserById: (serviceId: string, id: string) => queries.findUserById(serviceId, id),
    findAccountUser: (accountId: string, id: string) => queries.findAccountUser(accountId, id),
    /** The groups a user is in, its primary group first. */
    async groupsOf(serviceId: string, userId: string): Promise<string[]> {
      const [memberships, groups] = [
        await queries.membershipsOfUser(userId),
        await queries.listGroups(serviceId),
      ];
      return memberships
        .toSorted((a, b) => Number(b.primary) - Number(a.primary))
        .flatMap((member) => groups.find((group) => group.id === member.groupId)?.name ?? []);
    },
    groupsNamed: (serviceId: string, names: string[]) => queries.groupsNamed(serviceId, names),
    /** The service's users by name: id, name, active (LDAP's flags name them). */
    users: async (serviceId: string) =>
      (await queries.listUsers(serviceId)).map(({ id, name, active }) => ({ id, name, active })),
    /** How many of the service's users are active (the plan-change fit check). */
    countActiveUsers: (serviceId: string) => queries.countActiveUsers(serviceId),
    /** Names of the service's users and groups by id. */
    async names(serviceId: string): Promise<{ users: Map<string, string>; groups: Map<string, string> }> {
      const [users, groups] = [await queries.listUsers(serviceId), await queries.listGroups(serviceId)];
      return {
        users: new Map(users.map((user) => [user.id, user.name])),
        groups: new Map(groups.map((group) => [group.id, group.name])),
      };
    },
  };
}
export type DirectoryReader = ReturnType<typeof createDirectoryReader>;

type CreateUser = z.output<typeof createWorkspaceUserRequestSchema>;
type UpdateUser = z.output<typeof updateWorkspaceUserRequestSchema>;
type CreateGroup = z.output<typeof createWorkspaceGroupRequestSchema>;
type UpdateGroup = z.output<typeof updateWorkspaceGroupRequestSchema>;

async function snapshotOf(queries: DirectoryQueries, serviceId: string): Promise<DirectorySnapshot> {
  return {
    users: await queries.listUsers(serviceId),
    groups: await queries.listGroups(serviceId),
    members: await queries.membersOfService(serviceId),
  };
}

/** Refuses one more active user when the active users already fill the plan's users count. */
async function refuseOverLimit(queries: DirectoryQueries, service: ServiceRow): Promise<void> {
  if ((await queries.countActiveUsers(service.id)) >= service.usersCount) {
    throw new AppError('workspace_user_limit', { extra: { limit: service.usersCount } });
  }
}

function requireUser(user: WorkspaceUserRow | undefined): WorkspaceUserRow {
  if (!user) throw new AppError('workspace_user_not_found');
  return user;
}

function requireGroup(group: WorkspaceGroupRow | undefined): WorkspaceGroupRow {
  if (!group) throw new AppError('workspace_group_not_found');
  return group;
}

function throwFieldErrors(errors: AppFieldError[]): void {
  if (errors.length > 0) throw new AppError('validation_error', { fieldErrors: errors });
}

/**
 * Resolves names the request lists under `field` to rows of the service, collecting a field
 * error for each unknown or repeated one.
 */
function resolveNames<Row extends { name: string }>(
  field: string,
  names: string[],
  rows: Row[],
  unknownCode: 'workspace_user_unknown' | 'workspace_group_unknown',
  errors: AppFieldError[],
): Row[] {
  const seen = new Set<string>();
  const resolved: Row[] = [];
  names.forEach((name, index) => {
    if (seen.has(name)) {
      errors.push({ field: `${field}.${index}`, code: 'listed_twice' });
      return;
    }
    seen.add(name);
    const row = rows.find((candidate) => candidate.name === name);
    if (row) resolved.push(row);
    else errors.push({ field: `${field}.${index}`, code: unknownCode });
  });
  return resolved;
}

export function createDirectoryService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  /** What the other features hold that names a user or group (the registry's, read per deletion). */
  dependents?: () => readonly DirectoryDependent[];
}) {
  const { changes } = deps;
  const queries = createDirectoryQueries(deps.db);
  const dependents = deps.dependents ?? (() => []);

  /** Sets a user's groups to `groupIds` with `primaryId` as the primary one; ids of groups whose membership changed. */
  async function setMemberships(
    q: DirectoryQueries,
    serviceId: string,
    userId: string,
    groupIds: string[],
    primaryId: string | null,
  ): Promise<{ groups: string[]; primaryChanged: boolean }> {
    const current = await q.membershipsOfUser(userId);
    const wanted = new Set(groupIds);
    if (primaryId) wanted.add(primaryId);
    const changed = new Set<string>();
    const currentPrimary = current.find((member) => member.primary)?.groupId ?? null;
    // The primary role leaves first: one user holds it in at most one group at any moment.
    if (currentPrimary !== primaryId) await q.clearPrimary(userId, null);
    for (const member of current) {
      if (!wanted.has(member.groupId)) {
        await q.removeMember(member.groupId, userId);
        changed.add(member.groupId);
      }
    }
    const missing = [...wanted].filter((groupId) => !current.some((member) => member.groupId === groupId));
    await q.insertMembers(
      missing.map((groupId) => ({ groupId, userId, serviceId, primary: groupId === primaryId })),
    );
    for (const groupId of missing) changed.add(groupId);
    if (primaryId && currentPrimary !== primaryId && !missing.includes(primaryId)) {
      await q.setPrimary(primaryId, userId, true);
    }
    if (currentPrimary !== primaryId) {
      if (currentPrimary) changed.add(currentPrimary);
      if (primaryId) changed.add(primaryId);
    }
    return { groups: [...changed], primaryChanged: currentPrimary !== primaryId };
  }

  async function presentedUser(
    q: DirectoryQueries,
    service: ServiceRow,
    userId: string,
  ): Promise<WorkspaceUser> {
    const snapshot = await snapshotOf(q, service.id);
    return presentUser(service, snapshot, requireUser(snapshot.users.find((user) => user.id === userId)));
  }

  async function presentedGroup(
    q: DirectoryQueries,
    service: ServiceRow,
    groupId: string,
  ): Promise<WorkspaceGroup> {
    const snapshot = await snapshotOf(q, service.id);
    return presentGroup(
      service,
      snapshot,
      requireGroup(snapshot.groups.find((group) => group.id === groupId)),
    );
  }

  return {
    async listUsers(accountId: string, serviceId: string): Promise<WorkspaceUsersResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(queries, service.id);
      return {
        users: snapshot.users.map((user) => presentUser(service, snapshot, user)),
        limit: service.usersCount,
      };
    },

    async createUser(
      accountId: string,
      serviceId: string,
      request: CreateUser,
      meta: ChangeMeta,
    ): Promise<WorkspaceUser> {
      // Hashing is the slow part: done before the transaction holds the service.
      const hashes = await hashWorkspacePassword(request.password);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        if (await q.findUser(service.id, request.name)) throw new AppError('workspace_user_exists');
        if (request.active) await refuseOverLimit(q, service);
        const errors: AppFieldError[] = [];
        const wantedNames = [...request.groups];
        const groups = resolveNames(
          'groups',
          wantedNames,
          await q.groupsNamed(service.id, wantedNames),
          'workspace_group_unknown',
          errors,
        );
        const primary = request.primary_group
          ? ((await q.findGroup(service.id, request.primary_group)) ?? null)
          : null;
        if (request.primary_group && !primary) {
          errors.push({ field: 'primary_group', code: 'workspace_group_unknown' });
        }
        throwFieldErrors(errors);
        const offset = await q.allocateOffset(service.id, 'user');
        if (offset === null) throw new AppError('workspace_ids_exhausted');
        const user = await q.insertUser({
          serviceId: service.id,
          accountId,
          name: request.name,
          idOffset: offset,
          active: request.active,
          passwordCrypt: hashes.crypt,
          passwordNt: hashes.nt,
          changedGeneration: generation,
          createdAt: at,
          updatedAt: at,
        });
        const memberships = await setMemberships(
          q,
          service.id,
          user.id,
          groups.map((group) => group.id),
          primary?.id ?? null,
        );
        await q.markGroupsChanged(memberships.groups, generation, at);
        return {
          result: await presentedUser(q, service, user.id),
          activity: [{ action: 'user created', tone: 'success', details: { name: user.name } }],
        };
      });
    },

    async updateUser(
      accountId: string,
      serviceId: string,
      name: string,
      request: UpdateUser,
      meta: ChangeMeta,
    ): Promise<WorkspaceUser> {
      const hashes = request.password === undefined ? null : await hashWorkspacePassword(request.password);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const user = requireUser(await q.findUser(service.id, name));
        const fields: string[] = [];
        let userChanged = false;
        if (request.active !== undefined && request.active !== user.active) {
          if (request.active) await refuseOverLimit(q, service);
          fields.push('active');
          userChanged = true;
        }
        if (hashes) {
          fields.push('password');
          userChanged = true;
        }
        let changedGroups: string[] = [];
        if (request.groups !== undefined || request.primary_group !== undefined) {
          const current = await q.membershipsOfUser(user.id);
          const snapshotGroups = await q.listGroups(service.id);
          const errors: AppFieldError[] = [];
          const groupIds =
            request.groups === undefined
              ? current.map((member) => member.groupId)
              : resolveNames('groups', request.groups, snapshotGroups, 'workspace_group_unknown', errors).map(
                  (group) => group.id,
                );
          let primaryId: string | null;
          if (request.primary_group === undefined) {
            // The primary role stays where it is while the user stays in that group.
            const currentPrimary = current.find((member) => member.primary)?.groupId ?? null;
            primaryId = currentPrimary && groupIds.includes(currentPrimary) ? currentPrimary : null;
          } else if (request.primary_group === null) {
            primaryId = null;
          } else {
            const primaryName = request.primary_group;
            primaryId = snapshotGroups.find((group) => group.name === primaryName)?.id ?? null;
            if (!primaryId) errors.push({ field: 'primary_group', code: 'workspace_group_unknown' });
          }
          throwFieldErrors(errors);
          const memberships = await setMemberships(q, service.id, user.id, groupIds, primaryId);
          changedGroups = memberships.groups;
          if (memberships.groups.length > 0) fields.push('groups');
          if (memberships.primaryChanged) userChanged = true;
        }
        if (fields.length === 0) return { unchanged: await presentedUser(q, service, user.id) };
        await q.updateUser(user.id, {
          ...(request.active === undefined ? {} : { active: request.active }),
          ...(hashes ? { passwordCrypt: hashes.crypt, passwordNt: hashes.nt } : {}),
          // A new membership changes only the group's state; the user row keeps its generation.
          ...(userChanged
            ? { changedGeneration: generation }
            : { changedGeneration: user.changedGeneration }),
          updatedAt: at,
        });
        await q.markGroupsChanged(changedGroups, generation, at);
        return {
          result: await presentedUser(q, service, user.id),
          activity: [{ action: 'user updated', tone: 'info', details: { name: user.name, fields } }],
        };
      });
    },

    async setPassword(
      accountId: string,
      serviceId: string,
      name: string,
      password: string,
      meta: ChangeMeta,
    ): Promise<WorkspaceUser> {
      const hashes = await hashWorkspacePassword(password);
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const user = requireUser(await q.findUser(service.id, name));
        await q.updateUser(user.id, {
          passwordCrypt: hashes.crypt,
          passwordNt: hashes.nt,
          changedGeneration: generation,
          updatedAt: at,
        });
        return {
          result: await presentedUser(q, service, user.id),
          activity: [{ action: 'user password changed', tone: 'info', details: { name: user.name } }],
        };
      });
    },

    async setActive(
      accountId: string,
      serviceId: string,
      name: string,
      active: boolean,
      meta: ChangeMeta,
    ): Promise<WorkspaceUser> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const user = requireUser(await q.findUser(service.id, name));
        if (user.active === active) return { unchanged: await presentedUser(q, service, user.id) };
        if (active) await refuseOverLimit(q, service);
        await q.updateUser(user.id, { active, changedGeneration: generation, updatedAt: at });
        return {
          result: await presentedUser(q, service, user.id),
          activity: [
            {
              action: active ? 'user activated' : 'user deactivated',
              tone: 'info',
              details: { name: user.name },
            },
          ],
        };
      });
    },

    async deleteUser(accountId: string, serviceId: string, name: string, meta: ChangeMeta): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const user = requireUser(await q.findUser(service.id, name));
        for (const dependent of dependents()) {
          await dependent.userRemoved(tx, { serviceId: service.id, userId: user.id, generation, at });
        }
        const memberships = await q.membershipsOfUser(user.id);
        await q.markGroupsChanged(
          memberships.map((member) => member.groupId),
          generation,
          at,
        );
        await q.deleteUser(user.id);
        return {
          result: undefined,
          activity: [{ action: 'user deleted', tone: 'warning', details: { name: user.name } }],
        };
      });
    },

    async userGroups(
      accountId: string,
      serviceId: string,
      name: string,
    ): Promise<WorkspaceUserGroupsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const user = requireUser(await queries.findUser(service.id, name));
      const memberships = await queries.membershipsOfUser(user.id);
      const groups = await queries.listGroups(service.id);
      return {
        groups: groups.flatMap((group) => {
          const member = memberships.find((candidate) => candidate.groupId === group.id);
          if (!member) return [];
          return [
            {
              name: group.name,
              gid: service.idBase === null ? null : service.idBase + group.idOffset,
              primary: member.primary,
            },
          ];
        }),
      };
    },

    async listGroups(accountId: string, serviceId: string): Promise<WorkspaceGroupsResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(queries, service.id);
      return { groups: snapshot.groups.map((group) => presentGroup(service, snapshot, group)) };
    },

    async createGroup(
      accountId: string,
      serviceId: string,
      request: CreateGroup,
      meta: ChangeMeta,
    ): Promise<WorkspaceGroup> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        if (await q.findGroup(service.id, request.name)) throw new AppError('workspace_group_exists');
        if ((await q.countGroups(service.id)) >= WORKSPACE_GROUPS_MAX) {
          throw new AppError('workspace_group_limit', { extra: { limit: WORKSPACE_GROUPS_MAX } });
        }
        const errors: AppFieldError[] = [];
        const members = resolveNames(
          'members',
          request.members,
          await q.usersNamed(service.id, request.members),
          'workspace_user_unknown',
          errors,
        );
        throwFieldErrors(errors);
        const offset = await q.allocateOffset(service.id, 'group');
        if (offset === null) throw new AppError('workspace_ids_exhausted');
        const group = await q.insertGroup({
          serviceId: service.id,
          accountId,
          name: request.name,
          description: request.description,
          idOffset: offset,
          changedGeneration: generation,
          createdAt: at,
          updatedAt: at,
        });
        await q.insertMembers(
          members.map((user) => ({
            groupId: group.id,
            userId: user.id,
            serviceId: service.id,
            primary: false,
          })),
        );
        return {
          result: await presentedGroup(q, service, group.id),
          activity: [{ action: 'group created', tone: 'success', details: { name: group.name } }],
        };
      });
    },

    async updateGroup(
      accountId: string,
      serviceId: string,
      name: string,
      request: UpdateGroup,
      meta: ChangeMeta,
    ): Promise<WorkspaceGroup> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const group = requireGroup(await q.findGroup(service.id, name));
        const fields: string[] = [];
        const errors: AppFieldError[] = [];
        const newName = request.name !== undefined && request.name !== group.name ? request.name : null;
        if (newName !== null) {
          if (await q.findGroup(service.id, newName)) {
            errors.push({ field: 'name', code: 'workspace_group_name_taken' });
          }
          fields.push('name');
        }
        if (request.description !== undefined && request.description !== group.description) {
          fields.push('description');
        }
        const wanted =
          request.members === undefined
            ? undefined
            : resolveNames(
                'members',
                request.members,
                await q.usersNamed(service.id, request.members),
                'workspace_user_unknown',
                errors,
              );
        throwFieldErrors(errors);
        if (wanted !== undefined) {
          const current = await q.membersOfGroup(group.id);
          const leaving = current.filter((member) => !wanted.some((user) => user.id === member.userId));
          const joining = wanted.filter((user) => !current.some((member) => member.userId === user.id));
          for (const member of leaving) await q.removeMember(group.id, member.userId);
          await q.insertMembers(
            joining.map((user) => ({
              groupId: group.id,
              userId: user.id,
              serviceId: service.id,
              primary: false,
            })),
          );
          // Primary members who leave fall back to the `users` group: their primary gid changes.
          await q.markUsersChanged(
            leaving.filter((member) => member.primary).map((member) => member.userId),
            generation,
            at,
          );
          if (leaving.length > 0 || joining.length > 0) fields.push('members');
        }
        if (fields.length === 0) return { unchanged: await presentedGroup(q, service, group.id) };
        await q.updateGroup(group.id, {
          ...(newName === null ? {} : { name: newName }),
          ...(request.description === undefined ? {} : { description: request.description }),
          changedGeneration: generation,
          updatedAt: at,
        });
        if (newName !== null) {
          // The gid stays, so members' files and memberships follow; what lists it by name follows.
          for (const dependent of dependents()) {
            await dependent.groupRenamed?.(tx, { serviceId: service.id, groupId: group.id, generation, at });
          }
        }
        return {
          result: await presentedGroup(q, service, group.id),
          activity: [
            {
              action: 'group updated',
              tone: 'info',
              details: {
                name: newName ?? group.name,
                fields,
                ...(newName === null ? {} : { previous_name: group.name }),
              },
            },
          ],
        };
      });
    },

    async deleteGroup(accountId: string, serviceId: string, name: string, meta: ChangeMeta): Promise<void> {
      await changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const group = requireGroup(await q.findGroup(service.id, name));
        for (const dependent of dependents()) {
          await dependent.groupRemoved(tx, { serviceId: service.id, groupId: group.id, generation, at });
        }
        const members = await q.membersOfGroup(group.id);
        await q.markUsersChanged(
          members.filter((member) => member.primary).map((member) => member.userId),
          generation,
          at,
        );
        await q.deleteGroup(group.id);
        return {
          result: undefined,
          activity: [{ action: 'group deleted', tone: 'warning', details: { name: group.name } }],
        };
      });
    },

    async groupMembers(
      accountId: string,
      serviceId: string,
      name: string,
    ): Promise<WorkspaceGroupMembersResponse> {
      const service = await changes.owned(accountId, serviceId);
      const snapshot = await snapshotOf(queries, service.id);
      const group = requireGroup(snapshot.groups.find((candidate) => candidate.name === name));
      return { members: presentMembers(snapshot, group.id) };
    },

    /**
     * Adds the user to the group, as primary member when asked (the role moves here from any
     * other group, where they stay supplementary). It never takes the primary role away: that is
     * `removeMember` with `primaryOnly`. `created` tells whether the membership is new.
     */
    async addMember(
      accountId: string,
      serviceId: string,
      groupName: string,
      userName: string,
      primary: boolean,
      meta: ChangeMeta,
    ): Promise<{ group: WorkspaceGroup; created: boolean }> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const group = requireGroup(await q.findGroup(service.id, groupName));
        const user = requireUser(await q.findUser(service.id, userName));
        const member = (await q.membersOfGroup(group.id)).find((candidate) => candidate.userId === user.id);
        if (member && (member.primary || !primary)) {
          return { unchanged: { group: await presentedGroup(q, service, group.id), created: false } };
        }
        if (primary) await q.clearPrimary(user.id, null);
        if (member) await q.setPrimary(group.id, user.id, true);
        else await q.insertMembers([{ groupId: group.id, userId: user.id, serviceId: service.id, primary }]);
        await q.markGroupsChanged([group.id], generation, at);
        if (primary) await q.markUsersChanged([user.id], generation, at);
        return {
          result: { group: await presentedGroup(q, service, group.id), created: !member },
          activity: [
            {
              action: 'group member added',
              tone: 'info',
              details: { group: group.name, user: user.name, primary },
            },
          ],
        };
      });
    },

    /** Removes the user from the group, or with `primaryOnly` only their primary role there. */
    async removeMember(
      accountId: string,
      serviceId: string,
      groupName: string,
      userName: string,
      primaryOnly: boolean,
      meta: ChangeMeta,
    ): Promise<WorkspaceGroup> {
      return changes.change(accountId, serviceId, meta, async ({ tx, generation, service, at }) => {
        const q = createDirectoryQueries(tx);
        const group = requireGroup(await q.findGroup(service.id, groupName));
        const user = requireUser(await q.findUser(service.id, userName));
        const member = (await q.membersOfGroup(group.id)).find((candidate) => candidate.userId === user.id);
        if (!member) throw new AppError('workspace_member_not_found');
        if (primaryOnly && !member.primary) return { unchanged: await presentedGroup(q, service, group.id) };
        if (primaryOnly) await q.setPrimary(group.id, user.id, false);
        else await q.removeMember(group.id, user.id);
        await q.markGroupsChanged([group.id], generation, at);
        if (member.primary) await q.markUsersChanged([user.id], generation, at);
        return {
          result: await presentedGroup(q, service, group.id),
          activity: [
            {
              action: primaryOnly ? 'group primary member unset' : 'group member removed',
              tone: 'info',
              details: { group: group.name, user: user.name },
            },
          ],
        };
      });
    },

    /** Sends the whole directory to the node again: a new generation with nothing else changed. */
    async sync(accountId: string, serviceId: string, meta: ChangeMeta): Promise<WorkspaceApplyResponse> {
      return changes.change(accountId, serviceId, meta, async ({ generation }) => ({
        result: { generation },
        activity: [{ action: 'users and groups synced', tone: 'info' }],
      }));
    },

    /** The `users` and `groups` sections of the service's desired state. */
    async desiredSection(
      serviceId: string,
      idBase: number,
    ): Promise<{ users: WorkspaceUserState[]; groups: WorkspaceGroupState[] }> {
      return desiredDirectory(await snapshotOf(queries, serviceId), idBase);
    },

    /** Users (active and all) and groups of each service, for the services overview. */
    async counts(
      serviceIds: string[],
    ): Promise<Map<string, { users_active: number; users_total: number; groups: number }>> {
      const rows = await queries.countsByService(serviceIds);
      const result = new Map(serviceIds.map((id) => [id, { users_active: 0, users_total: 0, groups: 0 }]));
      for (const row of rows.users) {
        const entry = result.get(row.serviceId);
        if (entry) Object.assign(entry, { users_active: row.active, users_total: row.total });
      }
      for (const row of rows.groups) {
        const entry = result.get(row.serviceId);
        if (entry) entry.groups = row.total;
      }
      return result;
    },

    /** How many of the service's users are active (the plan-change fit check). */
    countActiveUsers(serviceId: string): Promise<number> {
      return queries.countActiveUsers(serviceId);
    },
  };
}

export type DirectoryService = ReturnType<typeof createDirectoryService>;
