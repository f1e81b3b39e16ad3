// The drivers the agent runs, in order. For a running or stopped workspace they run first to
// last: the base drivers, each building on the ones before (the folder, the storage mounted in
// it, the network: its namespace with the address, the users with homes inside the storage),
// then the feature drivers, each on its own (the daemons bound to the address). For a removed
// workspace they run last to first: stop the daemons, delete the network, unmount and delete the
// storage, delete the folder.
//
// A new feature adds one line at the end: `daemonDriver(<feature>Definition(options), options)`
// (or `taskDriver(…)` for a task-like one), usually through its create<Feature>Driver. The backup
// drivers are last: removal runs first through them, so the clients' REST server and a running
// backup job stop before the repositories and the storage go. The clients' server comes after the
// VPN, whose tunnel it listens in.
import type { Driver } from './driver.ts';
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
  return [
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
  ];
}

export const DEFAULT_DRIVERS: readonly Driver[] = createDefaultDrivers();
