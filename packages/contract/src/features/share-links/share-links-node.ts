// What the API asks a node about the files of a workspace's storage, for share links and the
// owner's picker of them (docs/features/share-links.md). The bytes of a shared file never touch the
// API host's disk: the node reads them and streams them up as a stream node call (nodes.ts), and
// the API pipes them to the visitor.
//
// Paths here are from the root of the workspace's storage (`shares/projects/report.pdf`): names
// separated by `/`, none of them empty, `.` or `..`, no leading `/`. The node walks them one name
// at a time from the storage's root without following any symlink (docs/features/share-links.md:
// how the node never leaves the shared folder), so a path is only ever a name inside the storage.
import { z } from 'zod';
import { text } from '../../strings.ts';

/** The longest storage path a link or a listing names. */
export const STORAGE_PATH_MAX = 1024;
/** Entries a listing answers at most; a bigger folder is answered `truncated`. */
export const STORAGE_LISTING_MAX = 1000;
/**
 * Folders at the storage's root that are the node's, never the customer's (the node keeps its
 * restore staging in `system`; ext4 makes `lost+found`): never listed, never shared.
 */
export const STORAGE_NODE_FOLDERS = ['system', 'lost+found'] as const;

const isNodeFolder = (name: string | undefined) =>
  name !== undefined && (STORAGE_NODE_FOLDERS as readonly string[]).includes(name.toLowerCase());

/** The names of a storage path ('' is the storage's root: no names). */
export function storagePathNames(path: string): string[] {
  return path === '' ? [] : path.split('/');
}

/** Why `path` cannot name something of the storage (as a field code), or undefined when it can. */
export function storagePathProblem(
  path: string,
): 'storage_path_invalid' | 'storage_path_reserved' | undefined {
  if (path.length > STORAGE_PATH_MAX) return 'storage_path_invalid';
  const names = storagePathNames(path);
  if (names.some((name) => name === '' || name === '.' || name === '..' || name.length > 255))
    return 'storage_path_invalid';
  if (isNodeFolder(names[0])) return 'storage_path_reserved';
  return undefined;
}

/** A path of the storage, '' for its root. */
export const storagePathSchema = text()
  .max(STORAGE_PATH_MAX, 'storage_path_invalid')
  .superRefine((path, context) => {
    const problem = storagePathProblem(path);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** A path inside a shared item ('' for the item itself), checked like a storage path. */
export const sharedSubPathSchema = text()
  .max(STORAGE_PATH_MAX, 'storage_path_invalid')
  .refine(
    (path) =>
      storagePathNames(path).every(
        (name) => name !== '' && name !== '.' && name !== '..' && name.length <= 255,
      ),
    'storage_path_invalid',
  );

export const STORAGE_ENTRY_TYPES = ['file', 'folder'] as const;
export type StorageEntryType = (typeof STORAGE_ENTRY_TYPES)[number];

/** One entry of a folder: symlinks, devices, sockets and pipes are never listed. */
export const storageEntrySchema = z.object({
  name: text().max(255),
  type: z.enum(STORAGE_ENTRY_TYPES),
  /** Bytes (a folder: 0, its own size is not its content's). */
  size: z.number().int().nonnegative(),
  modified_at: text(),
});
export type StorageEntry = z.infer<typeof storageEntrySchema>;

/** `storage.browse`: one folder of the storage, for the owner's picker. */
export const storageBrowsePayloadSchema = z.object({ path: storagePathSchema });
export const storageBrowseResultSchema = z.object({
  /** False: no folder at `path` (missing, a file, or reached through a symlink). */
  found: z.boolean(),
  /** Folders first, then files, each by name. */
  entries: z.array(storageEntrySchema).max(STORAGE_LISTING_MAX),
  truncated: z.boolean(),
});
export type StorageBrowseResult = z.infer<typeof storageBrowseResultSchema>;

/** What a link shares: `root` from the storage's root, and `path` inside it ('' for `root` itself). */
const sharedItemSchema = z.object({
  root: storagePathSchema.refine((path) => path !== '', 'storage_path_invalid'),
  path: sharedSubPathSchema,
});

/** `share.describe`: what is at `root`/`path`, and a folder's entries. */
export const shareDescribePayloadSchema = sharedItemSchema;
export const shareDescribeResultSchema = z.object({
  /** False: nothing that may be shared there (missing, a symlink on the way, not a file or folder). */
  found: z.boolean(),
  name: text().max(255),
  type: z.enum(STORAGE_ENTRY_TYPES),
  /** A file's bytes; a folder's files' bytes, counted over at most SHARE_FOLDER_SIZE_ENTRIES entries. */
  size: z.number().int().nonnegative(),
  /** False: the folder has more entries than were counted, `size` is a lower bound. */
  size_complete: z.boolean(),
  modified_at: text(),
  /** A folder's entries (empty for a file). */
  entries: z.array(storageEntrySchema).max(STORAGE_LISTING_MAX),
  truncated: z.boolean(),
});
export type ShareDescribeResult = z.infer<typeof shareDescribeResultSchema>;
/** How many entries a folder's size is counted over before it is called a lower bound. */
export const SHARE_FOLDER_SIZE_ENTRIES = 20_000;

/**
 * `share.download` (a stream call): a file's bytes (all, or one range of them), or a folder as a
 * zip written as it is read. The range is the visitor's, already parsed by the API; the node
 * answers it against the file it opened (STREAM_RANGE_HEADER), so a file that changed in between
 * can never be answered with another version's length.
 */
export const shareDownloadPayloadSchema = sharedItemSchema.extend({
  range: z
    .union([
      z.object({ start: z.number().int().nonnegative(), end: z.number().int().nonnegative().nullable() }),
      z.object({ suffix: z.number().int().positive() }),
    ])
    .optional(),
  /** The visitor's If-Range (an entity tag): the range applies only while the file still has it. */
  if_range: text().max(200).optional(),
});
export type ShareDownloadPayload = z.infer<typeof shareDownloadPayloadSchema>;
