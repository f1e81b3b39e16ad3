// Where each part of a workspace lives inside its folder. One place, so drivers agree on paths
// and the smb.conf, the namespace and the tests name the same files.
//
//   <ws>/storage.img        sparse ext4 image (the hard size limit); absent in plain-folder mode
//   <ws>/data/              the storage root: the image is mounted here (homes, shares)
//   <ws>/data/home/<user>   each user's home folder
//   <ws>/accounts/          passwd, group, shadow of the workspace (seen as /etc/… by its daemons)
//   <ws>/network.json       the network namespace, veth and address made (drivers/network.driver.ts)
//   <ws>/address            before network namespaces: the alias on lo (dropped once, then gone)
//   <ws>/ns/host-etc        empty; inside the namespace the host's /etc is bound here
//   <ws>/samba/             smb.conf, smbpasswd (what the passdb holds), private/ lock/ state/
//                           cache/ run/ log/
//   <ws>/vpn/               what openvpn sees in its namespace: server.conf, the server's copies
//                           of ca.crt, server.crt, server.key, tls-crypt.key and crl.pem, users,
//                           over-limit, check-password, management.sock, tmp/ run/ log/
//   <ws>/vpn-pki/           the workspace's easy-rsa PKI (CA key, client keys): beside vpn/ and
//                           not in it, so no daemon's namespace ever holds the CA or a client key
import { join } from 'node:path';

export interface WorkspaceLayout {
  root: string;
  image: string;
  dataRoot: string;
  homesRoot: string;
  accountsDir: string;
  passwd: string;
  group: string;
  shadow: string;
  addressFile: string;
  networkFile: string;
  hostEtc: string;
  samba: SambaLayout;
  vpn: VpnLayout;
}

export interface SambaLayout {
  dir: string;
  conf: string;
  /** The smbpasswd-format record of what was imported into the passdb last. */
  passdbRecord: string;
  privateDir: string;
  passdb: string;
  lockDir: string;
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
  /** Names over their traffic limit this month, one a line (written by the traffic counting). */
  overLimitFile: string;
  /** The password check openvpn runs per connect (auth-user-pass-verify … via-file). */
  checkPassword: string;
  /** The management interface's UNIX socket (status, kill). */
  managementSocket: string;
  /** Where openvpn puts the via-file it hands the password script. */
  tmpDir: string;
  runDir: string;
  logDir: string;
  logFile: string;
  /** Written by the supervisor (daemons/supervisor.ts): openvpn's pid, start time, command line. */
  processFile: string;
}

export function workspaceLayout(workspaceDir: string): WorkspaceLayout {
  const accountsDir = join(workspaceDir, 'accounts');
  const dataRoot = join(workspaceDir, 'data');
  const sambaDir = join(workspaceDir, 'samba');
  const privateDir = join(sambaDir, 'private');
  const runDir = join(sambaDir, 'run');
  const logDir = join(sambaDir, 'log');
  return {
    root: workspaceDir,
    image: join(workspaceDir, 'storage.img'),
    dataRoot,
    homesRoot: join(dataRoot, 'home'),
    accountsDir,
    passwd: join(accountsDir, 'passwd'),
    group: join(accountsDir, 'group'),
    shadow: join(accountsDir, 'shadow'),
    addressFile: join(workspaceDir, 'address'),
    networkFile: join(workspaceDir, 'network.json'),
    hostEtc: join(workspaceDir, 'ns', 'host-etc'),
    samba: {
      dir: sambaDir,
      conf: join(sambaDir, 'smb.conf'),
      passdbRecord: join(sambaDir, 'smbpasswd'),
      privateDir,
      passdb: join(privateDir, 'passdb.tdb'),
      lockDir: join(sambaDir, 'lock'),
      stateDir: join(sambaDir, 'state'),
      cacheDir: join(sambaDir, 'cache'),
      runDir,
      logDir,
      logFile: join(logDir, 'smbd.log'),
      processFile: join(runDir, 'smbd.agent.json'),
      outputFile: join(logDir, 'smbd.out'),
    },
    vpn: vpnLayout(workspaceDir),
  };
}

function vpnLayout(workspaceDir: string): VpnLayout {
  const dir = join(workspaceDir, 'vpn');
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
    overLimitFile: join(dir, 'over-limit'),
    checkPassword: join(dir, 'check-password'),
    managementSocket: join(dir, 'management.sock'),
    tmpDir: join(dir, 'tmp'),
    runDir,
    logDir,
    logFile: join(logDir, 'openvpn.log'),
    processFile: join(runDir, 'openvpn.agent.json'),
  };
}
