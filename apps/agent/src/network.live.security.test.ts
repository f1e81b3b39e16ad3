// Issue 14, acceptance point 2, against the real programs as root: two workspaces on one node,
// each in its own network namespace joined to the node by a veth pair, each with a user `alice`
// of its own password. smbclient on the node reaches each at its own address with its own
// password (the other's is refused); from inside one workspace's namespace the other's SMB port
// is unreachable, even after a root daemon there adds a default route of its own. The network is
// kept in place by files alone on a no-op pass, adopted by a fresh agent, moved with a changed
// address, and deleted with the workspace.
//
// Clients beyond the node: the test makes a client network namespace of its own, joined to the node
// by a veth pair of its own in a /30 of 198.19.0.0/16 (forwarding on the node's end of that pair
// only; the client has routes to the pool's addresses and no default route). With no client routes
// a workspace answers nothing from there; with the client's /30 as the agent's client routes,
// smbclient in the client namespace lists and writes to each workspace, while from inside A, B's
// port stays unreachable with A's veth forwarding (even with a default route in A). The global
// ip_forward is never touched. Skipped with its reason where it cannot run.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
import { exists } from './system/host.ts';
import {
  GUARD_RULE_PRIORITY,
  NODE_LINK_ADDRESS,
  networkNames,
  networkPresent,
  netnsPath,
  readRoutes,
  routedThrough,
} from './system/netns.ts';
import { processArgv } from './system/processes.ts';
import { desiredShare, desiredUser, desiredWorkspace, perms } from './testing/desired.ts';
import { makeTestClient, removeTestClient, removeTestNetworks, testClient } from './testing/network.ts';
import {
  forceCleanWorkspace,
  LIVE_WORKSPACE_PROGRAMS,
  liveSkipReason,
  randomTestAddresses,
  recordedPid,
} from './testing/live.ts';
import { workspaceLayout } from './workspace-layout.ts';

const reason = await liveSkipReason('network namespace test', LIVE_WORKSPACE_PROGRAMS);

const PORT = 445;
const [A_ADDRESS, B_ADDRESS, A_MOVED] = randomTestAddresses(3) as [string, string, string];
const third = Number(A_ADDRESS.split('.')[2]);
const A = {
  id: `net-a-${randomUUID()}`,
  address: A_ADDRESS,
  base: WORKSPACE_ID_FIRST_BASE,
  password: 'Alice-of-A-1',
};
const B = {
  id: `net-b-${randomUUID()}`,
  address: B_ADDRESS,
  base: WORKSPACE_ID_FIRST_BASE + WORKSPACE_ID_BLOCK,
  password: 'Alice-of-B-2',
};
// A_MOVED: where A moves in the address-change test.
const POOL = [A.address, B.address, A_MOVED];
type Workspace = typeof A;

// The client: a /30 in another third octet of 198.19.0.0/16 than the pool's.
const CLIENT = testClient(third);
/** AGENT_CLIENT_ROUTES of the passes: none at first, the client's /30 from the client tests on. */
let clientRoutes: string[] = [];
const globalForwarding = reason ? '' : (await readFile('/proc/sys/net/ipv4/ip_forward', 'utf8')).trim();

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
      shares: [
        // On the public address: the client namespace below reaches it.
        desiredShare('files', { bind_public_ip: true, users: [{ name: 'alice', ...perms(true, true) }] }),
        // Not: only the workspace's VPN clients and the node.
        desiredShare('private', { users: [{ name: 'alice', ...perms(true, true) }] }),
      ],
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
      drivers: createDefaultDrivers({ live: true, smbPort: PORT, addressPool: POOL, clientRoutes }),
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

/** smbclient in the client namespace, beyond the node: `command` (default `ls`) on `files`. */
async function smbFromClient(address: string, password: string, command = 'ls', share = 'files') {
  const result = await runCommand(
    'ip',
    [
      'netns',
      'exec',
      CLIENT.netns,
      'smbclient',
      `//${address}/${share}`,
      '-p',
      String(PORT),
      '-U',
      'alice',
      '-m',
      'SMB3',
      '-t',
      '10',
      '-c',
      command,
    ],
    { env: { ...process.env, PASSWD: password }, timeoutMs: 60_000 },
  );
  return { ok: result.ok, output: `${result.stdout}\n${result.stderr}` };
}

/** The client namespace and its pair: routes to the pool's addresses only, no default route. */
const makeClient = () => makeTestClient(CLIENT, POOL);
const removeClient = () => removeTestClient(CLIENT);

/** The node's policy rules naming a workspace's veth. */
async function guardRulesOf(ws: Workspace): Promise<string[]> {
  const { nodeInterface } = networkNames(ws.id);
  const rules = await runCommand('ip', ['-4', 'rule', 'show'], { check: true });
  return rules.stdout.split('\n').filter((line) => line.includes(`iif ${nodeInterface} `));
}

const forwardingOf = async (ws: Workspace) =>
  (await readFile(`/proc/sys/net/ipv4/conf/${networkNames(ws.id).nodeInterface}/forwarding`, 'utf8')).trim();

/** Whether a TCP connection from inside A's namespace reaches `address`'s SMB port. */
async function probeFrom(ws: Workspace, address: string): Promise<boolean> {
  const probe = await runCommand('nsenter', [
    `--net=${netnsPath(networkNames(ws.id).netns)}`,
    '--',
    'timeout',
    '5',
    'bash',
    '-c',
    `exec 3<>/dev/tcp/${address}/${PORT}`,
  ]);
  return probe.ok;
}

const smbdPid = (ws: Workspace) => recordedPid(layoutOf(ws).samba.processFile);

/** The namespace a process is in, as the kernel names it (`net:[4026532…]`). */
async function netOf(pid: number | 'self'): Promise<string> {
  return (await runCommand('readlink', [`/proc/${pid}/ns/net`], { check: true })).stdout.trim();
}

const cleanUp = (ws: Workspace) => forceCleanWorkspace(layoutOf(ws));

// One story on two live workspaces: each step starts where the one before left them (building
// them costs seconds), so its steps keep their order when tests are shuffled.
describe.skipIf(reason !== undefined)(
  'a network of its own per workspace (root, real smbd)',
  { timeout: 120_000, shuffle: false },
  () => {
    const memory = createReconcileMemory();

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'agent-netns-'));
      await removeClient();
      await makeClient();
    });

    afterAll(async () => {
      if (!dataDir || process.env.KEEP_LIVE) return;
      await removeClient();
      await cleanUp(A);
      await cleanUp(B);
      await removeTestNetworks([A.id, B.id], POOL);
      expect(await guardRulesOf(A)).toEqual([]);
      expect(await guardRulesOf(B)).toEqual([]);
      // The global switch is as it was.
      expect((await readFile('/proc/sys/net/ipv4/ip_forward', 'utf8')).trim()).toBe(globalForwarding);
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

      // No client routes: the node end does not forward, no guard rule, the client gets nothing.
      expect(await guardRulesOf(A)).toEqual([]);
      const client = await smbFromClient(A.address, A.password);
      expect(client.ok).toBe(false);
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

    it('with client routes a client namespace beyond the node reaches each workspace, and A still not B', async () => {
      clientRoutes = [CLIENT.block];
      const { a, b } = await pass([state(A), state(B)], memory);
      expect(a.error ?? '').toBe('');
      expect(b.error ?? '').toBe('');
      for (const ws of [A, B]) {
        const names = networkNames(ws.id);
        expect(await forwardingOf(ws)).toBe('1');
        expect(await guardRulesOf(ws)).toEqual([
          `${GUARD_RULE_PRIORITY}:\tfrom all iif ${names.nodeInterface} lookup ${names.guardTable}`,
        ]);
        const table = await runCommand('ip', ['-4', 'route', 'show', 'table', String(names.guardTable)], {
          check: true,
        });
        expect(table.stdout).toMatch(/^unreachable default/m);
        expect(table.stdout).toContain(`throw ${CLIENT.block}`);
        const inside = await runCommand('ip', ['-n', names.netns, '-o', '-4', 'route', 'show'], {
          check: true,
        });
        expect(inside.stdout).toContain(`${CLIENT.block} via ${NODE_LINK_ADDRESS} dev ws0`);
        expect(inside.stdout).not.toMatch(/^default/m);
      }
      expect((await readFile('/proc/sys/net/ipv4/ip_forward', 'utf8')).trim()).toBe(globalForwarding);

      // From the client namespace: A lists and takes a file with A's password; B with B's.
      const file = join(dataDir, 'from-client.txt');
      await writeFile(file, 'written from the client namespace\n');
      const put = await smbFromClient(A.address, A.password, `put ${file} from-client.txt; ls`);
      expect(put.ok, put.output).toBe(true);
      expect(put.output).toContain('from-client.txt');
      const listedB = await smbFromClient(B.address, B.password);
      expect(listedB.ok, listedB.output).toBe(true);
      const wrong = await smbFromClient(B.address, A.password);
      expect(wrong.ok).toBe(false);
      expect(wrong.output).toContain('NT_STATUS_LOGON_FAILURE');
      // A share with "bind to public IP" off answers the node, not a client from outside.
      const outside = await smbFromClient(A.address, A.password, 'ls', 'private');
      expect(outside.ok, outside.output).toBe(false);
      expect(outside.output).toMatch(
        /NT_STATUS_ACCESS_DENIED|NT_STATUS_BAD_NETWORK_NAME|NT_STATUS_CONNECTION/,
      );
      const fromNode = await runCommand(
        'smbclient',
        [`//${A.address}/private`, '-p', String(PORT), '-U', 'alice', '-m', 'SMB3', '-c', 'ls'],
        { env: { ...process.env, PASSWD: A.password }, timeoutMs: 60_000 },
      );
      expect(fromNode.ok, fromNode.stderr).toBe(true);

      // From inside A, B's port stays out of reach with both veths forwarding, even with a default
      // route in A and in B (root daemons in both): what comes from a workspace's veth to the pool
      // is unreachable in its guard table.
      expect((await smbList(B.address, B.password, A)).ok).toBe(false);
      expect(await probeFrom(A, B.address)).toBe(false);
      const namespaces = [networkNames(A.id).netns, networkNames(B.id).netns];
      try {
        for (const netns of namespaces)
          await runCommand(
            'ip',
            ['-n', netns, 'route', 'add', 'default', 'via', NODE_LINK_ADDRESS, 'dev', 'ws0'],
            { check: true },
          );
        expect((await smbList(B.address, B.password, A)).ok).toBe(false);
        expect(await probeFrom(A, B.address)).toBe(false);
        expect(await probeFrom(B, A.address)).toBe(false);
      } finally {
        for (const netns of namespaces) await runCommand('ip', ['-n', netns, 'route', 'del', 'default']);
      }
      // The client still reaches both, the node too.
      expect((await smbFromClient(A.address, A.password)).ok).toBe(true);
      expect((await smbFromClient(B.address, B.password)).ok).toBe(true);
      expect(await canConnect(A.address, PORT)).toBe(true);

      // Nothing more to do: the next pass and a fresh agent's run no program.
      commands.length = 0;
      expect((await pass([state(A), state(B)], memory)).result.actions).toEqual([]);
      expect((await pass([state(A), state(B)], createReconcileMemory())).result.actions).toEqual([]);
      expect(commands).toEqual([]);
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
      // The guard rule outlived the veth; the new one forwards again, guarded.
      expect(await guardRulesOf(A)).toHaveLength(1);
      expect(await forwardingOf(A)).toBe('1');
      const client = await smbFromClient(A_MOVED, A.password);
      expect(client.ok, client.output).toBe(true);
    });

    it('client routes switched off take the routes, the rule and forwarding away', async () => {
      clientRoutes = [];
      const { a } = await pass([state(A, A_MOVED), state(B)], memory);
      expect(a.error ?? '').toBe('');
      expect(await forwardingOf(A)).toBe('0');
      expect(await guardRulesOf(A)).toEqual([]);
      const names = networkNames(A.id);
      const inside = await runCommand('ip', ['-n', names.netns, '-o', '-4', 'route', 'show'], {
        check: true,
      });
      expect(inside.stdout).not.toContain(CLIENT.block);
      expect((await smbFromClient(A_MOVED, A.password)).ok).toBe(false);
      expect((await smbList(A_MOVED, A.password)).ok).toBe(true);
      // And on again, for the removal below.
      clientRoutes = [CLIENT.block];
      await pass([state(A, A_MOVED), state(B)], memory);
      expect(await guardRulesOf(A)).toHaveLength(1);
      expect((await smbFromClient(A_MOVED, A.password)).ok).toBe(true);
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
        // The guard rule (which outlives the veth) and its table went with it.
        expect(await guardRulesOf(ws)).toEqual([]);
        const table = await runCommand('ip', ['route', 'show', 'table', String(names.guardTable)]);
        expect(table.stdout.trim()).toBe('');
      }
    });
  },
);
