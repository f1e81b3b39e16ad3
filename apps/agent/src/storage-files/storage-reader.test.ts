// The safe reader of a workspace's storage on a plain folder: it lists and opens folders and
// regular files only, never through a symlink (at any step, nor one swapped in during a walk),
// never the node's folders, never across a mount, never a hard link the workspace's users do not
// own, and it refuses saying only "not found".
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chown, link, mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { NodeCallError } from '../calls/node-call.ts';
import { isRoot, makeStorageTree, type StorageTree } from '../testing/storage-tree.ts';
import {
  StorageFile,
  StorageFolder,
  TreeTooDeepError,
  openStoragePath,
  walkTree,
  workspaceOwners,
} from './storage-reader.ts';

const owners = workspaceOwners(WORKSPACE_ID_FIRST_BASE);
let tree: StorageTree;
const opened: Array<StorageFolder | StorageFile> = [];

beforeEach(async () => {
  tree = await makeStorageTree();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((each) => each.close()));
  await tree.remove();
});

async function openPath(names: string[]) {
  const item = await openStoragePath(tree.dataRoot, owners, names);
  opened.push(item);
  return item;
}
async function openFolder(names: string[]) {
  const item = await openPath(names);
  if (!(item instanceof StorageFolder)) throw new Error(`${names.join('/')} is not a folder`);
  return item;
}

/** The refusal every way in that is not allowed gets: `not_found`, saying nothing more. */
async function refused(promise: Promise<unknown>) {
  const error = await promise.then(
    (item) => {
      if (item instanceof StorageFolder || item instanceof StorageFile) opened.push(item);
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(NodeCallError);
  expect(error).toMatchObject({ code: 'not_found', message: 'not found' });
}

const namesOf = async (folder: StorageFolder) => (await folder.list(1000)).entries.map((each) => each.name);

describe('the storage reader', () => {
  it('lists folders first then files, by name, and no link, fifo or node folder', async () => {
    const docs = await openFolder(['shares', 'docs']);
    const { entries, truncated } = await docs.list(1000);
    expect(entries.map((each) => [each.name, each.type])).toEqual([
      ['empty folder', 'folder'],
      ['sub', 'folder'],
      ['a note.txt', 'file'],
      ['empty.txt', 'file'],
      ['report.pdf', 'file'],
    ]);
    expect(truncated).toBe(false);
    expect(await namesOf(await openFolder([]))).toEqual(['home', 'shares']);
  });

  it('answers at most `max` entries, the first by folders-then-name, and says it left some out', async () => {
    const many = join(tree.docs, 'many');
    await mkdir(many);
    for (let index = 0; index < 30; index++)
      await writeFile(join(many, `f${String(index).padStart(2, '0')}`), '');
    for (let index = 0; index < 5; index++) await mkdir(join(many, `z${index}`));
    const { entries, truncated } = await (await openFolder(['shares', 'docs', 'many'])).list(7);
    expect(entries.map((each) => each.name)).toEqual(['z0', 'z1', 'z2', 'z3', 'z4', 'f00', 'f01']);
    expect(truncated).toBe(true);
  });

  it('opens a file and a folder by names from the storage root', async () => {
    const file = await openPath(['shares', 'docs', 'sub', 'nested.txt']);
    expect(file).toBeInstanceOf(StorageFile);
    expect(Number(file.stats.size)).toBe(tree.files.get('sub/nested.txt')?.length);
    expect(await openPath(['shares', 'docs', 'empty folder'])).toBeInstanceOf(StorageFolder);
  });

  it('refuses anything but one name: empty, `.`, `..`, a path', async () => {
    const docs = await openFolder(['shares', 'docs']);
    for (const name of ['', '.', '..', 'sub/nested.txt', 'sub/../report.pdf', 'nul\0'])
      await refused(docs.open(name));
    await refused(openPath(['shares', 'docs', '..', '..', 'system']));
  });

  it("never lists nor opens the node's folders at the storage root, in any case", async () => {
    for (const names of [
      ['system'],
      ['system', 'restore', 'staged.bin'],
      ['lost+found'],
      ['SYSTEM'],
      ['Lost+Found'],
    ])
      await refused(openPath(names));
    // A folder named so deeper down is the customer's.
    await mkdir(join(tree.docs, 'system'));
    expect(await openPath(['shares', 'docs', 'system'])).toBeInstanceOf(StorageFolder);
  });

  it('refuses a symlink at any step: to /etc, to a file of /etc, to a sibling workspace, relative', async () => {
    for (const names of [
      ['shares', 'docs', 'etc-link'],
      ['shares', 'docs', 'etc-link', 'passwd'],
      ['shares', 'docs', 'passwd-link'],
      ['shares', 'docs', 'sibling-link'],
      ['shares', 'docs', 'sibling-link', 'secret.txt'],
      ['shares', 'docs', 'sub', 'relative-link.txt'],
      ['shares', 'docs', 'a fifo'],
    ])
      await refused(openPath(names));
  });

  it('refuses the storage root itself when it is a symlink', async () => {
    await rm(tree.dataRoot, { recursive: true });
    await symlink(tree.sibling, tree.dataRoot);
    await refused(openPath(['secret.txt']));
  });

  it('a folder swapped for a symlink during a walk cannot lead out', async () => {
    const docs = await openFolder(['shares', 'docs']);
    // Between this step and the next, `sub` becomes a link to /etc.
    await rename(join(tree.docs, 'sub'), join(tree.docs, 'sub.moved'));
    await symlink('/etc', join(tree.docs, 'sub'));
    await refused(docs.openFolder('sub'));
    await refused(docs.open('sub'));
    expect(await namesOf(docs)).not.toContain('sub');

    // The folder already open stays the one that was opened, whatever its path leads to now.
    await rename(tree.docs, `${tree.docs}.moved`);
    await symlink('/etc', tree.docs);
    expect(await namesOf(docs)).toContain('report.pdf');
    expect(await namesOf(docs)).not.toContain('passwd');
    await refused(docs.open('passwd'));
    const report = await docs.openFile('report.pdf');
    opened.push(report);
    expect(Number(report.stats.size)).toBe(tree.files.get('report.pdf')?.length);
  });

  it('a folder swapped for a symlink over and over while it is opened never leads out', async () => {
    const docs = await openFolder(['shares', 'docs']);
    // Another process swaps `sub` for a link to /etc and back as fast as it can.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); process.chdir(process.argv[1]); process.stdout.write('swapping');
         for (;;) { fs.renameSync('sub', 'sub.real'); fs.symlinkSync('/etc', 'sub'); fs.unlinkSync('sub'); fs.renameSync('sub.real', 'sub'); }`,
        tree.docs,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      await once(swapper.stdout, 'data');
      let opens = 0;
      // 20,000 tries, or 3 s of them on a machine the busy swapper and other tests share.
      const until = Date.now() + 3_000;
      for (let attempt = 0; attempt < 20_000 && Date.now() < until; attempt++) {
        const sub = await docs.openFolder('sub').catch(() => undefined);
        if (!sub) continue;
        opens += 1;
        const names = (await sub.list(100)).entries.map((each) => each.name);
        await sub.close();
        expect(names).toEqual(['deeper', 'nested.txt']);
      }
      // The race was run, not only lost: some opens got the real folder.
      expect(opens).toBeGreaterThan(0);
    } finally {
      swapper.kill('SIGKILL');
      await once(swapper, 'exit');
    }
  }, 20_000);

  it.skipIf(!isRoot())('never enters a mount inside the storage (root: mounts a tmpfs)', async () => {
    const mountPoint = join(tree.docs, 'mounted');
    await mkdir(mountPoint);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', mountPoint]);
    try {
      await writeFile(join(mountPoint, 'elsewhere.txt'), 'another file system');
      await refused(openPath(['shares', 'docs', 'mounted']));
      await refused(openPath(['shares', 'docs', 'mounted', 'elsewhere.txt']));
      expect(await namesOf(await openFolder(['shares', 'docs']))).not.toContain('mounted');
    } finally {
      await Promise.all(opened.splice(0).map((each) => each.close()));
      execFileSync('umount', [mountPoint]);
    }
  });

  it("serves a hard-linked file only when one of the workspace's users owns it", async () => {
    const staged = join(tree.dataRoot, 'system', 'restore', 'staged.bin');
    await link(staged, join(tree.docs, 'linked.bin'));
    // Owned by whoever runs the tests (root, or a user outside the workspace's id block).
    await refused(openPath(['shares', 'docs', 'linked.bin']));
    expect(await namesOf(await openFolder(['shares', 'docs']))).not.toContain('linked.bin');
    // A file with one name is served whoever owns it: nothing else can be reached through it.
    expect(await openPath(['shares', 'docs', 'report.pdf'])).toBeInstanceOf(StorageFile);
  });

  it.skipIf(!isRoot())('serves a hard link owned by a workspace user (root: chowns it)', async () => {
    const own = join(tree.docs, 'mine.bin');
    await writeFile(own, 'a user file with two names');
    await link(own, join(tree.docs, 'mine-again.bin'));
    await chown(own, WORKSPACE_ID_FIRST_BASE + 7, WORKSPACE_ID_FIRST_BASE);
    expect(await openPath(['shares', 'docs', 'mine-again.bin'])).toBeInstanceOf(StorageFile);
    // Root's again, or another workspace's user: refused.
    await chown(own, 0, 0);
    await refused(openPath(['shares', 'docs', 'mine-again.bin']));
    await chown(own, WORKSPACE_ID_FIRST_BASE + 10_000, WORKSPACE_ID_FIRST_BASE);
    await refused(openPath(['shares', 'docs', 'mine-again.bin']));
  });

  it('walks a tree depth first, a folder before its content, links and fifos left out', async () => {
    const docs = await openFolder(['shares', 'docs']);
    const walked: string[] = [];
    for await (const item of walkTree(docs))
      walked.push(`${item.path.join('/')}${item.info.type === 'folder' ? '/' : ''}`);
    expect(walked.sort()).toEqual([
      'a note.txt',
      'empty folder/',
      'empty.txt',
      'report.pdf',
      'sub/',
      'sub/deeper/',
      'sub/deeper/leaf.bin',
      'sub/nested.txt',
    ]);
    // Each folder comes before what is in it.
    expect(walked.indexOf('sub/')).toBeLessThan(walked.indexOf('sub/nested.txt'));
  });

  it('gives up on a tree deeper than it walks', async () => {
    await mkdir(join(tree.docs, 'a', 'b', 'c', 'd'), { recursive: true });
    const docs = await openFolder(['shares', 'docs']);
    const walking = (async () => {
      for await (const _item of walkTree(docs, 3)) void _item;
    })();
    await expect(walking).rejects.toBeInstanceOf(TreeTooDeepError);
  });
});
