// What a product with live workspaces (startProduct's liveWorkspaces) can leave on the machine —
// processes started from its data folder (each workspace's smbd and its namespace wrapper), loop
// devices and mounts of its storage images, address aliases on lo — found from /proc and /sys,
// and removed by force when a journey failed to remove its workspaces the proper way.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';

export interface WorkspaceLeftovers {
  /** Pids whose command line names the data folder. */
  processes: number[];
  /** Mount points at or below the data folder. */
  mounts: string[];
  /** /dev/loopN backed by a file in the data folder. */
  loopDevices: string[];
  /** Addresses on lo from the product's pool ("127.0.12.1/32"). */
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

/** `pool` is a range "a.b.c.first-a.b.c.last" (one /24, as LIVE_ADDRESS_POOL). */
export function findLeftovers(dataDir: string, pool: string): WorkspaceLeftovers {
  if (!isAbsolute(dataDir)) throw new Error(`not an absolute path: ${dataDir}`);
  const processes = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
    .filter((pid) =>
      read(`/proc/${pid}/cmdline`)
        .split('\0')
        .some((arg) => arg.includes(dataDir)),
    )
    .map(Number);
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
  const prefix = pool.split('-')[0]?.split('.').slice(0, 3).join('.') ?? '';
  const lo = spawnSync('ip', ['-o', '-4', 'addr', 'show', 'dev', 'lo'], { encoding: 'utf8' }).stdout ?? '';
  const addresses = [...lo.matchAll(/inet (\d+\.\d+\.\d+\.\d+\/\d+)/g)]
    .map((match) => match[1] ?? '')
    .filter((address) => address.startsWith(`${prefix}.`));
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
  for (const address of leftovers.addresses) spawnSync('ip', ['addr', 'del', address, 'dev', 'lo']);
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
