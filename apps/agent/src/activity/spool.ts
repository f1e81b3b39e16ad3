// A workspace's events waiting for the API (`<ws>/monitoring/spool.jsonl`, one event a line):
// what the daemons' logs and the session diffs found is appended here before their cursors move
// on, sent with each report (oldest first, ACTIVITY_EVENTS_PER_REPORT at most) and dropped once
// the API has taken the report. So an event survives an unreachable API and an agent restart;
// the node's ids make one sent twice (taken, but the answer lost) stored once.
//
// Cheap whatever its length: events are appended, and what was sent is skipped by a cursor
// (`spool.cursor`: the file's inode and the byte offset sent up to), so a pass reads only the
// batch it sends. The file is rewritten without its sent part once that is most of it (a new
// inode, so a cursor saved before the rewrite starts the new file from its beginning). Bounded:
// past SPOOL_MAX_BYTES waiting, the oldest go (an API away for days must not fill the disk).
import { randomBytes } from 'node:crypto';
import { appendFile, open, readFile, rename, stat } from 'node:fs/promises';
import type { ActivityEventReport } from '@debesis/contract';
import { writeIfChanged } from '../fs/write-if-changed.ts';

/** About 100,000 events. */
export const SPOOL_MAX_BYTES = 32 * 1024 * 1024;
/** What one peek reads at most: more than a report's events ever take. */
const READ_BYTES = 4 * 1024 * 1024;
/** Rewritten once this much has been sent and it is most of the file. */
const COMPACT_BYTES = 1024 * 1024;

export interface Spool {
  /** Adds events at the end (the spool's folder must exist: activity/collect.ts makes it). */
  append(events: readonly ActivityEventReport[]): Promise<void>;
  /** The oldest `max` events. */
  peek(max: number): Promise<ActivityEventReport[]>;
  /** Drops the oldest `count` (those a report carried and the API took). */
  drop(count: number): Promise<void>;
}

interface Cursor {
  inode: number;
  offset: number;
}

function looksLikeEvent(value: unknown): value is ActivityEventReport {
  if (typeof value !== 'object' || value === null) return false;
  const event = value as Partial<ActivityEventReport>;
  return typeof event.id === 'string' && typeof event.at === 'string' && typeof event.kind === 'string';
}

export function openSpool(file: string, onOverflow?: (droppedBytes: number) => void): Spool {
  const cursorFile = `${file.replace(/\.jsonl$/, '')}.cursor`;

  async function size(): Promise<{ inode: number; size: number } | undefined> {
    try {
      const info = await stat(file);
      return { inode: info.ino, size: info.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Where the unsent part starts (0 for a new or rewritten file). */
  async function start(current: { inode: number; size: number }): Promise<number> {
    try {
      const cursor = JSON.parse(await readFile(cursorFile, 'utf8')) as Partial<Cursor>;
      return cursor.inode === current.inode &&
        typeof cursor.offset === 'number' &&
        cursor.offset <= current.size
        ? cursor.offset
        : 0;
    } catch {
      return 0;
    }
  }

  async function saveCursor(cursor: Cursor): Promise<void> {
    await writeIfChanged(cursorFile, JSON.stringify(cursor), { mode: 0o600 });
  }

  async function readFrom(offset: number, length: number): Promise<Buffer> {
    const handle = await open(file, 'r');
    try {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  /** Up to `max` whole lines from `offset`: each line's text and where the next starts. */
  async function lines(offset: number, fileSize: number, max: number) {
    const chunk = await readFrom(offset, Math.min(READ_BYTES, fileSize - offset));
    const found: Array<{ text: string; end: number }> = [];
    let from = 0;
    while (found.length < max) {
      const newline = chunk.indexOf(0x0a, from);
      if (newline < 0) break;
      found.push({ text: chunk.subarray(from, newline).toString('utf8'), end: offset + newline + 1 });
      from = newline + 1;
    }
    return found;
  }

  return {
    async append(events) {
      if (events.length === 0) return;
      await appendFile(file, events.map((event) => JSON.stringify(event) + '\n').join(''), { mode: 0o600 });
      const current = await size();
      if (!current) return;
      const offset = await start(current);
      const waiting = current.size - offset;
      if (waiting <= SPOOL_MAX_BYTES) return;
      // Too much waiting: skip the oldest, to the first whole line past the bound.
      const target = current.size - SPOOL_MAX_BYTES;
      const chunk = await readFrom(target, 64 * 1024);
      const newline = chunk.indexOf(0x0a);
      const next = newline < 0 ? current.size : target + newline + 1;
      onOverflow?.(next - offset);
      await saveCursor({ inode: current.inode, offset: next });
    },

    async peek(max) {
      const current = await size();
      if (!current) return [];
      const offset = await start(current);
      const events: ActivityEventReport[] = [];
      for (const line of await lines(offset, current.size, max)) {
        try {
          const parsed: unknown = JSON.parse(line.text);
          if (looksLikeEvent(parsed)) events.push(parsed);
        } catch {
          // A line cut short by a crash: skipped (and dropped with the batch it is in).
        }
      }
      return events;
    },

    async drop(count) {
      if (count <= 0) return;
      const current = await size();
      if (!current) return;
      const offset = await start(current);
      // The same lines the peek read (unparseable ones counted with the batch they are in).
      let seen = 0;
      let end = offset;
      for (const line of await lines(offset, current.size, Number.MAX_SAFE_INTEGER)) {
        end = line.end;
        try {
          if (looksLikeEvent(JSON.parse(line.text))) seen += 1;
        } catch {
          // Unparseable: goes with this batch.
        }
        if (seen >= count) break;
      }
      if (end >= COMPACT_BYTES && end * 2 >= current.size) {
        // Most of it is sent: the rest moves to a new file (a new inode: its cursor starts at 0).
        const rest = await readFrom(end, current.size - end);
        const next = `${file}.${randomBytes(4).toString('hex')}.tmp`;
        await writeIfChanged(next, rest, { mode: 0o600 });
        await rename(next, file);
        const renamed = await size();
        if (renamed) await saveCursor({ inode: renamed.inode, offset: 0 });
        return;
      }
      await saveCursor({ inode: current.inode, offset: end });
    },
  };
}
