// What a node reports of a workspace's NFS server (contract `features.nfs`), stored: the clients
// it knows now (ganesha's NFSv4 client records), replacing the last report's. They are kept per
// workspace that has exports; without exports there is no server and nothing is kept.
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
  const accountId = (await q.listExports(serviceId))[0]?.accountId;
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
  await q.clientsReported(serviceId, accountId, at);
}
