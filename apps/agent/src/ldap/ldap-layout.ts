// Where the LDAP feature's files live in a workspace (part of workspace-layout.ts).
//
//   <ws>/ldap/              what slapd sees: slapd.conf, db/ (back_mdb), tls/, directory.ldif
//                           (the directory wanted) and applied.ldif (what slapd holds), run/
//                           log/
// In the workspace's short runtime folder (workspace-paths.ts):
//   <run>/ldap/ldapi        the agent's ldapi socket into slapd
import { join } from 'node:path';

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

export function ldapLayout(workspaceDir: string, runtimeDir: string): LdapLayout {
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
