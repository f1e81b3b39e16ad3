// A workspace's snapshots (issue 37): the list the node last reported, and one taken now through
// the node (call `snapshot.take`), at most one a minute per service (LIMITS.manualSnapshotPerService,
// counted before the node is asked and given back when the node did not take it). A workspace
// whose storage takes none (ext4, made before btrfs) answers `snapshots_unsupported`. One taken
// on demand is recorded in the activity log (`Snapshot taken`); scheduled ones are not (96 a day).
import {
  SNAPSHOT_INTERVAL_MINUTES,
  SNAPSHOTS_UNSUPPORTED_REASONS,
  type Snapshot,
  type SnapshotsListResponse,
  type SnapshotsUnsupportedReason,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import { nodeCallError, type NodeCalls } from '../nodes/node-calls.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { createSnapshotsQueries } from './snapshots.queries.ts';

export const SNAPSHOTS_FEATURE = 'snapshots';
const TAKE_TIMEOUT_MS = 30_000;

const knownReason = (reason: string | null): SnapshotsUnsupportedReason =>
  (SNAPSHOTS_UNSUPPORTED_REASONS as readonly string[]).includes(reason ?? '')
    ? (reason as SnapshotsUnsupportedReason)
    : 'ext4_storage';

export function createSnapshotsService(deps: {
  db: Db;
  changes: WorkspaceChanges;
  nodeCalls: NodeCalls;
  limiter: RateLimiter;
  recordActivity: RecordActivity;
}) {
  const { changes } = deps;
  const queries = createSnapshotsQueries(deps.db);

  return {
    async list(accountId: string, serviceId: string): Promise<SnapshotsListResponse> {
      const service = await changes.owned(accountId, serviceId);
      const row = await queries.find(service.id);
      // Before the node's first report: supported until it says otherwise, nothing taken yet.
      const supported = row?.supported ?? true;
      return {
        supported,
        reason: supported ? null : knownReason(row?.reason ?? null),
        snapshots: row?.snapshots ?? [],
        reported_at: row?.reportedAt?.toISOString() ?? null,
        interval_minutes: SNAPSHOT_INTERVAL_MINUTES,
      };
    },

    async take(accountId: string, serviceId: string, meta: ChangeMeta): Promise<{ snapshot: Snapshot }> {
      const service = await changes.owned(accountId, serviceId);
      changes.refuseUnlessChangeable(service, changes.now());
      const row = await queries.find(service.id);
      if (row && !row.supported) throw new AppError('snapshots_unsupported');
      const taken = await deps.limiter.take([[LIMITS.manualSnapshotPerService, service.id]]);
      const answer = await deps.nodeCalls.call(
        service.id,
        'snapshot.take',
        {},
        { timeoutMs: TAKE_TIMEOUT_MS },
      );
      if (!answer.ok) {
        await deps.limiter.release(taken);
        throw nodeCallError(answer.code, { unsupported: 'snapshots_unsupported' });
      }
      const snapshot = answer.result;
      // Listed at once, before the node's next report says so too, and in the activity log.
      await inTransaction(deps.db, async (tx) => {
        const rows = createSnapshotsQueries(tx);
        const latest = await rows.find(service.id, true);
        if (latest && !latest.snapshots.some((s) => s.name === snapshot.name))
          await rows.save({ ...latest, snapshots: [snapshot, ...latest.snapshots] });
        else if (!latest)
          await rows.save({
            serviceId: service.id,
            supported: true,
            reason: null,
            snapshots: [snapshot],
            reportedAt: null,
          });
        await deps.recordActivity(tx, {
          accountId,
          serviceId: service.id,
          ip: meta.ip,
          action: 'Snapshot taken',
          tone: 'success',
          details: { name: snapshot.name },
        });
      });
      return { snapshot };
    },
  };
}

export type SnapshotsService = ReturnType<typeof createSnapshotsService>;
