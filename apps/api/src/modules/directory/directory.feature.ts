// Users and groups as a workspace feature (workspace-feature.ts): the `users` and `groups`
// sections of the desired state, the active users and groups of the overview, the `user` and
// `group` failures of the agent's users driver, and the /user-groups routes.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { directoryRoutes } from './directory.routes.ts';
import { createDirectoryService } from './directory.service.ts';

export const createDirectoryFeature: WorkspaceFeatureFactory = ({ db, changes, dependents }) => {
  const directory = createDirectoryService({ db, changes, dependents });
  return {
    feature: 'users',
    failureKinds: ['user', 'group'],
    desiredSection: ({ serviceId, idBase }) => directory.desiredSection(serviceId, idBase),
    // Inactive users need no room in the plan.
    planUsers: { code: 'below_users_in_use', inUse: (serviceId) => directory.countActiveUsers(serviceId) },
    async counts(serviceIds) {
      const counts = await directory.counts(serviceIds);
      return new Map(
        [...counts].map(([id, entry]) => [id, { users_active: entry.users_active, groups: entry.groups }]),
      );
    },
    routes: async (api) => {
      await api.register(directoryRoutes, { prefix: '/user-groups', directory });
    },
  };
};
