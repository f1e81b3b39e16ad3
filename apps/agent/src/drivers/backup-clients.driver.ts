// Backup clients of one workspace (issue 18; docs/features/backup-clients.md), as a daemon
// definition (daemons/definition.ts): one restic REST server per workspace, `rclone serve restic`,
// inside the workspace's namespaces on the VPN tunnel's server address (VPN_TUNNEL_SERVER_ADDRESS,
// port BACKUP_CLIENT_PORT), so only a client connected to the workspace's VPN reaches it. It serves
// <data>/backups/<id>/clients (backup/client-repositories.ts) with:
//   --private-repos   a client reaches /<its name>/ only
//   --append-only     a client adds snapshots but deletes none (a machine taken over cannot wipe
//                     its backups)
//   --htpasswd        the clients that may push, with their bcrypt hashes: rclone reads the file
//                     again when it changes, so a client added or disconnected needs no restart
//
// The tunnel's address exists only once openvpn runs (the VPN driver, before this one, starts it
// for the clients' own VPN logins): the start waits for it, and the agent sees the server up by
// its listening socket, since the node cannot connect into the tunnel. Not needed while no client
// may push; a deleted client's repository is deleted either way (tidy).
//
// The repositories together are held to the workspace's quota (backupClientsQuotaBytes of the
// plan's disk): the folder is a loop-mounted sparse ext4 image of that size, made and grown in
// `sync` (live only, before rclone starts) and deleted in `remove` (backup/client-quota.ts).
//
// With a backup target they are copied off the node (backup/client-mirror.ts, by the agent's
// client mirror loop), and a node that takes the workspace over restores the copy in `sync`, once,
// after the image is mounted and before rclone starts.
import { join } from 'node:path';
import {
  BACKUP_CLIENT_PORT,
  VPN_TUNNEL_SERVER_ADDRESS,
  backupClientsQuotaBytes,
  type WorkspaceDesiredState,
  NODE_DRIVERS,
} from '@debesis/contract';
import {
  clientsQuotaPaths,
  clientsQuotaReport,
  ensureClientsQuota,
  removeClientsQuota,
} from '../backup/client-quota.ts';
import {
  clientMirrorPaths,
  clientMirrorRepository,
  offNodeTimes,
  restoreClientsOnce,
} from '../backup/client-mirror.ts';
import {
  clientRepositories,
  clientRepositoriesRoot,
  clientRepositoryReport,
  deleteOtherRepositories,
} from '../backup/client-repositories.ts';
import { repositoryPaths } from '../backup/repository.ts';
import { createRestic } from '../backup/restic.ts';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import { daemonFiles, stopDaemon } from '../daemons/supervisor.ts';
import type { DaemonContext, DaemonDefinition } from '../daemons/definition.ts';
import { ensureDir } from '../fs/ensure-dir.ts';
import type { Driver } from './driver.ts';

export const BACKUP_CLIENTS_DRIVER = NODE_DRIVERS.backupClients;
const DAEMON = 'rclone';

/**
 * Runs in the namespace before rclone: waits (up to ten seconds) for the tunnel's address, then
 * execs rclone. $1 is the address; the rest is rclone's command line.
 */
const WAIT_FOR_TUNNEL = `address=$1
shift
tries=0
until ip -4 -o addr show | grep -qF " inet $address/"; do
  tries=$((tries + 1))
  if [ "$tries" -gt 100 ]; then
    echo "debesis: no VPN tunnel at $address: the workspace's VPN does not run" >&2
    exit 1
  fi
  sleep 0.1
done
exec "$@"`;

export const backupClientsFiles = (dir: string) => ({ htpasswd: join(dir, 'htpasswd') });

const clientsOf = (desired: WorkspaceDesiredState) => desired.backup?.clients ?? [];

/** The copy off the node of the workspace's client repositories (backup/client-mirror.ts). */
export const mirrorPathsOf = (desired: WorkspaceDesiredState, dataDir: string) =>
  clientMirrorPaths(
    repositoryPaths(dataDir, desired.service_id).dir,
    clientRepositoriesRoot(dataDir, desired.service_id),
  );

export function backupClientsDefinition(): DaemonDefinition {
  const root = (desired: WorkspaceDesiredState, dataDir: string) =>
    clientRepositoriesRoot(dataDir, desired.service_id);
  const definition: DaemonDefinition = {
    name: BACKUP_CLIENTS_DRIVER,
    phase: 'backups',
    daemon: DAEMON,
    programs: ['rclone', 'ip'],
    notNeeded: (desired) => (clientsOf(desired).length > 0 ? undefined : 'no backup client may push'),
    resources: () => [],

    async render(desired, { dir, dataDir }: DaemonContext) {
      for (const folder of [dir, join(dir, 'run'), join(dir, 'log')])
        await ensureDir(folder, { mode: 0o700 });
      // <data>/backups/<id>/clients, each level root's alone, as the backups' own (repository.ts).
      const clientsRoot = root(desired, dataDir);
      let made = false;
      for (const folder of [join(clientsRoot, '..', '..'), join(clientsRoot, '..'), clientsRoot])
        made = await ensureDir(folder, { mode: 0o700, uid: 0, gid: 0 });
      // The contract admits only workspace names and bcrypt hashes: nothing here can break a line.
      const lines = clientsOf(desired).map((client) => `${client.name}:${client.password_bcrypt}\n`);
      return {
        files: [
          { path: backupClientsFiles(dir).htpasswd, mode: 0o600, head: lines.join(''), rereadByDaemon: true },
        ],
        failures: [],
        actions: made ? [`made the backup clients' folder ${clientsRoot}`] : [],
      };
    },

    async tidy(desired, { dataDir }) {
      // No backup section (an older API): nothing is deleted.
      if (!desired.backup) return [];
      const deleted = await deleteOtherRepositories(
        root(desired, dataDir),
        desired.backup.client_repositories,
      );
      return deleted.map((path) => `deleted the backup client repository ${path}`);
    },

    // Live only, before rclone starts: the quota image mounted at the repositories' folder (made
    // the first time a client may push, grown with the plan). rclone binds the folder when it
    // starts, so one running before the mount is stopped first; the driver starts it again.
    async sync(desired, context) {
      const argv = definition.argv(desired, context);
      const actions = await ensureClientsQuota(clientsQuotaPaths(root(desired, context.dataDir)), {
        quotaBytes: backupClientsQuotaBytes(desired.storage_bytes),
        run: context.run,
        stopServer: async () =>
          (await stopDaemon(daemonFiles(context.dir, DAEMON), argv)) ? [`stopped ${DAEMON}`] : [],
      });
      const target = desired.backup?.clients_repository;
      if (target) {
        const paths = mirrorPathsOf(desired, context.dataDir);
        const restic = createRestic(clientMirrorRepository(paths, target));
        actions.push(...(await restoreClientsOnce({ paths, restic, target })));
      }
      return actions;
    },

    // rclone has stopped: its namespace no longer holds the image.
    remove: (desired, { dataDir, run }) => removeClientsQuota(clientsQuotaPaths(root(desired, dataDir)), run),

    keep: (desired, { dataDir }) => [root(desired, dataDir)],
    setup: () => ['/bin/sh', '-c', WAIT_FOR_TUNNEL, 'debesis-wait-tunnel', VPN_TUNNEL_SERVER_ADDRESS],
    argv: (desired, { dir, dataDir }) => [
      'rclone',
      'serve',
      'restic',
      root(desired, dataDir),
      '--addr',
      `${VPN_TUNNEL_SERVER_ADDRESS}:${BACKUP_CLIENT_PORT}`,
      '--htpasswd',
      backupClientsFiles(dir).htpasswd,
      '--realm',
      'debesis-backups',
      '--private-repos',
      '--append-only',
      // No rclone config exists or is needed: serving a local folder.
      '--config',
      '/dev/null',
    ],
    listens: () => ({ host: VPN_TUNNEL_SERVER_ADDRESS, port: BACKUP_CLIENT_PORT, probe: 'bound' }),
    // Its only file (htpasswd) is read again by rclone itself.
    reload: () => ({ kind: 'restart' }),

    async report(desired, { dataDir }) {
      const clientsRoot = root(desired, dataDir);
      const names = await clientRepositories(clientsRoot);
      const offNode = await offNodeTimes(mirrorPathsOf(desired, dataDir));
      return {
        backup_clients: {
          clients: await Promise.all(
            names.slice(0, 1000).map(async (name) => ({
              ...(await clientRepositoryReport(clientsRoot, name)),
              off_node_at: offNode.get(name) ?? null,
            })),
          ),
          quota: await clientsQuotaReport(clientsQuotaPaths(clientsRoot)),
        },
      };
    },
  };
  return definition;
}

export function createBackupClientsDriver(options: DaemonDriverOptions = {}): Driver {
  return daemonDriver(backupClientsDefinition(), options);
}
