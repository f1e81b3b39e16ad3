// Backups of one workspace (issue 18), with restic, as a task definition (daemons/definition.ts):
// the desired state's `backup.jobs` are backups and restores the API wants run, each once, in the
// background (daemons/task-driver.ts: one per workspace, AGENT_BACKUP_CONCURRENCY on the node).
//
// The repository is the workspace's own, outside its folder and storage (backup/repository.ts),
// encrypted with a random key the node keeps, or, when the desired state names one, on the
// operator's backup target with the API's key (docs/features/backups.md "Backups off the node"); a
// backup job is backup/backup-job.ts, a restore backup/restore-job.ts, the `backup.browse` call
// backup/browse.ts, the `backup.download` stream call (a file's bytes) backup/download.ts. The
// report's `backup` section is every listed job started (with progress while running), the
// repository's usage and its snapshots, as measured after the last job that changed it
// (`<ws>/backup/usage.json`).
//
// Not needed while the desired state has no `backup` section (nothing is deleted: an older API
// sends none). A removed workspace's repository is deleted with it: terminated means deleted.
import { NODE_DRIVERS } from '@debesis/contract';
import { z } from 'zod';
import type { BackupJobReport, BackupNodeJob } from '@debesis/contract';
import { join } from 'node:path';
import { runBackupJob, type BackupJobResult, type JobContext } from '../backup/backup-job.ts';
import { browseSnapshot } from '../backup/browse.ts';
import { snapshotFile } from '../backup/download.ts';
import { failedOutcome } from '../backup/failure.ts';
import { deleteRepository, repositoryPaths } from '../backup/repository.ts';
import { createRestic } from '../backup/restic.ts';
import type { BackupProgress } from '../backup/restic-json.ts';
import { recoverRestore, runRestoreJob, type RestoreJobResult } from '../backup/restore-job.ts';
import { emptyUsage, forgetUsage, readUsage, writeUsage } from '../backup/usage.ts';
import { taskDriver, type TaskDriverOptions } from '../daemons/task-driver.ts';
import type { DaemonContext, TaskDefinition, TaskJobRecord } from '../daemons/definition.ts';
import type { StreamCommandRunner } from '../exec/stream-command.ts';
import type { Driver } from './driver.ts';

export const BACKUP_DRIVER = NODE_DRIVERS.backup;

/** What a completed job leaves: a backup's snapshot, or the files a restore wrote. */
export type BackupDriverResult = Partial<BackupJobResult & RestoreJobResult>;

const resultSchema: z.ZodType<BackupDriverResult> = z.object({
  snapshot_id: z.string().optional(),
  bytes_added: z.number().optional(),
  files: z.number().optional(),
  files_new: z.number().optional(),
  files_restored: z.number().optional(),
  restored_to: z.string().optional(),
});

export interface BackupDefinitionOptions {
  /** How restic is started (tests); default: streamCommand. */
  spawn?: StreamCommandRunner;
  now?: () => Date;
}

const usageFile = (context: Pick<DaemonContext, 'dir'>) => join(context.dir, 'usage.json');

function jobReport(record: TaskJobRecord<BackupDriverResult, BackupProgress>): BackupJobReport {
  return {
    id: record.id,
    status: record.status,
    started_at: record.started_at,
    ...(record.finished_at === undefined ? {} : { finished_at: record.finished_at }),
    ...(record.progress === undefined ? {} : { progress: record.progress }),
    ...record.result,
    ...(record.error_code === undefined ? {} : { error_code: record.error_code }),
    ...(record.error === undefined ? {} : { error: record.error }),
  };
}

export function backupDefinition(
  options: BackupDefinitionOptions = {},
): TaskDefinition<BackupNodeJob, BackupDriverResult, BackupProgress> {
  const now = options.now ?? (() => new Date());
  return {
    name: BACKUP_DRIVER,
    phase: 'backups',
    programs: ['restic'],
    notNeeded: (desired) => (desired.backup ? undefined : 'the workspace has no backups'),
    jobs: (desired) => desired.backup?.jobs ?? [],
    resultSchema,

    async run(job, desired, context, progress, signal) {
      const paths = repositoryPaths(context.dataDir, desired.service_id, desired.backup?.repository);
      const jobContext: JobContext = {
        paths,
        restic: createRestic(paths, options.spawn),
        layout: context.layout,
        usageFile: usageFile(context),
        now,
        logger: context.logger,
        signal,
        onLost: () => writeUsage(usageFile(context), emptyUsage(now())),
      };
      try {
        return {
          ok: true,
          result:
            job.kind === 'backup'
              ? await runBackupJob(job, jobContext, progress)
              : await runRestoreJob(job, jobContext),
        };
      } catch (error) {
        return failedOutcome(error);
      }
    },

    recover: (id, _job, _desired, context) => recoverRestore(context.layout.dataRoot, id, context.logger),

    async report(jobs, _desired, context) {
      const { usage, snapshot_ids } = await readUsage(usageFile(context));
      return {
        backup: {
          jobs: jobs.slice(0, 100).map(jobReport),
          usage,
          snapshot_ids: snapshot_ids === null ? null : snapshot_ids.slice(-100_000),
        },
      };
    },

    async remove(desired, context) {
      forgetUsage(usageFile(context));
      const paths = repositoryPaths(context.dataDir, desired.service_id);
      return (await deleteRepository(paths)) ? [`deleted the backups (${paths.dir})`] : [];
    },

    calls: {
      'backup.browse': (payload, { desired, dataDir }) =>
        browseSnapshot(
          repositoryPaths(dataDir, desired.service_id, desired.backup?.repository),
          payload,
          options.spawn,
        ),
      'backup.download': (payload, { desired, dataDir }) =>
        snapshotFile(
          repositoryPaths(dataDir, desired.service_id, desired.backup?.repository),
          payload,
          options.spawn,
        ),
    },
  };
}

export function createBackupDriver(options: BackupDefinitionOptions & TaskDriverOptions = {}): Driver {
  return taskDriver(backupDefinition(options), options);
}
