import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { countFiles, measureTree } from './measure-tree.ts';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

async function workspace(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'measure-tree-'));
  roots.push(root);
  return root;
}

describe('measureTree', () => {
  it('counts the files stored, not the folders and homes around them (the overview\'s "Files")', async () => {
    const root = await workspace();
    // What a new workspace has: the node's folders and two users' empty homes, and no file yet.
    for (const dir of ['home/ona', 'home/jonas', 'backups', 'system', 'projects/designs']) {
      await mkdir(join(root, dir), { recursive: true });
    }
    expect((await measureTree(root)).files).toBe(0);

    await writeFile(join(root, 'projects/plan.txt'), 'plan');
    await writeFile(join(root, 'projects/designs/logo.svg'), '<svg/>');
    await writeFile(join(root, 'home/ona/notes.md'), 'notes');
    await symlink(join(root, 'projects/plan.txt'), join(root, 'home/jonas/plan-link'));
    const measured = await measureTree(root);
    expect(measured).toMatchObject({ files: 3, complete: true });
    expect(measured.bytes).toBeGreaterThan(0);
    // The disk image's walk counts the same files from the entries' types alone.
    expect(await countFiles(root)).toEqual({ files: 3, complete: true });
  });

  it('stops after maxEntries, folders included, and says the count is a lower bound', async () => {
    const root = await workspace();
    for (let index = 0; index < 5; index += 1) await mkdir(join(root, `folder-${index}`));
    await writeFile(join(root, 'folder-0/a.txt'), 'a');
    const measured = await measureTree(root, 3);
    expect(measured.complete).toBe(false);
    expect(measured.files).toBeLessThanOrEqual(1);
    expect((await countFiles(root, 3)).complete).toBe(false);
  });
});
