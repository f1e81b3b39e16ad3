// What every live agent test shares: when it can run (root, the programs, loop devices) and why it
// is skipped otherwise, the addresses it may use, the forced clean-up that leaves no daemon, mount
// or loop device behind whatever step the test got to, and the set-up of a workspace reached from
// a client beyond the node.
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkspaceDesiredState } from '@debesis/contract';
import { BACKUP_CLIENTS_DRIVER } from '../drivers/backup-clients.driver.ts';
import { ftpFiles } from '../drivers/ftp.driver.ts';
import { sftpFiles } from '../drivers/sftp.driver.ts';
import { daemonFiles } from '../daemons/supervisor.ts';
import { runCommand } from '../exec/run-command.ts';
import { exists, firstMissingProgram, isRoot } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';
import { processArgv } from '../system/processes.ts';
import { EASYRSA } from '../vpn/pki.ts';
import { workspaceLayout, type WorkspaceLayout } from '../workspace-layout.ts';
import { createLivePass, type LivePass } from './live-pass.ts';
import {
  makeTestClient,
  removeTestClient,
  removeTestNetworks,
  testClient,
  type TestClient,
} from './network.ts';
import { stopAllVpnClients } from './vpn-client.ts';

/** What a live workspace with Samba needs on the host (storage image, namespace, smbd, client). */
export const LIVE_WORKSPACE_PROGRAMS = [
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
] as const;

/** What a live workspace with every daemon on needs on the host (openvpn also needs /dev/net/tun). */
export const LIVE_EVERY_DAEMON_PROGRAMS = [
  ...LIVE_WORKSPACE_PROGRAMS,
  'openvpn',
  'openssl',
  EASYRSA,
  'ganesha.nfsd',
  'pure-ftpd',
  'pure-pw',
  'sshd',
  'slapd',
] as const;

/**
 * Why a live test cannot run here, or undefined when it can; said once on the console (CI runs
 * them as root with the programs installed, so a skip there is visible).
 */
export async function liveSkipReason(test: string, programs: readonly string[]): Promise<string | undefined> {
  const reason = !isRoot()
    ? 'not root'
    : await firstMissingProgram(programs).then((missing) =>
        missing ? `${missing} is not installed` : undefined,
      );
  const why = reason ?? ((await exists('/dev/loop-control')) ? undefined : 'no loop devices');
  if (why)
    console.warn(`[agent] live ${test} skipped: ${why} (CI runs it as root with its programs installed)`);
  return why;
}

/**
 * `count` consecutive addresses in 198.19.0.0/16: outside the embedded node's default pool
 * (198.18.0.x), so a running `npm start` is not touched, and random, so live files running side by
 * side do not meet.
 */
export function randomTestAddresses(count: number): string[] {
  const third = Math.floor(Math.random() * 256);
  const first = 1 + Math.floor(Math.random() * (254 - count));
  return Array.from({ length: count }, (_, i) => `198.19.${third}.${first + i}`);
}

/** The pid a daemon's supervisor record names, if any. */
export async function recordedPid(processFile: string): Promise<number | undefined> {
  const text = await readFile(processFile, 'utf8').catch(() => undefined);
  return text ? (JSON.parse(text) as { pid: number }).pid : undefined;
}

/** The supervisor records of every daemon a workspace may run (those it does not run are absent). */
export function workspaceDaemonRecords(layout: WorkspaceLayout): string[] {
  return [
    layout.samba.processFile,
    layout.vpn.processFile,
    layout.nfs.processFile,
    ftpFiles(join(layout.root, 'ftp')).process.record,
    sftpFiles(join(layout.root, 'sftp')).process.record,
    join(layout.ldap.runDir, 'slapd.agent.json'),
    daemonFiles(join(layout.root, BACKUP_CLIENTS_DRIVER), 'rclone').record,
  ];
}

/**
 * Kills the workspace's recorded daemons (their process groups; every daemon's unless told which),
 * unmounts its storage and detaches its loop devices: what a removal pass would do, by force, for
 * a test that failed midway.
 */
export async function forceCleanWorkspace(
  layout: WorkspaceLayout,
  processFiles: readonly string[] = workspaceDaemonRecords(layout),
): Promise<void> {
  for (const file of processFiles) {
    const pid = await recordedPid(file);
    if (pid && (await processArgv(pid))) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
  // btrfs storage: its snapshots' and top level's mounts too.
  for (const point of [layout.dataRoot, layout.snapshotsDir, layout.pool])
    if (await mountAt(point)) await runCommand('umount', ['-l', point]);
  for (const device of await loopDevicesOf(layout.image)) await runCommand('losetup', ['-d', device]);
}

/**
 * A live test's workspace on the node: its id, a random address and its folders (the agent's data
 * folder and one of the test's own). `create` (the test's beforeAll) makes the folders; `remove`
 * (its afterAll) removes the workspace's daemons, storage, network and folders by force, whatever
 * step the test got to, unless KEEP_LIVE asks to keep them for a look.
 */
export interface LiveNodeWorkspace {
  service: string;
  address: string;
  layout: () => WorkspaceLayout;
  /** The agent's data folder (made by `create`). */
  dataDir: () => string;
  /** A folder of the test's own for what it sends and receives (made by `create`). */
  localDir: () => string;
  create: () => Promise<void>;
  /** `first` runs before the forced clean-up (a removal pass, say), when there is one to do. */
  remove: (first?: () => Promise<void>) => Promise<void>;
}

export interface LiveWorkspaceOptions {
  /**
   * The data folder's length, for a test of long paths: a folder of that many characters inside
   * the temporary one.
   */
  dataDirLength?: number;
}

/** A live workspace named `<name>-<uuid>`, its temporary folders `agent-<name>-…`. */
export function liveNodeWorkspace(name: string, options: LiveWorkspaceOptions = {}): LiveNodeWorkspace {
  const service = `${name}-${randomUUID()}`;
  const [address] = randomTestAddresses(1) as [string];
  const folders = { temporary: '', data: '', local: '' };
  const layout = () => workspaceLayout(join(folders.data, 'workspaces', service));
  return {
    service,
    address,
    layout,
    dataDir: () => folders.data,
    localDir: () => folders.local,
    async create() {
      folders.temporary = await mkdtemp(join(tmpdir(), `agent-${name}-`));
      folders.data = folders.temporary;
      if (options.dataDirLength !== undefined) {
        folders.data = join(
          folders.temporary,
          'd'.repeat(options.dataDirLength - folders.temporary.length - 1),
        );
        await mkdir(folders.data);
      }
      folders.local = await mkdtemp(join(tmpdir(), `agent-${name}-local-`));
    },
    async remove(first) {
      if (!folders.temporary || process.env.KEEP_LIVE) return;
      await first?.();
      await forceCleanWorkspace(layout());
      await removeTestNetworks([service], [address]);
      await rm(folders.temporary, { recursive: true, force: true });
      if (folders.local) await rm(folders.local, { recursive: true, force: true });
    },
  };
}

/**
 * A live workspace reached from a client beyond the node (testing/network.ts), which it answers,
 * with the pass that reconciles it. `create` makes the client's namespace too; `remove` stops the
 * VPN clients, hands the workspace over as removed, and removes the client with the rest.
 */
export interface LiveWorkspace extends Omit<LiveNodeWorkspace, 'localDir' | 'remove'> {
  client: TestClient;
  pass: LivePass;
  /** A folder of the test's own for what its client sends and receives (made by `create`). */
  clientDir: () => string;
  /** `desired` is the workspace as the test last had it: handed over again as removed. */
  remove: (desired: WorkspaceDesiredState) => Promise<void>;
}

export function liveWorkspace(name: string, options: LiveWorkspaceOptions = {}): LiveWorkspace {
  const node = liveNodeWorkspace(name, options);
  const client = testClient(Number(node.address.split('.')[2]));
  const pass = createLivePass({ dataDir: node.dataDir, address: node.address, clientRoutes: [client.block] });
  return {
    ...node,
    client,
    pass,
    clientDir: node.localDir,
    async create() {
      await node.create();
      await makeTestClient(client, [node.address]);
    },
    remove: (desired) =>
      node.remove(async () => {
        await stopAllVpnClients();
        await pass({ ...desired, state: 'removed' }).catch(() => undefined);
        await removeTestClient(client);
      }),
  };
}
