// NFS as a workspace feature (workspace-feature.ts): the `nfs` section of the desired state
// (absent while the service has no exports: no server), the exports of the overview, the owner
// users its exports name, the `nfs_export` failures of the agent's NFS driver, the clients of the
// node's reports (`features.nfs`), and the /nfs routes.
import { createDirectoryReader } from '../directory/directory.reader.ts';
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { storeNfsReport } from './nfs.report.ts';
import { nfsRoutes } from './nfs.routes.ts';
import { createNfsService, NFS_FAILURE_KINDS, nfsDirectoryDependent } from './nfs.service.ts';

export const createNfsFeature: WorkspaceFeatureFactory = ({
  db,
  changes,
  nodeCalls,
  recordActivity,
  plans,
}) => {
  const nfs = createNfsService({
    db,
    changes,
    directory: createDirectoryReader,
    nodeCalls,
    recordActivity,
    plans,
  });
  return {
    feature: 'nfs',
    failureKinds: NFS_FAILURE_KINDS,
    desiredSection: ({ serviceId }) => nfs.desiredSection(serviceId),
    counts: (serviceIds) => nfs.counts(serviceIds),
    directoryDependent: nfsDirectoryDependent,
    reports: { nfs: storeNfsReport },
    routes: async (api) => {
      await api.register(nfsRoutes, { prefix: '/nfs', nfs });
    },
  };
};
