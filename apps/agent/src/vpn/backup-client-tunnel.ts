// A backup client's VPN login reaches the workspace's REST server for backups and nothing else
// (docs/features/backup-clients.md). The pushed routes cannot do it (a client ignores what it is
// pushed), so it is enforced on the node, inside the workspace's network namespace:
//
// - Addresses: the tunnel network (VPN_TUNNEL_NETWORK, a /24) is split in two. People's logins
//   take openvpn's pool in the lower half (`server … nopool` + `ifconfig-pool`); each backup
//   client's login gets a fixed address of the upper half (BACKUP_CLIENT_RANGE) from a file of its
//   own in openvpn's `client-config-dir` (`ifconfig-push`), read at every connect. OpenVPN drops a
//   packet from a client whose source is not the address it gave that client, so the source
//   address says who sent it. A backup client with no address free is refused (left out of the
//   users file, reported failed), never let in with a person's address.
// - Filter: policy rules of the namespace, set by the VPN's start (TUNNEL_FILTER_SCRIPT, before
//   openvpn): from BACKUP_CLIENT_RANGE, TCP to the REST server's address and port is looked up in
//   the `local` table (delivered), and everything else is `prohibit`. The `local` rule moves from
//   priority 0 to after them, so the workspace's own addresses (smbd at the workspace's address
//   and at the tunnel's, ganesha, slapd, pure-ftpd, sshd) are never delivered to that range. The
//   namespace does not forward, so nothing beyond it is reachable either.
//
// Why policy rules and not nftables/iptables: this host has neither program (the kernel has
// nf_tables, but no nft to drive it, and no network to install it), while iproute2 is already what
// the agent needs; `ip rule` matches protocol and port since Linux 4.17. No daemon's binding had to
// change for it.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BACKUP_CLIENT_PORT,
  VPN_TUNNEL_NETWORK,
  VPN_TUNNEL_SERVER_ADDRESS,
  WORKSPACE_NAME_PATTERN,
  type ResourceFailure,
  type VpnUserState,
  type WorkspaceDesiredState,
} from '@debesis/contract';
import { VPN_USER_KIND } from './password-check.ts';

const TUNNEL = /^(\d+\.\d+\.\d+)\.0\/24$/.exec(VPN_TUNNEL_NETWORK);
if (!TUNNEL) throw new Error(`the backup clients' range is cut from a /24 tunnel, not ${VPN_TUNNEL_NETWORK}`);
const PREFIX = TUNNEL[1]!;

/** The upper half of the tunnel network: backup clients' logins only. */
export const BACKUP_CLIENT_RANGE = `${PREFIX}.128/25`;
/** openvpn's pool for people's logins: the lower half (the server holds .1). */
export const PERSON_POOL = { start: `${PREFIX}.2`, end: `${PREFIX}.127` } as const;
/** The backup clients' addresses (.128 … .254; .255 is the /24's broadcast). */
const BACKUP_ADDRESSES = Array.from({ length: 127 }, (_, i) => `${PREFIX}.${128 + i}`);
const NETMASK = '255.255.255.0';

/** Rule priorities in the workspace's namespace (the `local` table's rule moves to LOCAL). */
export const FILTER_PRIORITIES = { allow: 10, prohibit: 11, local: 100 } as const;

/**
 * Whether a VPN user is a backup client's login: marked so by the API, or (an API from before the
 * mark) named as one of the workspace's backup clients.
 */
export function isBackupClientLogin(user: VpnUserState, desired: WorkspaceDesiredState): boolean {
  if (user.backup_client === true) return true;
  const backup = desired.backup;
  return (
    backup !== undefined &&
    (backup.clients.some((client) => client.name === user.name) ||
      backup.client_repositories.includes(user.name))
  );
}

/** `ifconfig-push` of a backup client's file in client-config-dir. */
export const ccdText = (address: string) => `ifconfig-push ${address} ${NETMASK}\n`;

/** The address a client-config-dir file gives, or undefined (not one of the agent's). */
export function ccdAddress(text: string): string | undefined {
  const address = /^ifconfig-push (\S+) /.exec(text)?.[1];
  return address !== undefined && BACKUP_ADDRESSES.includes(address) ? address : undefined;
}

export interface BackupClientAddresses {
  /** Login name → its fixed address. */
  assigned: Map<string, string>;
  /** Logins refused for want of an address. */
  failures: ResourceFailure[];
}

/**
 * A fixed address for each backup client's login: the one it has (`current`, read from the
 * files) when it still may, else the lowest free one, so a connected client never sees its
 * address handed to another.
 */
export function assignBackupClientAddresses(
  logins: readonly string[],
  current: ReadonlyMap<string, string>,
): BackupClientAddresses {
  const assigned = new Map<string, string>();
  const taken = new Set<string>();
  for (const name of logins) {
    const address = current.get(name);
    if (address && !taken.has(address)) {
      assigned.set(name, address);
      taken.add(address);
    }
  }
  const failures: ResourceFailure[] = [];
  for (const name of logins) {
    if (assigned.has(name)) continue;
    const free = BACKUP_ADDRESSES.find((address) => !taken.has(address));
    if (!free) {
      failures.push({
        kind: VPN_USER_KIND,
        name,
        error: `no address left in the backup clients' range ${BACKUP_CLIENT_RANGE}: refused`,
      });
      continue;
    }
    assigned.set(name, free);
    taken.add(free);
  }
  return { assigned, failures };
}

/** The files of client-config-dir now (name → address), read as the record of what was given. */
export async function readBackupClientAddresses(
  ccdDir: string,
  read: (path: string) => Promise<string>,
): Promise<Map<string, string>> {
  const current = new Map<string, string>();
  const names = await readdir(ccdDir).catch(() => [] as string[]);
  for (const name of names) {
    if (!WORKSPACE_NAME_PATTERN.test(name)) continue;
    const address = ccdAddress(await read(join(ccdDir, name)).catch(() => ''));
    if (address) current.set(name, address);
  }
  return current;
}

/** Deletes client-config-dir files of logins that are no longer backup clients; returns them. */
export async function removeStaleCcdFiles(ccdDir: string, keep: ReadonlySet<string>): Promise<string[]> {
  const names = await readdir(ccdDir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names)
    if (!keep.has(name)) {
      await rm(join(ccdDir, name), { force: true });
      removed.push(name);
    }
  return removed;
}

/**
 * Run in the workspace's network namespace before openvpn (its `setup`; ends with `exec "$@"`).
 * $1 the backup clients' range, $2 the REST server's address, $3 its port. Safe to run again: the
 * rules are put back as they should be, the `local` rule added at its new place before it leaves
 * priority 0, so local delivery never stops.
 */
export const TUNNEL_FILTER_SCRIPT = `set -eu
range=$1 server=$2 port=$3
shift 3
ip -4 rule show pref ${FILTER_PRIORITIES.local} | grep -q 'lookup local' || ip -4 rule add pref ${FILTER_PRIORITIES.local} lookup local
while ip -4 rule del pref ${FILTER_PRIORITIES.allow} 2>/dev/null; do :; done
while ip -4 rule del pref ${FILTER_PRIORITIES.prohibit} 2>/dev/null; do :; done
ip -4 rule add pref ${FILTER_PRIORITIES.allow} from "$range" to "$server/32" ipproto tcp dport "$port" lookup local
ip -4 rule add pref ${FILTER_PRIORITIES.prohibit} from "$range" prohibit
while ip -4 rule show pref 0 | grep -q 'lookup local'; do ip -4 rule del pref 0 lookup local; done
exec "$@"`;

/** The VPN's setup argv (daemons/definition.ts `setup`). */
export const tunnelFilterSetup = (): string[] => [
  '/bin/sh',
  '-c',
  TUNNEL_FILTER_SCRIPT,
  'debesis-vpn-filter',
  BACKUP_CLIENT_RANGE,
  VPN_TUNNEL_SERVER_ADDRESS,
  String(BACKUP_CLIENT_PORT),
];
