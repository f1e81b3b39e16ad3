// SFTP for one workspace (issue 16), as a daemon definition (daemons/definition.ts): one sshd per
// workspace inside its namespaces, on the workspace's address, internal-sftp only
// (sftp/render-sshd-config.ts). Its users and their rights are the FTP section's, their password
// the workspace user's (the shadow its namespace sees as /etc/shadow, rewritten by the users
// driver: a new password works at the next sign-in). Each user is chrooted in their jail
// (file-access/jails.ts), read-only by read-only mounts and internal-sftp's `-R`.
//
// sshd_config is checked with `sshd -t` (in a mount namespace of its own with a /run/sshd, which
// the check wants and the host need not have) and reaches the running sshd by SIGHUP (it re-execs
// itself with the same pid); the jails by nsenter. The host key is made once per workspace.
// What users do with files is internal-sftp's log, received in the jails (sftp/activity-log.ts).
// Not needed while the workspace has no SFTP section or it is off.
import { join } from 'node:path';
import { SFTP_DEFAULT_PORT, type WorkspaceDesiredState, NODE_DRIVERS } from '@debesis/contract';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { daemonFiles, runningDaemon } from '../daemons/supervisor.ts';
import { daemonSessions, endDaemonSessions, jailedActivity } from '../file-access/file-daemon.ts';
import {
  jailFiles,
  jailSetup,
  renderJailSpec,
  resolveFileAccess,
  syncJails,
  type SessionProcess,
} from '../file-access/jails.ts';
import { ensureDir } from '../fs/ensure-dir.ts';
import { SFTP_LOG_SCRIPT, sftpEvents } from '../sftp/activity-log.ts';
import { renderReadOnlyMatch, renderSshdHead } from '../sftp/render-sshd-config.ts';
import { exists } from '../system/host.ts';
import { PRIVATE_MOUNT_SHELL } from '../system/namespace.ts';
import type { Driver } from './driver.ts';
import { servingAddress, servingListens } from '../net/serving-address.ts';

export const SFTP_DRIVER = NODE_DRIVERS.sftp;
const DAEMON = 'sshd';

export interface SftpDefinitionOptions {
  /** The sshd it runs: an absolute path (sshd re-execs itself by it); default /usr/sbin/sshd. */
  program?: string;
}

export function sftpFiles(dir: string) {
  return {
    conf: join(dir, 'sshd_config'),
    hostKey: join(dir, 'ssh_host_ed25519_key'),
    /** The folder bind-mounted as each jail's `dev/`: it holds the `log` socket (sftp/activity-log.ts). */
    logSocketDir: join(dir, 'run', 'syslog'),
    /** What internal-sftp logged, as the receiver writes it. */
    activityLog: join(dir, 'log', 'sftp-activity.log'),
    ...jailFiles(dir),
    process: daemonFiles(dir, DAEMON, { retitles: true }),
  };
}

/** The receiver's log is emptied once read past this (it appends to its end, as pure-ftpd does). */
const SFTP_ACTIVITY_LOG_MAX_BYTES = 1024 * 1024;

const portOf = (desired: WorkspaceDesiredState) => desired.sftp?.port ?? SFTP_DEFAULT_PORT;

/** `sshd -t` wants /run/sshd; the check makes one in a mount namespace of its own. */
const CHECK_SCRIPT =
  'mount -t tmpfs -o size=1m debesis-check /run && mkdir -m 0755 /run/sshd && exec "$0" -t -f "$1"';

export function sftpDefinition(options: SftpDefinitionOptions = {}): DaemonDefinition {
  const program = options.program ?? '/usr/sbin/sshd';
  const argv = (_desired: WorkspaceDesiredState, { dir }: { dir: string }) => [
    program,
    '-D',
    '-e',
    '-f',
    sftpFiles(dir).conf,
  ];
  return {
    name: SFTP_DRIVER,
    daemon: DAEMON,
    retitles: true,
    programs: [program, 'ssh-keygen', 'unshare', 'nsenter', 'mount', 'mountpoint'],
    notNeeded: (desired) => (desired.sftp?.enabled ? undefined : 'SFTP is off'),
    // Its users are the FTP feature's resources.
    resources: () => [],
    render: (desired, context) => renderSftp(desired, context, program),
    sync: async (desired, context) => {
      const running = await runningDaemon(sftpFiles(context.dir).process, argv(desired, context));
      if (!running) return [];
      const files = sftpFiles(context.dir);
      const actions = await syncJails(files, running.pid, context.run, (users) => {
        const names = new Set(users.map((user) => user.name));
        return endDaemonSessions(running.pid, (child) => {
          const user = sessionUser(child);
          return user !== undefined && names.has(user);
        });
      });
      // A rebuilt jail lost its `dev/` (the log socket): mounted again in sshd's namespace.
      if (actions.length > 0)
        await context.run(
          'nsenter',
          [
            `--target=${running.pid}`,
            '--mount',
            '--',
            'perl',
            '-e',
            SFTP_LOG_SCRIPT,
            'mount',
            files.logSocketDir,
            files.activityLog,
          ],
          { check: true },
        );
      return actions;
    },
    // The jails, then the log receiver and the jails' `dev/`, then sshd.
    setup: (_desired, { dir }) => {
      const files = sftpFiles(dir);
      return [
        ...jailSetup(jailFiles(dir)),
        'perl',
        '-e',
        SFTP_LOG_SCRIPT,
        'start',
        files.logSocketDir,
        files.activityLog,
      ];
    },
    argv,
    listens: (desired) => servingListens(desired, portOf(desired)),
    reload: () => ({ kind: 'signal', signal: 'SIGHUP' }),
    report: async (desired, context) => {
      const running = await runningDaemon(sftpFiles(context.dir).process, argv(desired, context));
      return { sftp: { sessions: running ? await daemonSessions(running.pid, sessionUser) : [] } };
    },
    activity: (_desired, { dir, workspaceDir }) =>
      jailedActivity(workspaceDir, {
        log: sftpFiles(dir).activityLog,
        source: 'sftp',
        truncateAbove: SFTP_ACTIVITY_LOG_MAX_BYTES,
        spec: sftpFiles(dir).spec,
        events: sftpEvents,
      }),
  };
}

export function createSftpDriver(options: SftpDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(sftpDefinition(options), options);
}

async function renderSftp(
  desired: WorkspaceDesiredState,
  { dir, run }: DaemonContext,
  program: string,
): Promise<Rendering> {
  for (const folder of [dir, join(dir, 'run'), join(dir, 'log')]) await ensureDir(folder, { mode: 0o700 });
  const files = sftpFiles(dir);
  // Seen by every SFTP user as their jail's read-only `dev/`: the log socket and nothing else.
  await ensureDir(files.logSocketDir, { mode: 0o755 });
  const actions: string[] = [];
  // The host key first: `sshd -t` refuses a config whose key it cannot read. Where ssh-keygen is
  // missing nothing is made (and nothing checks the file either).
  if (!(await exists(files.hostKey))) {
    const made = await run('ssh-keygen', [
      '-q',
      '-t',
      'ed25519',
      '-N',
      '',
      '-C',
      desired.service_id,
      '-f',
      files.hostKey,
    ]);
    if (made.ok) actions.push(`made the SFTP host key ${files.hostKey}`);
    else if (!made.missing) throw new Error(`ssh-keygen: ${made.stderr.trim() || made.exitCode}`);
  }
  const access = resolveFileAccess(desired);
  const users = access.jails.map((jail) => jail.user);
  return {
    files: [
      { path: files.spec, mode: 0o600, head: renderJailSpec(access.jails), rereadByDaemon: true },
      {
        path: files.conf,
        mode: 0o600,
        head: renderSshdHead({
          address: servingAddress(desired),
          port: portOf(desired),
          hostKey: files.hostKey,
          users,
        }),
        resources: users.filter((user) => user.readOnly).map(renderReadOnlyMatch),
        check: {
          argv: (candidate) => [...PRIVATE_MOUNT_SHELL, CHECK_SCRIPT, program, candidate],
        },
      },
    ],
    // The FTP feature reports its users' failures.
    failures: [],
    actions,
  };
}

/** sshd's monitor of a signed-in session is titled `sshd: <user> [priv]`. */
const SESSION_TITLE = /^sshd: ([a-z][a-z0-9_-]{0,31}) \[priv\]$/;

const sessionUser = (child: SessionProcess) => SESSION_TITLE.exec(child.title)?.[1];
