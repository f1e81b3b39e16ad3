// Folders a driver owns, made to match a wanted mode and owner, and reporting whether anything
// changed. Customers write inside the storage, so a path there may have been replaced by a
// symlink: every component is checked with lstat and a symlink is refused, never followed, so the
// agent (root) cannot be tricked into creating or chowning something outside the workspace.
import { chmod, chown, lstat, mkdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { isRoot } from '../system/host.ts';
import { RUNTIME_ROOT } from '../workspace-paths.ts';

export interface DirSpec {
  mode: number;
  uid?: number;
  gid?: number;
}

export interface EnsureDirOptions extends DirSpec {
  /** Only set mode and owner when the folder is created; an existing one is left as it is. */
  onlyWhenCreated?: boolean;
}

async function lstatOrUndefined(path: string) {
  return lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}

/** Makes `path` a folder with `mode` (and owner, as root). Returns whether anything changed. */
export async function ensureDir(path: string, options: EnsureDirOptions): Promise<boolean> {
  let current = await lstatOrUndefined(path);
  let changed = false;
  let created = false;
  if (!current) {
    await mkdir(path, { mode: options.mode });
    current = await lstat(path);
    changed = created = true;
  }
  if (current.isSymbolicLink()) throw new Error(`${path} is a symlink`);
  if (!current.isDirectory()) throw new Error(`${path} exists and is not a folder`);
  if (options.onlyWhenCreated && !created) return changed;
  // mkdir's mode passes through the umask (and drops setgid): set it exactly.
  if ((current.mode & 0o7777) !== options.mode) {
    await chmod(path, options.mode);
    changed = true;
  }
  if (isRoot() && (options.uid !== undefined || options.gid !== undefined)) {
    const uid = options.uid ?? current.uid;
    const gid = options.gid ?? current.gid;
    if (uid !== current.uid || gid !== current.gid) {
      await chown(path, uid, gid);
      changed = true;
    }
  }
  return changed;
}

/**
 * Makes `<root>/<relative>` exist, creating missing parents with `parents` and the last folder
 * with `leaf`. `relative` must already be checked to hold no `..` or empty parts.
 */
export async function ensureDirUnder(
  root: string,
  relative: string,
  parents: EnsureDirOptions,
  leaf: EnsureDirOptions,
): Promise<boolean> {
  const parts = relative.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..'))
    throw new Error(`bad relative path ${JSON.stringify(relative)}`);
  let path = root;
  let changed = false;
  for (const [index, part] of parts.entries()) {
    path = join(path, part);
    const last = index === parts.length - 1;
    if (await ensureDir(path, last ? leaf : { ...parents, onlyWhenCreated: true })) changed = true;
  }
  return changed;
}

/**
 * A folder of the daemons' runtime folder (workspace-paths.ts RUNTIME_ROOT: sockets and lock
 * files) with `mode`; its missing parents are made 0755.
 */
export function ensureRuntimeDir(path: string, mode: number): Promise<boolean> {
  const base = dirname(RUNTIME_ROOT);
  const rel = relative(base, path);
  if (rel.startsWith('..') || rel === '') throw new Error(`${path} is not inside ${RUNTIME_ROOT}`);
  return ensureDirUnder(base, rel, { mode: 0o755 }, { mode });
}
