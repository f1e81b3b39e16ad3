// Standby replicas between two agents' storages on this host, as root with the real btrfs (issue
// 37): two data folders, each with the folder and storage drivers, reconciled as the agent does;
// a tiny HTTP server stands in for the API's relay (GET /api/v1/nodes/replicas/:id/stream runs the
// primary's `replica.send` node call and pipes its stream, with its headers). The standby keeps
// only its top level mounted, with `replicas` and no `data`, and reports no drift; it pulls whole,
// then (its pull loop, a stopped primary: a move's final sync, asked by a new sync_token) only
// what changed; promoted (role primary) it makes `data` from its newest replica, byte for byte the
// primary's. Skipped, with the reason, where not root or without btrfs-progs.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pipeline } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REPLICA_NAME_HEADER,
  type NodeReportRequest,
  type WorkspaceDesiredState,
  type WorkspaceReport,
} from '@debesis/contract';
import { createApiClient } from '../api-client.ts';
import { runNodeCall } from '../calls/node-call.ts';
import { createStorageImageDriver } from '../drivers/storage-image.driver.ts';
import { workspaceDirDriver } from '../drivers/workspace-dir.driver.ts';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import {
  createReconcileMemory,
  reconcileOnce,
  type ReconcileMemory,
  type ReconcileResult,
} from '../reconcile.ts';
import { mountAt } from '../system/mounts.ts';
import { desiredWorkspace } from '../testing/desired.ts';
import { forceCleanWorkspace, liveSkipReason } from '../testing/live.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { workspaceDir } from '../workspace-paths.ts';
import { exists } from '../system/host.ts';
import { createPullLoop } from './pull-loop.ts';
import { pullReplica } from './replica-pull.ts';
import { listReplicas } from './replica-store.ts';

const reason = await liveSkipReason('replica test', ['mkfs.btrfs', 'btrfs', 'mount', 'umount', 'losetup']);

const MB = 1024 * 1024;
const SERVICE = `live-${randomUUID()}`;
const drivers = [workspaceDirDriver, createStorageImageDriver({ live: true })];

interface Node {
  dataDir: string;
  memory: ReconcileMemory;
  desired: WorkspaceDesiredState;
}
let root: string;
let primary: Node;
let standby: Node;
let server: Server;
let apiUrl: string;

const layoutOf = (node: Node) => workspaceLayout(workspaceDir(node.dataDir, SERVICE));
/** The last pass's result (what it applied, skipped, did). */
let last: ReconcileResult;

/** One reconcile pass of `node` as its agent makes it; its report of the workspace. */
async function pass(node: Node, change: Partial<WorkspaceDesiredState> = {}): Promise<WorkspaceReport> {
  if (Object.keys(change).length > 0)
    node.desired = { ...node.desired, ...change, generation: node.desired.generation + 1 };
  const reports: NodeReportRequest[] = [];
  last = await reconcileOnce(
    {
      api: {
        desiredState: async () => ({ node_id: randomUUID(), workspaces: [node.desired] }),
        report: async (_token, body) => {
          reports.push(body);
        },
      },
      nodeToken: 'token',
      dataDir: node.dataDir,
      addresses: [],
      agentVersion: 'test',
      drivers,
      logger: silentLogger,
      run: runCommand,
      fullCheckEvery: 1000,
    },
    node.memory,
  );
  return reports[0]!.workspaces[0]!;
}

/** The API's relay, for the primary: the stream call run there, its bytes and headers piped back. */
async function startRelay(): Promise<void> {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://relay');
    const match = /^\/api\/v1\/nodes\/replicas\/([^/]+)\/stream$/.exec(url.pathname);
    if (!match || request.method !== 'GET') {
      response.writeHead(404).end();
      return;
    }
    const parent = url.searchParams.get('parent') ?? undefined;
    void runNodeCall(
      {
        call_id: randomUUID(),
        kind: 'replica.send',
        service_id: decodeURIComponent(match[1]!),
        payload: parent ? { parent } : {},
        deadline: new Date(Date.now() + 30_000).toISOString(),
      },
      {
        handlers: drivers,
        applied: (id) => primary.memory.applied.get(id),
        layout: () => layoutOf(primary),
        dataDir: primary.dataDir,
        run: runCommand,
        logger: silentLogger,
      },
    ).then((answer) => {
      if (!('stream' in answer)) {
        response.writeHead(409, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ detail: answer.ok ? 'not a stream' : answer.error }));
        return;
      }
      const { stream } = answer;
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        [REPLICA_NAME_HEADER]: stream.name,
        ...stream.headers,
      });
      pipeline(stream.body, response, () => undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const api = () => createApiClient({ baseUrl: apiUrl, timeoutMs: 10_000 });
const pull = (signal = new AbortController().signal) =>
  pullReplica(
    SERVICE,
    { api: api(), nodeToken: 'token', layout: layoutOf(standby), run: runCommand },
    signal,
  );

/** Every file under `dir` by its relative path, with its bytes. */
async function tree(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path));
  }
  return files;
}

describe.skipIf(reason !== undefined)(
  'standby replicas between two storages (root, btrfs)',
  { shuffle: false, timeout: 120_000 },
  () => {
    beforeAll(async () => {
      root = await mkdtemp(join(tmpdir(), 'agent-replica-'));
      const base = desiredWorkspace({ service_id: SERVICE, generation: 1, storage_bytes: 300 * MB });
      primary = {
        dataDir: join(root, 'a'),
        memory: createReconcileMemory(),
        desired: { ...base, role: 'primary', failover: true },
      };
      standby = {
        dataDir: join(root, 'b'),
        memory: createReconcileMemory(),
        desired: { ...base, role: 'standby' },
      };
      await startRelay();
    });

    afterAll(async () => {
      server?.close();
      if (!root) return;
      for (const node of [primary, standby]) if (node) await forceCleanWorkspace(layoutOf(node), []);
      await rm(root, { recursive: true, force: true });
    });

    it('makes the standby a btrfs storage with replicas only, its top level alone mounted, without drift', async () => {
      expect((await pass(primary)).ok).toBe(true);
      const report = await pass(standby);
      expect(report).toMatchObject({ ok: true, observed_generation: 1 });
      expect(report.drivers.map((d) => d.driver)).toEqual(['workspace-dir', 'storage']);
      expect(report.features?.snapshots).toBeUndefined();
      expect(report.features?.replica).toBeUndefined();
      const layout = layoutOf(standby);
      expect(await mountAt(layout.pool)).toBeDefined();
      expect(await mountAt(layout.dataRoot)).toBeUndefined();
      expect(await exists(join(layout.pool, 'replicas'))).toBe(true);
      expect(await exists(join(layout.pool, 'data'))).toBe(false);
      // Observed next pass: no drift for the data it does not mount, so it is not applied again.
      expect((await pass(standby)).ok).toBe(true);
      expect(last.skipped).toEqual([SERVICE]);
      // The primary's storage has its replicas subvolume too.
      expect(await exists(join(layoutOf(primary).pool, 'replicas'))).toBe(true);
    });

    it('pulls the first replica whole, and reports it', async () => {
      const data = layoutOf(primary).dataRoot;
      await writeFile(join(data, 'big.bin'), randomBytes(16 * MB));
      await writeFile(join(data, 'note.txt'), 'first\n');
      const first = await pull();
      if (!first) throw new Error('nothing pulled');
      expect(first.parent).toBeUndefined();
      expect(first.bytes).toBeGreaterThan(16 * MB);
      const report = await pass(standby);
      expect(report.features?.replica).toMatchObject({ name: first.name, bytes: first.bytes });
      expect(await readFile(join(layoutOf(standby).pool, 'replicas', first.name, 'note.txt'), 'utf8')).toBe(
        'first\n',
      );
    });

    it('pulls what changed only, from a stopped primary, at once for a new sync_token (its pull loop)', async () => {
      const data = layoutOf(primary).dataRoot;
      await writeFile(join(data, 'note.txt'), 'second\n');
      await writeFile(join(data, 'new.txt'), 'written before the stop\n');
      // A move: the primary stops (its storage stays mounted), then the final sync.
      expect((await pass(primary, { state: 'stopped' })).ok).toBe(true);
      expect(await mountAt(data)).toBeDefined();
      const before = (await listReplicas(layoutOf(standby)))[0];
      // A receive cut short by a crash (never made read-only), named newer than anything: dropped,
      // never taken for a parent.
      const cut = join(layoutOf(standby).pool, 'replicas', 'r-20990101T000000000Z');
      await runCommand('btrfs', ['subvolume', 'create', cut], { check: true });
      standby.desired = { ...standby.desired, state: 'stopped', sync_token: 'final-1' };
      const pulled: string[] = [];
      const loop = createPullLoop({
        applied: () => [standby.desired],
        pull: async (id, signal) => {
          const got = await pull(signal);
          if (!got) throw new Error('nothing pulled');
          expect(got.parent).toBe(before);
          expect(got.bytes).toBeLessThan(MB);
          pulled.push(id);
          return true;
        },
        intervalMs: 3_600_000,
        logger: silentLogger,
      });
      await loop.tick();
      await loop.stop();
      expect(pulled).toEqual([SERVICE]);
      const held = await listReplicas(layoutOf(standby));
      expect(held).toHaveLength(2);
      expect(held[1]).toBe(before);
      expect(await exists(cut)).toBe(false);
      // The primary keeps what the standby may name next, not every replica it ever sent.
      expect((await listReplicas(layoutOf(primary))).length).toBeLessThanOrEqual(2);
    });

    it('promoted, makes data from its newest replica: byte for byte the primary’s', async () => {
      const newest = (await listReplicas(layoutOf(standby)))[0];
      // One arriving now (writable until whole) is not what a promotion serves.
      await runCommand(
        'btrfs',
        ['subvolume', 'create', join(layoutOf(standby).pool, 'replicas', 'r-20990101T000000000Z')],
        { check: true },
      );
      const report = await pass(standby, { role: 'primary', state: 'running', failover: false });
      expect(report).toMatchObject({ ok: true });
      expect(last.actions).toContain(`${SERVICE}: made data from replica ${newest}`);
      const promoted = layoutOf(standby);
      expect(await mountAt(promoted.dataRoot)).toBeDefined();
      expect(report.features?.snapshots).toMatchObject({ supported: true });
      const want = await tree(layoutOf(primary).dataRoot);
      const got = await tree(promoted.dataRoot);
      expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
      for (const [path, bytes] of want) expect(got.get(path)?.equals(bytes), path).toBe(true);
      // Writable, as a primary's data is.
      await writeFile(join(promoted.dataRoot, 'after.txt'), 'after the promotion\n');
    });

    it('removes both storages', async () => {
      for (const node of [primary, standby]) {
        expect((await pass(node, { state: 'removed' })).ok).toBe(true);
        expect(await mountAt(layoutOf(node).pool)).toBeUndefined();
        expect(await exists(layoutOf(node).image)).toBe(false);
      }
    });
  },
);
