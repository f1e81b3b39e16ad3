// What every driver is (the TrueNAS model; docs/adding-a-feature.md): desired state in; files
// rendered and written only if changed, commands run only when needed; a status out. A driver holds
// no state between calls and must be safe to run twice: the second run finds everything in place
// and reports `changed: false`.
//
// Two kinds. A base driver (the workspace's folder, storage, address, users) is what everything
// else builds on: when it throws, the pass for that workspace stops there. A feature driver (a
// daemon definition run by daemons/daemon-driver.ts, or a task definition run by
// daemons/task-driver.ts) stands alone: when it throws, the feature is reported failed with its
// reason and the other features still apply.
import type { DriverStatus, ResourceFailure, WorkspaceDesiredState, WorkspaceFacts } from '@debesis/contract';
import type { NodeCallHandlers } from '../calls/node-call.ts';
import type { CommandRunner } from '../exec/run-command.ts';
import type { Logger } from '../logger.ts';
import type { DriverPhase } from './phases.ts';
import type { ActivityEventReport, WorkspaceFeatureReports } from '@debesis/contract';

/**
 * What a daemon recorded since the last pass (its log's new lines as events), and how to move its
 * cursor past them: reconcile commits only once the events are in the workspace's spool.
 */
export interface ActivityBatch {
  events: ActivityEventReport[];
  commit: () => Promise<void>;
}

export type { DriverStatus };

export interface DriverContext {
  /** The agent's data folder (absolute). */
  dataDir: string;
  /** `<dataDir>/workspaces/<service_id>`: the root every driver builds under. Already checked. */
  workspaceDir: string;
  logger: Logger;
  run: CommandRunner;
  /**
   * Stops the daemons of every driver after this one (their `quiesce`), for work that needs the
   * workspace's storage to itself (an offline resize). They start again when they run next, later
   * in the same pass. Absent where nothing runs after the driver.
   */
  quiesce?: () => Promise<void>;
  /**
   * The owner asked for a restart (a restart_token the workspace has not acted on): every daemon
   * that runs restarts, once. Decided by reconcile for the whole workspace.
   */
  restart?: boolean;
}

/** What a driver gets for work of the node's own, not of one workspace (its stop). */
export type NodeContext = Pick<DriverContext, 'dataDir' | 'logger' | 'run'>;

export interface DriverResult {
  /** Whether this run changed anything on the node. */
  changed: boolean;
  /** What it did, for the log ("created /…/workspaces/x", "reloaded smbd"); empty when nothing. */
  actions: string[];
  status: DriverStatus;
  /** Users, groups or shares it could not apply; everything else was applied. */
  failures?: ResourceFailure[];
  /** Live facts this driver measures (usage from storage, start time from the daemon). */
  facts?: Partial<WorkspaceFacts>;
  /**
   * Part of the desired state it could not make real, although what it did leaves the workspace
   * usable (a resize refused or failed: the storage is mounted again at its old size), so the
   * drivers after it still run; the workspace is reported failed with this error.
   */
  error?: string;
}

/** A cheap look at a workspace whose generation is already applied, taken on every pass. */
export interface DriverObservation {
  facts?: Partial<WorkspaceFacts>;
  /** Why the workspace must be applied again now (a daemon died, the storage is gone). */
  drift?: string;
  /** A daemon's driver: whether its daemon serves now (absent where nothing should run). */
  serving?: boolean;
}

export interface Driver {
  /** Stable name, reported in the workspace's driver list (`workspace-dir`, `samba`, …). */
  readonly name: string;
  /** `base` unless said otherwise (see the top of this file). */
  readonly kind?: 'base' | 'feature';
  /**
   * Where it runs in a workspace's pass (phases.ts): the registry orders its drivers by it. A
   * driver handed to the agent directly (tests) runs in the order given.
   */
  readonly phase?: DriverPhase;
  /**
   * Runs for a standby too (role `standby`: its storage phase, the folder and the storage that
   * keeps the replicas); every other driver runs only where the workspace is served.
   */
  readonly standby?: boolean;
  /**
   * Makes the node match `desired` for this driver's part. Throws when it could not; a driver
   * whose program is missing or lacks rights does not throw but reports `live: false` and why.
   */
  apply(desired: WorkspaceDesiredState, context: DriverContext): Promise<DriverResult>;
  /** Fresh facts and drift, without changing anything; must stay cheap (no programs run). */
  observe?(desired: WorkspaceDesiredState, context: DriverContext): Promise<DriverObservation>;
  /**
   * A feature driver: the resources it serves (shares), reported failed with its reason when it
   * throws, so the owner sees which ones are not served and why.
   */
  resources?(desired: WorkspaceDesiredState): Array<Pick<ResourceFailure, 'kind' | 'name'>>;
  /** Stops what this driver runs for the workspace without touching its data (see DriverContext). */
  quiesce?(desired: WorkspaceDesiredState, context: DriverContext): Promise<void>;
  /** A feature's observed section of the report, on every pass (see DaemonDefinition.report). */
  report?(desired: WorkspaceDesiredState, context: DriverContext): Promise<Partial<WorkspaceFeatureReports>>;
  /** What its daemon recorded since the last pass (DaemonDefinition.activity), on every pass. */
  activity?(desired: WorkspaceDesiredState, context: DriverContext): Promise<ActivityBatch>;
  /**
   * The file whose change means the report should go now (DaemonDefinition.wakeOn), for a
   * workspace as applied; undefined while the feature runs nothing there.
   */
  wakeOn?(desired: WorkspaceDesiredState, workspaceDir: string): string | undefined;
  /** The node calls it answers (calls/node-call.ts), on the workspace as last applied. */
  readonly calls?: NodeCallHandlers;
  /**
   * Ends what the driver runs in the background beside the passes (a task driver's jobs), for
   * an agent that stops, and removes what the node no longer needs (the pool's guard routes once
   * no workspace is left); resolves once it has. Daemons are not stopped: they outlive the agent.
   */
  stop?(node: NodeContext): Promise<void>;
}
