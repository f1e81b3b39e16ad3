// What file system a workspace's storage image holds, and the size of a btrfs one, read from the
// image's superblocks (no program, so a poll costs next to nothing). ext4's superblock is at
// 1 KiB (system/ext4.ts), btrfs's primary one at 64 KiB: its magic, then `total_bytes` (the
// devices' sizes, one device here), updated by every resize's commit. The loop device writes
// through the file's page cache, so reading the file sees what the mounted file system wrote.
import { open } from 'node:fs/promises';
import { ext4Size } from './ext4.ts';

const BTRFS_SUPERBLOCK_OFFSET = 64 * 1024;
const BTRFS_MAGIC = Buffer.from('_BHRfS_M', 'latin1');
const MAGIC_AT = 0x40;
const TOTAL_BYTES_AT = 0x70;

export type StorageFileSystem = 'ext4' | 'btrfs';

/** Bytes the btrfs file system spans, or undefined when the file holds no btrfs. */
export async function btrfsSize(imagePath: string): Promise<number | undefined> {
  const handle = await open(imagePath, 'r');
  try {
    const block = Buffer.alloc(0x80);
    const { bytesRead } = await handle.read(block, 0, block.length, BTRFS_SUPERBLOCK_OFFSET);
    if (bytesRead < block.length || !block.subarray(MAGIC_AT, MAGIC_AT + 8).equals(BTRFS_MAGIC))
      return undefined;
    return Number(block.readBigUInt64LE(TOTAL_BYTES_AT));
  } finally {
    await handle.close();
  }
}

/** The image's file system and its size; undefined for neither (a half-made or foreign file). */
export async function storageFileSystem(
  imagePath: string,
): Promise<{ type: StorageFileSystem; bytes: number } | undefined> {
  const btrfs = await btrfsSize(imagePath);
  if (btrfs !== undefined) return { type: 'btrfs', bytes: btrfs };
  const ext4 = await ext4Size(imagePath);
  if (ext4 !== undefined) return { type: 'ext4', bytes: ext4 };
  return undefined;
}
