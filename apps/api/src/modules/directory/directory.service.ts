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
// The users' half is directory-users.ts, the groups' directory-groups.ts, what both follow
// directory-rules.ts; what other modules may read of the directory is directory.reader.ts.
import type { WorkspaceApplyResponse, WorkspaceGroupState, WorkspaceUserState } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { ChangeMeta, WorkspaceChanges } from '../workspace/workspace-change.ts';
import type { DirectoryDependent } from '../workspace/workspace-feature.ts';
import { createDirectoryGroups } from './directory-groups.ts';
import { snapshotOf, type DirectoryParts } from './directory-rules.ts';
import { createDirectoryUsers } from './directory-users.ts';
import { desiredDirectory } from './directory.presenter.ts';
import { createDirectoryQueries } from './directory.queries.ts';

export function createDirectoryService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  /** What the other features hold that names a user or group (the registry's, read per deletion). */
  dependents?: () => readonly DirectoryDependent[];
}) {
  const { changes } = deps;
  const queries = createDirectoryQueries(deps.db);
  const parts: DirectoryParts = { changes, queries, dependents: deps.dependents ?? (() => []) };

  return {
    ...createDirectoryUsers(parts),
    ...createDirectoryGroups(parts),

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
