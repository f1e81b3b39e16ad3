// Events read off what the features report on every pass, by comparing it with what the last pass
// saw (`<ws>/monitoring/seen.json`): a VPN tunnel up or down (with its bytes), an FTP or SFTP
// sign-in and its end, an NFS client appearing and going, a backup or restore ending. The
// daemons keep no history of these (OpenVPN's status lists who is connected now), so the pass
// that sees the change records it. Ids are made of what identifies the session (user, start,
// address), so the same sign-in seen again after an agent restart is the same event.
//
// NFS reads and writes: ganesha has no per-operation log, only counters per export (its
// statistics, read at most every 10 s: nfs/observe.ts). When an export's counters have grown since
// the last pass, the growth becomes one `file_written` and/or one `file_read` event whose path is
// the export and whose bytes are the bytes moved; it names no file, user or client (ganesha's
// counters do not). Counters lower than remembered mean ganesha restarted: they count from zero.
import { readFile } from 'node:fs/promises';
import type { ActivityEventReport, NfsExportReport, WorkspaceFeatureReports } from '@debesis/contract';
import { writeIfChanged } from '../fs/write-if-changed.ts';

interface SeenSession {
  user: string | null;
  since: string;
  address: string | null;
  bytes: number | null;
}

export interface Seen {
  sessions: Record<string, SeenSession>;
  /** Ids of job-end events already made (the report lists a finished job until the API drops it). */
  jobs: string[];
  /** Each NFS export's counters as last reported, by its path. */
  nfs: Record<string, NfsCounters>;
}

type NfsCounters = Omit<NfsExportReport, 'path'>;

const EMPTY: Seen = { sessions: {}, jobs: [], nfs: {} };
/** Job-end ids remembered: more than a report ever lists. */
const JOBS_KEPT = 500;

export async function readSeen(file: string): Promise<Seen> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<Seen>;
    return { sessions: parsed.sessions ?? {}, jobs: parsed.jobs ?? [], nfs: parsed.nfs ?? {} };
  } catch {
    return EMPTY;
  }
}

export async function writeSeen(file: string, seen: Seen): Promise<void> {
  await writeIfChanged(file, JSON.stringify(seen), { mode: 0o600 });
}

type Source = ActivityEventReport['source'];

/** The sessions a report shows now, keyed `<source>|<identity>`, with what their events carry. */
function sessionsOf(features: WorkspaceFeatureReports): Map<string, SeenSession & { source: Source }> {
  const now = new Map<string, SeenSession & { source: Source }>();
  for (const session of features.vpn?.sessions ?? [])
    now.set(`vpn|${session.user}|${session.connected_since}|${session.real_address}`, {
      source: 'vpn',
      user: session.user,
      since: session.connected_since,
      address: session.real_address,
      bytes: session.bytes_received + session.bytes_sent,
    });
  for (const source of ['ftp', 'sftp'] as const)
    for (const session of features[source]?.sessions ?? [])
      now.set(`${source}|${session.user}|${session.connected_since}|${session.remote_address ?? ''}`, {
        source,
        user: session.user,
        since: session.connected_since,
        address: session.remote_address ?? null,
        bytes: null,
      });
  for (const client of features.nfs?.clients ?? [])
    if (client.connected)
      now.set(`nfs|${client.address}|${client.client_name}`, {
        source: 'nfs',
        user: null,
        since: '',
        address: client.address,
        bytes: null,
      });
  return now;
}

const UP = { vpn: 'vpn_connected', ftp: 'login', sftp: 'login', nfs: 'nfs_client_connected' } as const;
const DOWN = {
  vpn: 'vpn_disconnected',
  ftp: 'logout',
  sftp: 'logout',
  nfs: 'nfs_client_disconnected',
} as const;

/** A tunnel's address `203.0.113.7:51234` without its port (an IPv6 one keeps its colons). */
function host(address: string | null): string | null {
  if (!address) return null;
  const match = /^(.*):\d+$/.exec(address);
  return match && match[1]!.split(':').length !== 2 ? match[1]! : address;
}

/**
 * What changed since `seen`: the events, and what to remember. A feature missing from the report
 * (its daemon not running, or not asked this pass) keeps its sessions as they were: only a report
 * that lists a feature's sessions can say one has gone.
 */
export function sessionEvents(
  seen: Seen,
  features: WorkspaceFeatureReports,
  now: Date,
): { events: ActivityEventReport[]; seen: Seen } {
  const at = now.toISOString();
  const current = sessionsOf(features);
  const reported = new Set<string>([
    ...(features.vpn ? ['vpn'] : []),
    ...(features.ftp ? ['ftp'] : []),
    ...(features.sftp ? ['sftp'] : []),
    ...(features.nfs ? ['nfs'] : []),
  ]);
  const events: ActivityEventReport[] = [];
  const sessions: Record<string, SeenSession> = {};
  const event = (key: string, session: SeenSession, source: Source, up: boolean): ActivityEventReport => ({
    id: `${key}|${up ? 'up' : 'down'}`.slice(0, 200),
    at: up ? session.since || at : at,
    source,
    kind: (up ? UP : DOWN)[source as keyof typeof UP],
    user: session.user,
    path: null,
    target: null,
    bytes: up ? null : session.bytes,
    remote_address: host(session.address),
  });
  for (const [key, session] of Object.entries(seen.sessions)) {
    const source = key.split('|')[0] as Source;
    if (!reported.has(source)) sessions[key] = session;
    else if (!current.has(key)) events.push(event(key, session, source, false));
  }
  for (const [key, { source, ...session }] of current) {
    if (!(key in seen.sessions)) {
      // An NFS client has no start time of its own: first seen now, and its id says when.
      const stamped = source === 'nfs' ? { ...session, since: at } : session;
      events.push(event(source === 'nfs' ? `${key}|${at}` : key, stamped, source, true));
      sessions[key] = stamped;
    } else sessions[key] = { ...seen.sessions[key]!, bytes: session.bytes };
  }

  const jobs = new Set(seen.jobs);
  for (const job of features.backup?.jobs ?? []) {
    if (job.status === 'running') continue;
    const id = `backup|${job.id}|${job.status}`;
    if (jobs.has(id)) continue;
    jobs.add(id);
    const restore = job.restored_to !== undefined || job.files_restored !== undefined;
    const completed = job.status === 'completed';
    events.push({
      id,
      at: job.finished_at ?? at,
      source: 'backup',
      kind: restore
        ? completed
          ? 'restore_completed'
          : 'restore_failed'
        : completed
          ? 'backup_completed'
          : 'backup_failed',
      user: null,
      path: job.restored_to ?? null,
      target: null,
      bytes: job.bytes_added ?? null,
      remote_address: null,
    });
  }
  const nfs = nfsCounterEvents(seen.nfs, features.nfs?.exports, at);
  events.push(...nfs.events);
  return { events, seen: { sessions, jobs: [...jobs].slice(-JOBS_KEPT), nfs: nfs.counters } };
}

/** Reads and writes per export since the last counters (see the top); unreported: kept as they were. */
function nfsCounterEvents(
  last: Record<string, NfsCounters>,
  exports: readonly NfsExportReport[] | undefined,
  at: string,
): { events: ActivityEventReport[]; counters: Record<string, NfsCounters> } {
  if (!exports) return { events: [], counters: last };
  const events: ActivityEventReport[] = [];
  const counters: Record<string, NfsCounters> = {};
  for (const { path, ...now } of exports) {
    const before = last[path];
    const restarted = before !== undefined && (now.reads < before.reads || now.writes < before.writes);
    const base = before && !restarted ? before : { reads: 0, read_bytes: 0, writes: 0, write_bytes: 0 };
    const moved = [
      { kind: 'file_written', ops: now.writes - base.writes, bytes: now.write_bytes - base.write_bytes },
      { kind: 'file_read', ops: now.reads - base.reads, bytes: now.read_bytes - base.read_bytes },
    ] as const;
    for (const { kind, ops, bytes } of moved)
      if (ops > 0)
        events.push({
          id: `nfs|${path}|${at}|${kind}`.slice(0, 200),
          at,
          source: 'nfs',
          kind,
          user: null,
          path,
          target: null,
          bytes: Math.max(0, bytes),
          remote_address: null,
        });
    counters[path] = now;
  }
  return { events, counters };
}
