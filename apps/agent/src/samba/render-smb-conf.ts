// One workspace's smb.conf, rendered from its desired state. Everything that is the workspace's
// (address, passdb, private/lock/state/cache/pid folders) points into its own folder, so two
// smbd instances on one host share nothing. Deterministic: an unchanged workspace renders the
// same bytes, and the driver reloads smbd only when they differ. Free text goes through
// smb.conf's escaping in daemons/config-formats.ts.
import { VPN_TUNNEL_NETWORK, type SambaServerSettingsState } from '@debesis/contract';
import type { SambaLayout } from './samba-layout.ts';
import { DEFAULT_GROUP_NAME } from '../accounts/render-accounts.ts';
import { smbConf } from '../daemons/config-formats.ts';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import { NODE_LINK_ADDRESS } from '../system/netns.ts';
import { AUDIT_PREFIX, AUDITED_OPERATIONS } from './audit-log.ts';
import { GUEST_ACCOUNT, type ResolvedShare } from './resolve-shares.ts';

export interface SmbGlobalOptions {
  port: number;
  netbiosName: string;
  layout: SambaLayout;
  /** Whether any share lets guests in (then unknown user names become the guest). */
  guests: boolean;
  /** The owner's choices (workgroup, description, oldest protocol). */
  settings: SambaServerSettingsState;
  /**
   * Whether smbd has the full_audit module (Debian's samba-vfs-modules): then every share records
   * its file operations in the audit log. Without it a share naming the module would not open.
   */
  audit: boolean;
  /**
   * The storage's read-only snapshots (btrfs storage: workspace-layout.ts `snapshotsDir`, bound
   * into smbd's namespace at the same path): then every share offers Previous Versions of its
   * files and folders (shadow_copy2). Absent: the storage has none (ext4).
   */
  snapshotsDir?: string;
  /**
   * A NAT plan's workspace (net/serving-address.ts): the VPN-side address, the only one smbd
   * binds to. Absent: every address of the namespace.
   */
  only?: string;
}

/** smb.conf's names for the protocols offered: SMB2 means 2.1 and later (2.0.2 lacks leasing). */
const MIN_PROTOCOL: Record<SambaServerSettingsState['min_protocol'], string> = {
  SMB2: 'SMB2_10',
  SMB3: 'SMB3',
};

/** A NetBIOS name (15 characters at most) that tells workspaces apart: WS + the service id. */
export function netbiosNameFor(serviceId: string): string {
  return `WS${serviceId.replace(/[^A-Za-z0-9]/g, '').toUpperCase()}`.slice(0, 15);
}

export function renderGlobal(options: SmbGlobalOptions): string {
  const { layout } = options;
  const lines = [
    '# Rendered by the Debesis agent from the desired state: changes here are overwritten.',
    '[global]',
    'server role = standalone server',
    `netbios name = ${options.netbiosName}`,
    `server string = ${smbConf.value(options.settings.server_string)}`,
    `workgroup = ${smbConf.value(options.settings.workgroup)}`,
    // smbd runs in the workspace's own network namespace, where every address is the workspace's:
    // its address on ws0 and, with a VPN, the tunnel's server address, where VPN clients reach it.
    // It listens on all of them (it starts before the tunnel exists, so it could not name that
    // one), unless the plan's address is the VPN's door only: then on the VPN-side address alone,
    // which the network driver keeps on the namespace's lo so that smbd finds an interface for it.
    ...(options.only
      ? [`interfaces = ${options.only}`, 'bind interfaces only = yes']
      : ['bind interfaces only = no']),
    `smb ports = ${options.port}`,
    'disable netbios = yes',
    // SMB2+ only, and no SMB1 unix extensions: clients cannot create symlinks that could lead out
    // of a share (wide links stay off, the default).
    `server min protocol = ${MIN_PROTOCOL[options.settings.min_protocol]}`,
    'unix extensions = no',
    'wide links = no',
    'security = user',
    `passdb backend = tdbsam:${layout.passdb}`,
    `private dir = ${layout.privateDir}`,
    `lock directory = ${layout.lockDir}`,
    `state directory = ${layout.stateDir}`,
    `cache directory = ${layout.cacheDir}`,
    `pid directory = ${layout.runDir}`,
    `ncalrpc dir = ${layout.ncalrpcDir}`,
    'usershare max shares = 0',
    `log file = ${layout.logFile}`,
    'logging = file',
    'max log size = 1000',
    // full_audit's lines alone go to the audit log (its debug class, directed there).
    options.audit ? `log level = 1 full_audit:1@${layout.auditLog}` : 'log level = 1',
    // Defaults of every share. full_audit first (on top), so it records what the client asked
    // for; shadow_copy2 under it turns a path with an @GMT token into the snapshot's.
    ...(options.audit || options.snapshotsDir
      ? [
          `vfs objects = ${[options.audit && 'full_audit', options.snapshotsDir && 'shadow_copy2'].filter(Boolean).join(' ')}`,
        ]
      : []),
    ...(options.snapshotsDir
      ? [
          // Previous Versions: each snapshot is the whole storage (mounted at /srv in smbd's
          // namespace) as it was, named by its UTC time in the @GMT token's own form, so a
          // share's path below /srv is the same path below the snapshot.
          `shadow:snapdir = ${options.snapshotsDir}`,
          `shadow:mountpoint = ${NAMESPACE_DATA_ROOT}`,
          `shadow:basedir = ${NAMESPACE_DATA_ROOT}`,
          'shadow:format = @GMT-%Y.%m.%d-%H.%M.%S',
          'shadow:localtime = no',
          'shadow:sort = desc',
        ]
      : []),
    ...(options.audit
      ? [
          // One line per message, its time in front (samba/audit-log.ts reads them so).
          'debug prefix timestamp = yes',
          // The file operations the activity view shows, successful ones.
          `full_audit:prefix = ${AUDIT_PREFIX}`,
          `full_audit:success = ${AUDITED_OPERATIONS.join(' ')}`,
          'full_audit:failure = none',
          'full_audit:syslog = false',
        ]
      : []),
    'load printers = no',
    'printing = bsd',
    'printcap name = /dev/null',
    'disable spoolss = yes',
    // Passwords live only in the passdb (imported as NT hashes); nothing syncs them elsewhere.
    'obey pam restrictions = no',
    'unix password sync = no',
    'pam password change = no',
    `guest account = ${GUEST_ACCOUNT}`,
    `map to guest = ${options.guests ? 'bad user' : 'never'}`,
    // Listing shows a user only the shares they may open.
    'access based share enum = yes',
    // The x bit means "executable" only; DOS attributes are kept in extended attributes.
    'map archive = no',
    'store dos attributes = yes',
  ];
  return lines.join('\n') + '\n';
}

export function renderShare(share: ResolvedShare): string {
  const { list, yesNo } = smbConf;
  const lines = [`[${share.name}]`];
  const comment = smbConf.value(share.comment);
  if (comment) lines.push(`comment = ${comment}`);
  lines.push(
    `path = ${share.path}`,
    `browseable = ${yesNo(share.browseable)}`,
    `guest ok = ${yesNo(share.guestOk)}`,
  );
  // "Bind to public IP" off: the share answers only clients of the workspace's VPN (their tunnel
  // addresses) and the node itself (its end of the workspace's veth: the agent, an operator), not
  // whoever reaches the workspace's address from outside. On: anyone who can reach the address.
  // VPN clients reach smbd at the tunnel's server address.
  if (!share.bindPublicIp) lines.push(`hosts allow = ${VPN_TUNNEL_NETWORK} ${NODE_LINK_ADDRESS}`);
  if (share.validUsers.length === 0) {
    // An empty `valid users` would mean "everyone": a share nobody may open is switched off.
    lines.push('available = no');
  } else {
    lines.push(`valid users = ${list(share.validUsers)}`);
  }
  if (share.invalidUsers.length) lines.push(`invalid users = ${list(share.invalidUsers)}`);
  lines.push('read only = yes');
  if (share.readList.length) lines.push(`read list = ${list(share.readList)}`);
  if (share.writeList.length) lines.push(`write list = ${list(share.writeList)}`);
  if (share.adminUsers.length) lines.push(`admin users = ${list(share.adminUsers)}`);
  lines.push(
    // Everyone works in the share as the workspace's `users` group, so what one user writes the
    // others may change; Samba's lists above decide who may write at all.
    `force group = ${DEFAULT_GROUP_NAME}`,
    'create mask = 0660',
    'directory mask = 2770',
    `acl allow execute always = ${yesNo(share.executeAlways)}`,
  );
  return lines.join('\n') + '\n';
}

export function renderSmbConf(global: SmbGlobalOptions, shares: readonly ResolvedShare[]): string {
  return [renderGlobal(global), ...shares.map(renderShare)].join('\n');
}
