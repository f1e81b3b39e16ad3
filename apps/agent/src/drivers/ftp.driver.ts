// FTP for one workspace (issue 16), as a daemon definition (daemons/definition.ts): one pure-ftpd
// per workspace inside its namespaces, on the workspace's address, with virtual users (a puredb
// built from the workspace users listed in the FTP section, their SHA-512 crypt hashes: the
// password that works for SMB), each chrooted in their jail (file-access/jails.ts: their home and
// the shares they may use, read-only by a read-only bind mount).
//
// pure-ftpd has no config file: its settings (the `ftp-advanced` tab) are its command line, so a
// changed setting restarts it. What changes often never does: users, passwords, enabled flags and
// rights are the puredb (rebuilt with `pure-pw mkdb`, which pure-ftpd opens at every login) and
// the jails (rebuilt in its namespace by nsenter), so a new password works at the next login and
// the old one stops working, with the same pid.
//
// TLS (FTPS, explicit AUTH TLS) is always offered, with a certificate made for the workspace
// (tls/workspace-certificate.ts); `tls_required` refuses sign-ins without it. Not needed while
// the workspace has no FTP section or it is off.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { WORKSPACE_ID_BLOCK, type WorkspaceDesiredState, NODE_DRIVERS } from '@debesis/contract';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { daemonFiles, runningDaemon } from '../daemons/supervisor.ts';
import { daemonSessions, endDaemonSessions, jailedActivity } from '../file-access/file-daemon.ts';
import {
  FTP_USER_KIND,
  jailFiles,
  jailSetup,
  renderJailSpec,
  resolveFileAccess,
  syncJails,
} from '../file-access/jails.ts';
import { ensureDir } from '../fs/ensure-dir.ts';
import { transferEvents } from '../ftp/transfer-log.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import {
  FTP_SETTINGS_DEFAULTS,
  ftpSettingsProblem,
  pureFtpdArgv,
  renderPureftpdPasswd,
} from '../ftp/render-pureftpd.ts';
import { ensureWorkspaceCertificate } from '../tls/workspace-certificate.ts';
import type { Driver } from './driver.ts';
import { servingAddress, servingListens } from '../net/serving-address.ts';

export const FTP_DRIVER = NODE_DRIVERS.ftp;
/** pure-ftpd keeps its transfer log open for good: emptied once read past this size. */
const TRANSFER_LOG_MAX_BYTES = 4 * 1024 * 1024;
const DAEMON = 'pure-ftpd';

export interface FtpDefinitionOptions {
  /** The pure-ftpd it runs (looked up on PATH inside the namespace); default `pure-ftpd`. */
  program?: string;
}

/** The FTP folder's files (`<workspace>/ftp/`). */
export function ftpFiles(dir: string) {
  return {
    passwd: join(dir, 'pureftpd.passwd'),
    puredb: join(dir, 'pureftpd.pdb'),
    transferLog: join(dir, 'log', 'transfers.log'),
    /** The passwd text the puredb was last built from. */
    puredbSource: join(dir, 'pureftpd.pdb.source'),
    certificate: join(dir, 'tls', 'pure-ftpd.pem'),
    /** The address the certificate was made for. */
    certificateFor: join(dir, 'tls', 'address'),
    ...jailFiles(dir),
    process: daemonFiles(dir, DAEMON, { retitles: true }),
  };
}

const settingsOf = (desired: WorkspaceDesiredState) => desired.ftp ?? { ...FTP_SETTINGS_DEFAULTS };

export function ftpDefinition(options: FtpDefinitionOptions = {}): DaemonDefinition {
  const argv = (desired: WorkspaceDesiredState, { dir }: { dir: string }) =>
    pureFtpdArgv({
      program: options.program ?? DAEMON,
      address: servingAddress(desired),
      ftp: settingsOf(desired),
      puredb: ftpFiles(dir).puredb,
      transferLog: ftpFiles(dir).transferLog,
      certificate: ftpFiles(dir).certificate,
      minUid: desired.id_base + 1,
    });
  return {
    name: FTP_DRIVER,
    daemon: DAEMON,
    retitles: true,
    programs: [DAEMON, 'pure-pw', 'openssl', 'unshare', 'nsenter', 'mount', 'mountpoint'],
    notNeeded: (desired) => (desired.ftp?.enabled ? undefined : 'FTP is off'),
    resources: (desired) =>
      (desired.ftp?.users ?? []).map((user) => ({ kind: FTP_USER_KIND, name: user.name })),
    render: renderFtp,
    sync: async (desired, context) => {
      const files = ftpFiles(context.dir);
      const actions = [
        ...(await ensureWorkspaceCertificate(
          servingAddress(desired),
          { pem: files.certificate, madeFor: files.certificateFor },
          context.run,
        )),
        ...(await ensurePuredb(files, context)),
      ];
      const running = await runningDaemon(files.process, argv(desired, context));
      if (running)
        actions.push(
          ...(await syncJails(files, running.pid, context.run, (users) => {
            const uids = new Set(users.map((user) => user.uid));
            return endDaemonSessions(running.pid, (child) => uids.has(child.uid));
          })),
        );
      return actions;
    },
    setup: (_desired, { dir }) => jailSetup(jailFiles(dir)),
    argv,
    listens: (desired) => servingListens(desired, settingsOf(desired).port),
    // Never used: the puredb and the jails reach pure-ftpd without it; a setting restarts it
    // through its command line.
    reload: () => ({ kind: 'restart' }),
    activity: (_desired, { dir, workspaceDir }) =>
      jailedActivity(workspaceDir, {
        log: ftpFiles(dir).transferLog,
        source: 'ftp',
        truncateAbove: TRANSFER_LOG_MAX_BYTES,
        spec: ftpFiles(dir).spec,
        events: transferEvents,
      }),
    report: async (desired, context) => {
      const running = await runningDaemon(ftpFiles(context.dir).process, argv(desired, context));
      if (!running) return { ftp: { sessions: [] } };
      return { ftp: { sessions: await ftpSessions(running.pid, desired) } };
    },
  };
}

export function createFtpDriver(options: FtpDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(ftpDefinition(options), options);
}

async function renderFtp(desired: WorkspaceDesiredState, { dir }: DaemonContext): Promise<Rendering> {
  const problem = desired.ftp && ftpSettingsProblem(desired.ftp);
  if (problem) throw new Error(`FTP settings: ${problem}`);
  // The folder holds password hashes and the TLS key: root only.
  for (const folder of [dir, join(dir, 'tls'), join(dir, 'run'), join(dir, 'log')])
    await ensureDir(folder, { mode: 0o700 });
  const access = resolveFileAccess(desired);
  const files = ftpFiles(dir);
  return {
    files: [
      { path: files.passwd, mode: 0o600, head: renderPureftpdPasswd(access), rereadByDaemon: true },
      { path: files.spec, mode: 0o600, head: renderJailSpec(access.jails), rereadByDaemon: true },
    ],
    failures: access.failures,
    actions: [],
  };
}

/** The puredb, built again when the passwd file differs from the one it was built from. */
async function ensurePuredb(files: ReturnType<typeof ftpFiles>, { run }: DaemonContext): Promise<string[]> {
  const passwd = await readFile(files.passwd, 'utf8');
  const built = await readFile(files.puredbSource, 'utf8').catch(() => undefined);
  const present = await stat(files.puredb).then(
    () => true,
    () => false,
  );
  if (present && built === passwd) return [];
  // pure-pw writes the new puredb aside and renames it over the old one: a login reads one whole.
  await run('pure-pw', ['mkdb', files.puredb, '-f', files.passwd], { check: true });
  await writeIfChanged(files.puredbSource, passwd, { mode: 0o600 });
  return [`built ${files.puredb}`];
}

/**
 * pure-ftpd forks one process per connection, which runs as the signed-in user (its privileged
 * helper below it stays root): a child of the server with a workspace user's uid is a session.
 */
function ftpSessions(pid: number, desired: WorkspaceDesiredState) {
  const names = new Map(desired.users.map((user) => [user.uid, user.name]));
  return daemonSessions(pid, (child) =>
    child.uid < desired.id_base || child.uid >= desired.id_base + WORKSPACE_ID_BLOCK
      ? undefined
      : names.get(child.uid),
  );
}
