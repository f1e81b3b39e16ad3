// Paths of a workspace's storage as backups read them and restores write them. The agent runs as
// root and customers make whatever they like inside their storage, symlinks pointing out of it
// included, so:
//
// - a folder to back up is walked from the storage root with lstat, and a symlink on the way (or
//   a name that is not there) is `path_missing`: restic would otherwise follow none of it, but a
//   snapshot of a link is not the folder the owner chose;
// - a restore's destination folder is resolved (realpath), must lie inside the storage root (not
//   in the node's own `system/` or ext4's `lost+found/`), and is then opened and checked again by
//   what the open file really is (/proc/self/fd), so a folder swapped for a link in between is
//   caught; every rename then goes through that open folder (`/proc/self/fd/<fd>/<name>`), which
//   names that very folder whatever happens to the path, and rename(2) itself refuses to leave
//   the storage's file system (EXDEV). Nothing is ever written outside the storage.
import { constants } from 'node:fs';
import { lstat, open, opendir, readlink, realpath, stat, type FileHandle } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { BackupJobFailure } from './failure.ts';

/**
 * Folders at the storage's root that are the node's, never the customer's: `system` (reserved for
 * the node: contract RESERVED_SHARE_ROOTS; restores are staged in it) and ext4's `lost+found`.
 * Backups leave them out; restores never write into them.
 */
export const NODE_ROOT_FOLDERS = ['system', 'lost+found'] as const;

/** Where restores are staged: inside the storage (one file system, so the last step is a rename). */
export const restoreStagingRoot = (dataRoot: string) => join(dataRoot, 'system', 'restore');

export const isNodeRootFolder = (name: string | undefined) =>
  name !== undefined && (NODE_ROOT_FOLDERS as readonly string[]).includes(name.toLowerCase());

/** A folder to back up (`.` or `a/b`, relative to the storage root): there, a folder, no symlink on the way. */
export async function checkBackupSource(dataRoot: string, source: string): Promise<void> {
  const parts = source === '.' ? [] : source.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..'))
    throw new BackupJobFailure('path_missing', `${source} is not a folder of the storage`);
  if (isNodeRootFolder(parts[0]))
    throw new BackupJobFailure('path_missing', `${source} is the node's folder, not the workspace's`);
  let path = dataRoot;
  for (const part of ['', ...parts]) {
    path = part === '' ? path : join(path, part);
    const info = await lstat(path).catch(() => undefined);
    if (!info) throw new BackupJobFailure('path_missing', `${source} is not in the storage`);
    if (info.isSymbolicLink())
      throw new BackupJobFailure(
        'path_missing',
        `${source} goes through a symlink (${relative(dataRoot, path)})`,
      );
    if (!info.isDirectory()) throw new BackupJobFailure('path_missing', `${source} is not a folder`);
  }
}

/** Whether `path` (real) is the storage root or inside it, and not in one of the node's folders. */
export function insideStorage(realRoot: string, path: string): boolean {
  if (path === realRoot) return true;
  if (!path.startsWith(realRoot + sep)) return false;
  return !isNodeRootFolder(relative(realRoot, path).split(sep)[0]);
}

/** A folder of the storage, open: renames go through it, not through its path. */
export interface OpenFolder {
  /** Its real path when opened. */
  readonly path: string;
  /** A name inside it, as a path that reaches this very folder (for rename, lstat, mkdir). */
  at(name: string): string;
  uid: number;
  gid: number;
  mode: number;
  close(): Promise<void>;
}

/**
 * Opens `<dataRoot>/<parts…>` for writing into, or answers undefined when it does not exist.
 * Throws `failed` when it leads outside the storage (a symlink out, another file system).
 */
export async function openStorageFolder(
  dataRoot: string,
  parts: readonly string[],
): Promise<OpenFolder | undefined> {
  const realRoot = await realpath(dataRoot);
  const wanted = join(dataRoot, ...parts);
  const refuse = (why: string) =>
    new BackupJobFailure('failed', `/${parts.join('/')} ${why}: nothing was written there`);
  let real: string;
  try {
    real = await realpath(wanted);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if (!insideStorage(realRoot, real)) throw refuse("leads outside the workspace's storage");
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR' || code === 'ELOOP') throw refuse('is not a folder');
    throw error;
  }
  try {
    // What was opened, whatever the path said a moment before.
    const opened = await readlink(`/proc/self/fd/${handle.fd}`);
    if (!insideStorage(realRoot, opened)) throw refuse("leads outside the workspace's storage");
    const info = await handle.stat();
    if (info.dev !== (await stat(realRoot)).dev)
      throw refuse("is on another file system than the workspace's storage");
    const fd = handle.fd;
    return {
      path: opened,
      at: (name) => {
        if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes('\0'))
          throw new Error(`bad name ${JSON.stringify(name)}`);
        return `/proc/self/fd/${fd}/${name}`;
      },
      uid: info.uid,
      gid: info.gid,
      mode: info.mode & 0o7777,
      close: () => handle.close(),
    };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

const NAME_MAX_BYTES = 255;

/** `name` cut (whole characters) so that it and `suffix` fit in a file name. */
function fitted(name: string, suffix: string): string {
  let kept = name;
  while (kept.length > 0 && Buffer.byteLength(kept + suffix) > NAME_MAX_BYTES)
    kept = [...kept].slice(0, -1).join('');
  return kept + suffix;
}

/** The names a restore to a new folder tries, in order: `<name> (restored YYYY-MM-DD)`, then ` 2`, ` 3`… */
export function restoredFolderNames(name: string, date: Date, count = 1000): string[] {
  const day = date.toISOString().slice(0, 10);
  return Array.from({ length: count }, (_, index) =>
    fitted(name, ` (restored ${day})${index === 0 ? '' : ` ${index + 1}`}`),
  );
}

/** A folder name the owner gave (contract `folder`): one name, not `.` or `..`, that fits. */
export function validFolderName(name: string): boolean {
  return (
    name.length > 0 &&
    name !== '.' &&
    name !== '..' &&
    !name.includes('/') &&
    !name.includes('\0') &&
    Buffer.byteLength(name) <= NAME_MAX_BYTES
  );
}

/** Regular files under `path` (itself included, when it is one), links not followed. */
export async function countFiles(path: string): Promise<number> {
  const info = await lstat(path);
  if (info.isFile()) return 1;
  if (!info.isDirectory()) return 0;
  let files = 0;
  const pending = [path];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    for await (const entry of await opendir(dir)) {
      if (entry.isFile()) files += 1;
      else if (entry.isDirectory()) pending.push(join(dir, entry.name));
    }
  }
  return files;
}
