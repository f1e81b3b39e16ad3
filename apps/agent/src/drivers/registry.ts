// The drivers the agent runs. Their order is their phases' (phases.ts: the folder, the storage
// mounted in it, the network, the users, then the features' daemons, then the backups), each
// driver saying its own; within a phase, the order below (the daemons stand alone, so theirs
// only orders their statuses in a report). For a running or stopped workspace they run first to
// last; for a removed workspace last to first: stop the backups and the daemons, delete the
// network, unmount and delete the storage, delete the folder.
//
// A new feature adds one line: `daemonDriver(<feature>Definition(options), options)` (or
// `taskDriver(…)` for a task-like one), usually through its create<Feature>Driver.
import type { Driver } from './driver.ts';
import { inPhaseOrder, type DriverPhase } from './phases.ts';
import { createAccountsDriver } from './accounts.driver.ts';
import { createBackupClientsDriver } from './backup-clients.driver.ts';
import { createBackupDriver } from './backup.driver.ts';
import { createFtpDriver } from './ftp.driver.ts';
import { createLdapDriver } from './ldap.driver.ts';
import { createNetworkDriver } from './network.driver.ts';
import { createNfsDriver } from './nfs.driver.ts';
import type { LiveDriverOptions } from './live-mode.ts';
import { createSambaDriver } from './samba.driver.ts';
import { createSftpDriver } from './sftp.driver.ts';
import { createStorageImageDriver } from './storage-image.driver.ts';
import { createVpnDriver } from './vpn.driver.ts';
import { workspaceDirDriver } from './workspace-dir.driver.ts';

export interface DriverSetOptions extends LiveDriverOptions {
  /** The port every workspace's smbd listens on at its own address. Default 445. */
  smbPort?: number;
  /** AGENT_ADDRESS_POOL: the network driver refuses any other address. */
  addressPool?: readonly string[];
  /** AGENT_CLIENT_ROUTES: blocks a workspace may answer beyond the node (network driver). */
  clientRoutes?: readonly string[];
  /** AGENT_BACKUP_CONCURRENCY: backup and restore jobs running at once on the node. Default 1. */
  backupConcurrency?: number;
}

export function createDefaultDrivers(options: DriverSetOptions = {}): readonly Driver[] {
  return inPhaseOrder(
    [
      workspaceDirDriver,
      createStorageImageDriver(options),
      createNetworkDriver(options),
      createAccountsDriver(options),
      createSambaDriver({ live: options.live, port: options.smbPort }),
      createVpnDriver({ live: options.live }),
      createNfsDriver({ live: options.live }),
      createFtpDriver({ live: options.live }),
      createSftpDriver({ live: options.live }),
      createLdapDriver({ live: options.live }),
      createBackupDriver({ live: options.live, concurrency: options.backupConcurrency }),
      createBackupClientsDriver({ live: options.live }),
    ].map(withPhase),
  );
}

/** Every registered driver says its phase: caught at start-up, not by a pass in the wrong order. */
function withPhase(driver: Driver): Driver & { readonly phase: DriverPhase } {
  const { phase } = driver;
  if (phase === undefined) throw new Error(`driver ${driver.name} declares no phase (drivers/phases.ts)`);
  return Object.assign(driver, { phase });
}

export const DEFAULT_DRIVERS: readonly Driver[] = createDefaultDrivers();
