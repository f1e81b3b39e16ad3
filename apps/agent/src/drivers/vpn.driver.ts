// OpenVPN for one workspace (issue 15; docs/features/vpn.md), as a daemon definition
// (daemons/definition.ts): one openvpn per workspace, inside the workspace's network namespace, on
// UDP at the workspace's own address, seeing of the workspace's folder only its VPN folder (never
// the PKI, never the Samba passdb). Its server.conf (vpn/render-server-conf.ts) is checked with
// `openvpn --config X --version`, which parses every line and exits 1 on an unknown option or a
// wrong number of arguments (OpenVPN has no config-test mode: `--test-crypto` refuses a TLS server,
// and nothing else reads a server config without starting it); the values themselves are checked
// while rendering (an IPv4 address, a port, the tunnel network, paths it can write).
//
// What changes often never restarts the server: users, passwords and enabled flags are the users
// file and the over-limit list, read by the password script at every connect; revocations are the
// CRL, read at every connect (crl-verify). Those files are written without a reload. Only a
// changed server.conf (address, port, the owner's VPN restart) restarts openvpn: it re-reads
// nothing on SIGHUP that it would not re-read by restarting, and a SIGHUP would drop every session
// as a restart does.
//
// A backup client's login is confined to the backups' REST server (vpn/backup-client-tunnel.ts):
// a fixed address of its own range from client-config-dir, and the namespace's rules set before
// openvpn starts (`setup`).
//
// Not needed (no server) while the workspace has no VPN section or no VPN users. The PKI is made,
// stale certificates revoked and the CRL kept fresh on apply (vpn/pki.ts), live only.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { VPN_DEFAULT_PORT, type WorkspaceDesiredState, NODE_DRIVERS } from '@debesis/contract';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { ensureDir, ensureRuntimeDir } from '../fs/ensure-dir.ts';
import {
  assignBackupClientAddresses,
  ccdText,
  isBackupClientLogin,
  readBackupClientAddresses,
  removeStaleCcdFiles,
  tunnelFilterSetup,
} from '../vpn/backup-client-tunnel.ts';
import { CHECK_PASSWORD_SCRIPT, renderUsersFile, VPN_USER_KIND } from '../vpn/password-check.ts';
import { disconnectUser, killAll } from '../vpn/management.ts';
import { observeVpn } from '../vpn/observe.ts';
import { crlDue, EASYRSA, issueClientConfig, syncPki } from '../vpn/pki.ts';
import { renderServerConf } from '../vpn/render-server-conf.ts';
import type { Driver } from './driver.ts';

export const VPN_DRIVER = NODE_DRIVERS.vpn;

export interface VpnDefinitionOptions {
  /** The openvpn it runs (looked up on PATH inside the namespace); default `openvpn`. */
  program?: string;
}

const portOf = (desired: WorkspaceDesiredState) => desired.vpn?.port ?? VPN_DEFAULT_PORT;

export function vpnDefinition(options: VpnDefinitionOptions = {}): DaemonDefinition {
  return {
    name: VPN_DRIVER,
    daemon: 'openvpn',
    programs: ['openvpn', 'openssl', EASYRSA, 'unshare', 'nsenter', 'mount'],
    notNeeded: (desired) =>
      !desired.vpn
        ? 'the workspace does not use the VPN'
        : desired.vpn.users.length === 0
          ? 'the workspace has no VPN users'
          : undefined,
    resources: (desired) =>
      (desired.vpn?.users ?? []).map((user) => ({ kind: VPN_USER_KIND, name: user.name })),
    render: renderVpn,
    // The addresses of logins gone are deleted once the users file no longer lets them in.
    sync: async (desired, { layout, run }) => [
      ...(await syncPki(desired, layout.vpn, run)),
      ...(await removeStaleCcdFiles(layout.vpn.ccdDir, new Set(backupClientLogins(desired)))).map(
        (name) => `removed the backup client address of ${name}`,
      ),
    ],
    // Backup clients' logins reach the REST server only: the namespace's rules, before openvpn.
    setup: () => tunnelFilterSetup(),
    drift: async (_desired, { layout }) =>
      (await crlDue(layout.vpn)) ? 'the VPN CRL is due to be made again' : undefined,
    argv: (_desired, { layout }) => [options.program ?? 'openvpn', '--config', layout.vpn.conf],
    listens: (desired) => ({ host: desired.address, port: portOf(desired), protocol: 'udp' }),
    reload: () => ({ kind: 'restart' }),
    // Sessions and this month's traffic on every pass; over-limit, disabled and removed users'
    // sessions are ended there (vpn/observe.ts).
    wakeOn: (layout) => layout.vpn.sessionsChanged,
    report: (desired, { layout, logger }) =>
      observeVpn(desired, { dir: layout.vpn.dir, socketPath: layout.vpn.managementSocket }, { logger }),
    calls: {
      'vpn.config': async ({ user, cert_generation }, { desired, layout, run }) => ({
        ovpn: await issueClientConfig(desired, layout, user, cert_generation, run),
      }),
      'vpn.disconnect': async ({ user }, { layout }) => ({
        disconnected: await disconnectUser(layout.vpn.managementSocket, user),
      }),
      'vpn.kill_all': async (_payload, { layout }) => ({
        disconnected: await killAll(layout.vpn.managementSocket),
      }),
    },
  };
}

/**
 * openvpn's client-connect and client-disconnect script: writes `sessions-changed` beside it (the
 * agent watches it) and succeeds whatever happens, since a failing client-connect refuses the
 * client. Its arguments (client-connect's dynamic config file) are not used.
 */
export const SESSION_EVENT_SCRIPT = `#!/bin/sh
date +%s%N > "$(dirname "$0")/sessions-changed" 2>/dev/null
exit 0
`;

export function createVpnDriver(options: VpnDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(vpnDefinition(options), options);
}

/** The backup clients' logins of the workspace (vpn/backup-client-tunnel.ts). */
const backupClientLogins = (desired: WorkspaceDesiredState) =>
  (desired.vpn?.users ?? []).filter((user) => isBackupClientLogin(user, desired)).map((user) => user.name);

async function renderVpn(desired: WorkspaceDesiredState, { layout }: DaemonContext): Promise<Rendering> {
  const { vpn } = layout;
  // The folder holds the server's key: root only. tmp/ gets each connect's username and password.
  for (const dir of [vpn.dir, vpn.tmpDir, vpn.runDir, vpn.logDir, vpn.ccdDir])
    await ensureDir(dir, { mode: 0o700 });
  await ensureRuntimeDir(vpn.socketDir, 0o700);
  // A backup client's login gets its fixed address of the confined range, or is refused.
  const addresses = assignBackupClientAddresses(
    backupClientLogins(desired),
    await readBackupClientAddresses(vpn.ccdDir, (path) => readFile(path, 'utf8')),
  );
  const refused = new Set(addresses.failures.map((failure) => failure.name));
  const users = renderUsersFile((desired.vpn?.users ?? []).filter((user) => !refused.has(user.name)));
  return {
    // The script first: the check of server.conf wants the script it names to exist. Each backup
    // client's address before the users file lets it in.
    files: [
      { path: vpn.checkPassword, mode: 0o700, head: CHECK_PASSWORD_SCRIPT, rereadByDaemon: true },
      { path: vpn.sessionEvent, mode: 0o700, head: SESSION_EVENT_SCRIPT, rereadByDaemon: true },
      ...[...addresses.assigned].map(([name, address]) => ({
        path: join(vpn.ccdDir, name),
        mode: 0o600,
        head: ccdText(address),
        rereadByDaemon: true,
      })),
      { path: vpn.usersFile, mode: 0o600, head: users.text, rereadByDaemon: true },
      {
        path: vpn.conf,
        mode: 0o644,
        head: renderServerConf({
          address: desired.address,
          port: portOf(desired),
          layout: vpn,
          restartToken: desired.vpn?.restart_token,
        }),
        check: {
          argv: (candidate) => ['openvpn', '--config', candidate, '--version'],
          complaint: /Options error/,
          reportsOn: 'stdout',
        },
      },
    ],
    failures: [...addresses.failures, ...users.failures],
    actions: [],
  };
}
