// What a node reports of a workspace's backup clients (contract `features.backup_clients`),
// stored on each client: its repository's snapshots and size, when its last push ended, whether
// one is under way, and when the node last copied it to the backup target. Only what changed is written (reports come every few seconds); a name
// the service has no client of (deleted meanwhile) is ignored.
import type { BackupClientsReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { createBackupClientsQueries, type BackupClientObserved } from './backup-clients.queries.ts';

/** A node's time, or null when it gives none or one that is no time. */
function dateOf(text: string | null): Date | null {
  const date = text ? new Date(text) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

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
    const observed: BackupClientObserved = {
      snapshots: client.snapshots,
      repositoryBytes: client.repository_bytes,
      lastPushAt: dateOf(client.last_push_at),
      pushing: client.pushing,
      // An older agent tells nothing of copies: what is known stays.
      offNodeAt: client.off_node_at === undefined ? row.offNodeAt : dateOf(client.off_node_at),
    };
    const same =
      row.snapshots === observed.snapshots &&
      row.repositoryBytes === observed.repositoryBytes &&
      row.lastPushAt?.getTime() === observed.lastPushAt?.getTime() &&
      row.pushing === observed.pushing &&
      row.offNodeAt?.getTime() === observed.offNodeAt?.getTime();
    if (!same) await q.observe(serviceId, row.name, observed);
  }
}
