// NFS for one workspace (issue 16), as a daemon definition (daemons/definition.ts): one
// nfs-ganesha per workspace (NFSv4 in user space, FSAL VFS), inside the workspace's network
// namespace, bound to the workspace's address, seeing the workspace's storage and of its folder
// only its NFS folder. Its config is rendered by nfs/render-ganesha-conf.ts (which says what an
// export becomes, and the identity mapping: all_squash to a user of the workspace).
//
// Two files: ganesha.conf (the server: address, port) is read at start only, so a change there
// restarts ganesha; exports.conf (included by it) is re-read on SIGHUP, so adding, changing or
// removing an export keeps ganesha's pid and every other client mounted. Ganesha has no
// config-test mode: every value is checked while rendering instead.
//
// Not needed (no server) while the workspace has no NFS section or no exports. Live, it serves only
// storage that is a disk image of its own: ganesha's VFS file handles reach anything on the file
// system an export lives on, so on a plain folder of the node's disk they would reach the node.
import { dirname } from 'node:path';
import { NFS_DEFAULT_PORT, type WorkspaceDesiredState, NODE_DRIVERS } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { ensureDir, ensureDirUnder, ensureRuntimeDir } from '../fs/ensure-dir.ts';
import { blockClient, blockedAddresses, blockedDrift } from '../nfs/blocked-clients.ts';
import { GANESHA_BUS_PROGRAM, ganeshaBusSetup, renderBusConfig } from '../nfs/ganesha-dbus.ts';
import { observeNfs } from '../nfs/observe.ts';
import {
  NFS_EXPORT_KIND,
  renderExport,
  renderGaneshaCore,
  renderPseudoRoot,
  resolveExports,
} from '../nfs/render-ganesha-conf.ts';
import { mountAt } from '../system/mounts.ts';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';
import type { Driver } from './driver.ts';
import { servingAddress, servingListens } from '../net/serving-address.ts';

export const NFS_DRIVER = NODE_DRIVERS.nfs;
const GANESHA = 'ganesha.nfsd';

export interface NfsDefinitionOptions {
  /** The ganesha it runs (looked up on PATH inside the namespace); default `ganesha.nfsd`. */
  program?: string;
}

const portOf = (desired: WorkspaceDesiredState) => desired.nfs?.port ?? NFS_DEFAULT_PORT;

export function nfsDefinition(options: NfsDefinitionOptions = {}): DaemonDefinition {
  return {
    name: NFS_DRIVER,
    daemon: GANESHA,
    programs: ['ganesha.nfsd', GANESHA_BUS_PROGRAM, 'unshare', 'nsenter', 'mount'],
    notNeeded: (desired) =>
      !desired.nfs
        ? 'the workspace does not use NFS'
        : desired.nfs.exports.length === 0
          ? 'the workspace has no NFS exports'
          : undefined,
    resources: (desired) =>
      (desired.nfs?.exports ?? []).map((entry) => ({ kind: NFS_EXPORT_KIND, name: entry.path.slice(0, 64) })),
    render: renderNfs,
    sync: async (_desired, { layout }) => {
      if (!(await mountAt(layout.dataRoot)))
        throw new Error(
          'NFS serves only storage that is a disk image of its own, and this one is a plain folder',
        );
      return [];
    },
    setup: (_desired, { layout }) => ganeshaBusSetup(layout.nfs.busConfig, layout.nfs.busSocket),
    argv: (_desired, { layout }) => argvOf(layout),
    listens: (desired) => servingListens(desired, portOf(desired)),
    reload: () => ({ kind: 'signal', signal: 'SIGHUP' }),
    drift: (_desired, { layout }) => blockedDrift(layout.nfs),
    report: (desired, { layout }) => observeNfs(layout.nfs, portOf(desired)),
    calls: {
      // Refuses the address from the next request on (nfs/blocked-clients.ts): the exports are
      // rendered again with it and re-read by a running ganesha (its SIGHUP reload).
      'nfs.disconnect': async ({ address }, context) => {
        const until = await blockClient(context.layout.nfs, address);
        await context.refresh();
        return { blocked_until: new Date(until).toISOString() };
      },
    },
  };

  function argvOf(layout: WorkspaceLayout): string[] {
    return [
      options.program ?? 'ganesha.nfsd',
      '-F',
      '-f',
      layout.nfs.conf,
      '-L',
      layout.nfs.logFile,
      '-p',
      layout.nfs.pidFile,
    ];
  }
}

export function createNfsDriver(options: NfsDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(nfsDefinition(options), options);
}

async function renderNfs(
  desired: WorkspaceDesiredState,
  { layout }: Pick<DaemonContext, 'layout'>,
): Promise<Rendering> {
  const { nfs } = layout;
  for (const dir of [nfs.dir, nfs.runDir, nfs.logDir]) await ensureDir(dir, { mode: 0o755 });
  // The bus's socket: root only (its policy admits root only too).
  await ensureRuntimeDir(dirname(nfs.busSocket), 0o700);
  // Client records hold the clients' own names: root only.
  await ensureDir(nfs.recoveryDir, { mode: 0o700 });
  const accounts = validateAccounts(desired);
  const resolved = resolveExports(desired.nfs?.exports ?? [], desired, accounts, NAMESPACE_DATA_ROOT);
  const failures = [...resolved.failures];
  const actions: string[] = [];
  const blocked = await blockedAddresses(nfs);

  // Export folders: made like share folders (root-owned parents; the folder itself root, group
  // `users`, setgid, 2770, so the squashed identity writes through its group and what it makes
  // stays the workspace's group). An existing folder (customer data) is left as it is. No
  // component may be a symlink (ensureDirUnder refuses one): a link made by a client would
  // otherwise aim the export anywhere in ganesha's view of the node.
  const exports = [];
  for (const entry of resolved.exports) {
    try {
      if (
        await ensureDirUnder(
          layout.dataRoot,
          entry.path,
          { mode: 0o755, uid: 0, gid: 0, onlyWhenCreated: true },
          { mode: 0o2770, uid: 0, gid: desired.id_base, onlyWhenCreated: true },
        )
      )
        actions.push(`created export folder ${entry.fullPath}`);
      exports.push(entry);
    } catch (error) {
      failures.push({
        kind: NFS_EXPORT_KIND,
        name: entry.path,
        error: `folder: ${(error as Error).message}`,
      });
    }
  }

  return {
    files: [
      {
        path: nfs.conf,
        mode: 0o644,
        head: renderGaneshaCore({ address: servingAddress(desired), port: portOf(desired), layout: nfs }),
        restartOnChange: true,
      },
      { path: nfs.busConfig, mode: 0o644, head: renderBusConfig(nfs.busSocket), restartOnChange: true },
      {
        path: nfs.exportsConf,
        mode: 0o644,
        head: renderPseudoRoot(exports, blocked),
        resources: exports.map((entry) => ({
          kind: NFS_EXPORT_KIND,
          name: entry.path,
          text: renderExport(entry, blocked),
        })),
      },
    ],
    failures,
    actions,
  };
}
