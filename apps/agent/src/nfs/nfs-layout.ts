// Where the NFS feature's files live in a workspace (part of workspace-layout.ts).
//
//   <ws>/nfs/               what ganesha sees besides the storage: ganesha.conf (read at start),
//                           exports.conf (re-read on SIGHUP), recovery/ (NFSv4 client records),
//                           run/ log/
// In the workspace's short runtime folder (workspace-paths.ts):
//   <run>/nfs/bus.sock      the private D-Bus of the workspace's ganesha (nfs/ganesha-dbus.ts)
import { join } from 'node:path';

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

export function nfsLayout(workspaceDir: string, runtimeDir: string): NfsLayout {
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
