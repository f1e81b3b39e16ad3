// A workspace's storage for the storage-files tests, as a plain folder (no image, no root needed):
// a shared folder with nested folders, an empty file and an empty folder, and beside them what a
// customer might put there to reach out: symlinks to /etc and to a sibling workspace's storage,
// a fifo. The node's own folders sit at the root. Each call makes a fresh one under `tmpdir()`.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';

export interface StorageTree {
  /** The temporary folder holding both workspaces. */
  base: string;
  layout: WorkspaceLayout;
  dataRoot: string;
  /** `shares/docs`, the folder the tests share. */
  docs: string;
  /** What each regular file under `docs` holds, by its path inside `docs`. */
  files: Map<string, Buffer>;
  /** A sibling workspace's storage root, which nothing of this one may reach. */
  sibling: string;
  remove(): Promise<void>;
}

export async function makeStorageTree(): Promise<StorageTree> {
  const base = await mkdtemp(join(tmpdir(), 'agent-storage-files-'));
  const layout = workspaceLayout(join(base, 'ws'));
  const dataRoot = layout.dataRoot;
  const docs = join(dataRoot, 'shares', 'docs');
  const sibling = join(base, 'other-ws', 'data');
  const files = new Map<string, Buffer>([
    ['report.pdf', randomBytes(256 * 1024)],
    ['empty.txt', Buffer.alloc(0)],
    ['a note.txt', Buffer.from('note ž\n')],
    ['sub/nested.txt', Buffer.from('nested\n')],
    ['sub/deeper/leaf.bin', randomBytes(3 * 1024 * 1024 + 17)],
  ]);
  for (const folder of ['sub/deeper', 'empty folder'].map((path) => join(docs, path)))
    await mkdir(folder, { recursive: true });
  for (const [path, bytes] of files) await writeFile(join(docs, path), bytes);
  await mkdir(join(dataRoot, 'home', 'ona'), { recursive: true });
  await writeFile(join(dataRoot, 'home', 'ona', 'notes.txt'), 'ona');
  await mkdir(join(dataRoot, 'system', 'restore'), { recursive: true });
  await writeFile(join(dataRoot, 'system', 'restore', 'staged.bin'), 'the node keeps this');
  await mkdir(join(dataRoot, 'lost+found'));
  await mkdir(sibling, { recursive: true });
  await writeFile(join(sibling, 'secret.txt'), 'another workspace');
  await symlink('/etc', join(docs, 'etc-link'));
  await symlink('/etc/passwd', join(docs, 'passwd-link'));
  await symlink(sibling, join(docs, 'sibling-link'));
  await symlink('../../../../other-ws/data/secret.txt', join(docs, 'sub', 'relative-link.txt'));
  execFileSync('mkfifo', [join(docs, 'a fifo')]);
  return {
    base,
    layout,
    dataRoot,
    docs,
    files,
    sibling,
    remove: () => rm(base, { recursive: true, force: true }),
  };
}

export const isRoot = () => process.getuid?.() === 0;
