// What restic 0.14 prints with --json, read into the contract's terms. Every reader is lenient
// about fields it does not use and strict about the ones it does: a line that is not what it
// should be is skipped (restic mixes a few words of text into some commands' output), never
// taken for something else.
import type { BackupJobReport, SnapshotEntry } from '@debesis/contract';

export type BackupProgress = NonNullable<BackupJobReport['progress']>;

export interface BackupSummary {
  /** restic 0.14 prints the short id (8 hex digits) here; the full one comes from `snapshots`. */
  snapshotId: string;
  bytesAdded: number;
  files: number;
  filesNew: number;
}

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

function parseObject(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One line of `restic backup --json`: a status line (how far: `percent_done` 0–1, `files_done`,
 * `bytes_done`; fields that are 0 are left out), the summary at the end, or neither (an error
 * line, text).
 */
export function parseBackupLine(
  line: string,
): { progress: BackupProgress } | { summary: BackupSummary } | undefined {
  const message = parseObject(line);
  if (!message) return undefined;
  if (message.message_type === 'status') {
    const fraction = typeof message.percent_done === 'number' ? message.percent_done : 0;
    return {
      progress: {
        percent: Math.round(Math.min(Math.max(fraction, 0), 1) * 10_000) / 100,
        files_done: count(message.files_done),
        bytes_done: count(message.bytes_done),
      },
    };
  }
  if (message.message_type === 'summary' && typeof message.snapshot_id === 'string')
    return {
      summary: {
        snapshotId: message.snapshot_id,
        bytesAdded: count(message.data_added),
        files: count(message.total_files_processed),
        filesNew: count(message.files_new),
      },
    };
  return undefined;
}

export interface ResticSnapshot {
  id: string;
  time: string;
  tags: string[];
}

/** `restic snapshots --json`: an array of snapshots, oldest first. */
export function parseSnapshots(text: string): ResticSnapshot[] {
  const value: unknown = JSON.parse(text.trim() || '[]');
  if (!Array.isArray(value)) throw new Error('restic snapshots did not print a list');
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const { id, time, tags } = item as Record<string, unknown>;
    if (typeof id !== 'string' || !/^[0-9a-f]{64}$/.test(id)) return [];
    return [
      {
        id,
        time: typeof time === 'string' ? time : '',
        tags: Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [],
      },
    ];
  });
}

/** `restic stats --json --mode raw-data`: the bytes the repository's blobs hold. */
export function parseStatsTotalSize(text: string): number {
  const value = parseObject(text.trim());
  if (!value || typeof value.total_size !== 'number') throw new Error('restic stats printed no total_size');
  return count(value.total_size);
}

/** `restic forget --json`: the snapshots it removed (its output is empty when nothing matched). */
export function parseForgetRemoved(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  const value: unknown = JSON.parse(trimmed);
  if (!Array.isArray(value)) throw new Error('restic forget did not print a list');
  return value.flatMap((group: unknown) => {
    const removed = (group as { remove?: unknown } | null)?.remove;
    if (!Array.isArray(removed)) return [];
    return removed.flatMap((snapshot: unknown) => {
      const id = (snapshot as { id?: unknown } | null)?.id;
      return typeof id === 'string' ? [id] : [];
    });
  });
}

/**
 * Reads `restic ls --json <snapshot> <folder>` line by line. In 0.14 it is not recursive: the
 * snapshot's line, then the folder itself (none for `/`), then its direct children. `found` says
 * whether `folder` is a folder of the snapshot; at most `max` entries are kept (`truncated`).
 */
export class SnapshotFolderReader {
  readonly entries: SnapshotEntry[] = [];
  snapshotSeen = false;
  folderSeen: boolean;
  truncated = false;
  private readonly prefix: string;

  constructor(
    private readonly folder: string,
    private readonly max: number,
  ) {
    this.prefix = folder === '/' ? '/' : `${folder}/`;
    this.folderSeen = folder === '/';
  }

  get found(): boolean {
    return this.snapshotSeen && this.folderSeen;
  }

  /** Takes one line; `stop` once it has more than it may keep (the rest is not needed). */
  take(line: string): 'stop' | undefined {
    const node = parseObject(line);
    if (!node) return undefined;
    if (node.struct_type === 'snapshot') {
      this.snapshotSeen = true;
      return undefined;
    }
    if (node.struct_type !== 'node' || typeof node.path !== 'string' || typeof node.name !== 'string')
      return undefined;
    if (node.path === this.folder) {
      this.folderSeen = node.type === 'dir';
      return undefined;
    }
    if (node.path !== this.prefix + node.name) return undefined;
    if (this.entries.length >= this.max) {
      this.truncated = true;
      return 'stop';
    }
    this.entries.push(snapshotEntry(node, node.name));
    return undefined;
  }
}

function snapshotEntry(node: Record<string, unknown>, name: string): SnapshotEntry {
  const type =
    node.type === 'dir' || node.type === 'file' || node.type === 'symlink' ? node.type : ('other' as const);
  return {
    name,
    type,
    size: type === 'file' ? count(node.size) : null,
    modified_at: typeof node.mtime === 'string' ? isoTime(node.mtime) : null,
  };
}

const UTC_NANO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.(\d+))?Z$/;

/**
 * restic's RFC 3339 time with nanoseconds as the contract's ISO time (milliseconds). restic runs
 * with TZ=UTC (restic.ts), so the time ends in `Z` and is cut to milliseconds as text: a Date per
 * entry was a third of a 10,000-entry browse. Any other form goes through Date.
 */
export function isoTime(time: string): string | null {
  const utc = UTC_NANO.exec(time);
  if (utc) return `${time.slice(0, 19)}.${((utc[1] ?? '') + '000').slice(0, 3)}Z`;
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
