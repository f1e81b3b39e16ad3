// Issue 14, acceptance point 2, against the real programs as root: two workspaces on one node,
// each in its own network namespace joined to the node by a veth pair, each with a user `alice`
// of its own password. smbclient on the node reaches each at its own address with its own
// password (the other's is refused); from inside one workspace's namespace the other's SMB port
// is unreachable, even after a root daemon there adds a default route of its own. The network is
// kept in place by files alone on a no-op pass, adopted by a fresh agent, moved with a changed
// address, and deleted with the workspace. Skipped with its reason where it cannot run.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { WORKSPACE_ID_BLOCK, WORKSPACE_ID_FIRST_BASE } from '@debesis/contract';
import { createDefaultDrivers } from './drivers/registry.ts';
import { runCommand, type CommandRunner } from './exec/run-command.ts';
import { silentLogger } from './logger.ts';
import { canConnect } from './net/wait-for-port.ts';
import { createReconcileMemory, reconcileOnce, type ReconcileMemory } from './reconcile.ts';
import { exists, firstMissingProgram, isRoot } from './system/host.ts';
import { loopDevicesOf } from './system/loop-devices.ts';
import { mountAt } from './system/mounts.ts';
import {
  NODE_LINK_ADDRESS,
  networkNames,
  networkPresent,
  netnsPath,
  readRoutes,
  routedThrough,
} from './system/netns.ts';
import { processArgv } from './system/processes.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { removeTestNetworks } from './testing/network.ts';
import { workspaceLayout } from './workspace-layout.ts';

const PROGRAMS = [
  'smbd',
  'smbclient',
  'testparm',
  'pdbedit',
  'smbcontrol',
  'losetup',
  'mkfs.ext4',
  'ip',
  'unshare',
  'nsenter',
];

async function skipReason(): Promise<string | undefined> {
  if (!isRoot()) return 'not root';
  const missing = await firstMissingProgram(PROGRAMS);
  if (missing) return `${missing} is not installed`;
  if (!(await exists('/dev/loop-control'))) return 'no loop devices';
  return undefined;
}
const reason = await skipReason();
if (reason) console.warn(`[agent] live network namespace test skipped: ${reason}`);

const PORT = 445;
// Outside the embedded node's default pool (198.18.0.x); random, so parallel runs do not meet.
const third = Math.floor(Math.random() * 256);
const octet = 1 + Math.floor(Math.random() * 250);
const A = {
  id: `net-a-${randomUUID()}`,
  address: `198.19.${third}.${octet}`,
  base: WORKSPACE_ID_FIRST_BASE,
  password: 'Alice-of-A-1',
};
const B = {
  id: `net-b-${randomUUID()}`,
  address: `198.19.${third}.${octet + 1}`,
  base: WORKSPACE_ID_FIRST_BASE + WORKSPACE_ID_BLOCK,
  password: 'Alice-of-B-2',
};
/** Where A moves in the address-change test. */
const A_MOVED = `198.19.${third}.${octet + 2}`;
const POOL = [A.address, B.address, A_MOVED];
type Workspace = typeof A;

let dataDir: string;
let generation = 0;
const commands: string[] = [];
const recordingRun: CommandRunner = (command, args, options) => {
  commands.push([command, ...args].join(' '));
  return runCommand(command, args, options);
};
const layoutOf = (ws: Workspace) => workspaceLayout(join(dataDir, 'workspaces', ws.id));

function state(ws: Workspace, address = ws.address): WorkspaceDesiredState {
  return desiredWorkspace({
    service_id: ws.id,
    address,
    storage_bytes: 64 * 1024 * 1024,
    id_base: ws.base,
    users: [desiredUser('alice', ws.base + 1, { primary_gid: ws.base, password: ws.password })],
    samba: {
      shares: [desiredShare('files', { users: [{ name: 'alice', ...perms(true, true) }] })],
      settings: { workgroup: 'WORKGROUP', server_string: 'Debesis', min_protocol: 'SMB2' },
    },
  });
}

/** One reconcile pass over both workspaces (each `states` entry is one), reports by service id. */
async function pass(states: WorkspaceDesiredState[], memory: ReconcileMemory) {
  generation += 1;
  const reports: NodeReportRequest[] = [];
  const result = await reconcileOnce(
    {
      api: {
        desiredState: () =>
          Promise.resolve({ node_id: randomUUID(), workspaces: states.map((s) => ({ ...s, generation })) }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir,
      addresses: POOL,
      agentVersion: 'test',
      drivers: createDefaultDrivers({ live: true, smbPort: PORT, addressPool: POOL }),
      logger: silentLogger,
      run: recordingRun,
      fullCheckEvery: 1,
    },
    memory,
  );
  const byId = new Map<string, WorkspaceReport>(reports[0]!.workspaces.map((r) => [r.service_id, r]));
  return { result, a: byId.get(A.id)!, b: byId.get(B.id)! };
}

/** smbclient from the node, or (`from`) from inside a workspace's network namespace. */
async function smbList(address: string, password: string, from?: Workspace) {
  const smbclient = [`//${address}/files`, '-p', String(PORT), '-U', 'alice', '-m', 'SMB3', '-c', 'ls'];
  const netns = from && `--net=${netnsPath(networkNames(from.id).netns)}`;
  const result = await runCommand(
    netns ? 'nsenter' : 'smbclient',
    netns ? [netns, '--', 'smbclient', ...smbclient] : smbclient,
    { env: { ...process.env, PASSWD: password }, timeoutMs: 60_000 },
  );
  return { ok: result.ok, output: `${result.stdout}\n${result.stderr}` };
}

async function smbdPid(ws: Workspace): Promise<number | undefined> {
  const text = await readFile(layoutOf(ws).samba.processFile, 'utf8').catch(() => undefined);
  return text ? (JSON.parse(text) as { pid: number }).pid : undefined;
}

/** The namespace a process is in, as the kernel names it (`net:[4026532…]`). */
async function netOf(pid: number | 'self'): Promise<string> {
  return (await runCommand('readlink', [`/proc/${pid}/ns/net`], { check: true })).stdout.trim();
}

async function cleanUp(ws: Workspace): Promise<void> {
  const l = layoutOf(ws);
  const pid = await smbdPid(ws);
  if (pid && (await processArgv(pid))) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  if (await mountAt(l.dataRoot)) await runCommand('umount', ['-l', l.dataRoot]);
  for (const device of await loopDevicesOf(l.image)) await runCommand('losetup', ['-d', device]);
}

// One story on two live workspaces: each step starts where the one before left them (building
// them costs seconds), so its steps keep their order when tests are shuffled.
describe.skipIf(reason !== undefined)(
  'a network of its own per workspace (root, real smbd)',
  { timeout: 120_000, shuffle: false },
  () => {
    const memory = createReconcileMemory();

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-netns-'));
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      await cleanUp(A);
      await cleanUp(B);
      await removeTestNetworks([A.id, B.id], POOL);
      await rm(dataDir, { recursive: true, force: true });
    });

    it('each workspace serves its own alice at its own address from a namespace of its own', async () => {
      const { a, b } = await pass([state(A), state(B)], memory);
      expect(a.error ?? '').toBe('');
      expect(b.error ?? '').toBe('');
      expect(a.ok && b.ok).toBe(true);

      // Two namespaces, neither the node's; each smbd in its own.
      const [pidA, pidB] = [await smbdPid(A), await smbdPid(B)];
      const [netA, netB, node] = [await netOf(pidA!), await netOf(pidB!), await netOf('self')];
      expect(new Set([netA, netB, node]).size).toBe(3);
      const routes = await readRoutes();
      for (const ws of [A, B]) {
        const names = networkNames(ws.id);
        expect(await networkPresent(names)).toEqual({ netns: true, link: true });
        expect(routedThrough(routes, ws.address, names.nodeInterface)).toBe(true);
        expect(
          (await readFile(`/proc/sys/net/ipv4/conf/${names.nodeInterface}/forwarding`, 'utf8')).trim(),
        ).toBe('0');
        // Inside: the address, a way back to the node end, and no default route.
        const inside = await runCommand('ip', ['-n', names.netns, '-o', '-4', 'route', 'show'], {
          check: true,
        });
        expect(inside.stdout).not.toMatch(/^default/m);
        expect(inside.stdout).toContain(`${NODE_LINK_ADDRESS} dev ws0`);
      }

      // From the node: each alice with her own password, and not with the other's.
      for (const [own, other] of [
        [A, B],
        [B, A],
      ] as const) {
        const mine = await smbList(own.address, own.password);
        expect(mine.ok, mine.output).toBe(true);
        const theirs = await smbList(own.address, other.password);
        expect(theirs.ok).toBe(false);
        expect(theirs.output).toContain('NT_STATUS_LOGON_FAILURE');
      }
    });

    it('from inside one workspace’s namespace the other’s SMB port is unreachable', async () => {
      // Inside A, A's own smbd answers (the client works there)…
      const own = await smbList(A.address, A.password, A);
      expect(own.ok, own.output).toBe(true);
      // …but B's does not: A has no route to it.
      const other = await smbList(B.address, B.password, A);
      expect(other.ok).toBe(false);
      expect(other.output).toMatch(
        /NT_STATUS_(HOST|NETWORK)_UNREACHABLE|NT_STATUS_IO_TIMEOUT|NT_STATUS_CONNECTION/,
      );

      // A root daemon in A may add routes of its own: the node end does not forward, so B stays
      // out of reach; B's namespace has no way back to A either.
      const names = networkNames(A.id);
      await runCommand(
        'ip',
        ['-n', names.netns, 'route', 'add', 'default', 'via', NODE_LINK_ADDRESS, 'dev', 'ws0'],
        { check: true },
      );
      try {
        const routed = await smbList(B.address, B.password, A);
        expect(routed.ok).toBe(false);
        const probe = await runCommand('nsenter', [
          `--net=${netnsPath(names.netns)}`,
          '--',
          'timeout',
          '5',
          'bash',
          '-c',
          `exec 3<>/dev/tcp/${B.address}/${PORT}`,
        ]);
        expect(probe.ok).toBe(false);
      } finally {
        await runCommand('ip', ['-n', names.netns, 'route', 'del', 'default']);
      }
      // The node still reaches both.
      expect(await canConnect(A.address, PORT)).toBe(true);
      expect(await canConnect(B.address, PORT)).toBe(true);
    });

    it('a second pass runs no program; a fresh agent adopts the networks and smbds as they are', async () => {
      const pids = [await smbdPid(A), await smbdPid(B)];
      commands.length = 0;
      const again = await pass([state(A), state(B)], memory);
      expect(again.result.actions).toEqual([]);
      expect(commands).toEqual([]);

      const restarted = await pass([state(A), state(B)], createReconcileMemory());
      expect(restarted.a.ok && restarted.b.ok).toBe(true);
      expect(restarted.result.actions).toEqual([]);
      expect(commands).toEqual([]);
      expect([await smbdPid(A), await smbdPid(B)]).toEqual(pids);
    });

    it('a changed address moves: the old one is gone from the node, alice is reached at the new one', async () => {
      const { a } = await pass([state(A, A_MOVED), state(B)], memory);
      expect(a.error ?? '').toBe('');
      const routes = await readRoutes();
      const names = networkNames(A.id);
      expect(routedThrough(routes, A_MOVED, names.nodeInterface)).toBe(true);
      expect(routedThrough(routes, A.address, names.nodeInterface)).toBe(false);
      const inside = await runCommand('ip', ['-n', names.netns, '-o', '-4', 'addr', 'show', 'dev', 'ws0']);
      expect(inside.stdout).toContain(`${A_MOVED}/32`);
      expect(inside.stdout).not.toContain(`${A.address}/32`);
      const moved = await smbList(A_MOVED, A.password);
      expect(moved.ok, moved.output).toBe(true);
      // The old address is the pool's again: nothing answers, and it does not leave the machine.
      expect(await canConnect(A.address, PORT)).toBe(false);
      expect((await runCommand('ip', ['route', 'get', A.address])).ok).toBe(false);
    });

    it('a namespace deleted by hand is made again, and smbd starts again inside the new one', async () => {
      const names = networkNames(A.id);
      const before = await smbdPid(A);
      await runCommand('ip', ['link', 'del', names.nodeInterface], { check: true });
      await runCommand('ip', ['netns', 'del', names.netns], { check: true });
      const { a } = await pass([state(A, A_MOVED), state(B)], memory);
      expect(a.error ?? '').toBe('');
      expect(await networkPresent(names)).toEqual({ netns: true, link: true });
      const after = await smbdPid(A);
      expect(after).not.toBe(before);
      expect(before && (await processArgv(before))).toBeFalsy();
      const listed = await smbList(A_MOVED, A.password);
      expect(listed.ok, listed.output).toBe(true);
    });

    it('refuses a loopback address (the pool before namespaces) with what to set instead', async () => {
      const loopback = '127.0.10.9';
      const driver = createDefaultDrivers({ live: true, addressPool: [loopback] }).find(
        (d) => d.name === 'network',
      )!;
      const id = `net-lo-${randomUUID()}`;
      await expect(
        driver.apply(state({ ...A, id }, loopback), {
          dataDir,
          workspaceDir: join(dataDir, 'workspaces', id),
          logger: silentLogger,
          run: recordingRun,
        }),
      ).rejects.toThrow(/127\.0\.10\.9 is a loopback address .* AGENT_ADDRESS_POOL/);
      expect(await networkPresent(networkNames(id))).toEqual({ netns: false, link: false });
    });

    it('removal deletes the namespace, the veth and the route', async () => {
      const { a, b } = await pass(
        [
          { ...state(A, A_MOVED), state: 'removed' },
          { ...state(B), state: 'removed' },
        ],
        memory,
      );
      expect(a.ok && b.ok).toBe(true);
      const routes = await readRoutes();
      for (const [ws, address] of [
        [A, A_MOVED],
        [B, B.address],
      ] as const) {
        const names = networkNames(ws.id);
        expect(await networkPresent(names)).toEqual({ netns: false, link: false });
        expect(routedThrough(routes, address, names.nodeInterface)).toBe(false);
        expect(await exists(layoutOf(ws).root)).toBe(false);
      }
    });
  },
);
