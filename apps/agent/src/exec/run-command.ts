// Runs a program the way drivers need it: no shell (arguments are an array, nothing is
// interpreted), a time-out, stdout/stderr captured, the exit code returned rather than thrown.
// A program that is not installed comes back as `missing`, so a driver can say
// "not live: smbd is not installed" instead of failing the whole workspace.
import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';

export interface RunCommandOptions {
  cwd?: string;
  /** The whole environment of the child; default: the agent's own. */
  env?: NodeJS.ProcessEnv;
  /** Written to stdin, which is then closed (e.g. `smbpasswd -s` reads the password there). */
  input?: string | Uint8Array;
  /** Default 60 s. On expiry the process group gets SIGTERM, then SIGKILL 2 s later. */
  timeoutMs?: number;
  /** Throw a CommandError unless the program ran and exited 0. */
  check?: boolean;
  /** Cap of each captured stream, default 4 MiB; the rest is dropped. */
  maxOutputBytes?: number;
}

export interface CommandResult {
  command: string;
  args: readonly string[];
  /** Null when the program did not run or was killed by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** The program is not installed (or not on PATH). */
  missing: boolean;
  timedOut: boolean;
  /** Ran and exited 0. */
  ok: boolean;
  durationMs: number;
}

export type CommandRunner = (
  command: string,
  args: readonly string[],
  options?: RunCommandOptions,
) => Promise<CommandResult>;

export class CommandError extends Error {
  constructor(readonly result: CommandResult) {
    super(describeFailure(result));
    this.name = 'CommandError';
  }
}

export function describeFailure(result: CommandResult): string {
  const name = result.command;
  if (result.missing) return `program missing: ${name} is not installed`;
  if (result.timedOut) return `${name} timed out`;
  const tail = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-5).join('\n');
  const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
  return tail ? `${name} ${how}: ${tail}` : `${name} ${how}`;
}

const KILL_GRACE_MS = 2000;
const EXIT_DRAIN_MS = 500;

export const runCommand: CommandRunner = async (command, args, options = {}) => {
  const started = Date.now();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const maxBytes = options.maxOutputBytes ?? 4 * 1024 * 1024;

  const result = await new Promise<CommandResult>((resolvePromise) => {
    const out = new Capture(maxBytes);
    const err = new Capture(maxBytes);
    let timedOut = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    // Own process group, so a time-out also stops whatever the program started.
    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      shell: false,
    });

    const finish = (partial: Pick<CommandResult, 'exitCode' | 'signal' | 'missing'>, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      const stderr = error ? [err.text(), error].filter(Boolean).join('\n') : err.text();
      resolvePromise({
        command,
        args,
        ...partial,
        stdout: out.text(),
        stderr,
        timedOut,
        ok: !timedOut && partial.exitCode === 0,
        durationMs: Date.now() - started,
      });
    };

    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };

    const timer = setTimeout(() => {
      timedOut = true;
      killGroup('SIGTERM');
      killTimer = setTimeout(() => killGroup('SIGKILL'), KILL_GRACE_MS);
    }, timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // A program that exits without reading its stdin makes our write fail with EPIPE: not an error.
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      finish({ exitCode: null, signal: null, missing: error.code === 'ENOENT' }, error.message);
    });
    child.on('close', (code, signal) => finish({ exitCode: code, signal, missing: false }));
    // A program that starts a daemon leaves it holding our pipes, so 'close' may never come:
    // once the program itself has exited, give its output a moment to drain, then stop waiting.
    child.on('exit', (code, signal) => {
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish({ exitCode: code, signal, missing: false });
      }, EXIT_DRAIN_MS).unref();
    });

    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });

  // spawn says ENOENT both for a missing program and for a missing working folder.
  if (result.missing && options.cwd !== undefined && !(await isDirectory(options.cwd))) {
    result.missing = false;
    result.stderr = `working folder ${options.cwd} does not exist`;
  }
  if (options.check && !result.ok) throw new CommandError(result);
  return result;
};

async function isDirectory(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

class Capture {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(private readonly max: number) {}
  push(chunk: Buffer): void {
    if (this.size >= this.max) return;
    const part = chunk.subarray(0, this.max - this.size);
    this.chunks.push(part);
    this.size += part.length;
  }
  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
