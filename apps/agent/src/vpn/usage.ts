// Each VPN user's traffic per calendar month (UTC), counted on the node from successive readings
// of the server's sessions. A session is known by (user, real address, connected since); its
// counters only grow while it lasts, so a reading adds what each session moved since the reading
// before: all of it for a session seen for the first time, nothing more for one that is gone.
// Reconnects are new sessions and add up; a month starts from zero (what a session moves after
// the turn of the month counts in the new one).
//
// The counters and the sessions last seen are kept in `<vpn dir>/usage.json`, written atomically
// after every reading that changed them, so an agent restart neither loses the month nor counts
// a live session twice. A reading lost to a crash before the write is not lost traffic: the next
// reading finds the session's counters further on and adds the difference.
//
// A user whose month's bytes (received + sent) reach its limit is over it: its names go to
// `<vpn dir>/over-limit`, one per line, which the server's auth script reads at every connect to
// refuse it; the caller ends its sessions. Raising the limit or a new month lifts it at the next
// reading. Only users of the desired state are counted and reported: a deleted user's counters go
// with it, so a new user of the same name starts from zero.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { VpnSessionReport, VpnUsageReport, VpnUserState } from '@debesis/contract';
import { writeIfChanged } from '../fs/write-if-changed.ts';

export const USAGE_FILE = 'usage.json';
export const OVER_LIMIT_FILE = 'over-limit';

const bytesSchema = z.object({
  bytes_received: z.number().int().nonnegative(),
  bytes_sent: z.number().int().nonnegative(),
});
const usageStateSchema = z.object({
  version: z.literal(1),
  month: z.string(),
  users: z.record(z.string(), bytesSchema),
  /** The sessions at the last reading, with their counters then. */
  sessions: z.array(
    bytesSchema.extend({ user: z.string(), real_address: z.string(), connected_since: z.string() }),
  ),
});
type UsageState = z.infer<typeof usageStateSchema>;

export interface UsageReading {
  /** The VPN folder of the workspace (it exists): where the counters and the over-limit list live. */
  dir: string;
  sessions: readonly VpnSessionReport[];
  users: ReadonlyArray<Pick<VpnUserState, 'name' | 'traffic_limit_bytes'>>;
  /** Default: the clock. */
  now?: Date;
}

export interface UsageResult {
  /** This month's traffic of every user that moved any. */
  usage: VpnUsageReport[];
  /** Users at or over their limit this month, by name. */
  overLimit: string[];
}

/** `YYYY-MM` of `date` in UTC. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

const sessionKey = (s: Pick<VpnSessionReport, 'user' | 'real_address' | 'connected_since'>) =>
  `${s.user}\0${s.real_address}\0${s.connected_since}`;

async function readState(path: string): Promise<UsageState | undefined> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = usageStateSchema.safeParse(json);
  // Written atomically, so a bad file is one someone else wrote: refusing to count would stop
  // the limits working, so it is started afresh (live sessions count whole once more).
  return parsed.success ? parsed.data : undefined;
}

/** Adds one reading of the sessions to the month's counters and says who is over the limit. */
export async function countUsage(reading: UsageReading): Promise<UsageResult> {
  const month = monthOf(reading.now ?? new Date());
  const path = join(reading.dir, USAGE_FILE);
  const before = await readState(path);
  const known = new Map((before?.sessions ?? []).map((s) => [sessionKey(s), s]));
  const users = new Map(reading.users.map((user) => [user.name, user]));

  const totals = new Map<string, { bytes_received: number; bytes_sent: number }>();
  if (before?.month === month)
    for (const [name, bytes] of Object.entries(before.users))
      if (users.has(name)) totals.set(name, { ...bytes });

  const seen: UsageState['sessions'] = [];
  const keys = new Set<string>();
  for (const session of reading.sessions) {
    const key = sessionKey(session);
    if (keys.has(key)) continue;
    keys.add(key);
    seen.push({
      user: session.user,
      real_address: session.real_address,
      connected_since: session.connected_since,
      bytes_received: session.bytes_received,
      bytes_sent: session.bytes_sent,
    });
    if (!users.has(session.user)) continue;
    const last = known.get(key);
    // Counters never go back within a session; should they, the new figure is the base.
    const received = Math.max(0, session.bytes_received - (last?.bytes_received ?? 0));
    const sent = Math.max(0, session.bytes_sent - (last?.bytes_sent ?? 0));
    const total = totals.get(session.user) ?? { bytes_received: 0, bytes_sent: 0 };
    total.bytes_received += received;
    total.bytes_sent += sent;
    totals.set(session.user, total);
  }

  const state: UsageState = {
    version: 1,
    month,
    users: Object.fromEntries([...totals].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    sessions: seen,
  };
  await writeIfChanged(path, `${JSON.stringify(state)}\n`, { mode: 0o600 });

  const usage: VpnUsageReport[] = [];
  const overLimit: string[] = [];
  for (const [name, bytes] of Object.entries(state.users)) {
    const limit = users.get(name)?.traffic_limit_bytes ?? 0;
    // The limit is what a user may move: once it has all been moved, the user is cut off.
    const over = limit > 0 && bytes.bytes_received + bytes.bytes_sent >= limit;
    if (over) overLimit.push(name);
    if (bytes.bytes_received + bytes.bytes_sent > 0)
      usage.push({ user: name, month, ...bytes, over_limit: over });
  }
  await writeIfChanged(join(reading.dir, OVER_LIMIT_FILE), overLimit.map((name) => `${name}\n`).join(''), {
    mode: 0o644,
  });
  return { usage, overLimit };
}
