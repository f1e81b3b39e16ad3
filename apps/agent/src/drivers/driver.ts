// What every driver is (STYLE.md §8, the TrueNAS model): desired state in; files rendered and
// written only if changed, commands run only when needed; a status out. A driver holds no state
// between calls and must be safe to run twice: the second run finds everything in place and
// reports `changed: false`.
import type { driverStatusSchema, WorkspaceDesiredState } from '@debesis/contract';
import type { z } from 'zod';
import type { CommandRunner } from '../exec/run-command.ts';
import type { Logger } from '../logger.ts';

export type DriverStatus = z.infer<typeof driverStatusSchema>;

export interface DriverContext {
  /** The agent's data folder (absolute). */
  dataDir: string;
  /** `<dataDir>/workspaces/<service_id>`: the root every driver builds under. Already checked. */
  workspaceDir: string;
  logger: Logger;
  run: CommandRunner;
}

export interface DriverResult {
  /** Whether this run changed anything on the node. */
  changed: boolean;
  /** What it did, for the log ("created /…/workspaces/x", "reloaded smbd"); empty when nothing. */
  actions: string[];
  status: DriverStatus;
}

export interface Driver {
  /** Stable name, reported in the workspace's driver list (`workspace-dir`, `samba`, …). */
  readonly name: string;
  /**
   * Makes the node match `desired` for this driver's part. Throws when it could not; a driver
   * whose program is missing or lacks rights does not throw but reports `live: false` and why.
   */
  apply(desired: WorkspaceDesiredState, context: DriverContext): Promise<DriverResult>;
}
