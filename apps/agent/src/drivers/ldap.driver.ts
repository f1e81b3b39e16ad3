// LDAP for one workspace (issue 17), as a daemon definition (daemons/definition.ts): one slapd per
// workspace inside its namespaces, on the workspace's address (StartTLS on `port`, LDAPS on
// `ldaps_port`), with one back_mdb database holding a read-only copy of the workspace's users and
// groups (ldap/render-directory.ts) and serving it to the customer's applications. Who may do
// what, and why every operation needs TLS: ldap/render-slapd-conf.ts.
//
// How a change reaches the running slapd without a restart (its pid stays): the agent talks to it
// over a UNIX socket of its own (ldapi, in the root-only LDAP folder) with SASL EXTERNAL as root,
// which slapd maps to the database's rootdn, and applies only the difference between what the
// directory holds (applied.ldif, the record of the last sync) and what it should hold
// (directory.ldif) with one ldapmodify: a suspended user's password gone, a renamed group deleted
// and added, anonymous reads turned on or off (an entry the ACL looks at). When the record is
// missing (a sync failed halfway) the directory is read back with ldapsearch first. An unchanged
// directory runs no program. While slapd does not run (first start, after a crash, after a stop)
// the database is simply built again from the desired state with slapadd before it starts: nothing
// is ever written to it over LDAP, so it holds nothing the desired state does not.
//
// An expiry date that passes is drift (`expiry-due`): the next observe pass applies again and the
// user's password leaves the directory, within one poll interval of midnight in the zone.
// slapd.conf changes only with the workspace's paths and its alias (a second suffix relayed to the
// base, render-slapd-conf.ts); it is read at start, so a change restarts (the database is built
// again from the desired state, as at any start).
// The workspace's certificate is tls/workspace-certificate.ts's. Not needed while the workspace
// has no LDAP section or it is off.
import { readFile, rm } from 'node:fs/promises';
import {
  LDAP_DEFAULT_PORT,
  LDAPS_DEFAULT_PORT,
  ldapAliasBase,
  ldapDirectoryNames,
  type LdapDirectoryNames,
  type WorkspaceDesiredState,
  type WorkspaceFeatureReports,
  NODE_DRIVERS,
} from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { daemonFiles, runningDaemon } from '../daemons/supervisor.ts';
import { CommandError, type CommandRunner } from '../exec/run-command.ts';
import { ensureDir, ensureRuntimeDir } from '../fs/ensure-dir.ts';
import { writeIfChanged } from '../fs/write-if-changed.ts';
import {
  anonymousSwitchDn,
  directoryChanges,
  LDAP_USER_KIND,
  parseLdif,
  renderDirectory,
  renderLdif,
  type LdapEntry,
} from '../ldap/render-directory.ts';
import { renderSlapdConf } from '../ldap/render-slapd-conf.ts';
import { ensureWorkspaceCertificate } from '../tls/workspace-certificate.ts';
import type { LdapLayout } from '../ldap/ldap-layout.ts';
import type { Driver } from './driver.ts';
import { servingAddress, servingListens } from '../net/serving-address.ts';

export const LDAP_DRIVER = NODE_DRIVERS.ldap;
const DAEMON = 'slapd';
/** A service id names the base DN and the socket's URL: letters, digits and hyphens only. */
const SERVICE_ID = /^[A-Za-z0-9][A-Za-z0-9-]{0,62}$/;
/** A UNIX socket's path holds at most 107 bytes. */
const MAX_SOCKET_PATH = 107;

export interface LdapDefinitionOptions {
  /** The slapd it runs (looked up on PATH inside the namespace); default `slapd`. */
  program?: string;
  /** The clock expiry dates are read by; default the real one. */
  now?: () => Date;
}

const portsOf = (desired: WorkspaceDesiredState) => ({
  port: desired.ldap ? desired.ldap.port : LDAP_DEFAULT_PORT,
  ldaps: desired.ldap ? desired.ldap.ldaps_port : LDAPS_DEFAULT_PORT,
});
const ldapiUrl = (layout: LdapLayout) => `ldapi://${encodeURIComponent(layout.ldapiSocket)}`;
/** The database's rootdn: no entry, no password; the agent over ldapi is mapped to it. */
const agentDn = (base: string) => `cn=agent,${base}`;
/** ldapmodify and ldapsearch read no ldap.conf or .ldaprc of the node (LDAPNOINIT). */
const CLIENT_ENV = { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', LDAPNOINIT: '1' };

export function ldapDefinition(options: LdapDefinitionOptions = {}): DaemonDefinition {
  const now = options.now ?? (() => new Date());
  const argv = (desired: WorkspaceDesiredState, { layout }: Pick<DaemonContext, 'layout'>) => {
    const { port, ldaps } = portsOf(desired);
    const urls = [
      ...(port !== null ? [`ldap://${servingAddress(desired)}:${port}/`] : []),
      ...(ldaps !== null ? [`ldaps://${servingAddress(desired)}:${ldaps}/`] : []),
      ldapiUrl(layout.ldap),
    ];
    return [options.program ?? DAEMON, '-d', '0', '-h', urls.join(' '), '-f', layout.ldap.conf];
  };
  return {
    name: LDAP_DRIVER,
    daemon: DAEMON,
    programs: [
      DAEMON,
      'slaptest',
      'slapadd',
      'ldapmodify',
      'ldapsearch',
      'openssl',
      'unshare',
      'nsenter',
      'mount',
    ],
    notNeeded: (desired) => (desired.ldap?.enabled ? undefined : 'LDAP is off'),
    resources: (desired) =>
      (desired.ldap?.users ?? []).map((user) => ({ kind: LDAP_USER_KIND, name: user.name })),
    render: (desired, context) => renderLdap(desired, context, now()),
    sync: async (desired, context) => {
      const running = await runningDaemon(daemonFiles(context.dir, DAEMON), argv(desired, context));
      return syncDirectory(desired, context.layout.ldap, context.run, running !== undefined);
    },
    drift: async (_desired, { layout }) => {
      const due = (await readFile(layout.ldap.expiryDue, 'utf8').catch(() => '')).trim();
      return due && now().getTime() >= Date.parse(due) ? 'an LDAP user’s expiry date has passed' : undefined;
    },
    argv,
    listens: (desired) => {
      const { port, ldaps } = portsOf(desired);
      return servingListens(desired, ldaps ?? port ?? LDAPS_DEFAULT_PORT);
    },
    reload: () => ({ kind: 'restart' }),
    report: async (_desired, { layout }) => ({ ldap: await readStatus(layout.ldap) }),
  };
}

export function createLdapDriver(options: LdapDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(ldapDefinition(options), options);
}

async function renderLdap(
  desired: WorkspaceDesiredState,
  { layout, run }: DaemonContext,
  now: Date,
): Promise<Rendering> {
  const files = layout.ldap;
  if (!SERVICE_ID.test(desired.service_id))
    throw new Error('the service id cannot name a directory (letters, digits and "-" only)');
  const { port, ldaps } = portsOf(desired);
  if (port === null && ldaps === null)
    throw new Error('LDAP settings: neither StartTLS nor LDAPS is offered');
  if (port === ldaps) throw new Error(`LDAP settings: StartTLS and LDAPS cannot share port ${port}`);
  const alias = desired.ldap?.alias ?? null;
  // Two databases under one suffix: slapd would not start at all.
  if (alias !== null && alias === desired.service_id.toLowerCase())
    throw new Error('LDAP settings: the alias cannot be the service id');
  if (Buffer.byteLength(files.ldapiSocket) > MAX_SOCKET_PATH)
    throw new Error(`the LDAP socket's path is longer than ${MAX_SOCKET_PATH} bytes: ${files.ldapiSocket}`);
  // The folder holds password hashes and the TLS key: root only.
  for (const dir of [files.dir, `${files.dir}/tls`, files.databaseDir, files.runDir, files.logDir])
    await ensureDir(dir, { mode: 0o700 });
  await ensureRuntimeDir(files.socketDir, 0o700);
  const actions: string[] = [];
  // The certificate before the config: slaptest reads the file it names. Where openssl is missing
  // nothing is made (and slaptest is not there to check either).
  try {
    actions.push(
      ...(await ensureWorkspaceCertificate(
        servingAddress(desired),
        { pem: files.certificate, madeFor: files.certificateFor },
        run,
      )),
    );
  } catch (error) {
    if (!(error instanceof CommandError && error.result.missing)) throw error;
  }
  const names = ldapDirectoryNames(desired.service_id);
  const directory = renderDirectory(desired, validateAccounts(desired), now);
  return {
    files: [
      {
        path: files.conf,
        mode: 0o600,
        head: renderSlapdConf({
          base: names.base,
          alias: alias === null ? undefined : ldapAliasBase(alias),
          reader: names.reader,
          anonymousSwitch: anonymousSwitchDn(names.base),
          agent: agentDn(names.base),
          certificate: files.certificate,
          database: files.databaseDir,
        }),
        check: { argv: (candidate) => ['slaptest', '-u', '-f', candidate] },
      },
      // Both reach slapd through syncDirectory, not a reload.
      { path: files.wanted, mode: 0o600, head: renderLdif(directory.entries), rereadByDaemon: true },
      { path: files.expiryDue, mode: 0o600, head: directory.nextExpiry ?? '', rereadByDaemon: true },
    ],
    failures: directory.failures,
    actions,
  };
}

/**
 * Makes the directory hold directory.ldif: live by one ldapmodify of the difference, or, while
 * slapd does not run, by building its database again. Runs no program when it already does.
 */
export async function syncDirectory(
  desired: WorkspaceDesiredState,
  files: LdapLayout,
  run: CommandRunner,
  running: boolean,
): Promise<string[]> {
  const wanted = await readFile(files.wanted, 'utf8');
  // A stopped workspace's database is built again when it starts.
  if (!running && desired.state !== 'running') return [];
  const names = ldapDirectoryNames(desired.service_id);
  if (!running) {
    const entries = parseLdif(wanted);
    await rm(files.databaseDir, { recursive: true, force: true });
    await ensureDir(files.databaseDir, { mode: 0o700 });
    await run('slapadd', ['-q', '-f', files.conf, '-l', files.wanted], { check: true });
    await recordSync(files, wanted, entries, names);
    return [`built the LDAP directory (${entries.length} entries)`];
  }
  const applied = await readFile(files.applied, 'utf8').catch(() => undefined);
  // The usual pass: nothing changed since the last sync, and nothing is parsed.
  if (applied === wanted) return [];
  const entries = parseLdif(wanted);
  // Unknown from here until ldapmodify is through: a failure halfway leaves it unknown.
  await rm(files.applied, { force: true });
  const current = applied !== undefined ? parseLdif(applied) : await readDirectory(files, names.base, run);
  const changes = directoryChanges(current, entries);
  const count = changes === '' ? 0 : changes.split('\nchangetype: ').length - 1;
  if (count > 0)
    await run('ldapmodify', ['-Q', '-Y', 'EXTERNAL', '-H', ldapiUrl(files)], {
      input: changes,
      env: CLIENT_ENV,
      check: true,
    });
  await recordSync(files, wanted, entries, names);
  return count > 0 ? [`applied ${count} change${count === 1 ? '' : 's'} to the LDAP directory`] : [];
}

/** What slapd holds now, read over ldapi (nothing: its base is not there yet). */
async function readDirectory(files: LdapLayout, base: string, run: CommandRunner): Promise<LdapEntry[]> {
  const result = await run(
    'ldapsearch',
    ['-Q', '-Y', 'EXTERNAL', '-H', ldapiUrl(files), '-LLL', '-o', 'ldif-wrap=no', '-b', base],
    { env: CLIENT_ENV },
  );
  if (result.exitCode === 32) return [];
  if (!result.ok) throw new CommandError(result);
  return parseLdif(result.stdout);
}

interface SyncStatus {
  users: number;
  groups: number;
  locked_users: string[];
  synced_at: string | null;
}

async function recordSync(
  files: LdapLayout,
  wanted: string,
  entries: readonly LdapEntry[],
  names: LdapDirectoryNames,
): Promise<void> {
  await writeIfChanged(files.applied, wanted, { mode: 0o600 });
  const under = (parent: string) => entries.filter((entry) => entry.dn.toLowerCase().endsWith(`,${parent}`));
  const people = under(names.people.toLowerCase());
  const status: SyncStatus = {
    users: people.length,
    groups: under(names.groups.toLowerCase()).length,
    locked_users: people
      .filter((entry) => !entry.attributes.some(([name]) => name === 'userPassword'))
      .map((entry) => entry.attributes.find(([name]) => name === 'uid')?.[1][0] ?? entry.dn)
      .sort(),
    synced_at: new Date().toISOString(),
  };
  await writeIfChanged(files.status, JSON.stringify(status) + '\n', { mode: 0o600 });
}

async function readStatus(files: LdapLayout): Promise<NonNullable<WorkspaceFeatureReports['ldap']>> {
  const text = await readFile(files.status, 'utf8').catch(() => undefined);
  if (text !== undefined) {
    try {
      return JSON.parse(text) as SyncStatus;
    } catch {
      // Written whole by rename, so only a foreign file gets here: as if never synced.
    }
  }
  return { users: 0, groups: 0, locked_users: [], synced_at: null };
}
