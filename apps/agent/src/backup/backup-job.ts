// One backup job: a restic snapshot of the listed folders of the storage, read from its root (so
// the snapshot holds `/shares/projects/…`, which is how browse and restore name them), then the
// schedule's retention (forget, then prune), then the repository measured for the report.
//
// Retention keeps the newest `keep_full` snapshots tagged with the schedule's tag and `full` and
// the newest `keep_incremental` tagged with it and `incremental` (`forget --keep-last`, one group
// whatever the host and paths); keeping 0 incremental ones forgets them all by id (restic's
// policy has no "keep none"). `prune` runs apart: `forget --prune --json` mixes text into the
// JSON. A retention or a measure that fails does not fail the backup: its snapshot is made; it
// is logged, and the next job tries again.
//
// The snapshot's listing index (snapshot-index.ts, what browse reads) is written after retention
// (prune rewrites packs, which a listing beside it could trip on, and a snapshot retention forgets
// at once needs none), at the same time as the measure: both only read, and restic opening the
// repository and decoding trees is most of either: for 10,000 files the index takes ~0.3 s alone
// and adds ~0.08 s side by side with the measure (~0.3 s after it). It failing does not fail the
// backup either (browse asks restic then). The measure's snapshot list then says which indexes
// are stale: those of forgotten snapshots are removed.
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackupJob } from '@debesis/contract';
import type { Logger } from '../logger.ts';
import { exists } from '../system/host.ts';
import { mountAt } from '../system/mounts.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import { BackupJobFailure } from './failure.ts';
import { openRepository, type RepositoryPaths } from './repository.ts';
import { failureCode, literalPattern, ResticError, type Restic } from './restic.ts';
import {
  parseBackupLine,
  parseForgetRemoved,
  type BackupProgress,
  type BackupSummary,
} from './restic-json.ts';
import { removeStaleIndexes, snapshotIndexDir, writeSnapshotIndex } from './snapshot-index.ts';
import { checkBackupSource, NODE_ROOT_FOLDERS } from './storage-paths.ts';
import { listSnapshots, measureRepository, writeUsage } from './usage.ts';

/** Every snapshot is made as this host, so a node's name does not split a schedule's history. */
export const SNAPSHOT_HOST = 'debesis';

export interface BackupJobResult {
  snapshot_id: string;
  bytes_added: number;
  files: number;
  files_new: number;
}

export interface JobContext {
  paths: RepositoryPaths;
  restic: Restic;
  layout: WorkspaceLayout;
  /** `<ws>/backup/usage.json`. */
  usageFile: string;
  now: () => Date;
  logger: Logger;
  signal: AbortSignal;
  /** The repository was lost: what the report says of it now. */
  onLost: () => Promise<void>;
}

/** The storage is what a job reads and writes: an image must be mounted, or the folder is empty. */
export async function checkStorage(layout: WorkspaceLayout): Promise<void> {
  if ((await exists(layout.image)) && !(await mountAt(layout.dataRoot)))
    throw new BackupJobFailure('failed', "the workspace's storage is not mounted");
}

export function backupArgs(job: BackupJob, dataRoot: string): string[] {
  const tags = [...new Set([...job.tags, job.type])];
  return [
    'backup',
    '--json',
    `--host=${SNAPSHOT_HOST}`,
    ...tags.map((tag) => `--tag=${tag}`),
    ...(job.type === 'full' ? ['--force'] : []),
    // Patterns are matched against absolute paths; the node's folders are never the customer's data.
    ...NODE_ROOT_FOLDERS.map((folder) => `--exclude=${literalPattern(join(dataRoot, folder))}`),
    '--',
    ...job.paths,
  ];
}

export async function runBackupJob(
  job: BackupJob,
  context: JobContext,
  progress: (progress: BackupProgress) => void,
): Promise<BackupJobResult> {
  const { layout, restic, signal, logger } = context;
  await checkStorage(layout);
  for (const path of job.paths) await checkBackupSource(layout.dataRoot, path);
  const opened = await openRepository(context.paths, restic, {
    create: true,
    logger,
    signal,
    onLost: context.onLost,
  });
  // A new repository: any index left is of the old one's snapshots, which are gone with it.
  if (opened === 'created') await rm(snapshotIndexDir(context.paths), { recursive: true, force: true });

  let summary: BackupSummary | undefined;
  const result = await restic.run(backupArgs(job, layout.dataRoot), {
    cwd: layout.dataRoot,
    background: true,
    signal,
    onLine(line) {
      const message = parseBackupLine(line);
      if (message && 'progress' in message) progress(message.progress);
      else if (message) summary = message.summary;
    },
  });
  // Exit 3: the snapshot is made, but some files could not be read (restic names them).
  if (!summary || !(result.ok || result.exitCode === 3)) throw new ResticError(result, failureCode(result));
  if (result.exitCode === 3)
    logger.warn(
      { snapshot: summary.snapshotId },
      `backup made, some files unread: ${result.stderr.slice(-1000)}`,
    );

  if (job.retention) {
    try {
      await applyRetention(job.retention, restic, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      logger.error({ err: error }, 'retention failed; the next backup tries again');
    }
  }

  const made = summary.snapshotId;
  const [snapshots] = await Promise.all([measure(context, made), indexSnapshot(context, made)]);
  if (snapshots) {
    try {
      await removeStaleIndexes(context.paths, snapshots);
    } catch (error) {
      logger.warn({ err: error }, 'could not remove the indexes of forgotten snapshots');
    }
  }
  // restic 0.14's summary names the snapshot by its short id; the report names it whole.
  const snapshotId = snapshots?.find((id) => id.startsWith(made)) ?? made;
  return {
    snapshot_id: snapshotId,
    bytes_added: summary.bytesAdded,
    files: summary.files,
    files_new: summary.filesNew,
  };
}

async function applyRetention(
  retention: NonNullable<BackupJob['retention']>,
  restic: Restic,
  signal: AbortSignal,
): Promise<void> {
  const removed: string[] = [];
  for (const [type, keep] of [
    ['full', retention.keep_full],
    ['incremental', retention.keep_incremental],
  ] as const) {
    const tags = `--tag=${retention.tag},${type}`;
    if (keep > 0) {
      const text = await restic.output(['forget', '--json', tags, `--keep-last=${keep}`, '--group-by='], {
        background: true,
        signal,
      });
      removed.push(...parseForgetRemoved(text));
    } else {
      const ids = (await listSnapshots(restic, signal))
        .filter((snapshot) => snapshot.tags.includes(retention.tag) && snapshot.tags.includes(type))
        .map((snapshot) => snapshot.id);
      if (ids.length > 0) {
        await restic.output(['forget', '--', ...ids], { background: true, signal });
        removed.push(...ids);
      }
    }
  }
  if (removed.length > 0) await restic.output(['prune'], { background: true, signal });
}

/** Measures the repository into the usage file; its snapshots' full ids, or undefined on failure. */
async function measure(context: JobContext, made: string): Promise<string[] | undefined> {
  try {
    const { measured } = await measureRepository(
      context.paths,
      context.restic,
      context.now(),
      context.signal,
    );
    await writeUsage(context.usageFile, measured);
    return measured.snapshot_ids ?? [];
  } catch (error) {
    if (context.signal.aborted) throw error;
    context.logger.warn(
      { err: error, snapshot: made },
      'could not measure the repository; the last measure stays',
    );
    return undefined;
  }
}

async function indexSnapshot(context: JobContext, snapshotId: string): Promise<void> {
  try {
    const written = await writeSnapshotIndex(context.paths, context.restic, snapshotId, {
      signal: context.signal,
      background: true,
    });
    context.logger.info(
      {
        snapshot: written.snapshotId,
        folders: written.folders,
        entries: written.entries,
        bytes: written.bytes,
        ms: Math.round(written.ms),
      },
      'snapshot listing index written',
    );
  } catch (error) {
    if (context.signal.aborted) throw error;
    context.logger.warn(
      { err: error, snapshot: snapshotId },
      'could not index the snapshot; browse asks restic',
    );
  }
}
