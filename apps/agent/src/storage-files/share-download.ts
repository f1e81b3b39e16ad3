// The `share.download` stream call: a shared file's bytes (all, or the visitor's one range of
// them), or a shared folder as a zip written as it is read. Everything is read through
// storage-reader.ts; nothing is staged on the node's disk.
//
// A file is answered from the descriptor it was opened as: its etag, length, range and bytes are
// all that one version's, so a file replaced while it is sent can never be answered with another
// version's length. Bytes are read in place from that descriptor, 1 MiB at a time; a file that
// turns out shorter than it was fails the body, so the API's caller never takes a cut file for a
// whole one.
//
// A folder's zip is written as its tree is walked: one file open at a time (the next is opened
// once the one before is closed), read with the upload's back-pressure, no temporary file, ZIP64
// wherever an entry or the archive needs it (yazl). Entries are stored, not compressed: what people
// share is mostly photos, video and archives, already compressed, and deflating them would only
// cost the node CPU for no smaller download. An entry that vanishes before it is opened is left
// out (as if it had not been there); one that cannot be read midway fails the body rather than
// leave a silently corrupt archive; the body closed early (the visitor went away) stops the walk
// and closes every descriptor.
import { PassThrough, Readable } from 'node:stream';
import type { BigIntStats } from 'node:fs';
import type { NodeStreamCallPayload, NodeStreamMeta } from '@debesis/contract';
import { ZipFile } from 'yazl';
import { NodeCallError, type NodeCallStream } from '../calls/node-call.ts';
import { folderSize } from './storage-listing.ts';
import { StorageFile, TREE_DEPTH_MAX, isNotFound, walkTree, type StorageFolder } from './storage-reader.ts';

/** How much is read from a file at once (and buffered ahead of the upload). */
export const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Entries a zip holds at most. Its central directory, written last, needs every entry's record
 * until then (~650 bytes each in yazl): this bounds a zip's memory to ~65 MB.
 */
export const ZIP_ENTRIES_MAX = 100_000;

type SharePayload = NodeStreamCallPayload<'share.download'>;

/** A strong entity tag of the version of the file that is open: its inode, size and mtime (ns). */
export function fileEtag(stats: BigIntStats): string {
  return `"${stats.ino.toString(36)}-${stats.size.toString(36)}-${stats.mtimeNs.toString(36)}"`;
}

/**
 * The bytes `range` asks of a file of `total` bytes: a slice (end clamped to the last byte), none
 * when it starts past the end, or the whole file (undefined) when there is no range or it is
 * invalid (end before start: RFC 9110 §14.1.1 says to ignore it).
 */
export function rangeSlice(
  range: SharePayload['range'],
  total: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!range) return undefined;
  if ('suffix' in range)
    return total === 0 ? 'unsatisfiable' : { start: Math.max(0, total - range.suffix), end: total - 1 };
  if (range.end !== null && range.end < range.start) return undefined;
  if (range.start >= total) return 'unsatisfiable';
  return { start: range.start, end: Math.min(range.end ?? total - 1, total - 1) };
}

/**
 * Bytes `start`–`end` (inclusive) of an open file, read in place; the file is closed with the
 * stream. Fewer bytes than that (the file got shorter) fail the stream.
 */
export class FileSlice extends Readable {
  private position: number;

  constructor(
    private readonly file: StorageFile,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: READ_CHUNK_BYTES });
    this.position = start;
  }

  override _read(): void {
    const left = this.end - this.position + 1;
    if (left <= 0) {
      this.push(null);
      return;
    }
    const length = Math.min(READ_CHUNK_BYTES, left);
    this.file.handle.read(Buffer.allocUnsafe(length), 0, length, this.position).then(
      ({ bytesRead, buffer }) => {
        if (bytesRead === 0)
          return void this.destroy(new Error(`${this.file.name} got shorter while it was read`));
        this.position += bytesRead;
        this.push(bytesRead === length ? buffer : buffer.subarray(0, bytesRead));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }
}

/** A file's bytes: the range asked for while `if_range` (if any) is still this version's etag. */
export function fileDownload(
  file: StorageFile,
  payload: Pick<SharePayload, 'range' | 'if_range'>,
): NodeCallStream {
  const total = Number(file.stats.size);
  const etag = fileEtag(file.stats);
  const meta: NodeStreamMeta = { type: 'file', etag, modified_at: file.stats.mtime.toISOString() };
  const slice =
    payload.if_range === undefined || payload.if_range === etag
      ? rangeSlice(payload.range, total)
      : undefined;
  if (slice === 'unsatisfiable') {
    meta.range = { unsatisfiable: true, total };
    return { name: file.name, size: 0, meta, body: new FileSlice(file, 0, -1) };
  }
  const { start, end } = slice ?? { start: 0, end: total - 1 };
  if (slice) meta.range = { start, end, total };
  return { name: file.name, size: end - start + 1, meta, body: new FileSlice(file, start, end) };
}

/** yazl reads `\` as a folder separator: kept as a character of the name, it would nest it. */
const zipName = (name: string) => name.replaceAll('\\', '_');
/** The zip's top folder: yazl also refuses a path that starts like a Windows drive (`C:`). */
const zipTop = (name: string) => zipName(name).replace(/^([A-Za-z]):/, '$1_');
const FOLDER_MODE = 0o040755;
/** Readable by whoever unzips it; executable bits kept, nothing special (setuid, sticky). */
const fileMode = (stats: BigIntStats) => 0o100000 | (Number(stats.mode) & 0o755) | 0o644;

/** A folder as a zip (the module's top comment); `folder` is the zip's to close. */
export async function zipDownload(folder: StorageFolder): Promise<NodeCallStream> {
  // Refused before any byte rather than cut midway: see ZIP_ENTRIES_MAX.
  const counted = await folderSize(folder, ZIP_ENTRIES_MAX);
  if (!counted.complete)
    throw new NodeCallError(
      'too_large',
      `the folder is too big to zip: more than ${ZIP_ENTRIES_MAX} entries, or nested deeper than ${TREE_DEPTH_MAX} levels`,
    );

  const zip = new ZipFile();
  // yazl writes into a PassThrough (typed only as a readable stream).
  const output = zip.outputStream;
  if (!(output instanceof PassThrough))
    throw new Error('yazl gave an output stream that is not a PassThrough');
  const body: PassThrough = output;
  const top = zipTop(folder.name);
  const walk = walkTree(folder);
  let reading: FileSlice | undefined;
  let entries = 0;
  // The walk is only ever moved by `addNext`, and closed once it is not running: a folder of the
  // walk is never closed while a file is being opened through it.
  let walking = false;
  let released: Promise<void> | undefined;
  const release = () =>
    (released ??= (async () => {
      await walk.return(undefined);
      await folder.close();
    })().catch(() => undefined));
  const fail = (error: Error) => {
    if (!body.destroyed) body.destroy(error);
  };
  zip.on('error', fail);
  body.once('close', () => {
    reading?.destroy();
    if (!walking) void release();
  });
  const roomInBody = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        body.off('drain', done);
        body.off('close', done);
        resolve();
      };
      body.on('drain', done);
      body.on('close', done);
    });

  /** Adds entries until one file is being read (or the tree is done: the zip ends). */
  async function addNext(): Promise<void> {
    walking = true;
    try {
      while (!body.destroyed) {
        // Folder entries are written as they are added: wait while the upload is behind.
        if (body.writableNeedDrain) await roomInBody();
        const next = await walk.next();
        if (body.destroyed) return;
        if (next.done) {
          zip.end();
          void release();
          return;
        }
        entries += 1;
        if (entries > ZIP_ENTRIES_MAX)
          throw new Error(`the folder grew past ${ZIP_ENTRIES_MAX} entries while it was zipped`);
        const { path, info, folder: parent } = next.value;
        const name = [top, ...path.map(zipName)].join('/');
        if (info.type === 'folder') {
          zip.addEmptyDirectory(name, { mtime: info.stats.mtime, mode: FOLDER_MODE });
          continue;
        }
        let file: StorageFile;
        try {
          file = await parent.openFile(info.name);
        } catch (error) {
          if (isNotFound(error)) continue;
          throw error;
        }
        const size = Number(file.stats.size);
        const stream = new FileSlice(file, 0, size - 1);
        if (body.destroyed) {
          stream.destroy();
          return;
        }
        reading = stream;
        stream.once('error', fail);
        // Closed: the file's descriptor is, so the next one may be opened.
        stream.once('close', () => {
          reading = undefined;
          if (!body.destroyed && !stream.errored) run();
        });
        const options = { compress: false, size, mtime: file.stats.mtime, mode: fileMode(file.stats) };
        zip.addReadStreamLazy(name, options, (give) => give(null, stream));
        return;
      }
    } finally {
      walking = false;
      if (body.destroyed) void release();
    }
  }
  const run = () => void addNext().catch(fail);
  run();
  return {
    name: `${top}.zip`,
    size: null,
    meta: { type: 'zip', modified_at: folder.stats.mtime.toISOString() },
    body,
  };
}

/** `share.download` on what is open at the shared path: a file's bytes or a folder's zip. */
export async function shareDownload(
  opened: StorageFile | StorageFolder,
  payload: Pick<SharePayload, 'range' | 'if_range'>,
): Promise<NodeCallStream> {
  if (opened instanceof StorageFile) return fileDownload(opened, payload);
  try {
    return await zipDownload(opened);
  } catch (error) {
    await opened.close();
    throw error;
  }
}
