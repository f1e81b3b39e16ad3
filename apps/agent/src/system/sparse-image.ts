// A file system in a new sparse image file (a workspace's storage, its backup clients' quota):
// made under another name and renamed when complete, so a crash never leaves a half-made image
// that a later pass would mount, or format again over data.
import { open, rename, rm } from 'node:fs/promises';

/**
 * Makes `image` as a sparse file of `bytes` holding what `format` writes into it (mkfs of the
 * partial file's path); nothing is at `image` until it is whole.
 */
export async function createSparseImage(
  image: string,
  bytes: number,
  format: (partial: string) => Promise<unknown>,
): Promise<void> {
  const partial = `${image}.new`;
  await rm(partial, { force: true });
  const handle = await open(partial, 'wx', 0o600);
  try {
    await handle.truncate(bytes);
  } finally {
    await handle.close();
  }
  await format(partial);
  await rename(partial, image);
}
