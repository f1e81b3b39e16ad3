// Backups off the node (issue 37 part 5), with the real restic, as root: the backup target is a
// separate "host", a network namespace of this test's own joined to the node by a veth pair, in
// which `rclone serve restic` (with a login) keeps the repositories in a folder of the test's.
// Node A backs a live workspace up there with only the repository URL and key the desired state
// gives it; then node A dies (its workspace's daemons killed, its network and data folder
// deleted, nothing asked of its agent). Node B, a fresh agent with a data folder of its own and
// nothing local, gets the same workspace with the same URL and key: it browses A's snapshot,
// restores a file from it byte-identical, and its own backup lands in the same repository (opened,
// not made again). The login's password appears in no job's error. Elsewhere it is skipped with
// the reason.
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  WORKSPACE_ID_FIRST_BASE,
  type BackupJobReport,
  type BackupNodeJob,
  type BackupReport,
  type NodeCallResultRequest,
  type NodeReportRequest,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { repositoryPaths } from './backup/repository.ts';
import type { Driver } from './drivers/driver.ts';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { createReconcileMemory, reconcileOnce, type ReconcileMemory } from './reconcile.ts';
import { browseSnapshot } from './testing/browse-call.ts';
import { desiredUser, desiredWorkspace } from './testing/desired.ts';
import { forceCleanWorkspace, liveSkipReason, randomTestAddresses } from './testing/live.ts';
import { serveResticTarget } from './testing/backup-target.ts';
import { makeTestClient, removeTestClient, removeTestNetworks, testClient } from './testing/network.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = ['restic', 'rclone', 'losetup', 'mkfs.ext4', 'ip', 'nsenter', 'unshare'];
const reason = await liveSkipReason('backup target test', PROGRAMS);

const B = WORKSPACE_ID_FIRST_BASE;
const SERVICE = `target-${randomUUID()}`;
const [ADDRESS] = randomTestAddresses(1) as [string];
const [third] = ADDRESS.split('.').slice(2, 3).map(Number) as [number];
const HOST = testClient(third);
const PORT = 8000;
const LOGIN = { user: 'node', pass: randomBytes(18).toString('base64url') };
/** The API's key for the workspace's repository (api: backup-target.ts makes one the same way). */
const KEY = randomBytes(32).toString('base64url');
const TARGET = {
  url: `rest:http://${LOGIN.user}:${LOGIN.pass}@${HOST.address}:${PORT}/${SERVICE}`,
  password: KEY,
};
const BIG = randomBytes(300_000);

let store: string;
let server: ChildProcess | undefined;

/** One storage node: an agent's drivers, memory and data folder. */
interface TestNode {
  dataDir: string;
  drivers: readonly Driver[];
  memory: ReconcileMemory;
  generation: number;
}

async function makeNode(): Promise<TestNode> {
  return {
    dataDir: await mkdtemp(join(tmpdir(), 'agent-target-')),
    drivers: createDefaultDrivers({ live: true, addressPool: [ADDRESS], clientRoutes: [] }),
    memory: createReconcileMemory(),
    generation: 0,
  };
}

const layout = (node: TestNode) => workspaceLayout(join(node.dataDir, 'workspaces', SERVICE));
const storage = (node: TestNode, path: string) => join(layout(node).dataRoot, path);

function state(jobs: BackupNodeJob[]): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: SERVICE,
    address: ADDRESS,
    storage_bytes: 96 * 1024 * 1024,
    id_base: B,
    users: [desiredUser('alice', B + 1)],
    backup: { jobs, clients: [], client_repositories: [], repository: TARGET },
  });
}

async function pass(node: TestNode, desired: WorkspaceDesiredState): Promise<BackupReport> {
  node.generation += 1;
  const reports: NodeReportRequest[] = [];
  await reconcileOnce(
    {
      api: {
        desiredState: () =>
          Promise.resolve({
            node_id: randomUUID(),
            workspaces: [{ ...desired, generation: node.generation }],
          }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir: node.dataDir,
      addresses: [ADDRESS],
      agentVersion: 'test',
      drivers: node.drivers,
      logger: silentLogger,
      run: runCommand,
      fullCheckEvery: 1,
    },
    node.memory,
  );
  const report = reports[0]!.workspaces[0]!;
  expect(report.error).toBeUndefined();
  const backup = report.features?.backup;
  if (!backup) throw new Error(`no backup section: ${JSON.stringify(report)}`);
  return backup;
}

/** Lists `jobs` until all have ended (passes as the API would poll), bounded. */
async function runJobs(node: TestNode, ...jobs: BackupNodeJob[]): Promise<BackupJobReport[]> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const report = await pass(node, state(jobs));
    const done = jobs.map((job) => report.jobs.find((reported) => reported.id === job.id));
    if (done.every((job) => job !== undefined && job.status !== 'running')) return done as BackupJobReport[];
    if (Date.now() > deadline) throw new Error(`jobs still running: ${JSON.stringify(report.jobs)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const backup = (): BackupNodeJob => ({
  id: randomUUID(),
  kind: 'backup',
  type: 'full',
  paths: ['shares/docs'],
  tags: ['s1'],
  retention: null,
});

async function browse(node: TestNode, snapshot: string, path: string): Promise<NodeCallResultRequest> {
  return browseSnapshot(
    {
      handlers: node.drivers,
      applied: (id) => node.memory.applied.get(id),
      layout: () => layout(node),
      dataDir: node.dataDir,
      run: runCommand,
      logger: silentLogger,
    },
    SERVICE,
    snapshot,
    path,
  );
}

/** What a dead node leaves: nothing. Its daemons are killed and its folders and network go. */
async function destroy(node: TestNode): Promise<void> {
  const context = { dataDir: node.dataDir, logger: silentLogger, run: runCommand };
  await Promise.all(node.drivers.flatMap((driver) => (driver.stop ? [driver.stop(context)] : [])));
  await forceCleanWorkspace(layout(node), []);
  await removeTestNetworks([SERVICE], [ADDRESS]);
  await rm(node.dataDir, { recursive: true, force: true });
}

const nodes: TestNode[] = [];

describe.skipIf(reason !== undefined)(
  'backups on a backup target off the node (root, real restic and rclone)',
  { shuffle: false, timeout: 180_000 },
  () => {
    let a: TestNode;
    let b: TestNode;
    let made: BackupJobReport;

    beforeAll(async () => {
      store = await mkdtemp(join(tmpdir(), 'backup-target-'));
      await makeTestClient(HOST, []);
      // The target's own process, in its namespace: the node reaches it only over the veth.
      server = (await serveResticTarget(HOST, { port: PORT, login: LOGIN, store })).process;
    });

    afterAll(async () => {
      if (process.env.KEEP_LIVE) return;
      for (const node of nodes) await destroy(node).catch(() => undefined);
      server?.kill('SIGKILL');
      await removeTestClient(HOST);
      if (store) await rm(store, { recursive: true, force: true });
    });

    it('node A backs the workspace up on the target, with only the URL and key it was given', async () => {
      a = await makeNode();
      nodes.push(a);
      await pass(a, state([]));
      await mkdir(storage(a, 'shares/docs/sub'), { recursive: true });
      await writeFile(storage(a, 'shares/docs/a.txt'), 'the report\n');
      await writeFile(storage(a, 'shares/docs/sub/big.bin'), BIG);

      [made] = (await runJobs(a, backup())) as [BackupJobReport];
      expect(made).toMatchObject({ status: 'completed', files: 2, files_new: 2 });
      expect(made.snapshot_id).toMatch(/^[0-9a-f]{64}$/);
      // The repository is on the target, not the node; the node holds the API's key (0600) alone.
      expect(await readdir(join(store, SERVICE))).toEqual(
        expect.arrayContaining(['config', 'data', 'index', 'keys', 'snapshots']),
      );
      const paths = repositoryPaths(a.dataDir, SERVICE, TARGET);
      expect(await readFile(paths.password, 'utf8')).toBe(KEY);
      expect((await stat(paths.password)).mode & 0o777).toBe(0o600);
      expect(await readdir(paths.dir)).not.toContain('repository');
      const report = await pass(a, state([]));
      expect(report.snapshot_ids).toEqual([made.snapshot_id]);
      expect(report.usage!.repository_bytes).toBeGreaterThan(BIG.length);
    });

    it('node A dies; node B, with nothing local, browses and restores its backup', async () => {
      await destroy(a);
      b = await makeNode();
      nodes.push(b);
      await pass(b, state([]));
      expect(await readdir(storage(b, 'shares')).catch(() => [])).not.toContain('docs');

      const root = await browse(b, made.snapshot_id!, '/shares/docs');
      if (!root.ok) throw new Error(`browse refused: ${root.code} ${root.error}`);
      expect(
        (root.result as { entries: Array<{ name: string; type: string }> }).entries.map((entry) => [
          entry.name,
          entry.type,
        ]),
      ).toEqual([
        ['a.txt', 'file'],
        ['sub', 'dir'],
      ]);

      await mkdir(storage(b, 'shares/docs'), { recursive: true });
      const [restored] = await runJobs(b, {
        id: randomUUID(),
        kind: 'restore',
        snapshot_id: made.snapshot_id!,
        path: '/shares/docs/sub',
        target: 'original',
      });
      expect(restored).toMatchObject({ status: 'completed' });
      expect((await readFile(storage(b, 'shares/docs/sub/big.bin'))).equals(BIG)).toBe(true);
    });

    it("node B's own backup goes to the same repository, opened and not made again", async () => {
      const keys = await readdir(join(store, SERVICE, 'keys'));
      await writeFile(storage(b, 'shares/docs/b.txt'), 'written on B\n');
      const [second] = (await runJobs(b, backup())) as [BackupJobReport];
      expect(second).toMatchObject({ status: 'completed' });
      expect(await readdir(join(store, SERVICE, 'keys'))).toEqual(keys);
      const report = await pass(b, state([]));
      expect(report.snapshot_ids).toEqual([made.snapshot_id, second.snapshot_id]);
    });

    it("a target that refuses the login fails the job with restic's words and no password", async () => {
      const wrong = `rest:http://${LOGIN.user}:not-${LOGIN.pass}@${HOST.address}:${PORT}/${SERVICE}`;
      const job = backup();
      const desired = state([job]);
      desired.backup!.repository = { url: wrong, password: KEY };
      const deadline = Date.now() + 90_000;
      let failed: BackupJobReport | undefined;
      while (!failed) {
        const report = await pass(b, desired);
        failed = report.jobs.find((reported) => reported.id === job.id && reported.status !== 'running');
        if (Date.now() > deadline) throw new Error('the job did not end');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(failed.status).toBe('failed');
      expect(failed.error).toBeDefined();
      expect(failed.error).not.toContain(LOGIN.pass);
      await unlink(storage(b, 'shares/docs/b.txt'));
    });
  },
);
