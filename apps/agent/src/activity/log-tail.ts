// Reads what a daemon appended to its log since the last read, by a cursor kept beside it (the
// file's inode and the offset read up to), so a pass reads only the new lines and an agent
// restart goes on where it stopped. Whole lines only: a line the daemon is still writing waits
// for the next read. A log the daemon rotated (Samba renames it to `<log>.old` at `max log size`)
// is finished from `.old` first; a log that shrank or was replaced starts from its beginning.
// Each line's id is `<inode>:<offset>`: the same line read twice (a cursor not saved before a
// crash) has the same id, so the API stores it once.
import { open, readFile, stat, truncate } from 'node:fs/promises';
import { writeIfChanged } from '../fs/write-if-changed.ts';

export interface TailCursor {
  inode: number;
  offset: number;
}

export interface TailLine {
  /** `<inode>:<offset>` of the line's first byte. */
  id: string;
  text: string;
}

export interface TailRead {
  lines: TailLine[];
  /** Saves the cursor after these lines (call once they are safe elsewhere). */
  commit: () => Promise<void>;
}

/** At most this much is read per file and pass; the rest waits for the next pass. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

async function readCursor(file: string): Promise<TailCursor | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<TailCursor>;
    return typeof parsed.inode === 'number' && typeof parsed.offset === 'number'
      ? { inode: parsed.inode, offset: parsed.offset }
      : undefined;
  } catch {
    return undefined;
  }
}

async function inodeAndSize(path: string): Promise<{ inode: number; size: number } | undefined> {
  try {
    const info = await stat(path);
    return { inode: info.ino, size: info.size };
  } catch {
    return undefined;
  }
}

/** Whole lines of `path` from `offset` (at most MAX_READ_BYTES); where the next read starts. */
async function linesFrom(path: string, inode: number, offset: number, size: number) {
  const length = Math.min(size - offset, MAX_READ_BYTES);
  if (length <= 0) return { lines: [], next: offset };
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    const end = buffer.subarray(0, bytesRead).lastIndexOf(0x0a);
    if (end < 0) return { lines: [], next: offset };
    const lines: TailLine[] = [];
    let start = 0;
    while (start <= end) {
      const newline = buffer.indexOf(0x0a, start);
      const text = buffer.subarray(start, newline).toString('utf8');
      if (text.trim() !== '') lines.push({ id: `${inode}:${offset + start}`, text });
      start = newline + 1;
    }
    return { lines, next: offset + end + 1 };
  } finally {
    await handle.close();
  }
}

/**
 * The lines `log` gained since the cursor in `cursorFile`. With `truncateAbove`, a log read to its
 * end and larger than that is emptied after the commit (pure-ftpd keeps its transfer log open for
 * good and appends; a line written in the moment between the read and the truncate is lost).
 */
export async function readNewLines(
  log: string,
  cursorFile: string,
  options: { truncateAbove?: number } = {},
): Promise<TailRead> {
  const cursor = await readCursor(cursorFile);
  const current = await inodeAndSize(log);
  const lines: TailLine[] = [];
  if (!current) return { lines, commit: async () => undefined };
  let offset = cursor?.inode === current.inode && cursor.offset <= current.size ? cursor.offset : 0;
  if (cursor && cursor.inode !== current.inode) {
    const rotated = await inodeAndSize(`${log}.old`);
    if (rotated?.inode === cursor.inode && cursor.offset <= rotated.size)
      lines.push(...(await linesFrom(`${log}.old`, rotated.inode, cursor.offset, rotated.size)).lines);
  }
  const read = await linesFrom(log, current.inode, offset, current.size);
  lines.push(...read.lines);
  offset = read.next;
  const atEnd = offset === current.size;
  return {
    lines,
    async commit() {
      if (options.truncateAbove !== undefined && atEnd && offset > options.truncateAbove) {
        await truncate(log, 0);
        offset = 0;
      }
      if (cursor?.inode === current.inode && cursor.offset === offset) return;
      await writeIfChanged(cursorFile, JSON.stringify({ inode: current.inode, offset }), { mode: 0o600 });
    },
  };
}
