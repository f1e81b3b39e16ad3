// What a workspace's pure-ftpd is made of: its virtual users (a pure-pw passwd file, turned into
// the puredb the server reads at every login) and its command line (pure-ftpd runs from flags
// alone, with no config file). Pure functions, unit-tested; the definition is drivers/ftp.driver.ts.
import { FTP_DEFAULT_PORT, type FtpSectionState } from '@debesis/contract';
import { HOME_ENTRY, JAILS_ROOT, type FileAccess } from '../file-access/jails.ts';

/**
 * The pure-pw passwd file: one virtual user a line, `name:crypt:uid:gid:gecos:home` and the empty
 * per-user limits. The hash is the workspace user's SHA-512 crypt (pure-ftpd's own argon2 default
 * costs ~3.6 s a login). The home `/run/jails/<user>/./home/` chroots the session into the jail
 * and starts it in the user's home. The group is the workspace's `users` (as smbd's force group),
 * the group of every share folder.
 */
export function renderPureftpdPasswd(access: FileAccess): string {
  return access.jails
    .map(
      ({ user }) =>
        `${user.name}:${user.passwordCrypt}:${user.uid}:${access.gid}::${JAILS_ROOT}/${user.name}/./${HOME_ENTRY}/::::::::::::\n`,
    )
    .join('');
}

/** Why these settings cannot be run, or undefined. */
export function ftpSettingsProblem(ftp: FtpSectionState): string | undefined {
  if (ftp.passive_port_min > ftp.passive_port_max)
    return `the passive port range ${ftp.passive_port_min}-${ftp.passive_port_max} is empty`;
  if (ftp.port >= ftp.passive_port_min && ftp.port <= ftp.passive_port_max)
    return `port ${ftp.port} is inside the passive port range`;
  // pure-ftpd lets in at most half as many clients as it has passive ports (seen here: `-c 20`
  // with 20 ports admits 10): refused rather than capped without a word.
  const ports = ftp.passive_port_max - ftp.passive_port_min + 1;
  if (ftp.max_clients * 2 > ports)
    return `${ftp.max_clients} clients need at least ${ftp.max_clients * 2} passive ports (the range has ${ports})`;
  return undefined;
}

export interface PureFtpdArgvOptions {
  program: string;
  address: string;
  ftp: Pick<
    FtpSectionState,
    | 'port'
    | 'passive_port_min'
    | 'passive_port_max'
    | 'max_clients'
    | 'max_clients_per_user'
    | 'idle_timeout_minutes'
    | 'tls_required'
  >;
  puredb: string;
  /** Where pure-ftpd appends a line per upload and download (its `stats` format; ftp/transfer-log.ts). */
  transferLog: string;
  /** Certificate and key in one PEM. */
  certificate: string;
  /** The lowest uid that may sign in (the workspace's first user id). */
  minUid: number;
}

export const FTP_SETTINGS_DEFAULTS = {
  port: FTP_DEFAULT_PORT,
  passive_port_min: 30000,
  passive_port_max: 30099,
  max_clients: 50,
  max_clients_per_user: 5,
  idle_timeout_minutes: 15,
  tls_required: false,
} as const;

export function pureFtpdArgv(options: PureFtpdArgvOptions): string[] {
  const { ftp } = options;
  return [
    options.program,
    '--bind',
    `${options.address},${ftp.port}`,
    '--login',
    `puredb:${options.puredb}`,
    // Virtual users only, each chrooted in their jail; no anonymous FTP.
    '--noanonymous',
    '--chrooteveryone',
    '--minuid',
    String(options.minUid),
    '--dontresolve',
    '--passiveportrange',
    `${Math.min(ftp.passive_port_min, ftp.passive_port_max)}:${Math.max(ftp.passive_port_min, ftp.passive_port_max)}`,
    '--maxclientsnumber',
    String(ftp.max_clients),
    // Sessions per user (counted in the scoreboard under the namespace's own /run); 0 anonymous.
    '--peruserlimits',
    `${ftp.max_clients_per_user}:0`,
    '--maxidletime',
    String(ftp.idle_timeout_minutes),
    // Files 0660, folders 0770, as Samba's create and directory masks: the group shares them.
    '--umask',
    '117:007',
    // No chmod: SMB users cannot change modes either.
    '--nochmod',
    // TLS always offered; required: no sign-in without it (explicit FTPS, AUTH TLS).
    '--tls',
    ftp.tls_required ? '2' : '1',
    '--certfile',
    options.certificate,
    // Opened at start, before any chroot: every session's transfers land in it.
    '--altlog',
    `stats:${options.transferLog}`,
  ];
}
