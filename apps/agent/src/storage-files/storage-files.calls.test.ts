// The storage-files node calls through runNodeCall (payloads checked by the contract), on a plain
// folder as the storage: the owner's picker, a share's description, and its download as bytes
// (ranges, If-Range, etag) or as a zip that unzips to the same bytes. Nothing a symlink points
// to is ever listed, counted, served or zipped; a zip's body closed early closes its descriptors;
// a file that cannot be read to its end fails the body.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  NodeCallResultRequest,
  ShareDescribeResult,
  StorageBrowseResult,
  WorkspaceDesiredState,
} from '@debesis/contract';
import { runNodeCall, type NodeCallAnswer, type NodeCallStream } from '../calls/node-call.ts';
import { silentLogger } from '../logger.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { makeStorageTree, type StorageTree } from '../testing/storage-tree.ts';
import { fileEtag } from './share-download.ts';
import { folderSize } from './storage-listing.ts';
import { StorageFolder, openStoragePath, workspaceOwners } from './storage-reader.ts';
import { storageFilesCalls } from './storage-files.calls.ts';

const SERVICE = '0b6f0e0e-5555-4c55-9d5b-0f4f3c1d2e10';
let tree: StorageTree;
let desired: WorkspaceDesiredState;

beforeEach(async () => {
  tree = await makeStorageTree();
  desired = desiredWorkspace({ service_id: SERVICE });
});
afterEach(async () => {
  await tree.remove();
});

function ask(kind: string, payload: Record<string, unknown>): Promise<NodeCallAnswer> {
  return runNodeCall(
    {
      call_id: randomUUID(),
      service_id: SERVICE,
      kind,
      payload,
      deadline: new Date(Date.now() + 5000).toISOString(),
    },
    {
      handlers: [storageFilesCalls],
      applied: (serviceId) => (serviceId === SERVICE ? desired : undefined),
      layout: () => tree.layout,
      dataDir: tree.base,
      run: () => Promise.reject(new Error('no command in these calls')),
      logger: silentLogger,
    },
  );
}

function resultOf<T>(answer: NodeCallAnswer): T {
  if (!answer.ok || 'stream' in answer) throw new Error(`expected a result, got ${JSON.stringify(answer)}`);
  return answer.result as T;
}
const browse = async (path: string) => resultOf<StorageBrowseResult>(await ask('storage.browse', { path }));
const describeItem = async (root: string, path = '') =>
  resultOf<ShareDescribeResult>(await ask('share.describe', { root, path }));

async function download(
  root: string,
  path = '',
  extra: Record<string, unknown> = {},
): Promise<NodeCallStream> {
  const answer = await ask('share.download', { root, path, ...extra });
  if (!answer.ok || !('stream' in answer))
    throw new Error(`expected a stream, got ${JSON.stringify(answer)}`);
  return answer.stream;
}

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The central directory of a (small, non-ZIP64) zip: each entry's name, method, size and bytes. */
function zipEntries(zip: Buffer) {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Array<{ name: string; method: number; size: number; bytes: Buffer }> = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('not a central directory record');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    entries.push({ name, method, size, bytes: zip.subarray(dataAt, dataAt + compressed) });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const openFds = () => readdirSync('/proc/self/fd').length;

describe('storage.browse', () => {
  it("lists the storage root without the node's folders, and a folder folders first", async () => {
    expect(await browse('')).toMatchObject({ found: true, truncated: false });
    expect((await browse('')).entries.map((each) => each.name)).toEqual(['home', 'shares']);
    const docs = await browse('shares/docs');
    expect(docs.entries.map((each) => [each.name, each.type])).toEqual([
      ['empty folder', 'folder'],
      ['sub', 'folder'],
      ['a note.txt', 'file'],
      ['empty.txt', 'file'],
      ['report.pdf', 'file'],
    ]);
    expect(docs.entries.find((each) => each.name === 'report.pdf')).toMatchObject({
      size: 256 * 1024,
      modified_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
    });
  });

  it('answers found: false for what is no folder to show: missing, a file, a link, a link on the way', async () => {
    for (const path of ['nope', 'shares/docs/report.pdf', 'shares/docs/etc-link', 'shares/docs/sibling-link'])
      expect(await browse(path)).toEqual({ found: false, entries: [], truncated: false });
  });

  it("refuses a path the contract refuses (a way up, the node's folders)", async () => {
    for (const path of ['..', 'shares/../..', 'system', '/etc'])
      expect(await ask('storage.browse', { path })).toMatchObject({ ok: false, code: 'failed' });
  });
});

describe('share.describe', () => {
  it("describes a folder: its entries, and the bytes of its tree's files, links not followed", async () => {
    const item = await describeItem('shares/docs');
    const bytes = [...tree.files.values()].reduce((sum, each) => sum + each.length, 0);
    expect(item).toMatchObject({
      found: true,
      name: 'docs',
      type: 'folder',
      size: bytes,
      size_complete: true,
    });
    expect(item.entries.map((each) => each.name)).toEqual([
      'empty folder',
      'sub',
      'a note.txt',
      'empty.txt',
      'report.pdf',
    ]);
    expect((await describeItem('shares/docs', 'sub')).entries.map((each) => each.name)).toEqual([
      'deeper',
      'nested.txt',
    ]);
  });

  it('describes a file inside the shared folder', async () => {
    expect(await describeItem('shares/docs', 'sub/nested.txt')).toMatchObject({
      found: true,
      name: 'nested.txt',
      type: 'file',
      size: 7,
      size_complete: true,
      entries: [],
    });
  });

  it('answers found: false for a link, a link on the way, or nothing there', async () => {
    const paths: Array<[string, string]> = [
      ['shares/docs', 'etc-link'],
      ['shares/docs', 'etc-link/passwd'],
      ['shares/docs', 'sibling-link/secret.txt'],
      ['shares/docs/etc-link', ''],
      ['shares/docs', 'a fifo'],
      ['shares/docs', 'gone.txt'],
    ];
    for (const [root, path] of paths)
      expect(await describeItem(root, path)).toMatchObject({ found: false, size: 0, entries: [] });
  });

  it('refuses a way up out of the shared folder (the contract does)', async () => {
    expect(await ask('share.describe', { root: 'shares/docs', path: '../../system' })).toMatchObject({
      ok: false,
      code: 'failed',
    });
  });

  it("counts a folder's size over a bounded number of entries, and says when it stopped", async () => {
    const docs = await openStoragePath(tree.dataRoot, workspaceOwners(desired.id_base), ['shares', 'docs']);
    if (!(docs instanceof StorageFolder)) throw new Error('docs is a folder');
    try {
      expect(await folderSize(docs, 3)).toMatchObject({ complete: false });
      expect(await folderSize(docs, 8)).toMatchObject({ complete: true });
    } finally {
      await docs.close();
    }
  });
});

describe('share.download of a file', () => {
  const report = () => tree.files.get('report.pdf')!;

  it('sends the whole file with its etag, date and type, and no range', async () => {
    const stream = await download('shares/docs', 'report.pdf');
    expect(stream).toMatchObject({ name: 'report.pdf', size: report().length });
    expect(stream.meta).toMatchObject({
      type: 'file',
      etag: expect.stringMatching(/^"[0-9a-z-]+"$/) as unknown,
    });
    expect(stream.meta?.range).toBeUndefined();
    expect(Date.parse(stream.meta?.modified_at ?? '')).not.toBeNaN();
    expect((await bytesOf(stream.body)).equals(report())).toBe(true);
  });

  it('sends a shared file itself (the link is to a file)', async () => {
    const stream = await download('shares/docs/sub/nested.txt');
    expect(stream.name).toBe('nested.txt');
    expect((await bytesOf(stream.body)).toString()).toBe('nested\n');
  });

  it('sends exactly the range asked for: first bytes, middle, suffix, open-ended, clamped', async () => {
    const total = report().length;
    const cases: Array<[object, number, number]> = [
      [{ start: 0, end: 99 }, 0, 99],
      [{ start: 1000, end: 70_000 }, 1000, 70_000],
      [{ suffix: 500 }, total - 500, total - 1],
      [{ suffix: total * 2 }, 0, total - 1],
      [{ start: total - 10, end: null }, total - 10, total - 1],
      [{ start: 5, end: total * 3 }, 5, total - 1],
    ];
    for (const [range, start, end] of cases) {
      const stream = await download('shares/docs', 'report.pdf', { range });
      expect(stream.meta?.range).toEqual({ start, end, total });
      expect(stream.size).toBe(end - start + 1);
      expect((await bytesOf(stream.body)).equals(report().subarray(start, end + 1))).toBe(true);
    }
  });

  it('answers a range past the end as unsatisfiable, with an empty body', async () => {
    const total = report().length;
    const stream = await download('shares/docs', 'report.pdf', { range: { start: total, end: null } });
    expect(stream.meta?.range).toEqual({ unsatisfiable: true, total });
    expect(stream.size).toBe(0);
    expect((await bytesOf(stream.body)).length).toBe(0);
    // An empty file has no byte a range could name.
    const empty = await download('shares/docs', 'empty.txt', { range: { start: 0, end: 0 } });
    expect(empty.meta?.range).toEqual({ unsatisfiable: true, total: 0 });
    expect((await bytesOf(empty.body)).length).toBe(0);
  });

  it('sends the whole file when If-Range is not its etag, and the range when it is', async () => {
    const { meta, body } = await download('shares/docs', 'report.pdf');
    body.destroy();
    const range = { start: 10, end: 19 };
    const stale = await download('shares/docs', 'report.pdf', { range, if_range: '"an-older-version"' });
    expect(stale.meta?.range).toBeUndefined();
    expect(stale.size).toBe(report().length);
    expect((await bytesOf(stale.body)).length).toBe(report().length);
    const current = await download('shares/docs', 'report.pdf', { range, if_range: meta?.etag });
    expect(current.meta?.range).toEqual({ ...range, total: report().length });
    expect((await bytesOf(current.body)).length).toBe(10);
  });

  it('keeps its etag while the file stays, and changes it when the file changes', async () => {
    const path = join(tree.docs, 'report.pdf');
    const etagNow = async () => {
      const stream = await download('shares/docs', 'report.pdf');
      stream.body.destroy();
      return stream.meta?.etag;
    };
    const first = await etagNow();
    expect(await etagNow()).toBe(first);
    // Same size, another date.
    await utimes(path, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    const redated = await etagNow();
    expect(redated).not.toBe(first);
    // Another content, same date.
    await writeFile(path, 'shorter');
    await utimes(path, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    expect(await etagNow()).not.toBe(redated);
  });

  it('builds the etag from inode, size and mtime', () => {
    const stats = { ino: 35n, size: 36n, mtimeNs: 1296n } as Parameters<typeof fileEtag>[0];
    expect(fileEtag(stats)).toBe('"z-10-100"');
  });

  it('refuses a link, a link on the way, a fifo, the node folder, saying only "not found"', async () => {
    for (const [root, path] of [
      ['shares/docs', 'passwd-link'],
      ['shares/docs/etc-link', 'passwd'],
      ['shares/docs', 'sibling-link/secret.txt'],
      ['shares/docs', 'sub/relative-link.txt'],
      ['shares/docs', 'a fifo'],
      ['shares/docs', 'missing.txt'],
    ])
      expect(await ask('share.download', { root, path })).toEqual({
        ok: false,
        code: 'not_found',
        error: 'not found',
      } satisfies NodeCallResultRequest);
  });

  it('fails the body when the file gets shorter while it is sent', async () => {
    const big = join(tree.docs, 'big.bin');
    await writeFile(big, Buffer.alloc(16 * 1024 * 1024, 7));
    const stream = await download('shares/docs', 'big.bin');
    const failed = expect(bytesOf(stream.body)).rejects.toThrow(/shorter/);
    await truncate(big, 1024);
    await failed;
  });
});

describe('share.download of a folder (zip)', () => {
  it('zips the tree, stored, to the same bytes, leaving out links and fifos', async () => {
    const stream = await download('shares/docs');
    expect(stream).toMatchObject({ name: 'docs.zip', size: null, meta: { type: 'zip' } });
    expect(Date.parse(stream.meta?.modified_at ?? '')).not.toBeNaN();
    const zip = await bytesOf(stream.body);
    const entries = zipEntries(zip);
    expect(entries.map((each) => each.name).sort()).toEqual([
      'docs/a note.txt',
      'docs/empty folder/',
      'docs/empty.txt',
      'docs/report.pdf',
      'docs/sub/',
      'docs/sub/deeper/',
      'docs/sub/deeper/leaf.bin',
      'docs/sub/nested.txt',
    ]);
    for (const entry of entries.filter((each) => !each.name.endsWith('/'))) {
      expect(entry.method).toBe(0);
      const original = tree.files.get(entry.name.slice('docs/'.length));
      expect(entry.size).toBe(original?.length);
      expect(entry.bytes.equals(original!)).toBe(true);
    }
  });

  it('unzips with unzip(1) to identical files', async (context) => {
    if (!existsSync('/usr/bin/unzip'))
      return context.skip('unzip(1) is not installed (apt-get install unzip)');
    const zip = await bytesOf((await download('shares/docs')).body);
    const out = await mkdtemp(join(tmpdir(), 'agent-unzip-'));
    try {
      await writeFile(join(out, 'docs.zip'), zip);
      execFileSync('unzip', ['-qq', join(out, 'docs.zip'), '-d', join(out, 'x')]);
      for (const [path, bytes] of tree.files)
        expect((await readFile(join(out, 'x', 'docs', path))).equals(bytes)).toBe(true);
      expect(existsSync(join(out, 'x', 'docs', 'empty folder'))).toBe(true);
      for (const name of ['etc-link', 'passwd-link', 'sibling-link', 'a fifo', 'sub/relative-link.txt'])
        expect(existsSync(join(out, 'x', 'docs', name))).toBe(false);
      // unzip's own check of every entry's CRC.
      execFileSync('unzip', ['-tqq', join(out, 'docs.zip')]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });

  it('zips a folder inside the shared one', async () => {
    const entries = zipEntries(await bytesOf((await download('shares/docs', 'sub')).body));
    expect(entries.map((each) => each.name).sort()).toEqual([
      'sub/deeper/',
      'sub/deeper/leaf.bin',
      'sub/nested.txt',
    ]);
  });

  it('names entries yazl would read otherwise: a backslash, a drive-like top folder', async () => {
    const odd = join(tree.dataRoot, 'shares', 'C:odd\\name');
    await mkdir(odd);
    await writeFile(join(odd, 'back\\slash.txt'), 'x');
    const stream = await download('shares/C:odd\\name');
    expect(stream.name).toBe('C_odd_name.zip');
    const entries = zipEntries(await bytesOf(stream.body));
    expect(entries.map((each) => each.name)).toEqual(['C_odd_name/back_slash.txt']);
  });

  it('stops the walk and closes every descriptor when its body is closed early', async () => {
    await mkdir(join(tree.docs, 'more', 'inside'), { recursive: true });
    await writeFile(join(tree.docs, 'more', 'inside', 'big.bin'), Buffer.alloc(32 * 1024 * 1024, 3));
    for (let index = 0; index < 20; index++)
      await writeFile(join(tree.docs, 'more', `part-${index}.bin`), Buffer.alloc(64 * 1024, index));
    const before = openFds();
    const stream = await download('shares/docs', 'more');
    // Part of the way into the big file (open, partly read, folders open above it), the visitor goes away.
    let received = 0;
    for await (const chunk of stream.body) {
      received += (chunk as Buffer).length;
      if (received > 4 * 1024 * 1024) break;
    }
    expect(received).toBeGreaterThan(4 * 1024 * 1024);
    expect(stream.body.destroyed).toBe(true);
    await vi.waitFor(() => expect(openFds()).toBe(before), { timeout: 5000 });
  });

  it('fails the body when a file gets shorter while it is zipped, rather than a corrupt zip', async () => {
    const big = join(tree.docs, 'sub', 'deeper', 'leaf.bin');
    await writeFile(big, Buffer.alloc(32 * 1024 * 1024, 1));
    const stream = await download('shares/docs', 'sub');
    const reading = (async () => {
      let received = 0;
      for await (const chunk of stream.body) {
        received += (chunk as Buffer).length;
        // Cut once the file is open and partly sent.
        if (received > 2 * 1024 * 1024 && received - (chunk as Buffer).length <= 2 * 1024 * 1024)
          await truncate(big, 10);
      }
    })();
    await expect(reading).rejects.toThrow(/shorter/);
  });
});
