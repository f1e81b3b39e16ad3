// Where the Samba feature's files live in a workspace (part of workspace-layout.ts).
//
//   <ws>/samba/             smb.conf, smbpasswd (what the passdb holds), private/ state/
//                           cache/ run/ log/
// In the workspace's short runtime folder (workspace-paths.ts):
//   <run>/samba/lock/       smbd's lock directory (msg.sock/<pid>, msg.lock/, its volatile tdbs)
//   <run>/samba/ncalrpc/    smbd's ncalrpc dir (the RPC servers' sockets)
import { join } from 'node:path';

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

export function sambaLayout(workspaceDir: string, runtimeDir: string): SambaLayout {
  const dir = join(workspaceDir, 'samba');
  const privateDir = join(dir, 'private');
  const runDir = join(dir, 'run');
  const logDir = join(dir, 'log');
  return {
    dir,
    conf: join(dir, 'smb.conf'),
    passdbRecord: join(dir, 'smbpasswd'),
    privateDir,
    passdb: join(privateDir, 'passdb.tdb'),
    lockDir: join(runtimeDir, 'samba', 'lock'),
    ncalrpcDir: join(runtimeDir, 'samba', 'ncalrpc'),
    stateDir: join(dir, 'state'),
    cacheDir: join(dir, 'cache'),
    runDir,
    logDir,
    logFile: join(logDir, 'smbd.log'),
    auditLog: join(logDir, 'audit.log'),
    processFile: join(runDir, 'smbd.agent.json'),
    outputFile: join(logDir, 'smbd.out'),
  };
}
