// What the FTP and SFTP daemons (pure-ftpd, sshd) share beyond the jails: each forks one child per
// signed-in connection, so its sessions are its children, told apart by the daemon's own rule
// (pure-ftpd's child runs as the user, sshd's is titled with the user); and what users do with
// files is a log of the daemon's whose paths the jails' spec names.
import { readFile } from 'node:fs/promises';
import type { ActivityEventReport, FileSessionReport } from '@debesis/contract';
import { readNewLines, type TailLine } from '../activity/log-tail.ts';
import { activityCursorFile } from '../activity/monitoring-files.ts';
import type { ActivityBatch } from '../drivers/driver.ts';
import { killSessionTree, sessionProcesses, tcpPeer, type SessionProcess } from './jails.ts';

/** The daemon's sessions, by user: the children `userOf` names a user, with peer and start. */
export async function daemonSessions(
  pid: number,
  userOf: (child: SessionProcess) => string | undefined,
): Promise<FileSessionReport[]> {
  const sessions: FileSessionReport[] = [];
  for (const child of await sessionProcesses(pid)) {
    const user = userOf(child);
    if (!user) continue;
    const peer = await tcpPeer(child.pid);
    sessions.push({
      user,
      ...(peer ? { remote_address: peer } : {}),
      connected_since: child.startedAt.toISOString(),
    });
  }
  return sessions.sort((a, b) => a.user.localeCompare(b.user));
}

/** Ends the daemon's sessions that `ends` picks, each with its process tree; how many it ended. */
export async function endDaemonSessions(
  pid: number,
  ends: (child: SessionProcess) => boolean,
): Promise<number> {
  let ended = 0;
  for (const child of await sessionProcesses(pid)) {
    if (!ends(child)) continue;
    if (await killSessionTree(child.pid)) ended += 1;
  }
  return ended;
}

export interface JailedActivityLog {
  log: string;
  /** Whose cursor it is (activity/monitoring-files.ts). */
  source: string;
  /** The log is emptied once read past this size (the daemon appends to its end for good). */
  truncateAbove: number;
  /** The jails' spec, which names the files. */
  spec: string;
  events: (lines: readonly TailLine[], jailSpec: string) => ActivityEventReport[];
}

/** The daemon log's new lines as events. */
export async function jailedActivity(
  workspaceDir: string,
  source: JailedActivityLog,
): Promise<ActivityBatch> {
  const read = await readNewLines(source.log, activityCursorFile(workspaceDir, source.source), {
    truncateAbove: source.truncateAbove,
  });
  // The jails name the files; read only when there is something to name.
  const jails = read.lines.length > 0 ? await readFile(source.spec, 'utf8').catch(() => '') : '';
  return { events: source.events(read.lines, jails), commit: read.commit };
}
