// Runs a program whose output is read as it comes, one line at a time (restic's JSON lines: a
// backup's progress for hours, a folder of a snapshot with 10,000 entries), instead of captured
// whole as runCommand does. No shell; its own process group, which an abort (or the time-out)
// ends with SIGTERM, then SIGKILL after a grace; stderr keeps its last part for the error.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';

export interface StreamCommandOptions {
  cwd?: string;
  /** The whole environment of the child. */
  env: NodeJS.ProcessEnv;
  /** Called with each line of stdout (without its newline); `stop` ends the program early. */
  onLine?: (line: string) => void | 'stop';
  /** Ends the program (SIGTERM, then SIGKILL). */
  signal?: AbortSignal;
  /** Default: none. */
  timeoutMs?: number;
  /** How much of stderr's end is kept. Default 16 KiB. */
  stderrTailBytes?: number;
}

export interface StreamCommandResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** The end of stderr. */
  stderr: string;
  /** Not installed (or not on PATH). */
  missing: boolean;
  /** Ended by the abort signal, `stop` or the time-out. */
  stopped: 'aborted' | 'stopped' | 'timed-out' | undefined;
  ok: boolean;
  durationMs: number;
}

export type StreamCommandRunner = (
  command: string,
  args: readonly string[],
  options: StreamCommandOptions,
) => Promise<StreamCommandResult>;

const KILL_GRACE_MS = 5000;

export const streamCommand: StreamCommandRunner = (command, args, options) =>
  new Promise((resolvePromise) => {
    const started = Date.now();
    const tailBytes = options.stderrTailBytes ?? 16 * 1024;
    let stderr = '';
    let stopped: StreamCommandResult['stopped'];
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;

    const child = spawn(command, [...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      shell: false,
    });

    const end = (how: NonNullable<StreamCommandResult['stopped']>) => {
      if (stopped || settled) return;
      stopped = how;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      killTimer = setTimeout(() => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }, KILL_GRACE_MS);
    };
    const onAbort = () => end('aborted');
    if (options.signal?.aborted) queueMicrotask(onAbort);
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs !== undefined) timer = setTimeout(() => end('timed-out'), options.timeoutMs);

    const finish = (
      partial: Pick<StreamCommandResult, 'exitCode' | 'signal' | 'missing'>,
      error?: string,
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolvePromise({
        ...partial,
        stderr: error ? [stderr, error].filter(Boolean).join('\n') : stderr,
        stopped,
        ok: stopped === undefined && partial.exitCode === 0,
        durationMs: Date.now() - started,
      });
    };

    // Lines are handed over as they complete; only the unfinished last one is held.
    const decoder = new StringDecoder('utf8');
    let pending = '';
    const take = (text: string) => {
      pending += text;
      let from = 0;
      for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', from)) {
        const line = pending.slice(from, newline);
        from = newline + 1;
        if (stopped) continue;
        if (options.onLine?.(line) === 'stop') end('stopped');
      }
      pending = pending.slice(from);
    };
    child.stdout.on('data', (chunk: Buffer) => take(decoder.write(chunk)));
    child.stdout.on('end', () => {
      take(decoder.end());
      if (pending !== '' && !stopped) options.onLine?.(pending);
      pending = '';
    });
    const errorDecoder = new StringDecoder('utf8');
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += errorDecoder.write(chunk);
      if (stderr.length > tailBytes * 2) stderr = stderr.slice(-tailBytes);
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      finish({ exitCode: null, signal: null, missing: error.code === 'ENOENT' }, error.message),
    );
    child.on('close', (code, signal) => {
      stderr = (stderr + errorDecoder.end()).slice(-tailBytes);
      finish({ exitCode: code, signal, missing: false });
    });
  });
