// The one way the agent reads a workspace's storage for share links and the owner's picker of
// them (contract share-links-node.ts). The agent runs as root and customers put whatever they like
// in their storage: symlinks to /etc or to a sibling workspace's folder, hard links, fifos. So
// nothing here goes by path:
//
// - The storage root (`<ws>/data`) is opened once; every further step is one name opened through
//   the folder opened before it, `/proc/self/fd/<folder>/<name>` (that is openat(folder, name)),
//   with O_NOFOLLOW: a symlink at any step is refused, never followed. What was opened is what is
//   read, so a folder renamed, or swapped for a link after it was opened, leads nowhere else: there
//   is no window between a check and the open it was for.
// - Each step is checked on the descriptor once open (fstat): it must be the entry its folder
//   showed a moment before (same inode), a folder or a regular file, and on the storage's own file
//   system (st_dev of the root): a mount inside the storage is never entered.
// - Names `.`, `..`, empty or holding `/` are refused, and the node's folders at the storage root
//   (STORAGE_NODE_FOLDERS: restore staging, ext4's lost+found) are never listed nor opened.
// - Symlinks, sockets, fifos and devices are never listed nor served (opens are O_NONBLOCK and
//   O_NOCTTY besides, and the image is mounted nodev).
// - Hard links: a regular file with more than one name (nlink > 1) is served only when one of the
//   workspace's users owns it (its uid in the workspace's id block). A hard link cannot leave its
//   file system, and the storage image is the workspace's own, so no link reaches another
//   workspace or the host; what one could reach is a file the node itself keeps in the storage
//   (restore staging in `system/`), owned by root, which a share must never publish through a
//   second name. In plain-folder mode (no image: development and tests) the same rule keeps host
//   files out, since any of them is root's or another workspace's. The owner is read from the
//   descriptor that is then read, so nothing can be swapped in between.
//
// Every refusal is NodeCallError `not_found` saying only "not found": a visitor learns nothing of
// what is there or why. Names that are not valid UTF-8 cannot be named through Node's strings, so
// they are neither listed nor served.
import { constants, type BigIntStats, type Dirent } from 'node:fs';
import { lstat, open, opendir, type FileHandle } from 'node:fs/promises';
import { STORAGE_NODE_FOLDERS, WORKSPACE_ID_BLOCK, type StorageEntry } from '@debesis/contract';
import { NodeCallError } from '../calls/node-call.ts';

/** The refusal of anything that is not there, may not be read, or lies outside the storage. */
export const notFound = () => new NodeCallError('not_found', 'not found');

export const isNotFound = (error: unknown) => error instanceof NodeCallError && error.code === 'not_found';

/** Errors that mean "no such entry to read here" (gone, a link, swapped, refused by the mount). */
const MISSING_CODES = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EACCES', 'EPERM', 'ENXIO', 'ENODEV', 'EXDEV']);
const isMissing = (error: unknown) => MISSING_CODES.has((error as NodeJS.ErrnoException).code ?? '');

/** The uids that are the workspace's users (contract WORKSPACE_ID_BLOCK). */
export interface StorageOwners {
  readonly first: bigint;
  readonly last: bigint;
}

export function workspaceOwners(idBase: number): StorageOwners {
  return { first: BigInt(idBase), last: BigInt(idBase + WORKSPACE_ID_BLOCK - 1) };
}

const isNodeFolder = (name: string) =>
  (STORAGE_NODE_FOLDERS as readonly string[]).includes(name.toLowerCase());

/** One name inside a folder (never a way up, across or nowhere). */
export const isEntryName = (name: string) =>
  name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');

/** An entry that may be listed and served: a folder on the storage's file system, or a file. */
export interface StorageItemInfo {
  name: string;
  type: 'file' | 'folder';
  stats: BigIntStats;
}

/** The contract's entry: a folder's size is 0 (its own size is not its content's). */
export function storageEntryOf(info: StorageItemInfo): StorageEntry {
  return {
    name: info.name,
    type: info.type,
    size: info.type === 'file' ? Number(info.stats.size) : 0,
    modified_at: info.stats.mtime.toISOString(),
  };
}

/** Folders first, then files, each by name (code units: the same order on every node). */
export function byTypeThenName(a: { type: string; name: string }, b: { type: string; name: string }): number {
  if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

interface Storage {
  dev: bigint;
  owners: StorageOwners;
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** A regular file open for reading, with what fstat said of it. */
export class StorageFile {
  constructor(
    readonly name: string,
    readonly handle: FileHandle,
    readonly stats: BigIntStats,
  ) {}
  close(): Promise<void> {
    return this.handle.close();
  }
}

/** A folder of the storage, open: every step below it is taken through its descriptor. */
export class StorageFolder {
  /** Steps through the descriptor under way: it is closed only once none is (see `through`). */
  private inFlight = 0;
  private idle: (() => void) | undefined;
  private closing: Promise<void> | undefined;

  private constructor(
    readonly name: string,
    private readonly handle: FileHandle,
    readonly stats: BigIntStats,
    private readonly storage: Storage,
    /** The storage root itself: the node's folders in it are not the customer's. */
    readonly isRoot: boolean,
  ) {}

  /** Opens the storage root (`layout.dataRoot`); `owners` are the workspace's uids. */
  static async openRoot(dataRoot: string, owners: StorageOwners): Promise<StorageFolder> {
    let handle: FileHandle;
    try {
      handle = await open(dataRoot, READ_FLAGS | constants.O_DIRECTORY);
    } catch (error) {
      if (isMissing(error)) throw notFound();
      throw error;
    }
    try {
      const stats = await handle.stat({ bigint: true });
      return new StorageFolder('', handle, stats, { dev: stats.dev, owners }, true);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /**
   * Runs `step` on `name` inside this very folder, whatever its path is now. The path names the
   * descriptor's number, which the kernel hands to the next open once closed: a close waits for
   * the steps under way, so none can ever land in another folder.
   */
  private async through<T>(name: string, step: (path: string) => Promise<T>): Promise<T> {
    if (this.closing) throw notFound();
    this.inFlight += 1;
    try {
      return await step(`/proc/self/fd/${this.handle.fd}/${name}`);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) this.idle?.();
    }
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      while (this.inFlight > 0) await new Promise<void>((resolve) => (this.idle = resolve));
      await this.handle.close();
    })();
    return this.closing;
  }

  /** Whether `name` may be looked at here at all. */
  private mayName(name: string): boolean {
    return isEntryName(name) && !(this.isRoot && isNodeFolder(name));
  }

  /** Whether an entry (by its lstat or fstat) may be listed and served. */
  private itemType(stats: BigIntStats): StorageItemInfo['type'] | undefined {
    if (stats.dev !== this.storage.dev) return undefined;
    if (stats.isDirectory()) return 'folder';
    if (!stats.isFile()) return undefined;
    const { owners } = this.storage;
    const owned = stats.uid >= owners.first && stats.uid <= owners.last;
    return stats.nlink <= 1n || owned ? 'file' : undefined;
  }

  /** `name` as it is in this folder (a link is not followed), when it may be listed. */
  async entry(name: string): Promise<StorageItemInfo | undefined> {
    if (!this.mayName(name)) return undefined;
    let stats: BigIntStats;
    try {
      stats = await this.through(name, (path) => lstat(path, { bigint: true }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const type = this.itemType(stats);
    return type && { name, type, stats };
  }

  /** Opens `name`, a folder or a file of this folder; anything else is `not_found`. */
  async open(name: string): Promise<StorageFolder | StorageFile> {
    const seen = await this.entry(name);
    if (!seen) throw notFound();
    let handle: FileHandle;
    try {
      const flags = READ_FLAGS | (seen.type === 'folder' ? constants.O_DIRECTORY : 0);
      handle = await this.through(name, (path) => open(path, flags));
    } catch (error) {
      if (isMissing(error)) throw notFound();
      throw error;
    }
    try {
      const stats = await handle.stat({ bigint: true });
      // Not the entry just seen (swapped in between), or no longer one that may be read.
      if (stats.ino !== seen.stats.ino || stats.dev !== seen.stats.dev || this.itemType(stats) !== seen.type)
        throw notFound();
      return seen.type === 'folder'
        ? new StorageFolder(name, handle, stats, this.storage, false)
        : new StorageFile(name, handle, stats);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async openFolder(name: string): Promise<StorageFolder> {
    const opened = await this.open(name);
    if (opened instanceof StorageFolder) return opened;
    await opened.close();
    throw notFound();
  }

  async openFile(name: string): Promise<StorageFile> {
    const opened = await this.open(name);
    if (opened instanceof StorageFile) return opened;
    await opened.close();
    throw notFound();
  }

  /** The names in this folder as the directory holds them (its own order), links not followed. */
  private async *dirents(): AsyncGenerator<Dirent> {
    // `.` of the descriptor is the folder that was opened, not whatever has its path now; the
    // listing has a descriptor of its own.
    const dir = await this.through('.', (path) => opendir(path, { bufferSize: 128 }));
    for await (const dirent of dir) {
      if (this.mayName(dirent.name) && !skippedByType(dirent)) yield dirent;
    }
  }

  /** Every entry that may be listed, in the folder's own order (constant memory). */
  async *scan(): AsyncGenerator<StorageItemInfo> {
    for await (const dirent of this.dirents()) {
      const info = await this.entry(dirent.name);
      if (info) yield info;
    }
  }

  /**
   * Up to `max` entries, folders first then files, by name; `truncated` when there are more. The
   * best `max + 1` names by the directory's own types are kept as the folder is read (memory
   * bounded by `max`, not by the folder), then looked at one by one.
   */
  async list(max: number): Promise<{ entries: StorageItemInfo[]; truncated: boolean }> {
    const keep = max + 1;
    let candidates: Array<{ name: string; type: string }> = [];
    let dropped = false;
    const trim = () => {
      candidates.sort(byTypeThenName);
      if (candidates.length > keep) {
        candidates = candidates.slice(0, keep);
        dropped = true;
      }
    };
    for await (const dirent of this.dirents()) {
      // A file system without types in its directory: the entry says (ext4 and tmpfs have them).
      const type = dirent.isDirectory()
        ? 'folder'
        : dirent.isFile()
          ? 'file'
          : (await this.entry(dirent.name))?.type;
      if (!type) continue;
      candidates.push({ name: dirent.name, type });
      if (candidates.length >= keep * 4) trim();
    }
    trim();
    const entries: StorageItemInfo[] = [];
    for (let index = 0; index < candidates.length && entries.length < keep; index += LOOKUPS_AT_ONCE) {
      const batch = candidates.slice(index, index + LOOKUPS_AT_ONCE);
      for (const info of await Promise.all(batch.map((each) => this.entry(each.name))))
        if (info && entries.length < keep) entries.push(info);
    }
    // Dropped names may be listable even when some kept ones were not: more may exist than shown.
    return {
      entries: entries.slice(0, max).sort(byTypeThenName),
      truncated: entries.length > max || dropped,
    };
  }
}

const LOOKUPS_AT_ONCE = 32;

/** Types the directory itself shows as never listed (links, sockets, fifos, devices). */
function skippedByType(dirent: Dirent): boolean {
  return (
    dirent.isSymbolicLink() ||
    dirent.isSocket() ||
    dirent.isFIFO() ||
    dirent.isBlockDevice() ||
    dirent.isCharacterDevice()
  );
}

/**
 * Opens `names` from the storage root, every step through the folder before it: a folder at each
 * step but the last, which is a folder or a file. The folders on the way are closed.
 */
export async function openStoragePath(
  dataRoot: string,
  owners: StorageOwners,
  names: readonly string[],
): Promise<StorageFolder | StorageFile> {
  let folder = await StorageFolder.openRoot(dataRoot, owners);
  try {
    for (const [index, name] of names.entries()) {
      const next = index === names.length - 1 ? await folder.open(name) : await folder.openFolder(name);
      await folder.close();
      if (next instanceof StorageFile) return next;
      folder = next;
    }
    return folder;
  } catch (error) {
    await folder.close();
    throw error;
  }
}

/** A tree deeper than the walk goes (each level holds two descriptors while below it). */
export class TreeTooDeepError extends Error {
  constructor(readonly depth: number) {
    super(`the folder is nested more than ${depth} levels deep`);
    this.name = 'TreeTooDeepError';
  }
}

/** One entry of a walk: its names from the walk's top, and (for a file) the folder it is in. */
export interface TreeItem {
  path: readonly string[];
  info: StorageItemInfo;
  /** Open while the walk waits on this item: a file is opened through it before the next step. */
  folder: StorageFolder;
}

/** How deep a walk goes before it gives up (TreeTooDeepError). */
export const TREE_DEPTH_MAX = 128;

/**
 * Every listable entry below `top`, depth first, a folder before what is in it, in each folder's
 * own order. A folder is opened through its parent as it is entered and closed once done (one
 * descriptor for it and one for its listing per level); `top` stays open, the caller's to close.
 * Returning from the walk early closes whatever it holds.
 */
export async function* walkTree(top: StorageFolder, maxDepth = TREE_DEPTH_MAX): AsyncGenerator<TreeItem> {
  const levels: Array<{ folder: StorageFolder; entries: AsyncGenerator<StorageItemInfo>; path: string[] }> = [
    { folder: top, entries: top.scan(), path: [] },
  ];
  try {
    while (levels.length > 0) {
      const level = levels[levels.length - 1]!;
      const next = await level.entries.next();
      if (next.done) {
        levels.pop();
        if (level.folder !== top) await level.folder.close();
        continue;
      }
      const info = next.value;
      const path = [...level.path, info.name];
      if (info.type === 'file') {
        yield { path, info, folder: level.folder };
        continue;
      }
      if (levels.length >= maxDepth) throw new TreeTooDeepError(maxDepth);
      let folder: StorageFolder;
      try {
        folder = await level.folder.openFolder(info.name);
      } catch (error) {
        // Gone or swapped since it was listed: as if it had not been there.
        if (isNotFound(error)) continue;
        throw error;
      }
      levels.push({ folder, entries: folder.scan(), path });
      yield { path, info: { ...info, stats: folder.stats }, folder: level.folder };
    }
  } finally {
    for (const level of levels.reverse()) {
      await level.entries.return(undefined);
      if (level.folder !== top) await level.folder.close();
    }
  }
}
