// Where the VPN feature's files live in a workspace (part of workspace-layout.ts).
//
//   <ws>/vpn/               what openvpn sees in its namespace: server.conf, the server's copies
//                           of ca.crt, server.crt, server.key, tls-crypt.key and crl.pem, users,
//                           over-limit, check-password, ccd/ (backup clients' addresses), tmp/ run/ log/
//   <ws>/vpn-pki/           the workspace's easy-rsa PKI (CA key, client keys): beside vpn/ and
//                           not in it, so no daemon's namespace ever holds the CA or a client key
// In the workspace's short runtime folder (workspace-paths.ts):
//   <run>/vpn/management.sock   openvpn's management interface
import { join } from 'node:path';

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

export function vpnLayout(workspaceDir: string, runtimeDir: string): VpnLayout {
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
