// From the desired NFS exports to nfs-ganesha's config, checked again here although the API
// validated them (defence in depth: a path becomes what a network client may reach).
//
// The server part (ganesha.conf) is read at start only: NFSv4 only, TCP only, bound to the
// workspace's address, no NLM/rquota/UDP/portmapper, no Kerberos, no grace period (Graceless: a
// restart does not hold every client's OPEN for 90 s; clients lose reclaimable locks, which NFSv4
// clients without NLM handle by opening again). The exports (exports.conf, included) are re-read
// on SIGHUP: changing, adding or removing one keeps the others' clients mounted.
//
// Each export:
//   path        `<storage>/<path>` as ganesha sees it (/srv/…), and `/<path>` in the NFSv4 tree;
//               letters, digits, `_`, `-` separated by `/` (no `..`, nothing absolute): it can
//               only name a folder inside the workspace's storage. The folder is made by the
//               driver without following symlinks (fs/ensure-dir.ts).
//   client      an IPv4 address, a network a.b.c.d/len or a hostname; nothing ganesha would read
//               as a wildcard (`*`, `?`) or a netgroup (`@`). Any other client is refused
//               (Access_Type = None outside the CLIENT block).
//   access      read_write → RW, read_only → RO.
//   identity    all_squash: whatever uid a client sends, it acts as the export's owner (a user of
//               the workspace; none named: uid `id_base`, the block's own id, no sign-in user) with
//               gid `id_base` (the workspace's `users` group, which owns share folders, setgid).
//               Client uids mean nothing here (a laptop's 1000 is no one in the workspace, or worse
//               the node's own user), and root on a client must not be root on the storage; so
//               every file written over NFS belongs to the workspace, inside its id block.
//
// Export_Id: ganesha's key of an export across reloads (a changed id is a removed export and a new
// one). It is derived from the path (FNV-1a into 1…65535, the next free one on a collision, taken
// in path order), so it stays while the export does.
//
// The NFSv4 root (`/`, FSAL PSEUDO, id 0) lets in only the clients of some export, read only: a
// client of none cannot even list the export names.
//
// Disconnected clients (nfs/blocked-clients.ts): ganesha takes the first CLIENT block that matches
// an address, so a `Access_Type = None` block of the blocked addresses comes before every allowed
// one, the root's too; after the SIGHUP the client's next request is refused.
import { join } from 'node:path';
import type { NfsExportState, ResourceFailure, WorkspaceDesiredState } from '@debesis/contract';
import { nameProblem, type WorkspaceAccounts } from '../accounts/validate-accounts.ts';
import { ganeshaConf } from '../daemons/config-formats.ts';
import type { NfsLayout } from './nfs-layout.ts';

export const NFS_EXPORT_KIND = 'nfs_export';

export interface ResolvedExport {
  /** Relative to the storage root; the export's name in failures and reports. */
  path: string;
  /** The folder as ganesha sees it, inside the namespace. */
  fullPath: string;
  /** In the NFSv4 tree: `/<path>`. */
  pseudo: string;
  exportId: number;
  client: string;
  access: 'RW' | 'RO';
  anonymousUid: number;
  anonymousGid: number;
}

const EXPORT_PATH = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;
const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;
const HOST_LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Why `path` cannot be an export's folder, or undefined when it can. */
export function exportPathProblem(path: string): string | undefined {
  if (path.length === 0 || path.length > 64) return 'path must be 1 to 64 characters';
  if (!EXPORT_PATH.test(path))
    return 'path must be folder names (letters, digits, "-", "_") separated by "/", inside the storage';
  return undefined;
}

/** Why `client` cannot be an export's client rule, or undefined when it can. */
export function clientRuleProblem(client: string): string | undefined {
  const ip = IPV4.exec(client);
  if (ip) {
    const octets = ip.slice(1, 5).map(Number);
    if (
      octets.some((octet, index) => octet > 255 || (ip[index + 1]!.length > 1 && ip[index + 1]![0] === '0'))
    )
      return 'client address has a part outside 0–255';
    if (ip[5] !== undefined) {
      const length = Number(ip[5]);
      if (length > 32 || (ip[5].length > 1 && ip[5][0] === '0')) return 'client network length must be 0–32';
      const value = octets.reduce((sum, octet) => sum * 256 + octet, 0);
      if (length < 32 && value % 2 ** (32 - length) !== 0)
        return `client network ${client} has host bits set`;
    }
    return undefined;
  }
  // Not an address: a hostname. Digits and dots only would have been an address above.
  const labels = client.split('.');
  if (
    client.length > 253 ||
    labels.some((label) => !HOST_LABEL.test(label)) ||
    /^[\d.]+$/.test(client) ||
    /^\d+$/.test(labels.at(-1) ?? '')
  )
    return 'client must be an IPv4 address, a network such as 192.168.1.0/24, or a hostname';
  return undefined;
}

/** FNV-1a of the path, into 1…65535 (0 is the NFSv4 root's). */
function idOf(path: string): number {
  let hash = 0x811c9dc5;
  for (const char of path) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return 1 + (hash % 65535);
}

export function resolveExports(
  exports: readonly NfsExportState[],
  desired: Pick<WorkspaceDesiredState, 'id_base'>,
  accounts: Pick<WorkspaceAccounts, 'users' | 'defaultGid'>,
  /** The storage root as ganesha sees it. */
  dataRoot: string,
): { exports: ResolvedExport[]; failures: ResourceFailure[] } {
  const failures: ResourceFailure[] = [];
  const resolved: ResolvedExport[] = [];
  const seen = new Set<string>();
  const users = new Map(accounts.users.map((user) => [user.name, user]));
  for (const entry of [...exports].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const owner = entry.owner === undefined ? undefined : users.get(entry.owner);
    const problem =
      exportPathProblem(entry.path) ??
      (seen.has(entry.path) ? 'exported twice' : undefined) ??
      clientRuleProblem(entry.client) ??
      (entry.access === 'read_write' || entry.access === 'read_only'
        ? undefined
        : 'access must be read_write or read_only') ??
      (entry.owner === undefined
        ? undefined
        : (nameProblem(entry.owner) ??
          (!owner
            ? `owner ${entry.owner} is not a user of the workspace`
            : !owner.active
              ? `owner ${entry.owner} is deactivated`
              : undefined)));
    if (problem) {
      failures.push({ kind: NFS_EXPORT_KIND, name: entry.path.slice(0, 64), error: problem });
      continue;
    }
    seen.add(entry.path);
    resolved.push({
      path: entry.path,
      fullPath: join(dataRoot, entry.path),
      pseudo: `/${entry.path}`,
      exportId: 0,
      client: entry.client,
      access: entry.access === 'read_write' ? 'RW' : 'RO',
      anonymousUid: owner?.uid ?? desired.id_base,
      anonymousGid: accounts.defaultGid,
    });
  }
  const taken = new Set<number>();
  for (const entry of resolved) {
    let id = idOf(entry.path);
    while (taken.has(id)) id = id === 65535 ? 1 : id + 1;
    taken.add(id);
    entry.exportId = id;
  }
  return { exports: resolved, failures };
}

export interface GaneshaCoreOptions {
  address: string;
  port: number;
  layout: Pick<NfsLayout, 'exportsConf' | 'recoveryDir'>;
}

/** ganesha.conf: the server itself; read at start only (a change restarts ganesha). */
export function renderGaneshaCore({ address, port, layout }: GaneshaCoreOptions): string {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(address)) throw new Error(`${address} is not an IPv4 address`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${port} is not a port`);
  return `# Written by the debesis agent; changes are overwritten.
NFS_CORE_PARAM {
  Protocols = 4;
  Bind_addr = ${address};
  NFS_Port = ${port};
  Enable_NLM = false;
  Enable_RQUOTA = false;
  Enable_UDP = false;
}
NFSV4 {
  Graceless = true;
  RecoveryRoot = ${ganeshaConf.string(layout.recoveryDir)};
  Allow_Numeric_Owners = true;
}
NFS_KRB5 {
  Active_krb5 = false;
}
EXPORT_DEFAULTS {
  Access_Type = None;
  Protocols = 4;
  Transports = TCP;
  SecType = sys;
  Squash = all_squash;
  # What SMB, FTP and SFTP change in the same storage is seen at once.
  Attr_Expiration_Time = 0;
}
LOG {
  Default_Log_Level = EVENT;
}
%include ${ganeshaConf.string(layout.exportsConf)}
`;
}

/** The CLIENT block refusing `blocked` addresses (none: nothing), to go before the allowed one. */
function blockedBlock(blocked: readonly string[]): string {
  if (blocked.length === 0) return '';
  return `
  CLIENT {
    Clients = ${blocked.map(ganeshaConf.token).join(', ')};
    Access_Type = None;
  }`;
}

/** One EXPORT block; `blocked`: addresses refused before its client rule is read. */
export function renderExport(entry: ResolvedExport, blocked: readonly string[] = []): string {
  return `EXPORT {
  Export_Id = ${entry.exportId};
  Path = ${ganeshaConf.string(entry.fullPath)};
  Pseudo = ${ganeshaConf.string(entry.pseudo)};
  Protocols = 4;
  Transports = TCP;
  SecType = sys;
  Access_Type = None;
  Squash = all_squash;
  Anonymous_Uid = ${entry.anonymousUid};
  Anonymous_Gid = ${entry.anonymousGid};
  FSAL {
    Name = VFS;
  }${blockedBlock(blocked)}
  CLIENT {
    Clients = ${ganeshaConf.token(entry.client)};
    Protocols = 4;
    Access_Type = ${entry.access};
  }
}`;
}

/** The NFSv4 root: the clients of some export may walk it (read only), nobody else. */
export function renderPseudoRoot(
  exports: readonly ResolvedExport[],
  blocked: readonly string[] = [],
): string {
  const clients = [...new Set(exports.map((entry) => entry.client))].sort();
  const clientBlock =
    clients.length === 0
      ? ''
      : `${blockedBlock(blocked)}
  CLIENT {
    Clients = ${clients.map(ganeshaConf.token).join(', ')};
    Protocols = 4;
    Access_Type = RO;
  }`;
  return `# Written by the debesis agent; changes are overwritten.
EXPORT {
  Export_Id = 0;
  Path = "/";
  Pseudo = "/";
  Protocols = 4;
  Transports = TCP;
  SecType = sys;
  Access_Type = None;
  Squash = all_squash;
  FSAL {
    Name = PSEUDO;
  }${clientBlock}
}`;
}
