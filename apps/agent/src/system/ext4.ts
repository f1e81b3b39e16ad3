// The size of the ext4 file system in an image, read from its superblock. Comparing it with the
// wanted size tells whether a grow is still owed (also after a crash between growing the file and
// resizing the file system) without running a program on every pass.
import { open } from 'node:fs/promises';

const SUPERBLOCK_OFFSET = 1024;
const EXT4_MAGIC = 0xef53;
const INCOMPAT_64BIT = 0x80;

/** Bytes the file system spans, or undefined when the file holds no ext2/3/4 file system. */
export async function ext4Size(imagePath: string): Promise<number | undefined> {
  const handle = await open(imagePath, 'r');
  try {
    const block = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(block, 0, 1024, SUPERBLOCK_OFFSET);
    if (bytesRead < 1024 || block.readUInt16LE(0x38) !== EXT4_MAGIC) return undefined;
    const blockSize = 1024 * 2 ** block.readUInt32LE(0x18);
    const is64 = (block.readUInt32LE(0x60) & INCOMPAT_64BIT) !== 0;
    const blocks = block.readUInt32LE(0x04) + (is64 ? block.readUInt32LE(0x150) * 2 ** 32 : 0);
    return blocks * blockSize;
  } finally {
    await handle.close();
  }
}

/** The file-system block size of the agent's ext4 images. */
export const EXT4_BLOCK = 4096;

/**
 * mkfs.ext4's arguments for one of the agent's sparse images (a workspace's storage, its backup
 * clients' quota): no reserved blocks (every byte of the size is the customer's), lazy init and
 * no discard, so making it writes next to nothing of the sparse file.
 */
export const mkfsExt4Args = (image: string) => [
  '-q',
  '-F',
  '-b',
  String(EXT4_BLOCK),
  '-m',
  '0',
  '-L',
  'debesis',
  '-E',
  'nodiscard,lazy_itable_init=1,lazy_journal_init=1',
  image,
];

/**
 * Mount options of such an image: nosuid/nodev/noexec, the customer's files are data to the host,
 * never programs or devices; noinit_itable, no zeroing of inode tables in the background, which
 * would fill the sparse image.
 */
export const EXT4_IMAGE_MOUNT_OPTIONS = 'nosuid,nodev,noexec,noinit_itable';
