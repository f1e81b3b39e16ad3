// The one way drivers put a file on disk (TrueNAS's `write_if_changed`): render to a string,
// hand it here, and reload the daemon only when this says something changed. A file whose
// content, mode and owner already match is not touched at all (mtime stays), so a second run
// of a driver changes nothing. A new content is written to a temporary file in the same folder,
// flushed, and renamed over the old one, so readers see the old file or the new one, never half.
//
// The rename is durable once its folder is flushed too. writeFilesIfChanged, for the files one
// render makes (a daemon's configs, the workspace's passwd, group and shadow), flushes each
// folder once after all of them instead of once per file. A crash before that flush may keep
// some of the renames and lose others: each file is still whole (its data was flushed before its
// rename), old or new, so the daemon may find a mix of the old and the new render. That is safe
// for rendered files only: the caller reloads and reports nothing before the flush, and the
// agent's first pass after a restart applies every workspace again, which writes whatever is
// old. A file whose order against another matters (a job's record before the job) is written
// alone with writeIfChanged.
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readdir, readFile, rename, chmod, chown, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface WriteIfChangedOptions {
  /** Permission bits, default 0o644. Applied exactly (the umask does not apply). */
  mode?: number;
  /** Owner to set; only honoured when the agent runs as root (otherwise it cannot chown). */
  uid?: number;
  gid?: number;
}

export interface WriteIfChangedResult {
  /** True if anything on disk changed. */
  changed: boolean;
  content: boolean;
  mode: boolean;
  owner: boolean;
}

const isRoot = (): boolean => process.getuid?.() === 0;

export interface FileToWrite {
  path: string;
  data: string | Uint8Array;
  options?: WriteIfChangedOptions;
}

export async function writeIfChanged(
  path: string,
  data: string | Uint8Array,
  options: WriteIfChangedOptions = {},
): Promise<WriteIfChangedResult> {
  const [result] = await writeFilesIfChanged([{ path, data, options }]);
  if (!result) throw new Error(`${path} was not written`);
  return result;
}

/** Each file as writeIfChanged writes it, then each folder a file was renamed in flushed once. */
export async function writeFilesIfChanged(
  files: readonly FileToWrite[],
  flushFolder: (dir: string) => Promise<void> = syncDirectory,
): Promise<WriteIfChangedResult[]> {
  const batch = fileBatch(flushFolder);
  const results: WriteIfChangedResult[] = [];
  try {
    for (const file of files) results.push(await batch.write(file.path, file.data, file.options));
  } finally {
    await batch.flush();
  }
  return results;
}

/**
 * writeFilesIfChanged one file at a time, for a caller with work between the writes (a daemon's
 * config check that reads the files written before it): `flush` flushes each folder once.
 */
export function fileBatch(flushFolder: (dir: string) => Promise<void> = syncDirectory) {
  const renamedIn = new Set<string>();
  return {
    async write(path: string, data: string | Uint8Array, options: WriteIfChangedOptions = {}) {
      const result = await writeOne(path, data, options);
      if (result.content) renamedIn.add(dirname(path));
      return result;
    },
    async flush() {
      for (const dir of renamedIn) await flushFolder(dir);
      renamedIn.clear();
    },
  };
}

async function writeOne(
  path: string,
  data: string | Uint8Array,
  options: WriteIfChangedOptions,
): Promise<WriteIfChangedResult> {
  const mode = (options.mode ?? 0o644) & 0o7777;
  const wanted = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data);
  const setOwner = isRoot() && (options.uid !== undefined || options.gid !== undefined);

  const current = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (current?.isDirectory()) throw new Error(`${path} is a directory`);

  // Only a regular file can be kept; a symlink in its place is replaced (rename swaps the link,
  // never its target), so a driver never writes through a link someone planted.
  if (current?.isFile() && current.size === wanted.length && (await readFile(path)).equals(wanted)) {
    const result: WriteIfChangedResult = { changed: false, content: false, mode: false, owner: false };
    if ((current.mode & 0o7777) !== mode) {
      await chmod(path, mode);
      result.mode = true;
    }
    if (setOwner) {
      const uid = options.uid ?? current.uid;
      const gid = options.gid ?? current.gid;
      if (uid !== current.uid || gid !== current.gid) {
        await chown(path, uid, gid);
        result.owner = true;
      }
    }
    result.changed = result.mode || result.owner;
    return result;
  }

  await removeLeftovers(path);
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    try {
      await handle.writeFile(wanted);
      await handle.chmod(mode);
      if (setOwner) await handle.chown(options.uid ?? current?.uid ?? -1, options.gid ?? current?.gid ?? -1);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }

  return {
    changed: true,
    content: true,
    mode: current ? (current.mode & 0o7777) !== mode : true,
    owner:
      setOwner &&
      (!current ||
        (options.uid ?? current.uid) !== current.uid ||
        (options.gid ?? current.gid) !== current.gid),
  };
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY).catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse fsync on a folder; the rename itself already happened.
  } finally {
    await handle.close();
  }
}

/**
 * Temporary files of `path` that an agent killed mid-write left (another process's pid in the
 * name): never read by anyone, gone before the file is written again.
 */
async function removeLeftovers(path: string): Promise<void> {
  const prefix = `.${basename(path)}.`;
  const entries = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(prefix) || !entry.endsWith('.tmp')) continue;
    const pid = entry.slice(prefix.length).split('.')[0];
    if (pid !== String(process.pid) && /^\d+$/.test(pid ?? ''))
      await unlink(join(dirname(path), entry)).catch(() => undefined);
  }
}
