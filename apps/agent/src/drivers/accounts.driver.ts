// The workspace's users and groups: its own passwd, group and shadow (the /etc/… of its daemons,
// see system/namespace.ts), ids from its id block, and a home folder per user inside its storage,
// owned by the user. Rendered always; "live" when the host can run the namespace that uses them.
// A removed user's home folder is kept (it holds the customer's files); it stays owned by the old
// uid, which nobody in the workspace has any more.
import { NODE_DRIVERS } from '@debesis/contract';
import { dirname, join } from 'node:path';
import { NAMESPACE_DATA_ROOT } from '../system/namespace.ts';
import type { Driver, DriverResult } from './driver.ts';
import { homeDir, renderAccounts } from '../accounts/render-accounts.ts';
import { validateAccounts } from '../accounts/validate-accounts.ts';
import { ensureDir } from '../fs/ensure-dir.ts';
import { writeFilesIfChanged } from '../fs/write-if-changed.ts';
import { exists } from '../system/host.ts';
import { workspaceLayout } from '../workspace-layout.ts';
import { notLiveReason, type LiveDriverOptions } from './live-mode.ts';

export const ACCOUNTS_DRIVER = NODE_DRIVERS.users;

export function createAccountsDriver(options: LiveDriverOptions = {}): Driver {
  return {
    name: ACCOUNTS_DRIVER,
    phase: 'accounts',
    async apply(desired, context): Promise<DriverResult> {
      const layout = workspaceLayout(context.workspaceDir);
      const reason = await notLiveReason(options, ['unshare', 'mount']);
      const status = reason
        ? {
            driver: ACCOUNTS_DRIVER,
            live: false,
            reason: `${reason}: accounts are rendered but no daemon uses them`,
          }
        : { driver: ACCOUNTS_DRIVER, live: true };
      // The files go with the folder (workspace-dir deletes it).
      if (desired.state === 'removed') return { changed: false, actions: [], status };

      const accounts = validateAccounts(desired);
      // Home paths as the workspace's daemons see them (its storage at /srv).
      const files = renderAccounts(accounts, join(NAMESPACE_DATA_ROOT, 'home'));
      const actions: string[] = [];
      if (await ensureDir(layout.accountsDir, { mode: 0o755, uid: 0, gid: 0 }))
        actions.push(`created ${layout.accountsDir}`);
      // The empty mount point the namespace binds the host's /etc to (system/namespace.ts).
      await ensureDir(dirname(layout.hostEtc), { mode: 0o755 });
      await ensureDir(layout.hostEtc, { mode: 0o755 });
      // passwd and group are world-readable as on any host; shadow is root's alone. One render:
      // their folder is flushed once (write-if-changed.ts).
      const owner = { uid: 0, gid: 0 };
      const written = [
        { path: layout.passwd, data: files.passwd, options: { mode: 0o644, ...owner } },
        { path: layout.group, data: files.group, options: { mode: 0o644, ...owner } },
        { path: layout.shadow, data: files.shadow, options: { mode: 0o600, ...owner } },
      ];
      for (const [index, result] of (await writeFilesIfChanged(written)).entries())
        if (result.changed) actions.push(`wrote ${written[index]?.path}`);

      // Homes live in the storage, which the storage driver mounted before this one ran.
      if (await exists(layout.dataRoot)) {
        // 0711: users reach their own home but cannot list who else has one.
        if (await ensureDir(layout.homesRoot, { mode: 0o711, uid: 0, gid: 0 }))
          actions.push(`created ${layout.homesRoot}`);
        for (const user of accounts.users) {
          const home = homeDir(layout.homesRoot, user.name);
          if (await ensureDir(home, { mode: 0o700, uid: user.uid, gid: user.gid }))
            actions.push(`set up home ${home}`);
        }
      }
      return { changed: actions.length > 0, actions, status, failures: accounts.failures };
    },
  };
}
