// A workspace's users: list, create, change (active, password, groups), delete, and the groups one
// is in. Deleting a user takes them out of their groups and out of what depends on them.
import type { z } from 'zod';
import type {
  createWorkspaceUserRequestSchema,
  updateWorkspaceUserRequestSchema,
  WorkspaceUser,
  WorkspaceUserGroupsResponse,
  WorkspaceUsersResponse,
} from '@debesis/contract';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { ChangeMeta } from '../workspace/workspace-change.ts';
import {
  presentedUser,
  refuseOverLimit,
  requireUser,
  resolveNames,
  setMemberships,
  snapshotOf,
  throwFieldErrors,
  type DirectoryParts,
} from './directory-rules.ts';
import { presentUser } from './directory.presenter.ts';
import { createDirectoryQueries } from './directory.queries.ts';
import { hashWorkspacePassword } from './passwords.ts';

type CreateUser = z.output<typeof createWorkspaceUserRequestSchema>;
type UpdateUser = z.output<typeof updateWorkspaceUserRequestSchema>;

export function createDirectoryUsers({ changes, queries, dependents }: DirectoryParts) {
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
  };
}
