// Samba as a workspace feature (workspace-feature.ts): the `samba` section of the desired state,
// the shares of the overview, what a share holds of the directory's users and groups, the
// `share` failures of the agent's Samba driver, and the /samba routes.
import { createDirectoryReader } from '../directory/directory.reader.ts';
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { sambaRoutes } from './samba.routes.ts';
import { createSambaService, SAMBA_FAILURE_KINDS, sambaDirectoryDependent } from './samba.service.ts';

export const createSambaFeature: WorkspaceFeatureFactory = ({ db, changes, plans }) => {
  const samba = createSambaService({ db, changes, plans, directory: createDirectoryReader });
  return {
    feature: 'samba',
    failureKinds: SAMBA_FAILURE_KINDS,
    desiredSection: (service) => samba.desiredSection(service),
    counts: (serviceIds) => samba.counts(serviceIds),
    directoryDependent: sambaDirectoryDependent,
    routes: async (api) => {
      await api.register(sambaRoutes, { prefix: '/samba', samba });
    },
  };
};
