// Looking at and stopping a supervised daemon by its pid. A pid alone can be reused by another
// program after a crash, so a daemon is recognised by its command line too.
import { readdir, readFile } from 'node:fs/promises';

/** The argv of a running process, or undefined when there is none (or only a zombie). */
export async function processArgv(pid: number): Promise<string[] | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The state follows the parenthesised name: a zombie has finished.
    if (/\) Z /.test(stat)) return undefined;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.split('\0').filter((part) => part !== '');
  } catch {
    return undefined;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Whether any process of group `pgid` still runs (zombies do not: they have finished, and a
 * container's first process may be slow to reap them). smbd's per-client children, for one, stay
 * a moment after their parent and hold its listening socket while they do.
 */
async function groupRuns(pgid: number): Promise<boolean> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // After the parenthesised name: state, ppid, pgrp.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') return true;
  }
  return false;
}

/**
 * SIGTERM to the daemon's process group, SIGKILL after `graceMs`; resolves once every process of
 * the group is gone, not only its leader: a stopped daemon's children must not serve on.
 */
export async function stopProcessGroup(pid: number, graceMs = 10_000): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let killed = false;
  while ((await processArgv(pid)) !== undefined || (await groupRuns(pid))) {
    if (!killed && Date.now() > deadline) {
      signalGroup(pid, 'SIGKILL');
      killed = true;
    }
    if (Date.now() > deadline + 5000) throw new Error(`process ${pid} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
