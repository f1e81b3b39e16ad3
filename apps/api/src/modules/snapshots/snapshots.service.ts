// A workspace's snapshots (issue 37): the list the node last reported, and one taken now through
// the node (call `snapshot.take`), at most one a minute per service (LIMITS.manualSnapshotPerService,
// counted before the node is asked and given back when the node did not take it). A workspace
// whose storage takes none (ext4, made before btrfs) answers `snapshots_unsupported`. One taken
// on demand is recorded in the activity log (`Snapshot taken`); scheduled ones are not (96 a day).
// The backup browser reads one (node calls `snapshot.browse`, `snapshot.download`) as it reads a
// backup: only a snapshot the list holds is asked for (`snapshot_not_found` otherwise).
import {
  SNAPSHOT_INTERVAL_MINUTES,
  type BackupBrowseResponse,
  SNAPSHOTS_UNSUPPORTED_REASONS,
  type Snapshot,
  type SnapshotsListResponse,
  type SnapshotsUnsupportedReason,
} from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import { inTransaction } from '../../db/transaction.ts';
import { AppError } from '../../http/app-error.ts';
import { nodeCallError, type NodeCallStream, type NodeCalls } from '../nodes/node-calls.ts';
import { LIMITS, type RateLimiter } from '../rate-limits/rate-limits.service.ts';
import type { ChangeMeta, RecordActivity, WorkspaceChanges } from '../workspace/workspace-change.ts';
import { createSnapshotsQueries } from './snapshots.queries.ts';

const TAKE_TIMEOUT_MS = 30_000;
/** A folder of 20,000 entries is read in well under this; the node's deadline to start a download. */
const BROWSE_TIMEOUT_MS = 30_000;

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

  /** The service, when `name` is one of its listed snapshots (as the node last reported them). */
  async function listedSnapshot(accountId: string, serviceId: string, name: string) {
    const service = await changes.owned(accountId, serviceId);
    const row = await queries.find(service.id);
    if (!row?.supported || !row.snapshots.some((each) => each.name === name))
      throw new AppError('snapshot_not_found');
    return service;
  }

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

    async browse(
      accountId: string,
      serviceId: string,
      name: string,
      path: string,
    ): Promise<BackupBrowseResponse> {
      const service = await listedSnapshot(accountId, serviceId, name);
      const answer = await deps.nodeCalls.call(
        service.id,
        'snapshot.browse',
        { name, path },
        { timeoutMs: BROWSE_TIMEOUT_MS },
      );
      // `not_found`: pruned on the node since its last report.
      if (!answer.ok) throw nodeCallError(answer.code, { not_found: 'snapshot_not_found' });
      if (!answer.result.found) throw new AppError('snapshot_path_not_found');
      return { path, entries: answer.result.entries, truncated: answer.result.truncated };
    },

    /** One file of a snapshot, as the node streams it; the caller pipes `body` to the owner. */
    async download(
      accountId: string,
      serviceId: string,
      name: string,
      path: string,
    ): Promise<NodeCallStream> {
      const service = await listedSnapshot(accountId, serviceId, name);
      const answer = await deps.nodeCalls.stream(
        service.id,
        'snapshot.download',
        { name, path },
        { timeoutMs: BROWSE_TIMEOUT_MS },
      );
      if (!answer.ok) throw nodeCallError(answer.code, { not_found: 'snapshot_path_not_found' });
      return answer.stream;
    },
  };
}

export type SnapshotsService = ReturnType<typeof createSnapshotsService>;
