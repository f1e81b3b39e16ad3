// Looking at and stopping a supervised daemon by its pid. A pid alone can be reused by another
// program after a crash, so a daemon is recognised by its command line too.
import { readFile } from 'node:fs/promises';

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

/** SIGTERM to the daemon's process group, SIGKILL after `graceMs`; resolves once it is gone. */
export async function stopProcessGroup(pid: number, graceMs = 10_000): Promise<void> {
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let killed = false;
  while ((await processArgv(pid)) !== undefined) {
    if (!killed && Date.now() > deadline) {
      signalGroup(pid, 'SIGKILL');
      killed = true;
    }
    if (Date.now() > deadline + 5000) throw new Error(`process ${pid} did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
