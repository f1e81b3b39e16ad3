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
