// A workspace's groups: list, create, change (name, description, members), delete, and one
// membership at a time. A group renamed keeps its gid; one deleted leaves what depends on it.
import type { z } from 'zod';
import {
  WORKSPACE_GROUPS_MAX,
  type createWorkspaceGroupRequestSchema,
  type updateWorkspaceGroupRequestSchema,
  type WorkspaceGroup,
  type WorkspaceGroupMembersResponse,
  type WorkspaceGroupsResponse,
} from '@debesis/contract';
import { AppError, type AppFieldError } from '../../http/app-error.ts';
import type { ChangeMeta } from '../workspace/workspace-change.ts';
import {
  presentedGroup,
  requireGroup,
  requireUser,
  resolveNames,
  snapshotOf,
  throwFieldErrors,
  type DirectoryParts,
} from './directory-rules.ts';
import { presentGroup, presentMembers } from './directory.presenter.ts';
import { createDirectoryQueries } from './directory.queries.ts';

type CreateGroup = z.output<typeof createWorkspaceGroupRequestSchema>;
type UpdateGroup = z.output<typeof updateWorkspaceGroupRequestSchema>;
type DirectoryQueries = ReturnType<typeof createDirectoryQueries>;

/** The workspace users a group's `members` names; an unknown or repeated name is a field error. */
async function usersNamed(q: DirectoryQueries, serviceId: string, names: string[], errors: AppFieldError[]) {
  return resolveNames(
    'members',
    names,
    await q.usersNamed(serviceId, names),
    'workspace_user_unknown',
    errors,
  );
}

/** Adds the users to the group as supplementary members. */
async function addSupplementary(
  q: DirectoryQueries,
  serviceId: string,
  groupId: string,
  users: ReadonlyArray<{ id: string }>,
): Promise<void> {
  await q.insertMembers(users.map((user) => ({ groupId, userId: user.id, serviceId, primary: false })));
}

/** Members leaving whose primary group this was fall back to `users`: their primary gid changes. */
async function primaryMembersLeft(
  q: DirectoryQueries,
  leaving: ReadonlyArray<{ userId: string; primary: boolean }>,
  generation: number,
  at: Date,
): Promise<void> {
  await q.markUsersChanged(
    leaving.filter((member) => member.primary).map((member) => member.userId),
    generation,
    at,
  );
}

/** The group and the user named, and the user's membership of the group if they have one. */
async function membershipOf(q: DirectoryQueries, serviceId: string, groupName: string, userName: string) {
  const group = requireGroup(await q.findGroup(serviceId, groupName));
  const user = requireUser(await q.findUser(serviceId, userName));
  const member = (await q.membersOfGroup(group.id)).find((candidate) => candidate.userId === user.id);
  return { group, user, member };
}

export function createDirectoryGroups({ changes, queries, dependents }: DirectoryParts) {
  return {
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
        const members = await usersNamed(q, service.id, request.members, errors);
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
        await addSupplementary(q, service.id, group.id, members);
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
            : await usersNamed(q, service.id, request.members, errors);
        throwFieldErrors(errors);
        if (wanted !== undefined) {
          const current = await q.membersOfGroup(group.id);
          const leaving = current.filter((member) => !wanted.some((user) => user.id === member.userId));
          const joining = wanted.filter((user) => !current.some((member) => member.userId === user.id));
          for (const member of leaving) await q.removeMember(group.id, member.userId);
          await addSupplementary(q, service.id, group.id, joining);
          await primaryMembersLeft(q, leaving, generation, at);
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
        await primaryMembersLeft(q, await q.membersOfGroup(group.id), generation, at);
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
        const { group, user, member } = await membershipOf(q, service.id, groupName, userName);
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
        const { group, user, member } = await membershipOf(q, service.id, groupName, userName);
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
  };
}
