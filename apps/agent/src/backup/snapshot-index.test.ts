// The listing index of a snapshot: written from `restic ls --json` lines (a fake restic here, as
// restic 0.14 prints them), read back one folder at a time, and browse falling back to restic
// when it is missing or damaged. With the real restic (when installed): a backup job writes it,
// and it answers what `restic ls` of the folder answers.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, open, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SNAPSHOT_BROWSE_MAX, type BackupJob } from '@debesis/contract';
import type { StreamCommandRunner } from '../exec/stream-command.ts';
import { silentLogger } from '../logger.ts';
import { findProgram } from '../system/host.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { runBackupJob } from './backup-job.ts';
import { browseSnapshot } from './browse.ts';
import { repositoryPaths, type RepositoryPaths } from './repository.ts';
import { createRestic } from './restic.ts';
import { SnapshotFolderReader } from './restic-json.ts';
import { RESTIC_MTIME, resticNodeLine } from '../testing/restic-lines.ts';
import {
  backgroundIndexing,
  readIndexedFolder,
  removeStaleIndexes,
  snapshotIndexDir,
  snapshotIndexFile,
  SnapshotListingReader,
  writeSnapshotIndex,
} from './snapshot-index.ts';

const ID = '75f16681c0f5406f804e14ab4758e536e1a659dee0eb0a9e8739f63542c00ad0';
const OTHER = 'd219cf14'.padEnd(64, '0');
const MTIME = RESTIC_MTIME;

const snapshotLine = (id = ID) =>
  JSON.stringify({ time: MTIME, paths: ['/data'], id, short_id: id.slice(0, 8), struct_type: 'snapshot' });
const node = resticNodeLine;

/** A small snapshot, depth first as `restic ls --json <snapshot>` lists one. */
const SNAPSHOT = [
  snapshotLine(),
  node('/home', 'dir'),
  node('/home/alice', 'dir'),
  node('/home/alice/notes.md', 'file', { size: 6 }),
  node('/shares', 'dir'),
  node('/shares/a', 'dir'),
  node('/shares/a/big.bin', 'file', { size: 100_000 }),
  node('/shares/a/empty', 'dir'),
  node('/shares/a/fifo', 'fifo'),
  node('/shares/a/link', 'symlink'),
  node('/shares/a/sub', 'dir'),
  node('/shares/a/sub/deeper.txt', 'file', { size: 1 }),
  JSON.stringify({
    name: 'a\\b "q" é',
    type: 'file',
    path: '/shares/a/a\\b "q" é',
    size: 2,
    struct_type: 'node',
  }),
  node('/shares/ab', 'dir'),
  node('/top.txt', 'file', { size: 3 }),
];

/** restic's answers by command: `ls` of a whole snapshot, or of one folder (0.14: not recursive). */
function fakeRestic(lines: string[], calls: string[][] = [], exitCode = 0): StreamCommandRunner {
  return async (command, args, options) => {
    const argv = [command, ...args];
    const restic = argv.slice(argv.indexOf('restic') + 1);
    calls.push(restic);
    const [, , , , snapshot, folder] = restic;
    const known = snapshot !== undefined && ID.startsWith(snapshot);
    const answer = !known
      ? []
      : folder === undefined
        ? lines
        : lines.filter((line) => {
            const path = (JSON.parse(line) as { path?: string }).path;
            if (path === undefined || path === folder) return true;
            const cut = path.lastIndexOf('/');
            return (cut === 0 ? '/' : path.slice(0, cut)) === folder;
          });
    let stopped: 'stopped' | undefined;
    for (const line of answer)
      if (options.onLine?.(line) === 'stop') {
        stopped = 'stopped';
        break;
      }
    // restic 0.14 exits 0 for a snapshot it does not have, saying so on stderr only.
    return {
      exitCode,
      signal: null,
      stderr: known ? '' : `Ignoring "${snapshot}": no matching ID found`,
      missing: false,
      stopped,
      ok: exitCode === 0 && stopped === undefined,
      durationMs: 1,
    };
  };
}

let dataDir: string;
let paths: RepositoryPaths;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'snapshot-index-'));
  paths = repositoryPaths(dataDir, `ws-${randomUUID()}`);
  // What makes a repository for browse: restic's config file.
  await mkdir(paths.repository, { recursive: true });
  await writeFile(join(paths.repository, 'config'), 'restic');
});

afterEach(async () => {
  await backgroundIndexing();
  await rm(dataDir, { recursive: true, force: true });
});

const index = (lines = SNAPSHOT, id = ID.slice(0, 8)) =>
  writeSnapshotIndex(paths, createRestic(paths, fakeRestic(lines)), id);
const folder = async (path: string, id = ID) => {
  const read = await readIndexedFolder(paths, id, path);
  if (read.status !== 'indexed') throw new Error(`not indexed: ${JSON.stringify(read)}`);
  return read.result;
};

describe('SnapshotListingReader', () => {
  it('hands each folder over once complete, as browse’s own reader lists it', () => {
    const folders = new Map<string, { entries: unknown[]; truncated: boolean }>();
    const reader = new SnapshotListingReader((done) => folders.set(done.path, done));
    for (const line of SNAPSHOT) reader.take(line);
    reader.finish();
    expect(reader.snapshotId).toBe(ID);
    expect([...folders.keys()]).toEqual([
      '/home/alice',
      '/home',
      '/shares/a/empty',
      '/shares/a/sub',
      '/shares/a',
      '/shares/ab',
      '/shares',
      '/',
    ]);
    // Every folder as SnapshotFolderReader makes it of `restic ls <snapshot> <folder>`.
    for (const [path, listed] of folders) {
      const browse = new SnapshotFolderReader(path, SNAPSHOT_BROWSE_MAX);
      for (const line of SNAPSHOT) browse.take(line);
      expect(listed).toEqual({ path, entries: browse.entries, truncated: false });
    }
    expect(folders.get('/shares/a')?.entries).toEqual([
      { name: 'big.bin', type: 'file', size: 100_000, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'empty', type: 'dir', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'fifo', type: 'other', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'link', type: 'symlink', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'sub', type: 'dir', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
      { name: 'a\\b "q" é', type: 'file', size: 2, modified_at: null },
    ]);
  });

  it('refuses lines that are not a snapshot’s listing, depth first', () => {
    expect(() => new SnapshotListingReader(() => undefined).take(node('/a', 'dir'))).toThrow(
      'before its snapshot',
    );
    const reader = new SnapshotListingReader(() => undefined);
    reader.take(snapshotLine());
    reader.take(node('/a', 'dir'));
    reader.take(node('/b', 'dir'));
    expect(() => reader.take(node('/a/late.txt', 'file'))).toThrow('outside the folder');
    expect(() => new SnapshotListingReader(() => undefined).finish()).toThrow('no snapshot');
  });
});

describe('the index of a snapshot', () => {
  it('gives back each folder as written, found by the full id or a prefix', async () => {
    const written = await index();
    expect(written).toMatchObject({ snapshotId: ID, folders: 8, entries: 14 });
    expect(await folder('/')).toEqual({
      found: true,
      truncated: false,
      entries: [
        { name: 'home', type: 'dir', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
        { name: 'shares', type: 'dir', size: null, modified_at: '2026-11-28T12:12:22.738Z' },
        { name: 'top.txt', type: 'file', size: 3, modified_at: '2026-11-28T12:12:22.738Z' },
      ],
    });
    expect((await folder('/shares/a', ID.slice(0, 8))).entries.map((entry) => entry.name)).toEqual([
      'big.bin',
      'empty',
      'fifo',
      'link',
      'sub',
      'a\\b "q" é',
    ]);
    expect(await folder('/shares/a/empty')).toEqual({ found: true, entries: [], truncated: false });
    // Only the owner reads it; nothing temporary is left.
    expect((await stat(snapshotIndexFile(paths, ID))).mode & 0o777).toBe(0o600);
    expect(await readdir(snapshotIndexDir(paths))).toEqual([`${ID}.index`]);
  });

  it('finds every folder of many (the table is searched by hash)', async () => {
    const lines = [snapshotLine()];
    for (let index = 0; index < 1000; index += 1)
      lines.push(node(`/d${index}`, 'dir'), node(`/d${index}/f`, 'file', { size: index }));
    expect(await index(lines)).toMatchObject({ folders: 1001, entries: 2000 });
    for (let index = 0; index < 1000; index += 1)
      expect((await folder(`/d${index}`)).entries).toEqual([
        { name: 'f', type: 'file', size: index, modified_at: '2026-11-28T12:12:22.738Z' },
      ]);
    expect((await folder('/')).entries).toHaveLength(1000);
    expect((await folder('/d1000')).found).toBe(false);
  });

  it('says found: false for a path that is no folder of the snapshot', async () => {
    await index();
    const none = { found: false, entries: [], truncated: false };
    expect(await folder('/nope')).toEqual(none);
    expect(await folder('/top.txt')).toEqual(none);
    expect(await folder('/shares/a/sub/deeper.txt')).toEqual(none);
    // Another snapshot, or an id two indexes share, has no index (browse asks restic).
    expect(await readIndexedFolder(paths, OTHER, '/')).toEqual({ status: 'missing' });
    await writeFile(snapshotIndexFile(paths, ID.slice(0, 8).padEnd(64, 'f')), '');
    expect(await readIndexedFolder(paths, ID.slice(0, 8), '/')).toEqual({ status: 'missing' });
  });

  it(`keeps ${SNAPSHOT_BROWSE_MAX.toLocaleString('en-US')} entries of a bigger folder and says truncated`, async () => {
    const many = Array.from({ length: SNAPSHOT_BROWSE_MAX + 5 }, (_, index) =>
      node(`/big/f-${String(index).padStart(6, '0')}`, 'file', { size: index }),
    );
    await index([snapshotLine(), node('/big', 'dir'), ...many, node('/big2', 'dir')]);
    const big = await folder('/big');
    expect(big.truncated).toBe(true);
    expect(big.entries).toHaveLength(SNAPSHOT_BROWSE_MAX);
    expect(big.entries.at(-1)).toMatchObject({ name: 'f-019999', size: 19_999 });
    expect(await folder('/big2')).toEqual({ found: true, entries: [], truncated: false });
    // Deflated: a fraction of its ~2 MB of JSON.
    expect((await stat(snapshotIndexFile(paths, ID))).size).toBeLessThan(500_000);
  });

  it('is not written when restic fails or lists something else, and leaves nothing behind', async () => {
    const failing = createRestic(paths, fakeRestic(SNAPSHOT, [], 1));
    await expect(writeSnapshotIndex(paths, failing, ID)).rejects.toThrow('exited with code 1');
    await expect(
      index([snapshotLine(), node('/a', 'dir'), node('/b', 'dir'), node('/a/x', 'file')]),
    ).rejects.toThrow('outside the folder');
    await expect(index(SNAPSHOT, OTHER)).rejects.toThrow();
    expect(await readdir(snapshotIndexDir(paths))).toEqual([]);
  });

  it('a damaged file is no index', async () => {
    await index();
    const file = snapshotIndexFile(paths, ID);
    const whole = await readFile(file);
    const damaged = async (bytes: Buffer) => {
      await writeFile(file, bytes);
      return readIndexedFolder(paths, ID, '/shares/a');
    };
    expect(await damaged(whole.subarray(0, whole.length - 1))).toMatchObject({ status: 'corrupt' });
    expect(await damaged(Buffer.alloc(0))).toMatchObject({ status: 'corrupt' });
    // Another snapshot's header.
    expect(await damaged(Buffer.from(whole.toString('latin1').replace(ID, OTHER), 'latin1'))).toMatchObject({
      status: 'corrupt',
    });
    // A folder's bytes overwritten: its JSON no longer parses.
    const garbled = Buffer.from(whole);
    const at = whole.indexOf('{"path":"/shares/a",');
    expect(at).toBeGreaterThan(0);
    garbled.fill(0x7b, at, at + 40);
    expect(await damaged(garbled)).toMatchObject({ status: 'corrupt' });
    await writeFile(file, whole);
    expect(await readIndexedFolder(paths, ID, '/shares/a')).toMatchObject({ status: 'indexed' });
  });

  it('goes when its snapshot is no longer listed, as do temporary files left by a crash', async () => {
    await index();
    await writeFile(join(snapshotIndexDir(paths), `.${ID}.abc.tmp`), 'half');
    expect(await removeStaleIndexes(paths, [ID, OTHER])).toBe(1);
    expect(await readdir(snapshotIndexDir(paths))).toEqual([`${ID}.index`]);
    expect(await removeStaleIndexes(paths, [OTHER])).toBe(1);
    expect(await readdir(snapshotIndexDir(paths))).toEqual([]);
    await rm(snapshotIndexDir(paths), { recursive: true });
    expect(await removeStaleIndexes(paths, [])).toBe(0);
  });
});

describe('browse with and without the index', () => {
  const browse = (path: string, spawn: StreamCommandRunner, id = ID) =>
    browseSnapshot(paths, { snapshot_id: id, path }, spawn);

  it('answers from the index without restic', async () => {
    await index();
    const calls: string[][] = [];
    expect(await browse('/shares/a/sub', fakeRestic(SNAPSHOT, calls))).toEqual({
      found: true,
      entries: [{ name: 'deeper.txt', type: 'file', size: 1, modified_at: '2026-11-28T12:12:22.738Z' }],
      truncated: false,
    });
    expect((await browse('/gone', fakeRestic(SNAPSHOT, calls))).found).toBe(false);
    expect(calls).toEqual([]);
  });

  it('asks restic when the index is missing, and writes it for the next browse', async () => {
    const calls: string[][] = [];
    const spawn = fakeRestic(SNAPSHOT, calls);
    const first = await browse('/shares/a', spawn);
    expect(calls).toEqual([['--no-lock', 'ls', '--json', '--', ID, '/shares/a']]);
    await backgroundIndexing();
    expect(calls[1]).toEqual(['--no-lock', 'ls', '--json', '--', ID]);
    expect(await browse('/shares/a', spawn)).toEqual(first);
    expect(calls).toHaveLength(2);
    // An unknown snapshot is still restic's `not_found`, and indexes nothing.
    await expect(browse('/', spawn, OTHER)).rejects.toMatchObject({ code: 'not_found' });
    await backgroundIndexing();
    expect(await readdir(snapshotIndexDir(paths))).toEqual([`${ID}.index`]);
  });

  it('asks restic when the index is damaged, and writes it again', async () => {
    await index();
    const file = snapshotIndexFile(paths, ID);
    const handle = await open(file, 'r+');
    await handle.write(Buffer.from('not an index'), 0, 12, 0);
    await handle.close();
    const calls: string[][] = [];
    const answer = await browse('/home', fakeRestic(SNAPSHOT, calls));
    expect(answer.entries.map((entry) => entry.name)).toEqual(['alice']);
    expect(calls[0]).toEqual(['--no-lock', 'ls', '--json', '--', ID, '/home']);
    await backgroundIndexing();
    expect(await folder('/home')).toEqual(answer);
    await truncate(file, 10);
    expect((await browse('/home', fakeRestic(SNAPSHOT))).entries).toEqual(answer.entries);
  });
});

const restic = await findProgram('restic');

describe.skipIf(!restic)('with the real restic', { timeout: 60_000 }, () => {
  it('a backup job writes the index, which answers what restic does', async () => {
    const layout = workspaceLayout(join(dataDir, 'workspaces', 'ws'));
    const root = layout.dataRoot;
    await mkdir(join(root, 'shares/docs/sub'), { recursive: true });
    await mkdir(join(root, 'shares/docs/empty'), { recursive: true });
    await writeFile(join(root, 'shares/docs/a.txt'), 'the report\n');
    await writeFile(join(root, 'shares/docs/sub/b.bin'), Buffer.alloc(5000));
    for (let index = 0; index < 300; index += 1) await writeFile(join(root, `shares/docs/n-${index}`), '');
    const context = {
      paths,
      restic: createRestic(paths),
      layout,
      usageFile: join(dataDir, 'usage.json'),
      now: () => new Date(),
      logger: silentLogger,
      signal: new AbortController().signal,
      onLost: async () => undefined,
    };
    // The fake config made for browse is no repository: the job makes a real one.
    await rm(paths.repository, { recursive: true });
    const job = (retention: BackupJob['retention']): BackupJob => ({
      id: randomUUID(),
      kind: 'backup',
      type: 'full',
      paths: ['shares/docs'],
      tags: ['s1'],
      retention,
    });
    const first = await runBackupJob(job(null), context, () => undefined);
    expect(await readdir(snapshotIndexDir(paths))).toEqual([`${first.snapshot_id}.index`]);

    for (const path of [
      '/',
      '/shares',
      '/shares/docs',
      '/shares/docs/sub',
      '/shares/docs/empty',
      '/shares/docs/a.txt',
      '/no',
    ]) {
      const indexed = await folder(path, first.snapshot_id);
      await rm(snapshotIndexDir(paths), { recursive: true });
      expect(await browseSnapshot(paths, { snapshot_id: first.snapshot_id, path })).toEqual(indexed);
      await backgroundIndexing();
    }
    expect((await folder('/shares/docs', first.snapshot_id)).entries).toHaveLength(303);

    // Retention forgets the first snapshot: its index goes with it.
    const second = await runBackupJob(
      job({ tag: 's1', keep_full: 1, keep_incremental: 0 }),
      context,
      () => undefined,
    );
    expect(await readdir(snapshotIndexDir(paths))).toEqual([`${second.snapshot_id}.index`]);
  });
});
