// The `snapshot.browse` and `snapshot.download` node calls: one folder, or one file's bytes, of one
// of the workspace's own snapshots (`<snapshots mount>/<name>`, snapshots.ts), for the backup
// browser. A snapshot is the storage as it was, so it is read exactly as the storage is for share
// links (storage-files/storage-reader.ts): every step through the folder opened before it, no
// symlink followed, folders and regular files only, a hard link only when a workspace user owns
// it, the node's own folders at its root never shown. Each snapshot is a subvolume of its own (its
// own st_dev), so a subvolume nested inside the data (none should be) is not entered either.
//
// A snapshot that is not there (pruned since the API's list, or never) is `not_found`; a path the
// snapshot does not hold is `found: false` for a browse (as backup.browse answers), `not_found`
// for a download.
import { join } from 'node:path';
import {
  SNAPSHOT_BROWSE_MAX,
  SNAPSHOT_NAME_PATTERN,
  type BackupBrowseResult,
  type NodeCallPayload,
  type NodeStreamCallPayload,
  type SnapshotEntry,
} from '@debesis/contract';
import type { NodeCallStream } from '../calls/node-call.ts';
import { fileDownload } from '../storage-files/share-download.ts';
import {
  StorageFile,
  StorageFolder,
  isNotFound,
  notFound,
  storageEntryOf,
  type StorageItemInfo,
  type StorageOwners,
} from '../storage-files/storage-reader.ts';

/** Where the snapshots are (layout.snapshotsDir) and whose files they may serve. */
export interface SnapshotAccess {
  snapshotsDir: string;
  owners: StorageOwners;
}

/** The names from a snapshot's root of a snapshot path (`/` is its root). */
const pathNames = (path: string): string[] => (path === '/' ? [] : path.slice(1).split('/'));

/** The snapshot's root, open; `not_found` when there is no such snapshot. */
function openSnapshot(access: SnapshotAccess, name: string): Promise<StorageFolder> {
  // The contract's pattern already holds; checked again because the name becomes a path here.
  if (!SNAPSHOT_NAME_PATTERN.test(name)) return Promise.reject(notFound());
  return StorageFolder.openRoot(join(access.snapshotsDir, name), access.owners);
}

/** `names` below the snapshot's root, each step through the one before; undefined if nothing is there. */
async function openInSnapshot(
  root: StorageFolder,
  names: readonly string[],
): Promise<StorageFolder | StorageFile | undefined> {
  let folder = root;
  try {
    for (const [index, name] of names.entries()) {
      const next = index === names.length - 1 ? await folder.open(name) : await folder.openFolder(name);
      if (folder !== root) await folder.close();
      if (next instanceof StorageFile) return next;
      folder = next;
    }
    return folder;
  } catch (error) {
    if (folder !== root) await folder.close();
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** A backup browse's entry: the same columns, so one browser shows both. */
function snapshotEntryOf(info: StorageItemInfo): SnapshotEntry {
  const entry = storageEntryOf(info);
  return info.type === 'folder'
    ? { name: entry.name, type: 'dir', size: null, modified_at: entry.modified_at }
    : { name: entry.name, type: 'file', size: entry.size, modified_at: entry.modified_at };
}

export async function browseSnapshotFolder(
  access: SnapshotAccess,
  payload: NodeCallPayload<'snapshot.browse'>,
): Promise<BackupBrowseResult> {
  const root = await openSnapshot(access, payload.name);
  try {
    const opened = await openInSnapshot(root, pathNames(payload.path));
    if (!(opened instanceof StorageFolder)) {
      await opened?.close();
      return { found: false, entries: [], truncated: false };
    }
    try {
      const { entries, truncated } = await opened.list(SNAPSHOT_BROWSE_MAX);
      return { found: true, entries: entries.map(snapshotEntryOf), truncated };
    } finally {
      if (opened !== root) await opened.close();
    }
  } finally {
    await root.close();
  }
}

/** One regular file of a snapshot, streamed from the descriptor it was opened as. */
export async function snapshotFileDownload(
  access: SnapshotAccess,
  payload: NodeStreamCallPayload<'snapshot.download'>,
): Promise<NodeCallStream> {
  const root = await openSnapshot(access, payload.name);
  let opened: StorageFolder | StorageFile | undefined;
  try {
    opened = await openInSnapshot(root, pathNames(payload.path));
  } finally {
    await root.close();
  }
  if (opened instanceof StorageFile) return fileDownload(opened, {});
  if (opened && opened !== root) await opened.close();
  throw notFound();
}
