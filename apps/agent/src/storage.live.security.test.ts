// Attacks 12.2 and 12.4 against the real programs, as root: two workspaces on one node, each
// with its own smbd. A workspace's daemon holds its own storage and nothing of the other's (so an
// offline resize of one is never blocked by the other), a resize that cannot be done leaves the
// workspace serving at its old size with the reason reported, and a disk downgrade shrinks the
// file system for real, or is refused, intact, when the data does not fit. Skipped with its
// reason where it cannot run (not root, no samba, no loop devices).
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { WORKSPACE_ID_FIRST_BASE, WORKSPACE_ID_BLOCK } from '@debesis/contract';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { canConnect } from './net/wait-for-port.ts';
import { createReconcileMemory, reconcileOnce } from './reconcile.ts';
import { exists } from './system/host.ts';
import { loopDevicesOf } from './system/loop-devices.ts';
import { mountAt, parseMountInfo } from './system/mounts.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { removeTestNetworks } from './testing/network.ts';
import {
  forceCleanWorkspace,
  LIVE_WORKSPACE_PROGRAMS,
  liveSkipReason,
  randomTestAddresses,
} from './testing/live.ts';
import { workspaceLayout } from './workspace-layout.ts';

const reason = await liveSkipReason('storage security test', [
  ...LIVE_WORKSPACE_PROGRAMS,
  'e2fsck',
  'resize2fs',
]);

const MB = 1024 * 1024;
const PORT = 445;
const SECRET_ENV = 'DEBESIS_LIVE_TEST_SECRET';
const [A_ADDRESS, B_ADDRESS] = randomTestAddresses(2) as [string, string];
const A = {
  id: `live-a-${randomUUID()}`,
  address: A_ADDRESS,
  base: WORKSPACE_ID_FIRST_BASE,
};
const B = {
  id: `live-b-${randomUUID()}`,
  address: B_ADDRESS,
  base: WORKSPACE_ID_FIRST_BASE + WORKSPACE_ID_BLOCK,
};
type Workspace = typeof A;

let dataDir: string;
let localDir: string;
let generation = 0;
const memory = createReconcileMemory();
const holders: ChildProcess[] = [];
const layoutOf = (ws: Workspace) => workspaceLayout(join(dataDir, 'workspaces', ws.id));

function state(ws: Workspace, storageMb: number): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: ws.id,
    address: ws.address,
    storage_bytes: storageMb * MB,
    id_base: ws.base,
    users: [desiredUser('alice', ws.base + 1, { primary_gid: ws.base })],
    samba: {
      shares: [desiredShare('files', { users: [{ name: 'alice', ...perms(true, true) }] })],
      settings: { workgroup: 'WORKGROUP', server_string: 'Debesis', min_protocol: 'SMB2' },
    },
  });
}

/** One reconcile pass over both workspaces; the reports by service id and how long it took. */
async function pass(states: WorkspaceDesiredState[]) {
  generation += 1;
  const reports: NodeReportRequest[] = [];
  const started = Date.now();
  await reconcileOnce(
    {
      api: {
        desiredState: () =>
          Promise.resolve({
            node_id: randomUUID(),
            workspaces: states.map((s) => ({ ...s, generation })),
          }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir,
      addresses: [A.address, B.address],
      agentVersion: 'test',
      drivers: createDefaultDrivers({ live: true, smbPort: PORT, addressPool: [A.address, B.address] }),
      logger: silentLogger,
      run: runCommand,
      fullCheckEvery: 1,
    },
    memory,
  );
  const byId = new Map<string, WorkspaceReport>(reports[0]!.workspaces.map((r) => [r.service_id, r]));
  return { a: byId.get(A.id)!, b: byId.get(B.id)!, ms: Date.now() - started };
}

async function smbdPid(ws: Workspace): Promise<number> {
  const text = await readFile(layoutOf(ws).samba.processFile, 'utf8');
  return (JSON.parse(text) as { pid: number }).pid;
}

async function smbList(ws: Workspace): Promise<{ ok: boolean; output: string }> {
  const result = await runCommand(
    'smbclient',
    [`//${ws.address}/files`, '-p', String(PORT), '-U', 'alice', '-c', 'ls'],
    { env: { ...process.env, PASSWD: 'alice-password' }, timeoutMs: 60_000 },
  );
  return { ok: result.ok, output: `${result.stdout}\n${result.stderr}` };
}

/** Writes `mb` MB of random bytes into the workspace's share; their sha256. */
async function putData(ws: Workspace, name: string, mb: number): Promise<string> {
  const bytes = randomBytes(mb * MB);
  await writeFile(join(layoutOf(ws).dataRoot, 'shares/files', name), bytes);
  return createHash('sha256').update(bytes).digest('hex');
}

async function hashOf(ws: Workspace, name: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(join(layoutOf(ws).dataRoot, 'shares/files', name)))
    .digest('hex');
}

async function fsSize(ws: Workspace): Promise<number> {
  const df = await runCommand('df', ['-B1', '--output=size', layoutOf(ws).dataRoot]);
  return Number(df.stdout.trim().split('\n')[1]);
}

const cleanUp = (ws: Workspace) => forceCleanWorkspace(layoutOf(ws));

// One story on one pair of live workspaces: each step starts where the one before left them
// (building them costs seconds), so its steps keep their order when tests are shuffled.
describe.skipIf(reason !== undefined)(
  'storage of two workspaces on one node (root, real smbd)',
  { timeout: 120_000, shuffle: false },
  () => {
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-storage-'));
      localDir = await mkdtemp(join(tmpdir(), 'agent-storage-local-'));
      // The node's credential lives in the data folder: no workspace's daemon may read it.
      await writeFile(join(dataDir, 'node.json'), '{"node_token":"secret"}\n', { mode: 0o600 });
      process.env[SECRET_ENV] = 'agent-secret';
    });

    afterAll(async () => {
      delete process.env[SECRET_ENV];
      for (const holder of holders) holder.kill('SIGKILL');
      if (!dataDir || process.env.KEEP_LIVE) return;
      await cleanUp(A);
      await cleanUp(B);
      await removeTestNetworks([A.id, B.id], [A.address, B.address]);
      await rm(dataDir, { recursive: true, force: true });
      await rm(localDir, { recursive: true, force: true });
    });

    it('attack 12.2: each daemon sees only its own storage, not the other workspace, the node token or the agent environment', async () => {
      const { a, b } = await pass([state(A, 64), state(B, 64)]);
      expect(a.error ?? '').toBe('');
      expect(b.error ?? '').toBe('');
      expect(a.ok && b.ok).toBe(true);
      await putData(A, 'a.bin', 1);
      await putData(B, 'b.bin', 1);

      for (const [own, other] of [
        [A, B],
        [B, A],
      ] as const) {
        const pid = await smbdPid(own);
        const mounts = parseMountInfo(await readFile(`/proc/${pid}/mountinfo`, 'utf8'));
        const storage = mounts.filter((m) => m.fsType === 'ext4' && m.source.startsWith('/dev/loop'));
        // Exactly one storage: its own, at /srv.
        expect(storage.map((m) => m.mountPoint)).toEqual(['/srv']);
        expect(await loopDevicesOf(layoutOf(own).image)).toContain(storage[0]!.source);
        const otherDevices = await loopDevicesOf(layoutOf(other).image);
        expect(mounts.filter((m) => otherDevices.includes(m.source))).toEqual([]);
        expect(mounts.filter((m) => m.mountPoint.startsWith(layoutOf(other).root))).toEqual([]);
        // Nothing of the other workspace nor the node token is reachable from inside.
        const inside = (path: string) => exists(`/proc/${pid}/root${path}`);
        expect(await inside(join(dataDir, 'node.json'))).toBe(false);
        expect(await inside(layoutOf(other).root)).toBe(false);
        expect(await inside(layoutOf(own).samba.conf)).toBe(true);
        expect(await inside(`/srv/shares/files/${own === A ? 'a' : 'b'}.bin`)).toBe(true);
        const environ = await readFile(`/proc/${pid}/environ`, 'utf8');
        expect(environ).not.toContain(SECRET_ENV);
        expect((await smbList(own)).output).toContain(own === A ? 'a.bin' : 'b.bin');
      }
    });

    it('attack 12.2: an offline upgrade of one workspace with the other running is back within seconds; the other is untouched', async () => {
      const before = await hashOf(A, 'a.bin');
      const otherPid = await smbdPid(B);
      const { a, b, ms } = await pass([state(A, 96), state(B, 64)]);
      expect(a.error ?? '').toBe('');
      expect(a.ok).toBe(true);
      expect(a.facts?.storage_bytes).toBe(96 * MB);
      expect(a.drivers.find((d) => d.driver === 'samba')).toMatchObject({ serving: true });
      expect(ms).toBeLessThan(15_000);
      expect(await fsSize(A)).toBeGreaterThan(80 * MB);
      expect(await canConnect(A.address, PORT)).toBe(true);
      expect(await hashOf(A, 'a.bin')).toBe(before);
      expect(b.ok).toBe(true);
      expect(await smbdPid(B)).toBe(otherPid);
    });

    it('attack 12.2: a grow that cannot release the image mounts again at the old size, serves, and says why', async () => {
      // Someone else holds A's file system (a copy of the node's mounts made now, as every daemon
      // namespace used to be): the offline resize cannot have the image to itself.
      const holder = spawn('unshare', ['--mount', '--propagation', 'private', 'sleep', '120'], {
        stdio: 'ignore',
      });
      holders.push(holder);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = await hashOf(A, 'a.bin');
      const { a, ms } = await pass([state(A, 128), state(B, 64)]);
      expect(ms).toBeLessThan(30_000);
      expect(a.ok).toBe(false);
      expect(a.error).toMatch(
        /storage stays 100663296 bytes: growing to 134217728 bytes failed: .*still in use/,
      );
      expect(a.facts?.storage_bytes).toBe(96 * MB);
      expect(a.facts?.started_at).toEqual(expect.any(String));
      expect(a.drivers.find((d) => d.driver === 'samba')).toMatchObject({ serving: true });
      expect(await mountAt(layoutOf(A).dataRoot)).toMatchObject({ fsType: 'ext4' });
      expect(await canConnect(A.address, PORT)).toBe(true);
      expect(await hashOf(A, 'a.bin')).toBe(before);
      // The next pass does not stop the daemon again for the same resize right away.
      const pid = await smbdPid(A);
      const again = await pass([state(A, 128), state(B, 64)]);
      expect(again.a.ok).toBe(false);
      expect(await smbdPid(A)).toBe(pid);

      // Once the holder is gone (and the retry delay over) the grow goes through. A namespace
      // another live test makes at that moment copies the node's mounts too and holds the image
      // for as long as it sets up: as the product does after its retry delay, try again.
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
      let grown = a;
      for (let attempt = 0; attempt < 5; attempt += 1) {
        await rm(join(layoutOf(A).root, 'storage-resize.json'), { force: true });
        grown = (await pass([state(A, 128), state(B, 64)])).a;
        if (!grown.error?.includes('still in use')) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      expect(grown.error ?? '').toBe('');
      expect(grown.facts?.storage_bytes).toBe(128 * MB);
      expect(await canConnect(A.address, PORT)).toBe(true);
    });

    it('attack 12.4: a downgrade shrinks the file system for real, the data intact', async () => {
      const kept = await putData(A, 'kept.bin', 20);
      const { a } = await pass([state(A, 64), state(B, 64)]);
      expect(a.error ?? '').toBe('');
      expect(a.ok).toBe(true);
      expect(a.facts?.storage_bytes).toBe(64 * MB);
      expect((await stat(layoutOf(A).image)).size).toBe(64 * MB);
      expect(await fsSize(A)).toBeLessThan(64 * MB);
      expect(await hashOf(A, 'kept.bin')).toBe(kept);
      expect((await smbList(A)).output).toContain('kept.bin');
    });

    it('attack 12.4: a shrink the data does not fit is refused with the reason; still mounted, old size, data intact', async () => {
      const more = await putData(A, 'more.bin', 30);
      const kept = await hashOf(A, 'kept.bin');
      const { a } = await pass([state(A, 32), state(B, 64)]);
      expect(a.ok).toBe(false);
      expect(a.error).toMatch(
        /storage stays 67108864 bytes: shrinking to 33554432 bytes was refused: the data needs/,
      );
      expect(a.drivers.find((d) => d.driver === 'storage')).toMatchObject({ refused_bytes: 32 * MB });
      expect(a.facts?.storage_bytes).toBe(64 * MB);
      expect((await stat(layoutOf(A).image)).size).toBe(64 * MB);
      expect(await mountAt(layoutOf(A).dataRoot)).toMatchObject({ fsType: 'ext4' });
      expect(await hashOf(A, 'more.bin')).toBe(more);
      expect(await hashOf(A, 'kept.bin')).toBe(kept);
      expect(await canConnect(A.address, PORT)).toBe(true);
      // Not tried again (no stop of the daemon) while the wanted size stays the same.
      const pid = await smbdPid(A);
      const again = await pass([state(A, 32), state(B, 64)]);
      expect(again.a.drivers.find((d) => d.driver === 'storage')).toMatchObject({ refused_bytes: 32 * MB });
      expect(await smbdPid(A)).toBe(pid);
      // Back to the size it has: applied, nothing refused.
      const back = await pass([state(A, 64), state(B, 64)]);
      expect(back.a.error ?? '').toBe('');
      expect(back.a.ok).toBe(true);
    });

    it('removes both: nothing is left mounted', async () => {
      const removed = (ws: Workspace) => ({ ...state(ws, 64), state: 'removed' as const });
      const { a, b } = await pass([removed(A), removed(B)]);
      expect(a.ok && b.ok).toBe(true);
      for (const ws of [A, B]) {
        expect(await mountAt(layoutOf(ws).dataRoot)).toBeUndefined();
        expect(await loopDevicesOf(layoutOf(ws).image)).toEqual([]);
      }
    });
  },
);
