// A real openvpn client for live tests, run inside a client namespace the test made
// (testing/network.ts): the tunnel and its tun device exist only there. The agent's live VPN test,
// the API-level live test, the browser journey and the bench all connect through this one helper.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand, type CommandResult } from '../exec/run-command.ts';
import { stopProcessGroup } from '../system/processes.ts';

export interface VpnClientOptions {
  /** The client's network namespace. */
  netns: string;
  /** Where the config, the auth file and the client's log are written (0600). */
  dir: string;
  /**
   * The workspace server's log, to tell a refused certificate apart (the client itself only sees
   * the TLS handshake fail). Optional: without it such a refusal ends as a timeout.
   */
  serverLog?: () => Promise<string>;
  timeoutMs?: number;
}

export interface VpnConnection {
  outcome: 'connected' | 'auth_failed' | 'cert_refused';
  /** The client's log, and the server's since the attempt started when it was given. */
  log: string;
  /** The client's pid (its own process group). */
  pid: number;
  /** The client's address inside the tunnel, once connected. */
  virtualAddress?: string;
  stop(): Promise<void>;
  /** Resolves when the client has ended by itself (the server dropped it), false on timeout. */
  ended(timeoutMs: number): Promise<boolean>;
}

const running = new Set<number>();

/** Every client still running, stopped: for a test's clean-up whatever step it got to. */
export async function stopAllVpnClients(): Promise<void> {
  for (const pid of [...running]) await stopProcessGroup(pid, 3000).catch(() => undefined);
  running.clear();
}

/**
 * Starts `openvpn` with `ovpn` and the username and password in an auth file. Resolves once it is
 * connected ("Initialization Sequence Completed") or refused: the server's AUTH_FAILED, or the
 * server refusing its certificate. A refused client is stopped; a connected one runs until stop().
 */
export async function connectVpnClient(
  ovpn: string,
  user: string,
  password: string,
  options: VpnClientOptions,
): Promise<VpnConnection> {
  const id = randomUUID().slice(0, 8);
  const config = join(options.dir, `${id}.ovpn`);
  const auth = join(options.dir, `${id}.auth`);
  const logFile = join(options.dir, `${id}.log`);
  await writeFile(config, ovpn, { mode: 0o600 });
  await writeFile(auth, `${user}\n${password}\n`, { mode: 0o600 });
  const serverLog = options.serverLog ?? (() => Promise.resolve(''));
  const serverBefore = (await serverLog()).length;
  const child = spawn(
    'ip',
    [
      'netns',
      'exec',
      options.netns,
      'openvpn',
      '--config',
      config,
      '--auth-user-pass',
      auth,
      '--auth-retry',
      'none',
      '--log',
      logFile,
      '--connect-retry-max',
      '1',
      '--hand-window',
      '10',
    ],
    { detached: true, stdio: 'ignore' },
  );
  const pid = child.pid!;
  running.add(pid);
  let exited = false;
  let exitedAt = 0;
  child.once('exit', () => {
    exited = true;
    exitedAt = Date.now();
    running.delete(pid);
  });
  const stop = async () => {
    running.delete(pid);
    if (!exited) await stopProcessGroup(pid, 3000).catch(() => undefined);
  };
  const ended = async (timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!exited && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    return exited;
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(logFile, 'utf8').catch(() => '');
    const server = (await serverLog()).slice(serverBefore);
    const outcome: VpnConnection['outcome'] | undefined = text.includes('Initialization Sequence Completed')
      ? 'connected'
      : text.includes('AUTH_FAILED')
        ? 'auth_failed'
        : /CRL CHECK FAILED|certificate revoked/i.test(server)
          ? 'cert_refused'
          : undefined;
    if (outcome) {
      if (outcome !== 'connected') await stop();
      const virtualAddress =
        outcome === 'connected' ? /ifconfig (10\.\d+\.\d+\.\d+)/.exec(text)?.[1] : undefined;
      return { outcome, log: `${text}\n--- server ---\n${server}`, pid, virtualAddress, stop, ended };
    }
    // A client that gave up is judged once the server's log has caught up with it.
    if (Date.now() > deadline || (exited && Date.now() - exitedAt > 2000)) {
      await stop();
      throw new Error(
        `the client neither connected nor was refused in ${timeoutMs} ms:\n${text}\n--- server ---\n${server}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Runs a program inside the client's namespace (through the tunnel when connected). */
export function inClientNamespace(
  netns: string,
  command: string,
  args: readonly string[],
  timeoutMs = 30_000,
): Promise<CommandResult> {
  return runCommand('ip', ['netns', 'exec', netns, command, ...args], { timeoutMs });
}
