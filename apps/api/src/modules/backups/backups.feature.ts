// Backups as a workspace feature (workspace-feature.ts): the `backup` section of the desired state
// (the jobs the node is to run), what the node reports of them and of its repository
// (`features.backup`), and the /backups routes. The scheduler that queues due runs is the
// worker's (backups.scheduler.ts).
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createBackupReportStore } from './backups.report.ts';
import { backupsRoutes } from './backups.routes.ts';
import { BACKUP_DRIVER, createBackupsService } from './backups.service.ts';

export const createBackupsFeature: WorkspaceFeatureFactory = ({ db, changes, nodeCalls, recordActivity }) => {
  const backups = createBackupsService({ db, changes, nodeCalls });
  return {
    name: BACKUP_DRIVER,
    desiredSection: ({ serviceId }) => backups.desiredSection(serviceId),
    reports: { backup: createBackupReportStore(recordActivity) },
    routes: async (api) => {
      await api.register(backupsRoutes, { prefix: '/backups', backups });
    },
  };
};
