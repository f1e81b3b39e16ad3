// Queueing a backup run, the one way both the owner's "run now" and the scheduler make one: at
// most one open run per schedule (a run asked for while one waits is that run; a schedule missed
// while its node was down runs once, not once per missed time), full or incremental by the
// schedule's `full_every_days`, its folders resolved now to paths of the storage, and the
// service's generation moved so its node pulls the job.
import type { BackupJob } from '@debesis/contract';
import type { Db } from '../../db/database.ts';
import type { Tx } from '../../db/transaction.ts';
import { homeFolders } from '../directory/directory-folders.ts';
import { nfsFolders } from '../nfs/nfs-folders.ts';
import { sambaFolders } from '../samba/samba-folders.ts';
import type { StorageFolder } from '../workspace/storage-folder.ts';
import {
  createBackupsQueries,
  type BackupsQueries,
  type BackupScheduleRow,
  type BackupSessionRow,
} from './backups.queries.ts';

const DAY_MS = 86_400_000;

/** The provider's backup reads the whole storage. */
export const WHOLE_STORAGE = '.';

/** Every folder a schedule may name: the service's shares, homes and exports. */
export async function storageFolders(db: Db, serviceId: string): Promise<StorageFolder[]> {
  const [shares, homes, exports] = await Promise.all([
    sambaFolders(db, serviceId),
    homeFolders(db, serviceId),
    nfsFolders(db, serviceId),
  ]);
  return [...shares, ...homes, ...exports];
}

export const scheduleTag = (scheduleId: string) => `schedule:${scheduleId}`;

/**
 * A run of `schedule` at `at` (in the caller's transaction, which has moved the generation).
 * Returns the open run when there is one already, else the new run (queued, or failed at once
 * when none of its folders exists any more); undefined when `dueAt` was queued before.
 */
export async function queueRun(
  tx: Tx,
  schedule: BackupScheduleRow,
  run: { trigger: 'schedule' | 'manual'; at: Date; dueAt: Date | null },
): Promise<{ session: BackupSessionRow; created: boolean } | undefined> {
  const queries = createBackupsQueries(tx);
  const open = await queries.openSessionOf(schedule.id);
  if (open) return { session: open, created: false };

  const lastFull = await queries.lastFullAt(schedule.id);
  const type: BackupJob['type'] =
    lastFull && run.at.getTime() - lastFull.getTime() < schedule.fullEveryDays * DAY_MS
      ? 'incremental'
      : 'full';

  let paths: string[];
  let missing: string[] = [];
  if (schedule.providerManaged) {
    paths = [WHOLE_STORAGE];
  } else {
    const folders = await storageFolders(tx, schedule.serviceId);
    const byKey = new Map(folders.map((folder) => [`${folder.kind}\u0000${folder.name}`, folder.path]));
    const resolved = schedule.paths.map((path) => byKey.get(`${path.kind}\u0000${path.name}`));
    paths = [...new Set(resolved.filter((path): path is string => path !== undefined))];
    missing = schedule.paths.filter((_, index) => resolved[index] === undefined).map((path) => path.name);
  }

  const tag = scheduleTag(schedule.id);
  const base = {
    serviceId: schedule.serviceId,
    accountId: schedule.accountId,
    scheduleId: schedule.id,
    scheduleName: schedule.name,
    type,
    trigger: run.trigger,
    dueAt: run.dueAt,
    paths,
    tags: [tag, type],
    retention: { tag, keep_full: schedule.keepFull, keep_incremental: schedule.keepIncremental },
    createdAt: run.at,
  };
  const session =
    paths.length > 0
      ? await queries.insertSession({ ...base, status: 'queued' })
      : await queries.insertSession({
          ...base,
          status: 'failed',
          errorCode: 'path_missing',
          error: `none of the schedule's folders exists any more: ${missing.join(', ')}`,
          finishedAt: run.at,
        });
  if (session?.status === 'failed') await noteFailure(queries, session);
  return session ? { session, created: true } : undefined;
}

/**
 * A run has failed: the owner is mailed when it is the first failure since the schedule last
 * succeeded (or ever), not again for each failure after it (the scheduler's mail step sends it).
 * Whether a mail is owed.
 */
export async function noteFailure(queries: BackupsQueries, session: BackupSessionRow): Promise<boolean> {
  const previous = session.scheduleId
    ? await queries.previousFinished(session.scheduleId, session.createdAt, session.id)
    : undefined;
  if (previous?.status === 'failed') return false;
  await queries.updateSession(session.id, { failureMail: 'pending' });
  return true;
}
