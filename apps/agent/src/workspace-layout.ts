// Where each part of a workspace lives inside its folder. One place, so drivers agree on paths
// and the smb.conf, the namespace and the tests name the same files.
//
//   <ws>/storage.img        sparse image (the hard size limit): btrfs, or ext4 for a workspace made
//                           before btrfs or smaller than btrfs allows; absent in plain-folder mode
//   <ws>/data/              the storage root: the image (btrfs: its `data` subvolume) is mounted
//                           here (homes, shares)
//   <ws>/pool/              btrfs only: the image's top level (subvolumes `data` and `snapshots`),
//                           the agent's alone (no daemon's namespace holds it): snapshots are
//                           made and deleted here
//   <ws>/snapshots/         btrfs only: the `snapshots` subvolume mounted read-only, one read-only
//                           subvolume per snapshot named @GMT-YYYY.MM.DD-HH.MM.SS (UTC): Samba's
//                           Previous Versions (shadow_copy2) read it inside smbd's namespace
//   <ws>/snapshots.json     btrfs only: which snapshots were taken on demand (the rest are scheduled)
//   <ws>/replica.json       a standby: its last pull (replica, when, bytes) for its report
//                           (replicas/); the replicas themselves are the `replicas` subvolume
//   <ws>/data/home/<user>   each user's home folder
//   <ws>/accounts/          passwd, group, shadow of the workspace (seen as /etc/… by its daemons)
//   <ws>/network.json       the network namespace, veth and address made (drivers/network.driver.ts)
//   <ws>/address            before network namespaces: the alias on lo (dropped once, then gone)
//   <ws>/ns/host-etc        empty; inside the namespace the host's /etc is bound here
//   <ws>/samba/             smb.conf, smbpasswd (what the passdb holds), private/ state/
//                           cache/ run/ log/
//   <ws>/vpn/               what openvpn sees in its namespace: server.conf, the server's copies
//                           of ca.crt, server.crt, server.key, tls-crypt.key and crl.pem, users,
//                           over-limit, check-password, ccd/ (backup clients' addresses), tmp/ run/ log/
//   <ws>/vpn-pki/           the workspace's easy-rsa PKI (CA key, client keys): beside vpn/ and
//                           not in it, so no daemon's namespace ever holds the CA or a client key
//   <ws>/nfs/               what ganesha sees besides the storage: ganesha.conf (read at start),
//                           exports.conf (re-read on SIGHUP), recovery/ (NFSv4 client records),
//                           run/ log/
//   <ws>/ldap/              what slapd sees: slapd.conf, db/ (back_mdb), tls/, directory.ldif
//                           (the directory wanted) and applied.ldif (what slapd holds), run/
//                           log/
//
// Sockets and lock files are not in the workspace's folder but in its short runtime folder
// (workspace-paths.ts workspaceRuntimeDir, `/run/debesis/<short id>/`), so that no UNIX socket's
// path passes 107 bytes whatever the length of the agent's data folder:
//   <run>/samba/lock/       smbd's lock directory (msg.sock/<pid>, msg.lock/, its volatile tdbs)
//   <run>/samba/ncalrpc/    smbd's ncalrpc dir (the RPC servers' sockets)
//   <run>/vpn/management.sock   openvpn's management interface
//   <run>/ldap/ldapi        the agent's ldapi socket into slapd
//   <run>/nfs/bus.sock      the private D-Bus of the workspace's ganesha (nfs/ganesha-dbus.ts)
import { basename, join } from 'node:path';
import { workspaceRuntimeDir } from './workspace-paths.ts';

export interface WorkspaceLayout {
  root: string;
  image: string;
  dataRoot: string;
  /** btrfs: the image's top level, mounted for the agent only. */
  pool: string;
  /** btrfs: the `snapshots` subvolume, mounted read-only (what smbd sees). */
  snapshotsDir: string;
  /** btrfs: the names of the snapshots taken on demand. */
  snapshotKinds: string;
  /** A standby: what its last pull received (replicas/replica-pull.ts). */
  replicaStatus: string;
  homesRoot: string;
  accountsDir: string;
  passwd: string;
  group: string;
  shadow: string;
  addressFile: string;
  networkFile: string;
  /** The running total of its network link's traffic (net/traffic-counter.ts). */
  trafficFile: string;
  hostEtc: string;
  /** The workspace's short runtime folder: its daemons' sockets and lock files. */
  runtimeDir: string;
  samba: SambaLayout;
  vpn: VpnLayout;
  nfs: NfsLayout;
  ldap: LdapLayout;
}

export interface SambaLayout {
  /** What full_audit records (samba/audit-log.ts): file operations, one a line. */
  auditLog: string;
  dir: string;
  conf: string;
  /** The smbpasswd-format record of what was imported into the passdb last. */
  passdbRecord: string;
  privateDir: string;
  passdb: string;
  /** In the runtime folder: smbd's messaging sockets live here. */
  lockDir: string;
  /** In the runtime folder: the RPC servers' sockets. */
  ncalrpcDir: string;
  stateDir: string;
  cacheDir: string;
  runDir: string;
  logDir: string;
  logFile: string;
  /** Written by the supervisor (daemons/supervisor.ts): smbd's pid, start time, command line. */
  processFile: string;
  /** smbd's stdout and stderr (start-up errors land here before its log file is open). */
  outputFile: string;
}

export interface VpnLayout {
  /** The feature's folder, the only one of the workspace's folders openvpn sees. */
  dir: string;
  /** easy-rsa's PKI (EASYRSA_PKI), outside `dir`. */
  pkiDir: string;
  conf: string;
  /** The server's copies of what it needs from the PKI (never the CA key). */
  caCert: string;
  serverCert: string;
  serverKey: string;
  tlsCryptKey: string;
  crl: string;
  /** `name:enabled:crypt` per VPN user, read by the password script at every connect. */
  usersFile: string;
  /** client-config-dir: a backup client login's fixed address, a file per login (vpn/backup-client-tunnel.ts). */
  ccdDir: string;
  /** Names over their traffic limit this month, one a line (written by the traffic counting). */
  overLimitFile: string;
  /** The password check openvpn runs per connect (auth-user-pass-verify … via-file). */
  checkPassword: string;
  /** The feature's part of the runtime folder, root only: the management socket. */
  socketDir: string;
  /** The management interface's UNIX socket (status, kill), in `socketDir`. */
  managementSocket: string;
  /** Run by openvpn when a client connects or disconnects: writes `sessionsChanged`. */
  sessionEvent: string;
  /** Written at every client connect and disconnect; the agent reports at once when it changes. */
  sessionsChanged: string;
  /** Where openvpn puts the via-file it hands the password script. */
  tmpDir: string;
  runDir: string;
  logDir: string;
  logFile: string;
  /** Written by the supervisor (daemons/supervisor.ts): openvpn's pid, start time, command line. */
  processFile: string;
}

export interface NfsLayout {
  /** The feature's folder, the only one of the workspace's folders ganesha sees (and its storage). */
  dir: string;
  /** The server's part (address, port, NFSv4 only): read at start only, a change restarts it. */
  conf: string;
  /** The exports, included by `conf`: re-read on SIGHUP, clients stay mounted. */
  exportsConf: string;
  /** Client addresses refused for a while after the owner disconnected them (nfs/blocked-clients.ts). */
  blocked: string;
  /** RecoveryRoot: one folder per NFSv4 client holding a lease (`<node>/<address>-(<len>:<name>)`). */
  recoveryDir: string;
  runDir: string;
  pidFile: string;
  logDir: string;
  logFile: string;
  /** Written by the supervisor (daemons/supervisor.ts): ganesha's pid, start time, command line. */
  processFile: string;
  /** The config of ganesha's private D-Bus (nfs/ganesha-dbus.ts). */
  busConfig: string;
  /** That bus's socket, in the workspace's short runtime folder. */
  busSocket: string;
}

export interface LdapLayout {
  /** The feature's folder (root only), the only one of the workspace's folders slapd sees. */
  dir: string;
  conf: string;
  /** back_mdb's folder: a copy of the directory, rebuilt whenever slapd starts. */
  databaseDir: string;
  /** The workspace certificate and key (tls/workspace-certificate.ts) and its address. */
  certificate: string;
  certificateFor: string;
  /** The directory as the desired state asks for it now (LDIF content records). */
  wanted: string;
  /** What slapd holds, as last applied (absent: not known, read from slapd itself). */
  applied: string;
  /** When the next expiry date takes effect (ISO), empty when none is ahead. */
  expiryDue: string;
  /** Counts and time of the last sync, for the report. */
  status: string;
  /** The feature's part of the runtime folder, root only: the ldapi socket. */
  socketDir: string;
  /** The agent's way in: SASL EXTERNAL as root over this UNIX socket, in `socketDir`. */
  ldapiSocket: string;
  runDir: string;
  logDir: string;
}

export function workspaceLayout(workspaceDir: string): WorkspaceLayout {
  const accountsDir = join(workspaceDir, 'accounts');
  const dataRoot = join(workspaceDir, 'data');
  const sambaDir = join(workspaceDir, 'samba');
  const privateDir = join(sambaDir, 'private');
  const runDir = join(sambaDir, 'run');
  const logDir = join(sambaDir, 'log');
  const runtimeDir = workspaceRuntimeDir(basename(workspaceDir));
  return {
    root: workspaceDir,
    image: join(workspaceDir, 'storage.img'),
    dataRoot,
    pool: join(workspaceDir, 'pool'),
    snapshotsDir: join(workspaceDir, 'snapshots'),
    snapshotKinds: join(workspaceDir, 'snapshots.json'),
    replicaStatus: join(workspaceDir, 'replica.json'),
    homesRoot: join(dataRoot, 'home'),
    accountsDir,
    passwd: join(accountsDir, 'passwd'),
    group: join(accountsDir, 'group'),
    shadow: join(accountsDir, 'shadow'),
    addressFile: join(workspaceDir, 'address'),
    networkFile: join(workspaceDir, 'network.json'),
    trafficFile: join(workspaceDir, 'traffic.json'),
    hostEtc: join(workspaceDir, 'ns', 'host-etc'),
    runtimeDir,
    samba: {
      dir: sambaDir,
      conf: join(sambaDir, 'smb.conf'),
      passdbRecord: join(sambaDir, 'smbpasswd'),
      privateDir,
      passdb: join(privateDir, 'passdb.tdb'),
      lockDir: join(runtimeDir, 'samba', 'lock'),
      ncalrpcDir: join(runtimeDir, 'samba', 'ncalrpc'),
      stateDir: join(sambaDir, 'state'),
      cacheDir: join(sambaDir, 'cache'),
      runDir,
      logDir,
      logFile: join(logDir, 'smbd.log'),
      auditLog: join(logDir, 'audit.log'),
      processFile: join(runDir, 'smbd.agent.json'),
      outputFile: join(logDir, 'smbd.out'),
    },
    vpn: vpnLayout(workspaceDir, runtimeDir),
    nfs: nfsLayout(workspaceDir, runtimeDir),
    ldap: ldapLayout(workspaceDir, runtimeDir),
  };
}

function nfsLayout(workspaceDir: string, runtimeDir: string): NfsLayout {
  const dir = join(workspaceDir, 'nfs');
  const runDir = join(dir, 'run');
  const logDir = join(dir, 'log');
  return {
    dir,
    conf: join(dir, 'ganesha.conf'),
    exportsConf: join(dir, 'exports.conf'),
    blocked: join(dir, 'blocked.json'),
    recoveryDir: join(dir, 'recovery'),
    runDir,
    pidFile: join(runDir, 'ganesha.pid'),
    logDir,
    logFile: join(logDir, 'ganesha.log'),
    processFile: join(runDir, 'ganesha.nfsd.agent.json'),
    busConfig: join(dir, 'bus.conf'),
    busSocket: join(runtimeDir, 'nfs', 'bus.sock'),
  };
}

function vpnLayout(workspaceDir: string, runtimeDir: string): VpnLayout {
  const dir = join(workspaceDir, 'vpn');
  const socketDir = join(runtimeDir, 'vpn');
  const logDir = join(dir, 'log');
  const runDir = join(dir, 'run');
  return {
    dir,
    pkiDir: join(workspaceDir, 'vpn-pki'),
    conf: join(dir, 'server.conf'),
    caCert: join(dir, 'ca.crt'),
    serverCert: join(dir, 'server.crt'),
    serverKey: join(dir, 'server.key'),
    tlsCryptKey: join(dir, 'tls-crypt.key'),
    crl: join(dir, 'crl.pem'),
    usersFile: join(dir, 'users'),
    ccdDir: join(dir, 'ccd'),
    overLimitFile: join(dir, 'over-limit'),
    checkPassword: join(dir, 'check-password'),
    socketDir,
    managementSocket: join(socketDir, 'management.sock'),
    sessionEvent: join(dir, 'session-event'),
    sessionsChanged: join(dir, 'sessions-changed'),
    tmpDir: join(dir, 'tmp'),
    runDir,
    logDir,
    logFile: join(logDir, 'openvpn.log'),
    processFile: join(runDir, 'openvpn.agent.json'),
  };
}

function ldapLayout(workspaceDir: string, runtimeDir: string): LdapLayout {
  const dir = join(workspaceDir, 'ldap');
  const socketDir = join(runtimeDir, 'ldap');
  const runDir = join(dir, 'run');
  return {
    dir,
    conf: join(dir, 'slapd.conf'),
    databaseDir: join(dir, 'db'),
    certificate: join(dir, 'tls', 'slapd.pem'),
    certificateFor: join(dir, 'tls', 'address'),
    wanted: join(dir, 'directory.ldif'),
    applied: join(dir, 'applied.ldif'),
    expiryDue: join(dir, 'expiry-due'),
    status: join(dir, 'status.json'),
    socketDir,
    ldapiSocket: join(socketDir, 'ldapi'),
    runDir,
    logDir: join(dir, 'log'),
  };
}
