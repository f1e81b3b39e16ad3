// What the API keeps of a node's `features.snapshots` section of a workspace: the list as the
// node holds it now (retention ran there), whether its storage takes snapshots and why not.
// Nodes report every few seconds, mostly the same: an unchanged list costs one read.
import type { Snapshot, SnapshotsReport } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { createSnapshotsQueries } from './snapshots.queries.ts';

const sameList = (a: readonly Snapshot[], b: readonly Snapshot[]) =>
  a.length === b.length && a.every((s, i) => s.name === b[i]?.name && s.kind === b[i]?.kind);

export async function storeSnapshotsReport(
  tx: Tx,
  { serviceId, at }: FeatureReportContext,
  section: SnapshotsReport,
): Promise<void> {
  const queries = createSnapshotsQueries(tx);
  const row = await queries.find(serviceId, true);
  const reason = section.supported ? null : (section.reason ?? null);
  // Within a minute the last report's time is recent enough; an unchanged list is not written.
  if (
    row?.reportedAt &&
    row.supported === section.supported &&
    row.reason === reason &&
    sameList(row.snapshots, section.snapshots) &&
    at.getTime() - row.reportedAt.getTime() < 60_000
  )
    return;
  await queries.save({
    serviceId,
    supported: section.supported,
    reason,
    snapshots: section.snapshots,
    reportedAt: at,
  });
}
