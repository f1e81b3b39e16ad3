// How the agent runs restic for one workspace's repository: a clean environment naming the
// repository, the key's file and the cache (RESTIC_PASSWORD_FILE: the key is never on a command
// line, in the environment or in a log), and, for jobs, a low CPU and IO priority (nice, ionice)
// so a backup does not starve the workspaces' daemons, and a parent-death signal (setpriv), so a
// restic does not outlive an agent that died. Each wrapper is used when the host has it.
//
// Every restic call opens the repository, which derives the key with scrypt; restic calibrates
// that to half a second, which the agent's random 256-bit key does not need (repository.ts).
// Read-only calls (browse, listing snapshots) run with --no-lock: a lock costs a 200 ms wait.
import { findProgram } from '../system/host.ts';
import { streamCommand, type StreamCommandResult, type StreamCommandRunner } from '../exec/stream-command.ts';
import type { RepositoryPaths } from './repository.ts';

export interface ResticOptions {
  /** Where it runs (a backup: the storage root, so the snapshot holds paths relative to it). */
  cwd?: string;
  onLine?: (line: string) => void | 'stop';
  signal?: AbortSignal;
  /** Job work runs at a low priority; a browse, which someone waits for, does not. */
  background?: boolean;
  timeoutMs?: number;
}

export interface Restic {
  run(args: readonly string[], options?: ResticOptions): Promise<ResticResult>;
  /** Runs it, keeps stdout whole (small outputs: snapshots, stats, forget) and throws on failure. */
  output(args: readonly string[], options?: Omit<ResticOptions, 'onLine'>): Promise<string>;
}

export interface ResticResult extends StreamCommandResult {
  args: readonly string[];
}

/** A restic call that failed, with its words and what they mean to the job. */
export class ResticError extends Error {
  constructor(
    readonly result: ResticResult,
    readonly code: 'no_space' | 'interrupted' | 'failed',
  ) {
    super(describeResticFailure(result));
    this.name = 'ResticError';
  }
}

/**
 * What of the agent's environment a repository on the backup target may need: an S3 target's
 * credentials (docs/features/backups.md "Backups off the node": the operator gives them to the
 * nodes' agents).
 */
const TARGET_ENVIRONMENT = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_DEFAULT_REGION'] as const;

/** The environment every restic call gets, and nothing else of the agent's. */
export function resticEnvironment(paths: RepositoryPaths): NodeJS.ProcessEnv {
  const target = paths.remote
    ? Object.fromEntries(
        TARGET_ENVIRONMENT.filter((name) => process.env[name]).map((name) => [name, process.env[name]]),
      )
    : {};
  return {
    ...target,
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin',
    HOME: paths.dir,
    TMPDIR: paths.tmp,
    LC_ALL: 'C',
    // Times in its JSON end in Z (restic-json.ts reads them fast so).
    TZ: 'UTC',
    RESTIC_REPOSITORY: paths.repository,
    RESTIC_PASSWORD_FILE: paths.password,
    RESTIC_CACHE_DIR: paths.cache,
  };
}

/** The low-priority wrappers the host has, in front of the program. */
async function backgroundPrefix(): Promise<string[]> {
  const prefix: string[] = [];
  if (await findProgram('setpriv')) prefix.push('setpriv', '--pdeathsig', 'KILL', '--');
  if (await findProgram('nice')) prefix.push('nice', '-n', '10');
  if (await findProgram('ionice')) prefix.push('ionice', '-c', '2', '-n', '7');
  return prefix;
}

export function createRestic(paths: RepositoryPaths, spawn: StreamCommandRunner = streamCommand): Restic {
  const env = resticEnvironment(paths);
  const restic: Restic = {
    async run(args, options = {}) {
      const argv = [...(options.background ? await backgroundPrefix() : []), 'restic', ...args];
      const [command, ...rest] = argv as [string, ...string[]];
      const result = await spawn(command, rest, {
        env,
        cwd: options.cwd,
        onLine: options.onLine,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
      return { ...result, args };
    },
    async output(args, options = {}) {
      const lines: string[] = [];
      const result = await restic.run(args, { ...options, onLine: (line) => void lines.push(line) });
      if (!result.ok) throw new ResticError(result, failureCode(result));
      return lines.join('\n');
    },
  };
  return restic;
}

/** What a failed call means for the job: a full disk, an abort, or anything else. */
export function failureCode(result: StreamCommandResult): ResticError['code'] {
  if (result.stopped === 'aborted') return 'interrupted';
  if (/no space left on device|disk quota exceeded/i.test(result.stderr)) return 'no_space';
  return 'failed';
}

export function describeResticFailure(result: ResticResult): string {
  const name = `restic ${result.args[0] ?? ''}`.trim();
  if (result.missing) return 'restic is not installed';
  if (result.stopped === 'timed-out') return `${name} timed out`;
  if (result.stopped === 'aborted') return `${name} was stopped`;
  // restic's own words, without its progress lines (a "[0:01] 5.00%" bar in text output).
  const words = result.stderr
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^\[\d+:\d+\]/.test(line))
    .slice(-8)
    .join('\n');
  // These words reach the owner's report: a target's URL restic names in them keeps no password.
  const shown = withoutUrlPasswords(words);
  const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
  return shown ? `${name} ${how}: ${shown}` : `${name} ${how}`;
}

/** `rest:https://user:secret@host/` as `rest:https://user:***@host/`. */
export const withoutUrlPasswords = (text: string) => text.replace(/(\/\/[^\s/:@]*:)[^\s/@]*@/g, '$1***@');

/**
 * A path as a restic pattern that matches only itself (`--include`, `--exclude`): restic reads
 * `*`, `?`, `[…]` and `\` as pattern syntax (Go's filepath.Match), and customers name files so.
 */
export function literalPattern(path: string): string {
  return path.replace(/[\\*?[\]]/g, (character) => `\\${character}`);
}
