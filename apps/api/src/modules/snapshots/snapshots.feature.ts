// Snapshots as a workspace feature (workspace-feature.ts): what the node reports of its storage's
// snapshots (`features.snapshots`, taken and pruned by the node's storage driver on its own
// schedule, so there is no desired-state section) and the /snapshots routes.
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { storeSnapshotsReport } from './snapshots.report.ts';
import { snapshotsRoutes } from './snapshots.routes.ts';
import { createSnapshotsService } from './snapshots.service.ts';

export const createSnapshotsFeature: WorkspaceFeatureFactory = ({
  db,
  changes,
  nodeCalls,
  limiter,
  recordActivity,
}) => {
  const snapshots = createSnapshotsService({ db, changes, nodeCalls, limiter, recordActivity });
  return {
    feature: 'snapshots',
    reports: { snapshots: storeSnapshotsReport },
    routes: async (api) => {
      await api.register(snapshotsRoutes, { prefix: '/snapshots', snapshots });
    },
  };
};
