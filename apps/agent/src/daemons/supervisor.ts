// The agent's supervisor of every daemon of every workspace (smbd, openvpn, ganesha, slapd,
// pure-ftpd, sshd, rclone), one process per daemon per workspace. A daemon is started inside its
// workspace's namespace (system/namespace.ts) in the foreground and its own process group; the
// supervisor leaves a record beside it (`<feature>/run/<daemon>.agent.json`: pid, start time, the
// command line it runs) and keeps nothing in memory, so after an agent restart the next pass adopts
// a daemon whose pid is alive with the recorded command line, and starts it again if it died (a pid
// reused by another program is not mistaken for it). Stopping stops the whole process group.
import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { spawnDaemon, type DaemonSpawner } from '../exec/spawn-daemon.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import { waitForListening, type Listens } from '../net/wait-for-port.ts';
import { inWorkspaceNamespace, type NamespacePaths } from '../system/namespace.ts';
import { processArgv, stopProcessGroup } from '../system/processes.ts';

const recordSchema = z.object({
  pid: z.number().int().positive(),
  started_at: z.string(),
  /** Absent in records of agents before the generic supervisor: then the argv expected now. */
  argv: z.array(z.string()).optional(),
  /** The kernel's start time of the process (/proc/<pid>/stat, clock ticks since boot). */
  start_ticks: z.number().int().nonnegative().optional(),
});
export interface DaemonRecord {
  pid: number;
  started_at: string;
  argv: string[];
  start_ticks?: number;
}

/** Where the supervisor keeps what it knows of one daemon. */
export interface DaemonFiles {
  /** The record: pid, start time, command line. */
  record: string;
  /** The daemon's stdout and stderr (start-up errors land here before its own log is open). */
  output: string;
  /**
   * The daemon rewrites its command line (pure-ftpd: `pure-ftpd (SERVER)`, sshd: `sshd: … [listener]`):
   * it is recognised by its pid and the kernel's start time of that pid instead.
   */
  retitles?: boolean;
}

/** `<feature dir>/run/<daemon>.agent.json` and `<feature dir>/log/<daemon>.out`. */
export function daemonFiles(dir: string, daemon: string, options: { retitles?: boolean } = {}): DaemonFiles {
  return {
    record: join(dir, 'run', `${daemon}.agent.json`),
    output: join(dir, 'log', `${daemon}.out`),
    ...(options.retitles ? { retitles: true } : {}),
  };
}

/** The kernel's start time of `pid` (clock ticks since boot), or undefined when it is gone. */
export async function processStartTicks(pid: number): Promise<number | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (stat === undefined) return undefined;
  // After the parenthesised name: the state is field 3, the start time field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z') return undefined;
  const ticks = Number(fields[19]);
  return Number.isInteger(ticks) ? ticks : undefined;
}

const sameArgv = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((part, index) => part === b[index]);

/**
 * The daemon running for this record, or undefined: no record, or its pid is gone or runs another
 * command line. `expected` is the command line it would be started with now (for old records).
 */
export async function runningDaemon(
  files: DaemonFiles,
  expected: readonly string[],
): Promise<DaemonRecord | undefined> {
  const text = await readFile(files.record, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  let parsed;
  try {
    parsed = recordSchema.safeParse(JSON.parse(text.trim() || 'null'));
  } catch {
    return undefined;
  }
  if (!parsed.success) return undefined;
  const record: DaemonRecord = { ...parsed.data, argv: parsed.data.argv ?? [...expected] };
  if (files.retitles)
    return record.start_ticks !== undefined && (await processStartTicks(record.pid)) === record.start_ticks
      ? record
      : undefined;
  const live = await processArgv(record.pid);
  return live !== undefined && sameArgv(live, record.argv) ? record : undefined;
}

export interface StartOptions {
  /** The daemon's name for messages (`smbd`). */
  name: string;
  /** The paths the workspace's namespace is built from (its layout). */
  namespace: NamespacePaths;
  /** The workspace's folders the daemon sees inside (its feature's own folder). */
  keep: readonly string[];
  argv: readonly string[];
  /**
   * A command run in the namespace first (the FTP jails' mounts), which ends by exec'ing its
   * arguments, the daemon's argv: the daemon keeps the pid and its command line is `argv`.
   */
  setup?: readonly string[];
  /** It is up once this accepts connections (TCP) or has bound the port (UDP). */
  listens: Listens;
  spawn?: DaemonSpawner;
  /** Default 15 s. */
  timeoutMs?: number;
}

export async function startDaemon(files: DaemonFiles, options: StartOptions): Promise<DaemonRecord> {
  const { name } = options;
  for (const file of [files.record, files.output])
    await mkdir(dirname(file), { recursive: true, mode: 0o755 });
  const { command, args } = inWorkspaceNamespace(
    options.namespace,
    [...(options.setup ?? []), ...options.argv],
    options.keep,
  );
  const daemon = await (options.spawn ?? spawnDaemon)(command, args, { outputFile: files.output });
  const record: DaemonRecord = {
    pid: daemon.pid,
    started_at: new Date().toISOString(),
    argv: [...options.argv],
  };
  if (files.retitles) {
    const ticks = await processStartTicks(daemon.pid);
    if (ticks !== undefined) record.start_ticks = ticks;
  }
  await writeIfChanged(files.record, JSON.stringify(record) + '\n', { mode: 0o644 });
  try {
    await waitForListening(daemon.pid, options.listens, {
      timeoutMs: options.timeoutMs ?? 15_000,
      stillRunning: () => !daemon.exited(),
    });
  } catch (error) {
    await stopProcessGroup(daemon.pid, 2000).catch(() => undefined);
    await rm(files.record, { force: true });
    const output = await readFile(files.output, 'utf8').catch(() => '');
    const tail = output.trim().split('\n').slice(-5).join('\n');
    throw new Error(`${name} did not start: ${(error as Error).message}${tail ? `\n${tail}` : ''}`);
  }
  return record;
}

/** Stops the daemon if it runs and forgets it; whether there was anything to stop or forget. */
export async function stopDaemon(files: DaemonFiles, expected: readonly string[]): Promise<boolean> {
  const running = await runningDaemon(files, expected);
  if (running) await stopProcessGroup(running.pid);
  const hadRecord = await readFile(files.record).then(
    () => true,
    () => false,
  );
  await rm(files.record, { force: true });
  return running !== undefined || hadRecord;
}

/** Sends `signal` to the daemon alone (a reload by SIGHUP); false when it does not run. */
export async function signalDaemon(
  files: DaemonFiles,
  expected: readonly string[],
  signal: NodeJS.Signals,
): Promise<boolean> {
  const running = await runningDaemon(files, expected);
  if (!running) return false;
  process.kill(running.pid, signal);
  return true;
}
