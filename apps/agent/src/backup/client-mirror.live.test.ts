// The backup clients' repositories off the node (client-mirror.ts), with the real restic, as root:
// the backup target is a separate "host" (a network namespace of the test's own running `rclone
// serve restic` with a login). A client's pushes (restic with the client's own key, into its
// repository in node A's clients' folder) are copied there: once per change, never while a push
// holds a live lock. Node A then dies (its folder deleted); node B, with nothing of A's, restores
// the copy into its empty clients' folder once, and the client's own restic reads its newest
// snapshot back byte-identical and finds the repository whole (`restic check --read-data`). A
// deleted client's repository leaves the target with the next copy. Elsewhere it is skipped.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import { serveResticTarget } from '../testing/backup-target.ts';
import { liveSkipReason, randomTestAddresses } from '../testing/live.ts';
import { makeTestClient, removeTestClient, testClient } from '../testing/network.ts';
import {
  clientMirrorPaths,
  clientMirrorRepository,
  mirrorClients,
  offNodeTimes,
  restoreClientsOnce,
  type ClientMirrorPaths,
} from './client-mirror.ts';
import { createRestic } from './restic.ts';

const reason = await liveSkipReason('backup clients’ copy off the node test', ['restic', 'rclone', 'ip']);

const SERVICE = randomUUID();
const [ADDRESS] = randomTestAddresses(1) as [string];
const HOST = testClient(Number(ADDRESS.split('.')[2]));
const PORT = 8000;
const LOGIN = { user: 'node', pass: randomBytes(18).toString('base64url') };
const TARGET = {
  url: `rest:http://${LOGIN.user}:${LOGIN.pass}@${HOST.address}:${PORT}/${SERVICE}-clients`,
  password: randomBytes(32).toString('base64url'),
};
/** The client's own key: the node never has it. */
const CLIENT_KEY = 'client-key-the-node-never-sees';

let work: string;
let server: ChildProcess | undefined;

/** One node's side: its backups folder and clients' folder. */
async function node(name: string): Promise<ClientMirrorPaths> {
  const dir = join(work, name, 'backups', SERVICE);
  const root = join(dir, 'clients');
  await mkdir(root, { recursive: true, mode: 0o700 });
  return clientMirrorPaths(dir, root);
}

const resticOf = (paths: ClientMirrorPaths) => createRestic(clientMirrorRepository(paths, TARGET));
const deps = (paths: ClientMirrorPaths) => ({
  paths,
  restic: resticOf(paths),
  target: TARGET,
  logger: silentLogger,
});

/** The client's restic on its repository in a node's clients' folder (as rclone serves it). */
function client(paths: ClientMirrorPaths, name: string, args: string[], cwd?: string) {
  return runCommand('restic', args, {
    check: true,
    timeoutMs: 120_000,
    ...(cwd ? { cwd } : {}),
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      RESTIC_REPOSITORY: join(paths.root, name),
      RESTIC_PASSWORD: CLIENT_KEY,
      RESTIC_CACHE_DIR: join(work, 'client-cache'),
    },
  });
}

/** A push of the client's folder `source` holding `files`. */
async function push(paths: ClientMirrorPaths, name: string, files: Record<string, Buffer>) {
  const source = join(work, `source-${name}`);
  await rm(source, { recursive: true, force: true });
  await mkdir(source, { recursive: true });
  for (const [file, bytes] of Object.entries(files)) await writeFile(join(source, file), bytes);
  await client(paths, name, ['backup', '--host=laptop', '.'], source);
}

describe.skipIf(reason !== undefined)(
  'the backup clients’ repositories off the node (root, restic, a target host)',
  { shuffle: false, timeout: 180_000 },
  () => {
    let a: ClientMirrorPaths;
    let b: ClientMirrorPaths;
    const first = { 'report.pdf': randomBytes(200_000), 'notes.txt': Buffer.from('first\n') };
    const second = { 'report.pdf': randomBytes(300_000), 'notes.txt': Buffer.from('second\n') };

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'agent-client-mirror-'));
      await makeTestClient(HOST, []);
      const store = join(work, 'target');
      await mkdir(store);
      server = (await serveResticTarget(HOST, { port: PORT, login: LOGIN, store })).process;
      a = await node('a');
      b = await node('b');
    });

    afterAll(async () => {
      server?.kill('SIGKILL');
      await removeTestClient(HOST);
      if (work) await rm(work, { recursive: true, force: true });
    });

    it('takes no copy before the node has restored what the target held (nothing, the first time)', async () => {
      await client(a, 'laptop', ['init']);
      await push(a, 'laptop', first);
      expect(await mirrorClients(deps(a))).toBe(false);
      expect(await restoreClientsOnce(deps(a))).toEqual([]);
      // The folder held a repository already: nothing was restored, the marker says it was checked.
      expect(await readdir(a.dir)).toContain('clients-restored');
    });

    it('copies once per change, and never while a push holds a live lock', async () => {
      expect(await mirrorClients(deps(a))).toBe(true);
      expect(await mirrorClients(deps(a))).toBe(false);
      expect([...(await offNodeTimes(a)).keys()]).toEqual(['laptop']);

      await push(a, 'laptop', second);
      const lock = join(a.root, 'laptop', 'locks', 'f'.repeat(64));
      await writeFile(lock, 'a push under way');
      expect(await mirrorClients(deps(a))).toBe(false);
      await rm(lock);
      expect(await mirrorClients(deps(a))).toBe(true);
      const copies = JSON.parse(
        (await resticOf(a).output(['--no-lock', 'snapshots', '--json'])) || '[]',
      ) as unknown[];
      expect(copies).toHaveLength(2);
    });

    it('restores the newest copy on a new node once; the client reads its push back whole', async () => {
      await rm(join(work, 'a'), { recursive: true, force: true });
      const actions = await restoreClientsOnce(deps(b));
      expect(actions.join('\n')).toMatch(/restored 1 backup client repositories/);
      expect(await restoreClientsOnce(deps(b))).toEqual([]);

      await client(b, 'laptop', ['check', '--read-data']);
      const out = join(work, 'restored');
      await client(b, 'laptop', ['restore', 'latest', '--target', out]);
      for (const [file, bytes] of Object.entries(second))
        expect(await readFile(join(out, file))).toEqual(bytes);
      // The restored state is the copy's: no new copy until the client pushes again.
      expect(await mirrorClients(deps(b))).toBe(false);
    });

    it('a deleted client’s repository leaves the target with the next copy', async () => {
      await client(b, 'desktop', ['init']);
      await push(b, 'desktop', { 'a.txt': Buffer.from('desktop\n') });
      expect(await mirrorClients(deps(b))).toBe(true);
      await rm(join(b.root, 'laptop'), { recursive: true, force: true });
      expect(await mirrorClients(deps(b))).toBe(true);
      const copies = JSON.parse(await resticOf(b).output(['--no-lock', 'snapshots', '--json'])) as {
        paths: string[];
      }[];
      expect(copies).toHaveLength(1);
      const listing = await resticOf(b).output(['--no-lock', 'ls', 'latest']);
      expect(listing).toContain('/desktop');
      expect(listing).not.toContain('/laptop');
      expect([...(await offNodeTimes(b)).keys()]).toEqual(['desktop']);
    });
  },
);
