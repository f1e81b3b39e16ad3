// Rows as the contract shows them.
import { withoutNodePaths } from '../../http/node-error-text.ts';
import type { BackupRestore, BackupSchedule, BackupSession, BackupUsage } from '@debesis/contract';
import type {
  BackupRestoreRow,
  BackupScheduleRow,
  BackupSessionRow,
  BackupUsageRow,
} from './backups.queries.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentSchedule(row: BackupScheduleRow, last: BackupSessionRow | undefined): BackupSchedule {
  return {
    id: row.id,
    name: row.name,
    frequency: row.frequency,
    hour: row.hour,
    minute: row.minute,
    weekday: row.weekday,
    month_day: row.monthDay,
    time_zone: row.timeZone,
    paths: row.paths,
    keep_full: row.keepFull,
    keep_incremental: row.keepIncremental,
    full_every_days: row.fullEveryDays,
    state: row.state,
    provider_managed: row.providerManaged,
    next_run_at: row.state === 'active' ? iso(row.nextRunAt) : null,
    last_session: last ? { id: last.id, status: last.status, at: last.createdAt.toISOString() } : null,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentSession(row: BackupSessionRow): BackupSession {
  const duration =
    row.startedAt && row.finishedAt ? (row.finishedAt.getTime() - row.startedAt.getTime()) / 1000 : null;
  return {
    id: row.id,
    schedule_id: row.scheduleId,
    schedule_name: row.scheduleName,
    type: row.type,
    trigger: row.trigger,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    started_at: iso(row.startedAt),
    finished_at: iso(row.finishedAt),
    duration_seconds: duration,
    size_added: row.bytesAdded,
    files: row.files,
    files_new: row.filesNew,
    progress: row.status === 'running' ? row.progress : null,
    browsable: isBrowsable(row),
    pruned: row.prunedAt !== null,
    error_code: row.errorCode,
    error: withoutNodePaths(row.error),
  };
}

export const isBrowsable = (row: BackupSessionRow) =>
  row.status === 'completed' && row.snapshotId !== null && row.prunedAt === null;

export function presentRestore(row: BackupRestoreRow): BackupRestore {
  return {
    id: row.id,
    session_id: row.sessionId,
    path: row.path,
    target: row.target,
    restored_to: row.restoredTo,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    finished_at: iso(row.finishedAt),
    files_restored: row.filesRestored,
    error_code: row.errorCode,
    error: withoutNodePaths(row.error),
  };
}

export function presentUsage(row: BackupUsageRow | undefined, lastSuccess: Date | null): BackupUsage {
  return {
    repository_bytes: row?.repositoryBytes ?? null,
    stored_bytes: row?.storedBytes ?? null,
    snapshots: row?.snapshots ?? null,
    measured_at: iso(row?.measuredAt ?? null),
    last_success_at: iso(lastSuccess),
  };
}
