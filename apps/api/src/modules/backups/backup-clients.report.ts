// What a node reports of a workspace's backup clients (contract `features.backup_clients`),
// stored on each client: its repository's snapshots and size, when its last push ended, and
// whether one is under way. Only what changed is written (reports come every few seconds); a name
// the service has no client of (deleted meanwhile) is ignored.
import type { BackupClientsReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { createBackupClientsQueries, type BackupClientObserved } from './backup-clients.queries.ts';

export async function storeBackupClientsReport(
  tx: Tx,
  { serviceId }: FeatureReportContext,
  report: BackupClientsReport,
): Promise<void> {
  const q = createBackupClientsQueries(tx);
  const rows = new Map((await q.list(serviceId)).map((row) => [row.name.toLowerCase(), row]));
  for (const client of report.clients) {
    const row = rows.get(client.name.toLowerCase());
    if (!row) continue;
    const lastPush = client.last_push_at ? new Date(client.last_push_at) : null;
    const observed: BackupClientObserved = {
      snapshots: client.snapshots,
      repositoryBytes: client.repository_bytes,
      lastPushAt: lastPush && !Number.isNaN(lastPush.getTime()) ? lastPush : null,
      pushing: client.pushing,
    };
    const same =
      row.snapshots === observed.snapshots &&
      row.repositoryBytes === observed.repositoryBytes &&
      row.lastPushAt?.getTime() === observed.lastPushAt?.getTime() &&
      row.pushing === observed.pushing;
    if (!same) await q.observe(serviceId, row.name, observed);
  }
}
