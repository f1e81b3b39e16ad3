// One load measurement with autocannon against 127.0.0.1: requests/s and p99 latency, and, for a
// server process named, the CPU it spent per request.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The user and system CPU time a process has used, in microseconds (Linux; 0 elsewhere). */
export function cpuMicros(pid: number): number {
  try {
    // The fields after the command name (which may hold spaces): utime is the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export interface LoadResult {
  label: string;
  requestsPerSecond: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** CPU the server process spent per request (µs), when its pid was given. */
  cpuMicrosPerRequest?: number;
  /**
   * CPU the server process spent per second with no request at all, measured before (its
   * background work: the product's worker and embedded node), when known.
   */
  idleCpuMicrosPerSecond?: number;
  /** The machine's one-minute load average when the load started. */
  loadAverage: number;
}

export interface LoadOptions {
  connections?: number;
  durationSeconds?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /**
   * The server process whose CPU time to read around the load (/proc/<pid>/stat): steadier than
   * requests/s on a machine shared with other work, which takes the cores from the load.
   */
  serverPid?: number;
  /** Changes each request before it is sent (to rotate through accounts, say). */
  setupRequest?: (request: autocannon.Request) => autocannon.Request;
}

export async function measure(label: string, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  const loadAverage = loadavg()[0] ?? 0;
  const cpuBefore = options.serverPid ? cpuMicros(options.serverPid) : 0;
  const result = await autocannon({
    url,
    connections: options.connections ?? 50,
    duration: options.durationSeconds ?? 10,
    method: options.method ?? 'GET',
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.body ? { body: options.body } : {}),
    ...(options.setupRequest ? { requests: [{ setupRequest: options.setupRequest }] } : {}),
  });
  const cpu = options.serverPid ? cpuMicros(options.serverPid) - cpuBefore : 0;
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    ...(options.serverPid && result.requests.total > 0
      ? { cpuMicrosPerRequest: Math.round(cpu / result.requests.total) }
      : {}),
    loadAverage,
  };
}

export function printLoadTable(title: string, results: LoadResult[]) {
  console.log(`\n${title}`);
  console.log('| what | requests/s | p99 | errors | non-2xx | server CPU per request | load |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const cpu = r.cpuMicrosPerRequest === undefined ? '' : `${r.cpuMicrosPerRequest} µs`;
    console.log(
      `| ${r.label} | ${r.requestsPerSecond.toLocaleString('en-US')} | ${r.p99Ms} ms | ${r.errors} | ${r.non2xx} | ${cpu} | ${r.loadAverage.toFixed(1)} |`,
    );
  }
}

/** The CPU a process spends per second while nobody calls it (its own background work). */
export async function idleCpuMicrosPerSecond(pid: number, milliseconds = 5_000): Promise<number> {
  const before = cpuMicros(pid);
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  return Math.round(((cpuMicros(pid) - before) * 1_000) / milliseconds);
}
