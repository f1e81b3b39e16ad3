// restic 0.14's JSON read into the contract's terms, from lines restic printed (trimmed of fields
// the readers do not use where long).
import { describe, expect, it } from 'vitest';
import {
  isoTime,
  parseBackupLine,
  parseForgetRemoved,
  parseSnapshots,
  parseStatsTotalSize,
  SnapshotFolderReader,
} from './restic-json.ts';
import { resticNodeLine } from '../testing/restic-lines.ts';

const SNAPSHOT_ID = '75f16681c0f5406f804e14ab4758e536e1a659dee0eb0a9e8739f63542c00ad0';
const snapshotLine = JSON.stringify({
  time: '2026-11-28T12:12:25.933532345Z',
  paths: ['/data'],
  hostname: 'debesis',
  id: SNAPSHOT_ID,
  short_id: '75f16681',
  struct_type: 'snapshot',
});
const node = resticNodeLine;

describe('restic backup --json', () => {
  it('reads a status line as progress (restic leaves zero fields out)', () => {
    expect(
      parseBackupLine(
        '{"message_type":"status","seconds_elapsed":4,"percent_done":0.9739191966666667,"total_files":10001,"files_done":10000,"total_bytes":300000000,"bytes_done":292175759,"current_files":["/big2.bin"]}',
      ),
    ).toEqual({ progress: { percent: 97.39, files_done: 10_000, bytes_done: 292_175_759 } });
    expect(
      parseBackupLine('{"message_type":"status","percent_done":0,"total_files":1,"total_bytes":3}'),
    ).toEqual({
      progress: { percent: 0, files_done: 0, bytes_done: 0 },
    });
  });

  it('reads the summary', () => {
    expect(
      parseBackupLine(
        '{"message_type":"summary","files_new":3,"files_changed":0,"files_unmodified":0,"dirs_new":4,"dirs_changed":0,"dirs_unmodified":0,"data_blobs":3,"tree_blobs":5,"data_added":102760,"total_files_processed":3,"total_bytes_processed":100006,"total_duration":0.218682849,"snapshot_id":"2c5b1cb0"}',
      ),
    ).toEqual({ summary: { snapshotId: '2c5b1cb0', bytesAdded: 102_760, files: 3, filesNew: 3 } });
  });

  it('skips what is neither (errors, text, broken lines)', () => {
    for (const line of [
      '{"message_type":"error","error":{},"during":"archival","item":"/x"}',
      'shares/nope does not exist, skipping',
      '{"message_type":"status",',
      '[1,2]',
      '',
    ])
      expect(parseBackupLine(line)).toBeUndefined();
  });
});

describe('restic ls --json (not recursive in 0.14)', () => {
  it('lists a folder’s children, not the folder itself nor deeper entries', () => {
    const reader = new SnapshotFolderReader('/shares/a', 100);
    for (const line of [
      snapshotLine,
      node('/shares/a', 'dir'),
      node('/shares/a/big.bin', 'file', { size: 100_000 }),
      node('/shares/a/link', 'symlink'),
      node('/shares/a/sub', 'dir'),
      node('/shares/a/fifo', 'fifo'),
      node('/shares/a/sub/deeper.txt', 'file', { size: 1 }),
      node('/shares/ab', 'dir'),
    ])
      expect(reader.take(line)).toBeUndefined();
    expect(reader.found).toBe(true);
    expect(reader.truncated).toBe(false);
    expect(reader.entries).toEqual([
      { name: 'big.bin', type: 'file', size: 100_000, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'link', type: 'symlink', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'sub', type: 'dir', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'fifo', type: 'other', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
    ]);
  });

  it('the root has no line of its own; names keep their characters', () => {
    const reader = new SnapshotFolderReader('/', 100);
    reader.take(snapshotLine);
    reader.take(node('/home', 'dir'));
    reader.take(JSON.stringify({ name: 'a\\b "q"', type: 'dir', path: '/a\\b "q"', struct_type: 'node' }));
    expect(reader.found).toBe(true);
    expect(reader.entries.map((entry) => entry.name)).toEqual(['home', 'a\\b "q"']);
    expect(reader.entries[1]?.modified_at).toBeNull();
  });

  it('a file, a missing path or an unknown snapshot is not a folder', () => {
    const file = new SnapshotFolderReader('/shares/a/f.txt', 100);
    file.take(snapshotLine);
    file.take(node('/shares/a/f.txt', 'file', { size: 3 }));
    expect(file.found).toBe(false);
    const missing = new SnapshotFolderReader('/nope', 100);
    missing.take(snapshotLine);
    expect(missing.found).toBe(false);
    // restic prints nothing on stdout for a snapshot it does not have.
    const unknown = new SnapshotFolderReader('/', 100);
    expect(unknown.snapshotSeen).toBe(false);
    expect(unknown.found).toBe(false);
  });

  it('keeps at most `max` entries and then asks to stop', () => {
    const reader = new SnapshotFolderReader('/big', 2);
    reader.take(snapshotLine);
    reader.take(node('/big', 'dir'));
    expect(reader.take(node('/big/1', 'file'))).toBeUndefined();
    expect(reader.take(node('/big/2', 'file'))).toBeUndefined();
    expect(reader.take(node('/big/3', 'file'))).toBe('stop');
    expect(reader.entries).toHaveLength(2);
    expect(reader.truncated).toBe(true);
  });
});

describe('snapshots, stats and forget', () => {
  it('reads the snapshots with their full ids and tags', () => {
    expect(
      parseSnapshots(
        JSON.stringify([
          { time: '2026-11-28T12:12:25Z', id: SNAPSHOT_ID, short_id: '75f16681', tags: ['s1', 'full'] },
          { time: '2026-11-28T12:13:25Z', id: 'a'.repeat(64), short_id: 'aaaaaaaa' },
          { id: 'not-an-id' },
        ]),
      ),
    ).toEqual([
      { id: SNAPSHOT_ID, time: '2026-11-28T12:12:25Z', tags: ['s1', 'full'] },
      { id: 'a'.repeat(64), time: '2026-11-28T12:13:25Z', tags: [] },
    ]);
    expect(parseSnapshots('')).toEqual([]);
  });

  it('reads the stored bytes', () => {
    expect(
      parseStatsTotalSize(
        '{"total_size":101814,"total_file_count":0,"total_blob_count":9,"snapshots_count":3}\n',
      ),
    ).toBe(101_814);
    expect(() => parseStatsTotalSize('loading indexes...')).toThrow('total_size');
  });

  it('reads what forget removed, and nothing from an empty answer', () => {
    expect(parseForgetRemoved('')).toEqual([]);
    expect(
      parseForgetRemoved(
        JSON.stringify([
          {
            tags: null,
            host: '',
            paths: null,
            keep: [{ id: 'k'.repeat(64) }],
            remove: [{ id: 'e51a6182'.padEnd(64, '0') }, { id: 'd219cf14'.padEnd(64, '0') }],
            reasons: [],
          },
          { keep: [], remove: null },
        ]),
      ),
    ).toEqual(['e51a6182'.padEnd(64, '0'), 'd219cf14'.padEnd(64, '0')]);
  });
});

describe('times', () => {
  it('reads restic’s nanosecond times as ISO times to the millisecond', () => {
    expect(isoTime('2026-11-28T12:12:22.738289327Z')).toBe('2026-11-28T12:12:22.738Z');
    expect(isoTime('2026-11-28T12:12:22.7Z')).toBe('2026-11-28T12:12:22.700Z');
    expect(isoTime('2026-11-28T12:12:22Z')).toBe('2026-11-28T12:12:22.000Z');
    expect(isoTime('2026-11-28T14:12:22.738289327+02:00')).toBe('2026-11-28T12:12:22.738Z');
    expect(isoTime('yesterday')).toBeNull();
  });
});
