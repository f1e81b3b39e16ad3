// sshd_config of a workspace's SFTP server: internal-sftp only (no shell, no command, no
// forwarding of any kind, no TTY), passwords only (the workspace users' SHA-512 crypt hashes in
// its shadow, the password that works for SMB and FTP), every user chrooted in their jail
// (file-access/jails.ts) and started in their home. Read-only users get internal-sftp's `-R` as
// well as their read-only mounts. internal-sftp logs each request (`-l INFO`) for monitoring
// (sftp/activity-log.ts). Pure; the definition is drivers/sftp.driver.ts.
import type { FileAccessUser } from '../file-access/jails.ts';
import { HOME_ENTRY, JAILS_ROOT } from '../file-access/jails.ts';
import type { RenderedResource } from '../daemons/definition.ts';
import { FTP_USER_KIND } from '../file-access/jails.ts';

export interface SshdConfigOptions {
  address: string;
  port: number;
  hostKey: string;
  users: readonly FileAccessUser[];
}

/** Files 0660, folders 0770 (as Samba's masks: the `users` group shares them). */
const SFTP = `internal-sftp -l INFO -d /${HOME_ENTRY} -u 0007`;

export function renderSshdHead(options: SshdConfigOptions): string {
  const listen = options.address.includes(':') ? `[${options.address}]` : options.address;
  const names = options.users.map((user) => user.name);
  return [
    '# Written by the debesis agent: the SFTP server of one workspace.',
    `ListenAddress ${listen}:${options.port}`,
    `HostKey ${options.hostKey}`,
    'PidFile none',
    'UsePAM no',
    'UseDNS no',
    'PermitRootLogin no',
    'PasswordAuthentication yes',
    'PermitEmptyPasswords no',
    'KbdInteractiveAuthentication no',
    'PubkeyAuthentication no',
    'HostbasedAuthentication no',
    'AuthorizedKeysFile none',
    'AllowTcpForwarding no',
    'AllowAgentForwarding no',
    'AllowStreamLocalForwarding no',
    'GatewayPorts no',
    'X11Forwarding no',
    'PermitTunnel no',
    'PermitTTY no',
    'PermitUserRC no',
    'PermitUserEnvironment no',
    'PrintMotd no',
    'MaxAuthTries 3',
    'LoginGraceTime 30',
    `Subsystem sftp ${SFTP}`,
    `ChrootDirectory ${JAILS_ROOT}/%u`,
    `ForceCommand ${SFTP}`,
    // Only the users who may use FTP/SFTP; with none, nobody (an empty AllowUsers means anyone).
    names.length > 0 ? `AllowUsers ${names.join(' ')}` : 'DenyUsers *',
    '',
  ].join('\n');
}

/** A read-only user's Match block: internal-sftp refuses every write request too. */
export function renderReadOnlyMatch(user: FileAccessUser): RenderedResource {
  return {
    kind: FTP_USER_KIND,
    name: user.name,
    text: `Match User ${user.name}\n  ForceCommand ${SFTP} -R\n`,
  };
}
