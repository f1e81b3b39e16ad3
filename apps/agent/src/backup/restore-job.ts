// One restore job: a file or folder of a snapshot put back into the storage. restic restores it
// into a fresh staging folder of the job's own (`<storage>/system/restore/<job id>/`, root's,
// 0700: in the storage, so the last step is a rename on one file system, and in the node's
// reserved `system/`, which no share, home or export can name), with its owners, modes and times;
// then it is moved into place through the destination's open parent (storage-paths.ts):
//
//   original  the existing file or folder is moved aside (into the staging folder), the restored
//             one renamed into its place, the old one deleted; if the rename fails the old one
//             goes back. A parent folder that is gone is restored too (from the snapshot, with
//             its owner and mode): the topmost missing one is what moves.
//   folder    beside the original, a new folder `<name> (restored YYYY-MM-DD)` (` 2`, ` 3`… when
//             taken; the job's `folder` names it instead, and must be free: `target_exists`). A
//             folder restored becomes that folder; a file is put inside it under its own name,
//             the new folder owned like its parent.
//
// Nothing else of the storage changes. A job stopped midway leaves the staging folder (and what
// was moved aside, with `move.json` saying where from): `recoverRestore` puts it back.
import { chmod, chown, lstat, mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { RestoreJob } from '@debesis/contract';
import { ensureDir } from '../fs/ensure-dir.ts';
import type { Logger } from '../logger.ts';
import { isRoot } from '../system/host.ts';
import { checkStorage, type JobContext } from './backup-job.ts';
import { BackupJobFailure } from './failure.ts';
import { openRepository } from './repository.ts';
import { failureCode, literalPattern, ResticError } from './restic.ts';
import {
  countFiles,
  isNodeRootFolder,
  openStorageFolder,
  restoredFolderNames,
  restoreStagingRoot,
  validFolderName,
  type OpenFolder,
} from './storage-paths.ts';

export interface RestoreJobResult {
  files_restored: number;
  /** Where it was written, from the storage's root: the path itself, or the new folder. */
  restored_to: string;
}

const stagingOf = (dataRoot: string, jobId: string) => join(restoreStagingRoot(dataRoot), jobId);

/** What a stopped job had moved aside, so it can be put back. */
interface MoveRecord {
  /** The destination's parent, as a path of the storage (`shares/a`). */
  parent: string;
  name: string;
}

export async function runRestoreJob(job: RestoreJob, context: JobContext): Promise<RestoreJobResult> {
  const { layout, restic, signal, logger } = context;
  if (job.path === '/')
    throw new BackupJobFailure('failed', 'a whole snapshot is restored folder by folder, not at once');
  const parts = job.path.slice(1).split('/');
  if (isNodeRootFolder(parts[0]))
    throw new BackupJobFailure('failed', `${job.path} is the node's folder, not the workspace's`);
  if (job.target === 'folder' && job.folder !== undefined && !validFolderName(job.folder))
    throw new BackupJobFailure('failed', `${JSON.stringify(job.folder)} is not a folder name`);
  await checkStorage(layout);
  await openRepository(context.paths, restic, { create: false, logger, signal, onLost: context.onLost });

  const dataRoot = layout.dataRoot;
  const stagingRoot = restoreStagingRoot(dataRoot);
  await ensureDir(join(dataRoot, 'system'), { mode: 0o700, uid: 0, gid: 0 });
  await ensureDir(stagingRoot, { mode: 0o700, uid: 0, gid: 0 });
  const staging = stagingOf(dataRoot, job.id);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { mode: 0o700 });
  try {
    const tree = join(staging, 'tree');
    const result = await restic.run(
      // No lock: it only reads, and this workspace runs one job at a time (a prune is a job too).
      ['--no-lock', 'restore', job.snapshot_id, `--target=${tree}`, `--include=${literalPattern(job.path)}`],
      { background: true, signal },
    );
    if (!result.ok) {
      if (/no matching ID found/.test(result.stderr))
        throw new BackupJobFailure('failed', `no snapshot ${job.snapshot_id} in this workspace's repository`);
      throw new ResticError(result, failureCode(result));
    }
    const staged = join(tree, ...parts);
    if (!(await lstat(staged).catch(() => undefined)))
      throw new BackupJobFailure('path_missing', `${job.path} is not in snapshot ${job.snapshot_id}`);
    const files = await countFiles(staged);
    if (signal.aborted) throw new BackupJobFailure('interrupted', String(signal.reason ?? 'stopped'));
    if (job.target === 'original') {
      await putBack(dataRoot, parts, tree, staging);
      return { files_restored: files, restored_to: job.path };
    }
    const folder = await putBeside(dataRoot, parts, staged, staging, job.folder, context.now());
    return { files_restored: files, restored_to: `/${[...parts.slice(0, -1), folder].join('/')}` };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Over the original: the nearest folder that exists receives the topmost missing part. */
async function putBack(dataRoot: string, parts: string[], tree: string, staging: string): Promise<void> {
  for (let depth = parts.length - 1; depth >= 0; depth -= 1) {
    const folder = await openStorageFolder(dataRoot, parts.slice(0, depth));
    if (!folder) continue;
    try {
      const name = parts[depth]!;
      const moving = join(tree, ...parts.slice(0, depth + 1));
      await replace(folder, name, moving, staging, dataRoot);
    } finally {
      await folder.close();
    }
    return;
  }
  throw new BackupJobFailure('failed', "the workspace's storage root cannot be opened");
}

async function replace(
  folder: OpenFolder,
  name: string,
  moving: string,
  staging: string,
  dataRoot: string,
): Promise<void> {
  const destination = folder.at(name);
  if (!(await lstat(destination).catch(() => undefined))) {
    await rename(moving, destination);
    return;
  }
  const aside = join(staging, 'previous');
  const record: MoveRecord = { parent: relative(dataRoot, folder.path), name };
  await writeFile(join(staging, 'move.json'), JSON.stringify(record), { mode: 0o600 });
  await rename(destination, aside);
  try {
    await rename(moving, destination);
  } catch (error) {
    await rename(aside, destination);
    throw error;
  }
  await rm(join(staging, 'move.json'), { force: true });
  await rm(aside, { recursive: true, force: true });
}

/** Beside the original, in a new folder; returns the folder's name. */
async function putBeside(
  dataRoot: string,
  parts: string[],
  staged: string,
  staging: string,
  given: string | undefined,
  now: Date,
): Promise<string> {
  const name = parts.at(-1)!;
  const folder = await openStorageFolder(dataRoot, parts.slice(0, -1));
  if (!folder)
    throw new BackupJobFailure(
      'path_missing',
      `the folder /${parts.slice(0, -1).join('/')} is no longer there: restore it to its original place`,
    );
  try {
    let moving = staged;
    if (!(await lstat(staged)).isDirectory()) {
      // A file gets a folder of its own, owned like the folder it is made in.
      const wrapper = join(staging, 'wrapper');
      await mkdir(wrapper, { mode: 0o700 });
      if (isRoot()) await chown(wrapper, folder.uid, folder.gid);
      await chmod(wrapper, folder.mode & 0o7777);
      await rename(staged, join(wrapper, name));
      moving = wrapper;
    }
    // An empty folder is made first (mkdir fails on a name that exists, at once and for sure), and
    // the restored one renamed over it: a name taken in between is not overwritten.
    const names = given === undefined ? restoredFolderNames(name, now) : [given];
    for (const candidate of names) {
      const destination = folder.at(candidate);
      try {
        await mkdir(destination, { mode: 0o700 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      try {
        await rename(moving, destination);
      } catch (error) {
        await rmdir(destination).catch(() => undefined);
        if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY')
          throw new BackupJobFailure('target_exists', `${candidate} was made by someone else meanwhile`);
        throw error;
      }
      return candidate;
    }
    throw new BackupJobFailure(
      'target_exists',
      given === undefined
        ? `every name for the restored copy of ${name} is taken`
        : `${given} exists already`,
    );
  } finally {
    await folder.close();
  }
}

/** After the agent died during a restore: what was moved aside goes back, the staging folder goes. */
export async function recoverRestore(dataRoot: string, jobId: string, logger: Logger): Promise<void> {
  const staging = stagingOf(dataRoot, jobId);
  const text = await readFile(join(staging, 'move.json'), 'utf8').catch(() => undefined);
  const aside = join(staging, 'previous');
  if (text !== undefined && (await lstat(aside).catch(() => undefined))) {
    try {
      const record = JSON.parse(text) as MoveRecord;
      const parts = record.parent === '' ? [] : record.parent.split(sep);
      const folder = await openStorageFolder(dataRoot, parts);
      if (folder) {
        try {
          if (!(await lstat(folder.at(record.name)).catch(() => undefined)))
            await rename(aside, folder.at(record.name));
        } finally {
          await folder.close();
        }
      }
    } catch (error) {
      logger.error({ err: error, job: jobId }, 'could not put back what a stopped restore had moved aside');
      return;
    }
  }
  await rm(staging, { recursive: true, force: true });
}
