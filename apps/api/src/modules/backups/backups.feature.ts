// Backups as a workspace feature (workspace-feature.ts): the `backup` section of the desired state
// (the jobs the node is to run, the backup clients that may push and the repositories to keep, and
// with a backup target, where the workspace's repository is and its key: backup-target.ts),
// what the node reports of them and of its repositories (`features.backup`,
// `features.backup_clients`), the clients' share of the plan's users, and the /backups routes.
// The scheduler that queues due runs is the worker's (backups.scheduler.ts).
import type { WorkspaceFeatureFactory } from '../workspace/workspace-feature.ts';
import { createBackupTarget } from './backup-target.ts';
import { storeBackupClientsReport } from './backup-clients.report.ts';
import { backupClientsRoutes } from './backup-clients.routes.ts';
import { createBackupClientsService } from './backup-clients.ts';
import { createBackupReportStore } from './backups.report.ts';
import { backupsRoutes } from './backups.routes.ts';
import { createBackupsService } from './backups.service.ts';

export const createBackupsFeature: WorkspaceFeatureFactory = ({
  db,
  changes,
  nodeCalls,
  recordActivity,
  serverSecret,
  backupTargetUrl,
  runSoon,
}) => {
  const backups = createBackupsService({ db, changes, nodeCalls });
  const clients = createBackupClientsService({ db, changes, nodeCalls });
  const target = createBackupTarget({ db, serverSecret, url: backupTargetUrl });
  return {
    feature: 'backups',
    desiredSection: async ({ serviceId }) => {
      const [{ backup }, clientsPart, repositories] = await Promise.all([
        backups.desiredSection(serviceId),
        clients.desiredPart(serviceId),
        target.repositories(serviceId),
      ]);
      return { backup: { ...backup, ...clientsPart, ...repositories } };
    },
    planUsers: { code: 'below_backup_clients_in_use', inUse: (serviceId) => clients.count(serviceId) },
    reports: {
      backup: createBackupReportStore(recordActivity, () => runSoon('backups.tick')),
      backup_clients: storeBackupClientsReport,
    },
    routes: async (api) => {
      await api.register(backupsRoutes, { prefix: '/backups', backups });
      await api.register(backupClientsRoutes, { prefix: '/backups', clients });
    },
  };
};
