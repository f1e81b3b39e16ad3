// Usage of a plain folder (the storage fallback without a disk image), by walking it. Capped, so
// a huge tree cannot stall a pass; the result then says it is a lower bound.
// `files` counts regular files only: the folders (users' homes, shares, the node's own) and
// links are not files the customer stored, though their blocks count in `bytes`.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export async function measureTree(
  root: string,
  maxEntries = 100_000,
): Promise<{ bytes: number; files: number; complete: boolean }> {
  let bytes = 0;
  let files = 0;
  let entries = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const names = await readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (entries >= maxEntries) return { bytes, files, complete: false };
      entries += 1;
      const path = join(dir, name);
      const info = await lstat(path).catch(() => undefined);
      if (!info) continue;
      bytes += info.blocks * 512;
      if (info.isFile()) files += 1;
      else if (info.isDirectory()) pending.push(path);
    }
  }
  return { bytes, files, complete: true };
}
