// What a node reports of a workspace's backups (contract `features.backup`), stored: each job's
// state (running with its progress, completed with its snapshot, failed with why), the
// repository's usage, and which completed runs' snapshots retention has forgotten. A job the API
// does not know for this service (another service's id, or one already forgotten) is ignored. A
// failure is recorded in the activity log once, when the job first reports failed, and marks the
// owner's mail (noteFailure) in the same transaction.
import type { BackupJobReport, BackupReport } from '@debesis/contract';
import { BACKUP_FAILURE_CODES, type BackupFailureCode } from '@debesis/contract';
import type { Tx } from '../../db/transaction.ts';
import type { RecordActivity } from '../workspace/workspace-change.ts';
import type { FeatureReportContext } from '../workspace/workspace-feature.ts';
import { noteFailure } from './backup-runs.ts';
import { createBackupsQueries } from './backups.queries.ts';

const parseDate = (value: string | undefined): Date | null => {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

const failureCode = (code: string | undefined): BackupFailureCode =>
  (BACKUP_FAILURE_CODES as readonly string[]).includes(code ?? '') ? (code as BackupFailureCode) : 'failed';

function outcome(job: BackupJobReport, at: Date) {
  return {
    status: job.status,
    startedAt: parseDate(job.started_at) ?? at,
    finishedAt: job.status === 'running' ? null : (parseDate(job.finished_at) ?? at),
    errorCode: job.status === 'failed' ? failureCode(job.error_code) : null,
    error: job.status === 'failed' ? (job.error ?? null) : null,
  };
}

/**
 * `mailFailures`: asks for the failure mails to go out once the report is stored (the worker's
 * `backups.tick`, which also sends them every minute).
 */
export function createBackupReportStore(recordActivity: RecordActivity, mailFailures: () => Promise<void>) {
  return async function storeBackupReport(
    tx: Tx,
    { serviceId, at, afterCommit }: FeatureReportContext,
    report: BackupReport,
  ): Promise<void> {
    const q = createBackupsQueries(tx);
    const { sessions, restores } = await q.openJobs(serviceId);
    const openSessions = new Map(sessions.map((row) => [row.id, row]));
    const openRestores = new Map(restores.map((row) => [row.id, row]));

    for (const job of report.jobs) {
      const session = openSessions.get(job.id);
      if (session) {
        const state = outcome(job, at);
        await q.updateSession(session.id, {
          ...state,
          progress: job.status === 'running' ? (job.progress ?? null) : null,
          ...(job.status === 'completed'
            ? {
                snapshotId: job.snapshot_id ?? null,
                bytesAdded: job.bytes_added ?? null,
                files: job.files ?? null,
                filesNew: job.files_new ?? null,
              }
            : {}),
        });
        if (job.status === 'failed') {
          if (await noteFailure(q, { ...session, ...state })) afterCommit(mailFailures);
          await recordActivity(tx, {
            accountId: session.accountId,
            serviceId,
            ip: null,
            action: 'Backup failed',
            tone: 'error',
            details: { name: session.scheduleName, code: state.errorCode },
          });
        }
        continue;
      }
      const restore = openRestores.get(job.id);
      if (restore) {
        const state = outcome(job, at);
        await q.updateRestore(serviceId, restore.id, {
          ...state,
          filesRestored: job.files_restored ?? null,
          restoredTo: job.restored_to ?? null,
        });
        if (job.status === 'failed') {
          await recordActivity(tx, {
            accountId: restore.accountId,
            serviceId,
            ip: null,
            action: 'Backup restore failed',
            tone: 'error',
            details: { path: restore.path, code: state.errorCode },
          });
        }
      }
    }

    if (report.snapshot_ids) await q.markPruned(serviceId, report.snapshot_ids, at);
    // Usage is reported on every pass but measured after jobs only: written when it moved.
    const measuredAt = parseDate(report.usage?.measured_at);
    const stored = report.usage && (await q.usage(serviceId));
    if (report.usage && stored?.measuredAt.getTime() !== measuredAt?.getTime()) {
      const accountId =
        stored?.accountId ?? sessions[0]?.accountId ?? (await q.listSchedules(serviceId))[0]?.accountId;
      if (accountId) {
        await q.saveUsage({
          serviceId,
          accountId,
          repositoryBytes: report.usage.repository_bytes,
          storedBytes: report.usage.stored_bytes,
          snapshots: report.usage.snapshots,
          measuredAt: measuredAt ?? at,
        });
      }
    }
  };
}
