// The file system of a storage image read from its superblock, on real images made by mkfs (no
// root needed: nothing is mounted). Skipped where btrfs-progs or e2fsprogs are missing.
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { storageFileSystem } from './btrfs.ts';
import { firstMissingProgram } from './host.ts';

const MB = 1024 * 1024;
const missing = await firstMissingProgram(['mkfs.btrfs', 'mkfs.ext4']);

async function image(dir: string, name: string, bytes: number): Promise<string> {
  const path = join(dir, name);
  const handle = await open(path, 'wx', 0o600);
  await handle.truncate(bytes);
  await handle.close();
  return path;
}

describe.skipIf(missing !== undefined)('the storage image’s file system', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'btrfs-superblock-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a btrfs image’s size from its superblock', async () => {
    const path = await image(dir, 'b.img', 300 * MB);
    await runCommand('mkfs.btrfs', ['-q', '-f', '-K', path], { check: true });
    expect(await storageFileSystem(path)).toEqual({ type: 'btrfs', bytes: 300 * MB });
  });

  it('tells an ext4 image apart, and a file that holds neither', async () => {
    const path = await image(dir, 'e.img', 64 * MB);
    await runCommand('mkfs.ext4', ['-q', '-F', '-b', '4096', path], { check: true });
    expect(await storageFileSystem(path)).toEqual({ type: 'ext4', bytes: 64 * MB });
    expect(await storageFileSystem(await image(dir, 'z.img', 1 * MB))).toBeUndefined();
  });
});
