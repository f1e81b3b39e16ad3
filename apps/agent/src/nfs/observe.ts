// What the workspace's NFS server knows of its clients, read from the server's own records with no
// program (the report asks on every pass):
//
//   - ganesha's NFSv4 client records (RecoveryRoot/v4recov/<node>/<address>-(<len>:<owner>)): one
//     folder per client holding a lease, made at its first OPEN-confirm and removed when the lease
//     expires (60 s after it last spoke). The owner is the client's own name for itself; Linux puts
//     its NFS version in it ("Linux NFSv4.2 laptop").
//   - the TCP connections of ganesha's network namespace (/proc/<pid>/net/tcp6: ganesha listens on
//     an IPv6 socket, clients appear as ::ffff:a.b.c.d): whether a client is connected now.
//
//   - each export's reads and writes (operations, bytes), from ganesha's statistics interface on
//     its private bus (nfs/ganesha-dbus.ts): one short conversation at most every
//     STATS_INTERVAL_MS per workspace (a pass runs every few seconds; the numbers are totals, a
//     few seconds old is as good), the last answer reused in between.
//
// Not known: the export a client mounted. NFSv4 has no mount call, and ganesha keeps its counters
// per client and per export but not per client and export (ShowClients says which protocol a
// client spoke, GetNFSv4xIO of a client its totals), so `mount_point` stays null.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NfsClientReport, NfsExportReport, WorkspaceFeatureReports } from '@debesis/contract';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import type { NfsLayout } from './nfs-layout.ts';
import { exportIoStats } from './ganesha-dbus.ts';

export const STATS_INTERVAL_MS = 10_000;

const statsCache = new Map<string, { at: number; exports: NfsExportReport[] | undefined }>();

/**
 * The exports' counters, read from the bus at `socketPath` at most every STATS_INTERVAL_MS (a
 * failed read too is kept that long: a server starting is not asked on every pass). Undefined
 * when the server did not answer.
 */
export async function exportStats(
  socketPath: string,
  now = Date.now(),
): Promise<NfsExportReport[] | undefined> {
  const cached = statsCache.get(socketPath);
  if (cached && now - cached.at < STATS_INTERVAL_MS && now >= cached.at) return cached.exports;
  const prefix = `${NAMESPACE_DATA_ROOT}/`;
  const exports = await exportIoStats(socketPath).then(
    (stats) =>
      [...stats]
        .filter(([path]) => path.startsWith(prefix))
        .map(([path, io]) => ({ path: path.slice(prefix.length), ...io }))
        .sort((a, b) => a.path.localeCompare(b.path)),
    () => undefined,
  );
  statsCache.set(socketPath, { at: now, exports });
  return exports;
}

const RECORD = /^(?:::ffff:)?(.+?)-\((\d+):(.*)\)$/s;

/** One client record's folder name, or undefined when it is not one. */
export function parseClientRecord(name: string): { address: string; clientName: string } | undefined {
  const match = RECORD.exec(name);
  if (!match) return undefined;
  return { address: match[1]!, clientName: match[3]!.slice(0, 200) };
}

/** `4.x` from a Linux client's name, else `4` (the server speaks NFSv4 only). */
export function versionFromClientName(name: string): string {
  const minor = /NFSv4\.(\d)/.exec(name)?.[1];
  return minor === undefined ? '4' : `4.${minor}`;
}

/**
 * The remote IPv4 addresses of ESTABLISHED connections to `port` in /proc/net/tcp or tcp6 text
 * (addresses in hex, each 32-bit word in host byte order: little-endian here).
 */
export function connectedAddresses(text: string, port: number): Set<string> {
  const found = new Set<string>();
  for (const line of text.split('\n').slice(1)) {
    const [, local, remote, state] = line.trim().split(/\s+/);
    if (!local || !remote || state !== '01') continue;
    const [, localPort] = local.split(':');
    if (!localPort || parseInt(localPort, 16) !== port) continue;
    const [hex] = remote.split(':');
    if (!hex) continue;
    // tcp: 8 hex digits; tcp6: 32, an IPv4-mapped address (::ffff:a.b.c.d) in the last word.
    const word = hex.length === 8 ? hex : hex.slice(16, 24) === 'FFFF0000' ? hex.slice(24) : undefined;
    if (!word) continue;
    const bytes = [6, 4, 2, 0].map((at) => parseInt(word.slice(at, at + 2), 16));
    found.add(bytes.join('.'));
  }
  return found;
}

async function recordedPid(processFile: string): Promise<number | undefined> {
  const text = await readFile(processFile, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  try {
    const pid = (JSON.parse(text) as { pid?: unknown }).pid;
    return typeof pid === 'number' ? pid : undefined;
  } catch {
    return undefined;
  }
}

export async function observeNfs(
  layout: Pick<NfsLayout, 'recoveryDir' | 'processFile' | 'busSocket'>,
  port: number,
): Promise<Partial<WorkspaceFeatureReports>> {
  const root = join(layout.recoveryDir, 'v4recov');
  const nodes = await readdir(root).catch(() => [] as string[]);
  const records: Array<{ address: string; clientName: string }> = [];
  for (const node of nodes)
    for (const name of await readdir(join(root, node)).catch(() => [] as string[])) {
      const record = parseClientRecord(name);
      if (record) records.push(record);
    }
  const pid = await recordedPid(layout.processFile);
  const connected = new Set<string>();
  if (pid !== undefined)
    for (const table of ['tcp', 'tcp6'])
      for (const address of connectedAddresses(
        await readFile(`/proc/${pid}/net/${table}`, 'utf8').catch(() => ''),
        port,
      ))
        connected.add(address);
  const clients: NfsClientReport[] = records
    .sort((a, b) => a.address.localeCompare(b.address) || a.clientName.localeCompare(b.clientName))
    .slice(0, 10_000)
    .map((record) => ({
      address: record.address.slice(0, 80),
      version: versionFromClientName(record.clientName),
      connected: connected.has(record.address),
      client_name: record.clientName,
      mount_point: null,
    }));
  const exports = pid === undefined ? undefined : await exportStats(layout.busSocket);
  return { nfs: { clients, ...(exports ? { exports } : {}) } };
}
