// What a node reports of a workspace's NFS server (contract `features.nfs`), stored: the clients
// it knows now (ganesha's NFSv4 client records), replacing the last report's, and each export's
// counters (ganesha's statistics), on the export's row; a row is written only when they changed.
// They are kept per workspace that has exports; without exports there is no server and nothing
// is kept.
import type { NfsReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { createNfsQueries, type NfsClientRow } from './nfs.queries.ts';

type ClientValues = Omit<NfsClientRow, 'id'>;

const clientKey = (client: ClientValues) =>
  JSON.stringify([client.address, client.version, client.connected, client.clientName, client.mountPoint]);

function sameClients(stored: readonly ClientValues[], reported: readonly ClientValues[]): boolean {
  if (stored.length !== reported.length) return false;
  const keys = stored.map(clientKey).sort();
  return reported
    .map(clientKey)
    .sort()
    .every((key, index) => key === keys[index]);
}

export async function storeNfsReport(tx: Tx, { serviceId, at }: FeatureReportContext, report: NfsReport) {
  const q = createNfsQueries(tx);
  const exports = await q.listExports(serviceId);
  const accountId = exports[0]?.accountId;
  const stored = await q.clientsOf(serviceId);
  if (!accountId) {
    if (stored.length > 0) await q.replaceClients(serviceId, []);
    return;
  }
  const clients: ClientValues[] = report.clients.map((client) => ({
    serviceId,
    accountId,
    address: client.address,
    version: client.version,
    connected: client.connected,
    clientName: client.client_name,
    mountPoint: client.mount_point,
  }));
  if (!sameClients(stored, clients)) await q.replaceClients(serviceId, clients);
  const counters = new Map(report.exports?.map((entry) => [entry.path, entry]));
  for (const row of exports) {
    const entry = counters.get(row.path);
    if (!entry) continue;
    const reported = {
      reads: entry.reads,
      readBytes: entry.read_bytes,
      writes: entry.writes,
      writeBytes: entry.write_bytes,
    };
    if (Object.entries(reported).some(([key, value]) => row[key as keyof typeof reported] !== value))
      await q.setCounters(row.id, reported);
  }
  await q.clientsReported(serviceId, accountId, at);
}
