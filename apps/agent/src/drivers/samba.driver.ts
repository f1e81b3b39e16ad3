// Samba for one workspace (a workspace as a light container: docs/operations/storage-nodes.md), as
// a daemon definition (daemons/definition.ts) and its renderer: its own smbd bound only to the
// workspace's address, its own smb.conf (checked with `testparm -s`, a share testparm refuses is
// left out) and tdbsam passdb (synced from the NT hashes), started inside the workspace's namespace
// where its passwd/group/shadow are /etc/…, reloaded with `smbcontrol … reload-config` when
// smb.conf changed. A workspace without shares needs no smbd. Starting, adopting, restarting and
// stopping are the generic daemon driver's (daemons/daemon-driver.ts).
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SAMBA_NOT_USED, type WorkspaceDesiredState, NODE_DRIVERS } from '@debesis/contract';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { daemonDriver, type DaemonDriverOptions } from '../daemons/daemon-driver.ts';
import type { DaemonContext, DaemonDefinition, Rendering } from '../daemons/definition.ts';
import { ensureDir, ensureDirUnder, ensureRuntimeDir } from '../fs/ensure-dir.ts';
import { syncPassdb } from '../samba/passdb.ts';
import { netbiosNameFor, renderGlobal, renderShare } from '../samba/render-smb-conf.ts';
import { renderSmbpasswd } from '../samba/render-smbpasswd.ts';
import { GUEST_ACCOUNT, resolveShares } from '../samba/resolve-shares.ts';
import { auditEvents } from '../samba/audit-log.ts';
import { fullAuditAvailable } from '../samba/vfs-modules.ts';
import { activityCursorFile } from '../activity/monitoring-files.ts';
import { readNewLines } from '../activity/log-tail.ts';
import { mountAt } from '../system/mounts.ts';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import type { Driver } from './driver.ts';
import { servingAddress, servingListens, vpnOnly } from '../net/serving-address.ts';

export const SAMBA_DRIVER = NODE_DRIVERS.samba;
export const DEFAULT_SMB_PORT = 445;

export interface SambaDefinitionOptions {
  /** AGENT_LIVE_WORKSPACES: with false nothing runs, so nothing asks smbd what it has. */
  live?: boolean;
  /** Default 445 (on the workspace's own address, so every workspace can have it). */
  port?: number;
  /** The smbd it runs (looked up on PATH inside the namespace); default `smbd`. */
  program?: string;
}

/** The workspace's Samba section; absent means Samba is not used there (no shares, no smbd). */
function sambaSection(desired: WorkspaceDesiredState) {
  return desired.samba ?? SAMBA_NOT_USED;
}

export function sambaDefinition(options: SambaDefinitionOptions = {}): DaemonDefinition {
  const port = options.port ?? DEFAULT_SMB_PORT;
  return {
    name: SAMBA_DRIVER,
    daemon: 'smbd',
    programs: ['smbd', 'testparm', 'pdbedit', 'smbcontrol', 'unshare', 'mount'],
    notNeeded: (desired) =>
      sambaSection(desired).shares.length === 0 ? 'the workspace has no shares' : undefined,
    resources: (desired) =>
      sambaSection(desired).shares.map((share) => ({ kind: 'share', name: share.name })),
    render: async (desired, context) =>
      renderSamba(
        desired,
        context,
        port,
        options.live !== false && (await fullAuditAvailable(context.run)),
        // A btrfs storage's snapshots, mounted read-only by the storage driver before this runs.
        options.live !== false && (await mountAt(context.layout.snapshotsDir))
          ? context.layout.snapshotsDir
          : undefined,
      ),
    // The snapshots' read-only mount, for Previous Versions; only where the storage has one.
    keep: (_desired, { layout }) => (existsSync(layout.snapshotsDir) ? [layout.snapshotsDir] : []),
    activity: async (_desired, { layout, workspaceDir }) => {
      const read = await readNewLines(layout.samba.auditLog, activityCursorFile(workspaceDir, 'smb'));
      const events = auditEvents(read.lines, { guest: GUEST_ACCOUNT });
      // A written or read file's size as it is now (the audit line has none): read when the line is.
      for (const event of events)
        if ((event.kind === 'file_written' || event.kind === 'file_read') && event.path?.startsWith('/'))
          event.bytes = await stat(join(layout.dataRoot, event.path))
            .then((info) => (info.isFile() ? info.size : null))
            .catch(() => null);
      return { events, commit: read.commit };
    },
    sync: async (desired, { layout, run }) => {
      const { users } = validateAccounts(desired);
      const names = users.map((user) => user.name);
      return syncPassdb(layout, renderSmbpasswd(users), names, run);
    },
    argv: (_desired, { layout }) => [
      options.program ?? 'smbd',
      '--foreground',
      '--no-process-group',
      '-s',
      layout.samba.conf,
    ],
    listens: (desired) => servingListens(desired, port),
    reload: ({ layout }) => ({
      kind: 'command',
      argv: ['smbcontrol', '-s', layout.samba.conf, 'smbd', 'reload-config'],
    }),
  };
}

export function createSambaDriver(options: SambaDefinitionOptions & DaemonDriverOptions = {}): Driver {
  return daemonDriver(sambaDefinition(options), options);
}

/**
 * Samba's folders, each share's folder, and smb.conf as [global] plus one section per share (so
 * testparm's refusal of one share leaves out that share only).
 */
async function renderSamba(
  desired: WorkspaceDesiredState,
  { layout }: DaemonContext,
  port: number,
  audit: boolean,
  snapshotsDir: string | undefined,
): Promise<Rendering> {
  const { samba } = layout;
  const actions: string[] = [];
  const accounts = validateAccounts(desired);
  const resolved = resolveShares(sambaSection(desired).shares, accounts, NAMESPACE_DATA_ROOT);
  const failures = [...resolved.failures];

  for (const dir of [samba.lockDir, samba.ncalrpcDir]) await ensureRuntimeDir(dir, 0o755);
  for (const dir of [samba.dir, samba.privateDir, samba.stateDir, samba.cacheDir, samba.runDir, samba.logDir])
    await ensureDir(dir, { mode: dir === samba.privateDir ? 0o700 : 0o755 });

  // Share folders: created root-owned, group `users`, setgid, so what is made inside stays the
  // workspace's group. An existing folder (customer data) is left as it is.
  const shares = [];
  for (const share of resolved.shares) {
    try {
      if (
        await ensureDirUnder(
          layout.dataRoot,
          share.relativePath,
          { mode: 0o755, uid: 0, gid: 0, onlyWhenCreated: true },
          { mode: 0o2770, uid: 0, gid: desired.id_base, onlyWhenCreated: true },
        )
      )
        actions.push(`created share folder ${share.path}`);
      shares.push(share);
    } catch (error) {
      failures.push({ kind: 'share', name: share.name, error: `folder: ${(error as Error).message}` });
    }
  }

  const head = renderGlobal({
    port,
    netbiosName: netbiosNameFor(desired.service_id),
    layout: samba,
    guests: shares.some((share) => share.guestOk),
    settings: sambaSection(desired).settings,
    audit,
    ...(snapshotsDir ? { snapshotsDir } : {}),
    ...(vpnOnly(desired) ? { only: servingAddress(desired) } : {}),
  });
  return {
    files: [
      {
        path: samba.conf,
        mode: 0o644,
        head,
        resources: shares.map((share) => ({ kind: 'share', name: share.name, text: renderShare(share) })),
        check: {
          argv: (candidate) => ['testparm', '-s', '--suppress-prompt', candidate],
          complaint: /unknown parameter|error|not a valid|invalid/i,
        },
      },
    ],
    failures,
    actions,
  };
}
