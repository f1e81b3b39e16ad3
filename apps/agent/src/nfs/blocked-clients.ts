// Disconnecting one NFS client (node call `nfs.disconnect`). Ganesha cannot end one client's
// session (clientmgr.RemoveClient only forgets a statistics record), so the address is refused
// instead: it is kept in <ws>/nfs/blocked.json with an expiry, every rendering of exports.conf puts
// a `CLIENT { Access_Type = None; }` block of it before each allowed one, and ganesha re-reads the
// exports on SIGHUP. The expiry outlasts ganesha's 60 s lease, so the client's state is gone
// before it may come back; to keep it out for good the owner changes the export's client rule.
//
// A pass may render while a call writes the file; `blockedDrift` (asked on every observe pass)
// says so when exports.conf does not match the list, and when an entry has expired, so the next
// apply renders again.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { readJsonFile } from '../fs/read-json-file.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import type { NfsLayout } from './nfs-layout.ts';

/** How long a disconnected address is refused: longer than ganesha's 60 s lease. */
export const BLOCK_MS = 90_000;

const blockedSchema = z.array(z.object({ address: z.ipv4(), until: z.number().int() })).max(1000);
type Blocked = z.infer<typeof blockedSchema>;

const read = async (path: string): Promise<Blocked> => (await readJsonFile(path, blockedSchema)) ?? [];

/** The addresses refused at `now`, sorted. */
export async function blockedAddresses(layout: Pick<NfsLayout, 'blocked'>, now = Date.now()) {
  return (await read(layout.blocked))
    .filter((entry) => entry.until > now)
    .map((entry) => entry.address)
    .sort();
}

/** Refuses `address` for BLOCK_MS from `now` (expired entries go); returns until when. */
export async function blockClient(
  layout: Pick<NfsLayout, 'blocked'>,
  address: string,
  now = Date.now(),
): Promise<number> {
  const until = now + BLOCK_MS;
  const kept = (await read(layout.blocked)).filter((entry) => entry.until > now && entry.address !== address);
  await writeIfChanged(layout.blocked, JSON.stringify([...kept, { address, until }]), { mode: 0o600 });
  return until;
}

/** Why exports.conf needs rendering again for the blocked list, or undefined when it does not. */
export async function blockedDrift(
  layout: Pick<NfsLayout, 'blocked' | 'exportsConf'>,
  now = Date.now(),
): Promise<string | undefined> {
  const entries = await read(layout.blocked);
  if (entries.length === 0) return undefined;
  const conf = await readFile(layout.exportsConf, 'utf8').catch(() => '');
  const rendered = new Set(
    [...conf.matchAll(/Clients = ([^;]+);\n\s*Access_Type = None;/g)].flatMap((match) =>
      (match[1] ?? '').split(', '),
    ),
  );
  if (entries.some((entry) => entry.until <= now && rendered.has(entry.address)))
    return 'a disconnected NFS client may connect again';
  if (entries.some((entry) => entry.until > now && !rendered.has(entry.address)))
    return 'a disconnected NFS client is not refused yet';
  return undefined;
}
