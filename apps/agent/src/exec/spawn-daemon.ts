// Starts a long-running daemon (smbd --foreground) for the supervisor (daemons/supervisor.ts). Unlike
// runCommand it does not wait for an exit: the daemon gets its own process group (so stopping it
// stops its children too), its output goes to a file, and the agent's event loop is not held by
// it, so an agent restart leaves the daemon serving and the next pass adopts it by its pid.
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';

export interface SpawnedDaemon {
  pid: number;
  /** Whether it has exited since it was started by this process. */
  exited(): boolean;
}

export type DaemonSpawner = (
  command: string,
  args: readonly string[],
  options: { outputFile: string },
) => Promise<SpawnedDaemon>;

export const spawnDaemon: DaemonSpawner = async (command, args, options) => {
  const output = await open(options.outputFile, 'a', 0o640);
  try {
    const child = spawn(command, [...args], {
      detached: true,
      shell: false,
      stdio: ['ignore', output.fd, output.fd],
    });
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    const pid = await new Promise<number>((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => (child.pid === undefined ? reject(new Error('no pid')) : resolve(child.pid)));
    });
    child.unref();
    return { pid, exited: () => exited };
  } finally {
    await output.close();
  }
};
