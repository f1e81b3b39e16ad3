// The backup browser's reads of a snapshot, on a plain folder tree standing for the snapshots'
// mount: folders first with sizes and times, a file's bytes, and `not_found` or `found: false` for
// whatever is not there or may not be read (a missing snapshot, a symlink out, the node's folders).
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { workspaceOwners } from '../storage-files/storage-reader.ts';
import { browseSnapshotFolder, snapshotFileDownload, type SnapshotAccess } from './snapshot-files.ts';

const NAME = '@GMT-2026.12.06-18.54.31';
let top: string;
let access: SnapshotAccess;

beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'snapshot-files-'));
  const snapshotsDir = join(top, 'snapshots');
  const root = join(snapshotsDir, NAME);
  await mkdir(join(root, 'shares', 'projects'), { recursive: true });
  await mkdir(join(root, 'system'), { recursive: true });
  await writeFile(join(root, 'shares', 'projects', 'report.txt'), 'the report');
  await writeFile(join(root, 'shares', 'b.txt'), 'bb');
  await writeFile(join(root, 'system', 'staged'), 'the node’s');
  await writeFile(join(top, 'outside'), 'secret');
  await symlink(join(top, 'outside'), join(root, 'shares', 'link'));
  await symlink(top, join(root, 'shares', 'folder-link'));
  access = { snapshotsDir, owners: workspaceOwners(WORKSPACE_ID_FIRST_BASE) };
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

describe('a snapshot in the backup browser', () => {
  it('lists a folder folders first, with sizes and times, and no links', async () => {
    const result = await browseSnapshotFolder(access, { name: NAME, path: '/shares' });
    expect(result).toMatchObject({ found: true, truncated: false });
    expect(result.entries.map(({ name, type, size }) => ({ name, type, size }))).toEqual([
      { name: 'projects', type: 'dir', size: null },
      { name: 'b.txt', type: 'file', size: 2 },
    ]);
    expect(Date.parse(result.entries[1]?.modified_at ?? '')).not.toBeNaN();
  });

  it('hides the node’s folders at the root and does not go through a link', async () => {
    const root = await browseSnapshotFolder(access, { name: NAME, path: '/' });
    expect(root.entries.map((each) => each.name)).toEqual(['shares']);
    expect(await browseSnapshotFolder(access, { name: NAME, path: '/system' })).toEqual({
      found: false,
      entries: [],
      truncated: false,
    });
    expect((await browseSnapshotFolder(access, { name: NAME, path: '/shares/folder-link' })).found).toBe(
      false,
    );
    expect((await browseSnapshotFolder(access, { name: NAME, path: '/nothing/here' })).found).toBe(false);
    expect((await browseSnapshotFolder(access, { name: NAME, path: '/shares/b.txt' })).found).toBe(false);
  });

  it('refuses a snapshot that is not there', async () => {
    await expect(
      browseSnapshotFolder(access, { name: '@GMT-2020.01.01-00.00.00', path: '/' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(browseSnapshotFolder(access, { name: '../snapshots', path: '/' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('streams a file’s bytes with its name and size', async () => {
    const file = await snapshotFileDownload(access, { name: NAME, path: '/shares/projects/report.txt' });
    expect(file).toMatchObject({ name: 'report.txt', size: 10 });
    expect(await text(file.body)).toBe('the report');
  });

  it('downloads no folder, link, node file or missing file', async () => {
    for (const path of [
      '/shares',
      '/shares/link',
      '/system/staged',
      '/shares/none.txt',
      '/shares/folder-link/outside',
    ])
      await expect(snapshotFileDownload(access, { name: NAME, path })).rejects.toMatchObject({
        code: 'not_found',
      });
    await expect(
      snapshotFileDownload(access, { name: '@GMT-2020.01.01-00.00.00', path: '/shares/b.txt' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
