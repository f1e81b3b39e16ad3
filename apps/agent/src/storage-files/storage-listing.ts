// The `storage.browse` and `share.describe` node calls: one folder of the storage for the owner's
// picker of what to share, and what a link shares (a file; or a folder with its entries and the
// bytes of its files). Both read through storage-reader.ts. Nothing to show at the path (missing,
// a link on the way, not a file or folder) is `found: false`, as backup.browse answers a folder
// its snapshot does not hold: the API tells the visitor "no longer available" from it.
import {
  SHARE_FOLDER_SIZE_ENTRIES,
  STORAGE_LISTING_MAX,
  storagePathNames,
  type ShareDescribeResult,
  type StorageBrowseResult,
} from '@debesis/contract';
import {
  StorageFile,
  StorageFolder,
  TreeTooDeepError,
  isNotFound,
  openStoragePath,
  storageEntryOf,
  walkTree,
  type StorageOwners,
} from './storage-reader.ts';

/** Where a call reads: the workspace's storage root and whose files it may serve. */
export interface StorageAccess {
  dataRoot: string;
  owners: StorageOwners;
}

/** The names from the storage root of `path` inside the shared `root`. */
export const sharedNames = (root: string, path: string) => [
  ...storagePathNames(root),
  ...storagePathNames(path),
];

/** Opens a path of the storage; undefined when there is nothing there that may be read. */
async function openOrNothing(access: StorageAccess, names: readonly string[]) {
  try {
    return await openStoragePath(access.dataRoot, access.owners, names);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

export async function browseStorage(access: StorageAccess, path: string): Promise<StorageBrowseResult> {
  const opened = await openOrNothing(access, storagePathNames(path));
  if (!(opened instanceof StorageFolder)) {
    await opened?.close();
    return { found: false, entries: [], truncated: false };
  }
  try {
    const { entries, truncated } = await opened.list(STORAGE_LISTING_MAX);
    return { found: true, entries: entries.map(storageEntryOf), truncated };
  } finally {
    await opened.close();
  }
}

export async function describeShared(
  access: StorageAccess,
  item: { root: string; path: string },
): Promise<ShareDescribeResult> {
  const names = sharedNames(item.root, item.path);
  const opened = await openOrNothing(access, names);
  if (!opened)
    return {
      found: false,
      name: names.at(-1) ?? '',
      type: 'file',
      size: 0,
      size_complete: true,
      modified_at: '',
      entries: [],
      truncated: false,
    };
  try {
    const modified_at = opened.stats.mtime.toISOString();
    if (opened instanceof StorageFile)
      return {
        found: true,
        name: opened.name,
        type: 'file',
        size: Number(opened.stats.size),
        size_complete: true,
        modified_at,
        entries: [],
        truncated: false,
      };
    const { entries, truncated } = await opened.list(STORAGE_LISTING_MAX);
    const size = await folderSize(opened, SHARE_FOLDER_SIZE_ENTRIES);
    return {
      found: true,
      name: opened.name,
      type: 'folder',
      size: size.bytes,
      size_complete: size.complete,
      modified_at,
      entries: entries.map(storageEntryOf),
      truncated,
    };
  } finally {
    await opened.close();
  }
}

/**
 * The bytes of the files below `folder`, counted over at most `limit` entries (files and folders);
 * `complete` is false when there were more (or the tree goes deeper than a walk does): a lower bound.
 */
export async function folderSize(
  folder: StorageFolder,
  limit: number,
): Promise<{ bytes: number; complete: boolean }> {
  let bytes = 0;
  let counted = 0;
  try {
    for await (const { info } of walkTree(folder)) {
      if (counted === limit) return { bytes, complete: false };
      counted += 1;
      if (info.type === 'file') bytes += Number(info.stats.size);
    }
  } catch (error) {
    if (error instanceof TreeTooDeepError) return { bytes, complete: false };
    throw error;
  }
  return { bytes, complete: true };
}
