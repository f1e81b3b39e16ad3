// What every live agent test shares: when it can run (root, the programs, loop devices) and why it
// is skipped otherwise, the addresses it may use, and the forced clean-up that leaves no daemon,
// mount or loop device behind whatever step the test got to.
import { readFile } from 'node:fs/promises';
import { runCommand } from '../exec/run-command.ts';
import { exists, firstMissingProgram, isRoot } from '../system/host.ts';
import { loopDevicesOf } from '../system/loop-devices.ts';
import { mountAt } from '../system/mounts.ts';
import { processArgv } from '../system/processes.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

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

/**
 * Kills the workspace's recorded daemons (their process groups), unmounts its storage and detaches
 * its loop devices: what a removal pass would do, by force, for a test that failed midway.
 */
export async function forceCleanWorkspace(
  layout: WorkspaceLayout,
  processFiles: readonly string[] = [layout.samba.processFile],
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
