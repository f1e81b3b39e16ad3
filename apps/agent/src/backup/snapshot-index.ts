// The listing index of a workspace's snapshots: every folder of a snapshot with its entries, as
// `backup.browse` answers them, written once after the backup that made the snapshot, so a browse
// reads one folder from a file instead of asking restic (`restic ls` of a folder of 10,000 entries
// takes ~0.4 s, most of it restic opening the repository and decoding trees; this takes ~10 ms).
// It is a cache: a snapshot without one (made before this index existed, or its build failed) is
// browsed with restic as before, and indexed then in the background for the next time.
//
//   <data>/backups/<service id>/index/           0700, beside the repository (repository.ts)
//   <data>/backups/<service id>/index/<id>.index 0600, one per snapshot, named by its full id
//
// One `restic ls --json <snapshot>` lists the whole snapshot depth first, a folder's line before
// everything under it. The lines are read as they come: a folder is open while lines under it
// come, and is written out once a line comes from elsewhere (restic never comes back to it), so
// the agent holds only the open folders' entries (one path deep), never the snapshot's listing.
// Each folder keeps at most SNAPSHOT_BROWSE_MAX entries (then `truncated`), in restic's order
// (names sorted bytewise), which is what browse answered from `restic ls` of the folder.
//
// The file (decided for a read of one folder that does not depend on the snapshot's size):
//
//   header  `debesis-snapshot-index/1 <64 hex id>\n` (90 bytes)
//   blobs   one per folder: `{"path","truncated","entries"}` JSON, raw deflate (fastest level)
//           when 4 KiB or more: a folder of 10,000 files is ~900 KB of JSON and ~45 KB deflated
//           in ~2 ms (kept as is, a few dozen snapshots of a big storage would take gigabytes);
//           a small one is not worth a deflate call (~25 µs each)
//   table   32 bytes a folder, sorted by the first 16 bytes of SHA-256(path): those 16 bytes, the
//           blob's offset (uint64 BE), length (uint32 BE), flags (uint32 BE, 1: deflated)
//   footer  the table's offset (uint64 BE), the folders (uint32 BE), 4 bytes 0, `debesis-index/1\n`
//
// A browse reads the header and footer, binary-searches the table with a few 32-byte reads and
// parses the one blob whose path is the folder's (a hash shared by two paths is read past). A JSON
// table of contents was the other choice: simpler, but parsed whole at each browse, and a storage
// of 100,000 folders makes it megabytes. Anything not as written (size, header, footer, a blob's
// JSON or entries) is no index: the browse asks restic, and the index is written again.
//
// Written atomically (a temporary file in the same folder, flushed, renamed); a job removes the
// index of every snapshot the repository no longer lists (after retention), and all of them when
// it makes a new repository (the old snapshots are gone with the old one).
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { constants as zlib, deflateRawSync, inflateRawSync } from 'node:zlib';
import { SNAPSHOT_BROWSE_MAX, type BackupBrowseResult, type SnapshotEntry } from '@debesis/contract';
import type { RepositoryPaths } from './repository.ts';
import { failureCode, ResticError, type Restic } from './restic.ts';
import { isoTime } from './restic-json.ts';

const HEADER_MAGIC = 'debesis-snapshot-index/1';
const HEADER_BYTES = HEADER_MAGIC.length + 1 + 64 + 1;
const FOOTER_MAGIC = Buffer.from('debesis-index/1\n');
const FOOTER_BYTES = 16 + FOOTER_MAGIC.length;
const RECORD_BYTES = 32;
const HASH_BYTES = 16;
const DEFLATED = 1;
/** Blobs this size or more are deflated. */
const DEFLATE_FROM = 4096;
/** Written in batches this size (a folder is often a few hundred bytes). */
const WRITE_BATCH = 256 * 1024;
const FULL_ID = /^[0-9a-f]{64}$/;
const INDEX_NAME = /^([0-9a-f]{64})\.index$/;

export const snapshotIndexDir = (paths: RepositoryPaths) => join(paths.dir, 'index');
export const snapshotIndexFile = (paths: RepositoryPaths, snapshotId: string) =>
  join(snapshotIndexDir(paths), `${snapshotId}.index`);

const pathHash = (path: string) => createHash('sha256').update(path).digest().subarray(0, HASH_BYTES);
const header = (snapshotId: string) => Buffer.from(`${HEADER_MAGIC} ${snapshotId}\n`);

/** One folder of a snapshot as the index holds it (and `backup.browse` answers it). */
export interface FolderListing {
  path: string;
  entries: SnapshotEntry[];
  truncated: boolean;
}

/**
 * Reads `restic ls --json <snapshot>` line by line into folders, each handed to `emit` once
 * complete (deepest first). `finish` hands over the ones still open; it throws when the lines were
 * not a snapshot's listing (no snapshot line, or a line whose folder was not open: not depth first).
 */
export class SnapshotListingReader {
  /** The snapshot's full id, from its line. */
  snapshotId: string | undefined;
  folders = 0;
  entries = 0;
  private readonly open: FolderListing[] = [];

  constructor(
    private readonly emit: (folder: FolderListing) => void,
    private readonly max = SNAPSHOT_BROWSE_MAX,
  ) {}

  take(line: string): void {
    if (!line.startsWith('{')) return;
    let node: Record<string, unknown>;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      node = value as Record<string, unknown>;
    } catch {
      return;
    }
    if (node.struct_type === 'snapshot') {
      if (this.snapshotId !== undefined || typeof node.id !== 'string' || !FULL_ID.test(node.id))
        throw new Error('restic ls printed an unexpected snapshot line');
      this.snapshotId = node.id;
      this.open.push({ path: '/', entries: [], truncated: false });
      return;
    }
    if (node.struct_type !== 'node' || typeof node.path !== 'string' || typeof node.name !== 'string') return;
    if (this.snapshotId === undefined) throw new Error('restic ls printed a node before its snapshot');
    const path = node.path;
    const cut = path.lastIndexOf('/');
    if (cut < 0) return;
    const parent = cut === 0 ? '/' : path.slice(0, cut);
    while (this.open.length > 0 && this.open.at(-1)!.path !== parent) this.close();
    const folder = this.open.at(-1);
    if (!folder) throw new Error(`restic ls listed ${JSON.stringify(path)} outside the folder it was in`);
    // As browse's reader: an entry is a node named as the last part of its path.
    if (path.slice(cut + 1) === node.name) {
      if (folder.entries.length < this.max) {
        folder.entries.push(snapshotEntry(node));
        this.entries += 1;
      } else folder.truncated = true;
    }
    if (node.type === 'dir') this.open.push({ path, entries: [], truncated: false });
  }

  finish(): void {
    if (this.snapshotId === undefined) throw new Error('restic ls printed no snapshot');
    while (this.open.length > 0) this.close();
  }

  private close(): void {
    this.folders += 1;
    this.emit(this.open.pop()!);
  }
}

/** A node as an entry: the same as restic-json.ts's SnapshotFolderReader makes (a test holds them equal). */
function snapshotEntry(node: Record<string, unknown>): SnapshotEntry {
  const type =
    node.type === 'dir' || node.type === 'file' || node.type === 'symlink' ? node.type : ('other' as const);
  const size = node.size;
  return {
    name: node.name as string,
    type,
    size:
      type === 'file'
        ? typeof size === 'number' && Number.isFinite(size) && size > 0
          ? Math.floor(size)
          : 0
        : null,
    modified_at: typeof node.mtime === 'string' ? isoTime(node.mtime) : null,
  };
}

/** Appends to a file in batches, at positions it counts itself (the header is written last). */
class BatchWriter {
  /** Where the next byte pushed goes. */
  size: number;
  private batch: Buffer[] = [];
  private batched = 0;
  private writing: Promise<void> = Promise.resolve();
  private error: Error | undefined;

  constructor(
    private readonly handle: FileHandle,
    start: number,
  ) {
    this.size = start;
  }

  push(chunk: Buffer): void {
    this.batch.push(chunk);
    this.batched += chunk.length;
    this.size += chunk.length;
    if (this.batched >= WRITE_BATCH) this.flush();
  }

  async end(): Promise<void> {
    this.flush();
    await this.writing;
    if (this.error !== undefined) throw this.error;
  }

  private flush(): void {
    if (this.batched === 0) return;
    const data = Buffer.concat(this.batch, this.batched);
    const at = this.size - this.batched;
    this.batch = [];
    this.batched = 0;
    // Errors are kept for end(): nothing waits on a batch before.
    this.writing = this.writing
      .then(() => writeAll(this.handle, data, at))
      .catch((error: unknown) => {
        this.error ??= asError(error);
      });
  }
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

async function writeAll(handle: FileHandle, data: Buffer, at: number): Promise<void> {
  for (let done = 0; done < data.length;) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, at + done);
    done += bytesWritten;
  }
}

/** The table's records, growing as folders are written, sorted by hash at the end. */
class FolderTable {
  private records = Buffer.alloc(64 * RECORD_BYTES);
  count = 0;

  add(path: string, offset: number, length: number, flags: number): void {
    if ((this.count + 1) * RECORD_BYTES > this.records.length) {
      const grown = Buffer.alloc(this.records.length * 2);
      this.records.copy(grown);
      this.records = grown;
    }
    const at = this.count * RECORD_BYTES;
    pathHash(path).copy(this.records, at);
    this.records.writeBigUInt64BE(BigInt(offset), at + HASH_BYTES);
    this.records.writeUInt32BE(length, at + HASH_BYTES + 8);
    this.records.writeUInt32BE(flags, at + HASH_BYTES + 12);
    this.count += 1;
  }

  sorted(): Buffer {
    const { records } = this;
    const order = Array.from({ length: this.count }, (_, index) => index);
    order.sort((a, b) =>
      records.compare(
        records,
        b * RECORD_BYTES,
        b * RECORD_BYTES + HASH_BYTES,
        a * RECORD_BYTES,
        a * RECORD_BYTES + HASH_BYTES,
      ),
    );
    const table = Buffer.alloc(this.count * RECORD_BYTES);
    order.forEach((from, to) =>
      records.copy(table, to * RECORD_BYTES, from * RECORD_BYTES, (from + 1) * RECORD_BYTES),
    );
    return table;
  }
}

export interface SnapshotIndexWritten {
  snapshotId: string;
  folders: number;
  entries: number;
  bytes: number;
  ms: number;
}

/** Temporary files being written now (a clean-up leaves them). */
const writing = new Set<string>();

/**
 * Lists `snapshotId` (full or short) with restic and writes its index. Throws when restic fails or
 * lists something unexpected; nothing is left behind then.
 */
export async function writeSnapshotIndex(
  paths: RepositoryPaths,
  restic: Restic,
  snapshotId: string,
  options: { signal?: AbortSignal; background?: boolean; timeoutMs?: number } = {},
): Promise<SnapshotIndexWritten> {
  const started = performance.now();
  const dir = snapshotIndexDir(paths);
  // Not recursive: a repository folder deleted meanwhile (the workspace removed) stays deleted.
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const temporary = join(dir, `.${snapshotId}.${randomBytes(6).toString('hex')}.tmp`);
  writing.add(temporary);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temporary, 'wx', 0o600);
    const writer = new BatchWriter(handle, HEADER_BYTES);
    const table = new FolderTable();
    const reader = new SnapshotListingReader((folder) => {
      let blob = Buffer.from(JSON.stringify(folder));
      let flags = 0;
      if (blob.length >= DEFLATE_FROM) {
        blob = deflateRawSync(blob, { level: zlib.Z_BEST_SPEED });
        flags = DEFLATED;
      }
      table.add(folder.path, writer.size, blob.length, flags);
      writer.push(blob);
    });
    let failure: Error | undefined;
    const result = await restic.run(['--no-lock', 'ls', '--json', '--', snapshotId], {
      signal: options.signal,
      background: options.background,
      timeoutMs: options.timeoutMs,
      onLine(line) {
        try {
          reader.take(line);
        } catch (error) {
          failure = asError(error);
          return 'stop';
        }
        return undefined;
      },
    });
    if (failure !== undefined) throw failure;
    if (!result.ok) throw new ResticError(result, failureCode(result));
    reader.finish();
    const fullId = reader.snapshotId!;
    if (!fullId.startsWith(snapshotId))
      throw new Error(`restic ls listed snapshot ${fullId}, not ${snapshotId}`);
    const tableOffset = writer.size;
    writer.push(table.sorted());
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.writeBigUInt64BE(BigInt(tableOffset), 0);
    footer.writeUInt32BE(table.count, 8);
    FOOTER_MAGIC.copy(footer, 16);
    writer.push(footer);
    await writer.end();
    await writeAll(handle, header(fullId), 0);
    await handle.chmod(0o600);
    await handle.datasync();
    await handle.close();
    handle = undefined;
    await rename(temporary, snapshotIndexFile(paths, fullId));
    return {
      snapshotId: fullId,
      folders: reader.folders,
      entries: reader.entries,
      bytes: writer.size,
      ms: performance.now() - started,
    };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temporary).catch(() => undefined);
    throw error;
  } finally {
    writing.delete(temporary);
  }
}

/** What the index says of one folder: its answer, or why there is none (browse asks restic then). */
export type IndexedFolder =
  | { status: 'indexed'; result: BackupBrowseResult }
  | { status: 'missing' }
  | { status: 'corrupt'; reason: string };

class CorruptIndex extends Error {}

/** The index file of `snapshotId` (full, or a prefix only one index has); undefined: none. */
async function findIndexFile(paths: RepositoryPaths, snapshotId: string): Promise<string | undefined> {
  if (FULL_ID.test(snapshotId)) return snapshotIndexFile(paths, snapshotId);
  const names = await readdir(snapshotIndexDir(paths)).catch(() => [] as string[]);
  const matching = names.filter((name) => INDEX_NAME.test(name) && name.startsWith(snapshotId));
  // None, or several (restic then says the id is ambiguous).
  return matching.length === 1 ? join(snapshotIndexDir(paths), matching[0]!) : undefined;
}

/** Reads `folder` of `snapshotId` from its index. Never throws: a file not as written is `corrupt`. */
export async function readIndexedFolder(
  paths: RepositoryPaths,
  snapshotId: string,
  folder: string,
): Promise<IndexedFolder> {
  const file = await findIndexFile(paths, snapshotId);
  if (file === undefined) return { status: 'missing' };
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'corrupt', reason: String(error) };
  }
  try {
    return { status: 'indexed', result: await lookUp(handle, file, folder) };
  } catch (error) {
    return { status: 'corrupt', reason: error instanceof Error ? error.message : String(error) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

async function readAt(handle: FileHandle, at: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, at);
  if (bytesRead !== length) throw new CorruptIndex('the index is shorter than it says');
  return buffer;
}

async function lookUp(handle: FileHandle, file: string, folder: string): Promise<BackupBrowseResult> {
  const stats = await handle.stat();
  if (!stats.isFile() || stats.size < HEADER_BYTES + FOOTER_BYTES) throw new CorruptIndex('not an index');
  const snapshotId = INDEX_NAME.exec(file.slice(file.lastIndexOf('/') + 1))?.[1] ?? '';
  if (!(await readAt(handle, 0, HEADER_BYTES)).equals(header(snapshotId)))
    throw new CorruptIndex('its header is not this snapshot’s');
  const footer = await readAt(handle, stats.size - FOOTER_BYTES, FOOTER_BYTES);
  if (!footer.subarray(16).equals(FOOTER_MAGIC)) throw new CorruptIndex('it has no footer');
  const tableOffset = Number(footer.readBigUInt64BE(0));
  const count = footer.readUInt32BE(8);
  if (tableOffset < HEADER_BYTES || tableOffset + count * RECORD_BYTES + FOOTER_BYTES !== stats.size)
    throw new CorruptIndex('its table is not where its footer says');

  // The first record whose hash is not below the folder's, then every one with the same hash.
  const wanted = pathHash(folder);
  const record = (index: number) => readAt(handle, tableOffset + index * RECORD_BYTES, RECORD_BYTES);
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((await record(middle)).compare(wanted, 0, HASH_BYTES, 0, HASH_BYTES) < 0) low = middle + 1;
    else high = middle;
  }
  for (let index = low; index < count; index += 1) {
    const found = await record(index);
    if (found.compare(wanted, 0, HASH_BYTES, 0, HASH_BYTES) !== 0) break;
    const offset = Number(found.readBigUInt64BE(HASH_BYTES));
    const length = found.readUInt32BE(HASH_BYTES + 8);
    if (offset < HEADER_BYTES || offset + length > tableOffset)
      throw new CorruptIndex('a blob is out of bounds');
    const stored = await readAt(handle, offset, length);
    const blob = found.readUInt32BE(HASH_BYTES + 12) & DEFLATED ? inflateRawSync(stored) : stored;
    const listed = parseFolder(blob);
    if (listed.path === folder) return { found: true, entries: listed.entries, truncated: listed.truncated };
  }
  return { found: false, entries: [], truncated: false };
}

const ENTRY_TYPES = new Set(['dir', 'file', 'symlink', 'other']);

/** A blob as written, checked the way the contract will check the answer (cheaply, by hand). */
function parseFolder(blob: Buffer): FolderListing {
  const value = JSON.parse(blob.toString('utf8')) as Partial<FolderListing> | null;
  if (
    typeof value !== 'object' ||
    value === null ||
    typeof value.path !== 'string' ||
    typeof value.truncated !== 'boolean' ||
    !Array.isArray(value.entries) ||
    value.entries.length > SNAPSHOT_BROWSE_MAX
  )
    throw new CorruptIndex('a folder is not as written');
  for (const entry of value.entries as unknown[]) {
    const { name, type, size, modified_at } = (entry ?? {}) as Record<string, unknown>;
    if (
      typeof name !== 'string' ||
      typeof type !== 'string' ||
      !ENTRY_TYPES.has(type) ||
      !(size === null || (typeof size === 'number' && Number.isInteger(size) && size >= 0)) ||
      !(modified_at === null || typeof modified_at === 'string')
    )
      throw new CorruptIndex('an entry is not as written');
  }
  return value as FolderListing;
}

/**
 * Removes the index of every snapshot not in `snapshotIds` (forgotten, or of a repository made
 * again), and temporary files no write of this agent has open (a crash's). Returns how many.
 */
export async function removeStaleIndexes(
  paths: RepositoryPaths,
  snapshotIds: readonly string[],
): Promise<number> {
  const dir = snapshotIndexDir(paths);
  const keep = new Set(snapshotIds.map((id) => `${id}.index`));
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    if (keep.has(name) || writing.has(join(dir, name))) continue;
    await rm(join(dir, name), { recursive: true, force: true });
    removed += 1;
  }
  return removed;
}

/** Builds started by browses of snapshots without an index, one at a time per repository. */
const queues = new Map<string, Promise<void>>();
/** Snapshots being indexed for a browse, or whose index failed: not started again by this agent. */
const tried = new Set<string>();

/**
 * Writes the index of a snapshot a browse found without one, in the background, at a low
 * priority, after any other such build of the repository. Failures are left for restic to show
 * at the next browse (which reads it with restic then, as today).
 */
export function indexInBackground(paths: RepositoryPaths, restic: Restic, snapshotId: string): void {
  const key = `${paths.dir}\0${snapshotId}`;
  if (tried.has(key)) return;
  tried.add(key);
  const build = (queues.get(paths.dir) ?? Promise.resolve())
    .then(() =>
      writeSnapshotIndex(paths, restic, snapshotId, { background: true, timeoutMs: BACKGROUND_TIMEOUT_MS }),
    )
    .then(
      // Written: should it go (corrupt, deleted by hand), the next browse may write it again.
      () => void tried.delete(key),
      () => undefined,
    );
  queues.set(paths.dir, build);
  void build.then(() => {
    if (queues.get(paths.dir) === build) queues.delete(paths.dir);
  });
}

const BACKGROUND_TIMEOUT_MS = 60 * 60_000;

/** Waits for the background builds started so far (tests, the benchmark). */
export async function backgroundIndexing(): Promise<void> {
  await Promise.all([...queues.values()]);
}
