// The checks that keep a backup to the customer's folders and a restore inside the storage, on a
// plain folder standing in for a workspace's storage (symlinks made as a customer would), and
// the arguments restic gets.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupArgs } from './backup-job.ts';
import { BackupJobFailure } from './failure.ts';
import { literalPattern } from './restic.ts';
import {
  checkBackupSource,
  countFiles,
  insideStorage,
  openStorageFolder,
  restoredFolderNames,
  validFolderName,
} from './storage-paths.ts';

let base: string;
let root: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'storage-paths-'));
  root = join(base, 'data');
  outside = join(base, 'outside');
  for (const dir of ['shares/a/sub', 'home/alice', 'system/restore', outside])
    await mkdir(join(root, dir), { recursive: true });
  await mkdir(join(outside, 'deeper'), { recursive: true });
  await writeFile(join(root, 'shares/a/f.txt'), 'f');
  await symlink(outside, join(root, 'shares/out'));
  await symlink('../a/sub', join(root, 'shares/a/inside-link'));
  await symlink('../../system', join(root, 'shares/a/to-system'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const failureOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupJobFailure) return { code: error.code, message: error.message };
    throw error;
  }
  return undefined;
};

describe('a folder to back up', () => {
  it('is a folder of the storage, `.` being all of it', async () => {
    await checkBackupSource(root, '.');
    await checkBackupSource(root, 'shares/a');
    await checkBackupSource(root, 'home/alice');
  });

  it('is path_missing when not there, not a folder, behind a symlink or the node’s', async () => {
    expect(await failureOf(checkBackupSource(root, 'shares/gone'))).toEqual({
      code: 'path_missing',
      message: 'shares/gone is not in the storage',
    });
    expect(await failureOf(checkBackupSource(root, 'shares/a/f.txt'))).toMatchObject({
      code: 'path_missing',
    });
    expect(await failureOf(checkBackupSource(root, 'shares/out'))).toEqual({
      code: 'path_missing',
      message: 'shares/out goes through a symlink (shares/out)',
    });
    expect(await failureOf(checkBackupSource(root, 'shares/a/inside-link'))).toMatchObject({
      code: 'path_missing',
    });
    expect(await failureOf(checkBackupSource(root, 'system/restore'))).toMatchObject({
      code: 'path_missing',
    });
    expect(await failureOf(checkBackupSource(root, 'shares/../home'))).toMatchObject({
      code: 'path_missing',
    });
  });
});

describe('a restore’s destination folder', () => {
  it('opens a folder of the storage; renames reach it through the open folder', async () => {
    const folder = await openStorageFolder(root, ['shares', 'a']);
    expect(folder?.path).toBe(join(root, 'shares/a'));
    expect(folder?.at('x.txt')).toMatch(/^\/proc\/self\/fd\/\d+\/x\.txt$/);
    expect(() => folder?.at('../x')).toThrow('bad name');
    await writeFile(folder!.at('x.txt'), 'through the fd');
    await folder?.close();
    const root0 = await openStorageFolder(root, []);
    expect(root0?.path).toBe(root);
    await root0?.close();
  });

  it('follows a symlink that stays inside the storage', async () => {
    const folder = await openStorageFolder(root, ['shares', 'a', 'inside-link']);
    expect(folder?.path).toBe(join(root, 'shares/a/sub'));
    await folder?.close();
  });

  it('is undefined when it is not there', async () => {
    expect(await openStorageFolder(root, ['shares', 'gone'])).toBeUndefined();
  });

  it('refuses a symlink out of the storage, into the node’s folders, or a file', async () => {
    expect(await failureOf(openStorageFolder(root, ['shares', 'out']))).toEqual({
      code: 'failed',
      message: "/shares/out leads outside the workspace's storage: nothing was written there",
    });
    expect(await failureOf(openStorageFolder(root, ['shares', 'out', 'deeper']))).toMatchObject({
      code: 'failed',
    });
    expect(await failureOf(openStorageFolder(root, ['shares', 'a', 'to-system']))).toMatchObject({
      code: 'failed',
    });
    expect(await failureOf(openStorageFolder(root, ['system']))).toMatchObject({ code: 'failed' });
    expect(await failureOf(openStorageFolder(root, ['shares', 'a', 'f.txt']))).toMatchObject({
      code: 'failed',
    });
  });

  it('inside means the root or below it, not a sibling with the same prefix', () => {
    expect(insideStorage('/d/data', '/d/data')).toBe(true);
    expect(insideStorage('/d/data', '/d/data/shares')).toBe(true);
    expect(insideStorage('/d/data', '/d/data2')).toBe(false);
    expect(insideStorage('/d/data', '/d/data/System/x')).toBe(false);
    expect(insideStorage('/d/data', '/d/data/lost+found')).toBe(false);
  });
});

describe('names and counts', () => {
  it('names a restored copy by the day, then numbers it, within a file name’s 255 bytes', () => {
    const [first, second, third] = restoredFolderNames('report', new Date('2026-11-28T23:30:00Z'), 3);
    expect([first, second, third]).toEqual([
      'report (restored 2026-11-28)',
      'report (restored 2026-11-28) 2',
      'report (restored 2026-11-28) 3',
    ]);
    const long = restoredFolderNames('ž'.repeat(200), new Date('2026-11-28T00:00:00Z'), 1)[0]!;
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(255);
    expect(long.endsWith(' (restored 2026-11-28)')).toBe(true);
  });

  it('takes a given folder name only when it is one name', () => {
    expect(validFolderName('Old report')).toBe(true);
    for (const name of ['', '.', '..', 'a/b', 'a\0b', 'x'.repeat(256)])
      expect(validFolderName(name)).toBe(false);
  });

  it('counts regular files, links not followed', async () => {
    expect(await countFiles(join(root, 'shares'))).toBe(1);
    expect(await countFiles(join(root, 'shares/a/f.txt'))).toBe(1);
  });
});

describe('restic’s arguments', () => {
  it('matches a path literally in patterns', () => {
    expect(literalPattern('/g/a*b/[x]?\\y')).toBe('/g/a\\*b/\\[x\\]\\?\\\\y');
  });

  it('backs up the listed folders from the storage root, with the type as a tag, never the node’s folders', () => {
    expect(
      backupArgs(
        {
          id: 'j',
          kind: 'backup',
          type: 'full',
          paths: ['shares/a', '--force'],
          tags: ['s1', 'full'],
          retention: null,
        },
        '/d/w/data',
      ),
    ).toEqual([
      'backup',
      '--json',
      '--host=debesis',
      '--tag=s1',
      '--tag=full',
      '--force',
      '--exclude=/d/w/data/system',
      '--exclude=/d/w/data/lost+found',
      '--',
      'shares/a',
      '--force',
    ]);
    expect(
      backupArgs(
        { id: 'j', kind: 'backup', type: 'incremental', paths: ['.'], tags: [], retention: null },
        '/d',
      ),
    ).toEqual([
      'backup',
      '--json',
      '--host=debesis',
      '--tag=incremental',
      '--exclude=/d/system',
      '--exclude=/d/lost+found',
      '--',
      '.',
    ]);
  });
});
