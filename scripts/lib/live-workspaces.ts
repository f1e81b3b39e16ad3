// What a product with live workspaces (startProduct's liveWorkspaces) can leave on the machine —
// processes started from its data folder (each workspace's smbd and its namespace wrapper), loop
// devices and mounts of its storage images, workspace networks (a route to a pool address through
// a workspace's veth `dbs-<hash>`, its namespace `debesis-<hash>`) — found from /proc, /sys and
// `ip route`, and removed by force when a journey failed to remove its workspaces the proper way.
// The pool's `unreachable` guard routes are the agent's for good; removePoolGuardRoutes drops them
// when the product stops.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { workspaceDir, workspaceLayout } from '@debesis/agent';

export interface WorkspaceLeftovers {
  /** Pids whose command line names the data folder, or that run in its workspaces' networks. */
  processes: number[];
  /** Mount points at or below the data folder. */
  mounts: string[];
  /** /dev/loopN backed by a file in the data folder. */
  loopDevices: string[];
  /** Routes to the product's pool addresses through a workspace's veth ("198.18.12.1 dev dbs-…"). */
  addresses: string[];
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

const inside = (dir: string, path: string) => path === dir || path.startsWith(`${dir}/`);

/** Where the product's embedded node keeps a workspace (its layout: the agent's workspaceLayout). */
export function localWorkspaceLayout(productDataDir: string, serviceId: string) {
  return workspaceLayout(workspaceDir(join(productDataDir, 'nodes', 'local'), serviceId));
}

/** The inode of a network namespace (`net:[4026532242]` → 4026532242). */
const namespaceInode = (link: string) => /^net:\[(\d+)\]$/.exec(link)?.[1];

/**
 * Pids running in the network namespaces of workspace veths `devices` (`dbs-<hash>`, namespace
 * `debesis-<hash>`). A daemon that retitles itself (pure-ftpd is `pure-ftpd (SERVER)`) names no
 * folder on its command line; left running, it also keeps its namespace alive once its name is
 * gone.
 */
export function processesInNetworks(devices: readonly string[]): number[] {
  const inodes = new Set(
    devices.flatMap((device) => {
      const path = `/run/netns/${device.replace(/^dbs-/, 'debesis-')}`;
      return existsSync(path) ? [String(statSync(path).ino)] : [];
    }),
  );
  if (inodes.size === 0) return [];
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) => {
      try {
        return inodes.has(namespaceInode(readlinkSync(`/proc/${pid}/ns/net`)) ?? '');
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * What a product with data folder `dataDir` left: `pool` is its range "a.b.c.first-a.b.c.last"
 * (one /24, as LIVE_ADDRESS_POOL); `devices`, when given, are its workspaces' veths, for a pool
 * another product shares (a cluster's nodes), whose other routes are not its own.
 */
export function findLeftovers(
  dataDir: string,
  pool: string,
  devices?: readonly string[],
): WorkspaceLeftovers {
  if (!isAbsolute(dataDir)) throw new Error(`not an absolute path: ${dataDir}`);
  const prefix = pool.split('-')[0]?.split('.').slice(0, 3).join('.') ?? '';
  const routes = spawnSync('ip', ['-o', '-4', 'route', 'show'], { encoding: 'utf8' }).stdout ?? '';
  const routed = [...routes.matchAll(/^(\d+\.\d+\.\d+\.\d+) dev (dbs-[0-9a-f]{10})\b/gm)]
    .filter((match) => (match[1] ?? '').startsWith(`${prefix}.`))
    .filter((match) => !devices || devices.includes(match[2] ?? ''));
  const named = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) =>
      read(`/proc/${pid}/cmdline`)
        .split('\0')
        .some((arg) => arg.includes(dataDir)),
    )
    .map(Number);
  const inNetworks = processesInNetworks(devices ?? routed.map((match) => match[2] ?? ''));
  const processes = [...new Set([...named, ...inNetworks])];
  const mounts = read('/proc/self/mountinfo')
    .split('\n')
    .map((line) => line.split(' ')[4] ?? '')
    .filter((mountPoint) => mountPoint !== '' && inside(dataDir, mountPoint));
  const loopDevices = existsSync('/sys/block')
    ? readdirSync('/sys/block')
        .filter((name) => name.startsWith('loop'))
        .filter((name) =>
          inside(
            dataDir,
            read(`/sys/block/${name}/loop/backing_file`)
              .trim()
              .replace(/ \(deleted\)$/, ''),
          ),
        )
        .map((name) => `/dev/${name}`)
    : [];
  const addresses = routed.map((match) => `${match[1]} dev ${match[2]}`);
  return { processes, mounts, loopDevices, addresses };
}

export function isClean(leftovers: WorkspaceLeftovers): boolean {
  return Object.values(leftovers).every((list: unknown[]) => list.length === 0);
}

/** Kills, unmounts, detaches and deletes what findLeftovers found. */
export function removeLeftovers(leftovers: WorkspaceLeftovers): void {
  for (const pid of leftovers.processes) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  // Deepest first, lazily: a namespace still holding one lets go when its last process ends.
  for (const mountPoint of [...leftovers.mounts].sort((a, b) => b.length - a.length)) {
    spawnSync('umount', ['-l', mountPoint]);
  }
  for (const device of leftovers.loopDevices) spawnSync('losetup', ['-d', device]);
  for (const route of leftovers.addresses) {
    const device = route.split(' dev ')[1] ?? '';
    // One end of the pair deletes both and the route; the namespace is named like its veth.
    spawnSync('ip', ['link', 'del', device]);
    spawnSync('ip', ['netns', 'del', device.replace(/^dbs-/, 'debesis-')]);
  }
}

/** Deletes the agent's `unreachable` guard routes (metric 4242) of `pool` (one /24, as above). */
export function removePoolGuardRoutes(pool: string): void {
  const prefix = pool.split('-')[0]?.split('.').slice(0, 3).join('.') ?? '';
  const routes = spawnSync('ip', ['-o', '-4', 'route', 'show', 'type', 'unreachable'], { encoding: 'utf8' });
  for (const match of (routes.stdout ?? '').matchAll(/^unreachable (\S+) .*\bmetric 4242\b/gm))
    if ((match[1] ?? '').startsWith(`${prefix}.`))
      spawnSync('ip', ['route', 'del', 'unreachable', match[1] ?? '', 'metric', '4242']);
}

/** The first of `programs` not on the PATH, said as why something cannot run here; or undefined. */
export function programsMissing(programs: readonly string[]): string | undefined {
  for (const program of programs)
    try {
      execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    } catch {
      return `${program} is not installed`;
    }
  return undefined;
}

/** Why a real OpenVPN server and client cannot run here (on top of live workspaces), or undefined. */
export function vpnUnavailable(): string | undefined {
  const missing = programsMissing(['openvpn', 'openssl']);
  if (missing) return missing;
  if (!existsSync('/usr/share/easy-rsa/easyrsa')) return 'easy-rsa is not installed';
  if (!existsSync('/dev/net/tun')) return 'no /dev/net/tun';
  return undefined;
}

/** Why live workspaces cannot run here, or undefined when they can (root, samba, loop devices). */
export function liveWorkspacesUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'not root';
  for (const program of [
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
  ]) {
    try {
      execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    } catch {
      return `${program} is not installed`;
    }
  }
  if (!existsSync('/dev/loop-control')) return 'no loop devices';
  return undefined;
}
