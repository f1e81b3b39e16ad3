// What a workspace feature is on the node, declared rather than scripted (the TrueNAS model;
// docs/adding-a-feature.md "Agent side"): a daemon definition says which programs the feature
// needs, whether this workspace needs it at all, which config files it renders (each with the
// command that checks it), how it starts inside the workspace's namespace, what it waits for and
// how a change reaches a running daemon. One generic driver (daemon-driver.ts) does the rest for
// every feature: write only what changed, check before writing, start, adopt, reload or restart,
// stop. A task-like feature (backups) is a task definition instead: no daemon, but jobs the desired
// state lists, each run once in the background by task-driver.ts, and reported until the API stops
// listing it.
//
// Adding a feature on the agent side: a definition and its renderer in drivers/<feature>.driver.ts
// and one line in drivers/registry.ts. Values spliced into a config file go through that file
// format's escaping in daemons/config-formats.ts.
import type { ResourceFailure, WorkspaceDesiredState, WorkspaceFeatureReports } from '@debesis/contract';
import type { z } from 'zod';
import type { NodeCallContext, NodeCallHandlers } from '../calls/node-call.ts';
import type { ActivityBatch, DriverContext } from '../drivers/driver.ts';
import type { Listens } from '../net/wait-for-port.ts';
import type { WorkspaceLayout } from '../workspace-layout.ts';

/** What a definition's functions get: the driver's context plus where things are. */
export interface DaemonContext extends DriverContext {
  layout: WorkspaceLayout;
  /** `<workspace>/<definition name>`: the feature's own folder (config, state, run/, log/). */
  dir: string;
}

/** What a daemon definition's node call gets: the call's context and a way to reload its daemon. */
export interface DaemonCallContext extends NodeCallContext {
  /**
   * Renders the definition's files again from the workspace as last applied and brings its
   * running daemon up to them as an apply would (write what changed, reload); returns what it
   * did. For a call that changed what the render reads (NFS's blocked clients).
   */
  refresh: () => Promise<string[]>;
}

/** One call handler of a definition (any kind: the driver passes payloads through unchanged). */
export type DaemonCallHandler = (payload: never, context: DaemonCallContext) => Promise<unknown>;

/** A definition's node calls: NodeCallHandlers, each also given `refresh`. */
export type DaemonCallHandlers = {
  [K in keyof NodeCallHandlers]?: NonNullable<NodeCallHandlers[K]> extends (
    payload: infer P,
    context: NodeCallContext,
  ) => infer R
    ? (payload: P, context: DaemonCallContext) => R
    : never;
};

/** A command that checks a candidate config file; exit 0 (and no complaint) accepts it. */
export interface ConfigCheck {
  /** argv to run on the host, given the candidate's path. */
  argv(candidate: string): string[];
  /**
   * Lines of stderr that refuse the file even when the command exits 0 (testparm only warns
   * about an unknown parameter). Their text is the reason a resource or the file failed.
   */
  complaint?: RegExp;
  /** Where the command says what is wrong: stderr (the default) or stdout (openvpn). */
  reportsOn?: 'stderr' | 'stdout';
}

/** One resource's part of a config file (a share's section), so a bad one can be left out. */
export interface RenderedResource {
  kind: ResourceFailure['kind'];
  name: string;
  text: string;
}

/**
 * A config file as rendered: `head` (the global part) followed by each resource's part, joined
 * with a blank line. When the check refuses the whole, the resources it refuses are found and
 * left out as failures (config-check.ts); a refused head fails the feature.
 */
export interface RenderedConfig {
  path: string;
  mode: number;
  head: string;
  resources?: RenderedResource[];
  /** Absent: written unchecked. */
  check?: ConfigCheck;
  /**
   * The daemon reads this file again each time it needs it (OpenVPN's users file and password
   * script, per connect): a change is written and reaches it without a reload or a restart.
   */
  rereadByDaemon?: boolean;
  /**
   * The daemon reads this file at start only (ganesha's server part; its exports it re-reads on
   * SIGHUP): a change restarts it whatever the definition's reload method.
   */
  restartOnChange?: boolean;
}

export interface Rendering {
  files: RenderedConfig[];
  /** Resources the renderer could not use (a bad name, a folder it could not make). */
  failures: ResourceFailure[];
  /** What it did on the node while rendering (created a share folder). */
  actions: string[];
}

/** How a changed config reaches a running daemon. */
export type ReloadMethod =
  { kind: 'command'; argv: string[] } | { kind: 'signal'; signal: NodeJS.Signals } | { kind: 'restart' };

export interface DaemonDefinition {
  /** The driver's name in reports (`samba`) and the name of its folder in the workspace. */
  readonly name: string;
  /** Its phase in a workspace's pass (drivers/phases.ts); default `daemons`. */
  readonly phase?: 'daemons' | 'backups';
  /** The program the supervisor runs (`smbd`); names its record and output files. */
  readonly daemon: string;
  /** It rewrites its command line: recognised by pid and start time (supervisor.ts, DaemonFiles). */
  readonly retitles?: boolean;
  /** Programs the host needs for it to run live; without one it is rendered and checked only. */
  readonly programs: readonly string[];
  /**
   * Why this workspace does not need the daemon at all (no shares), or undefined when it does.
   * Not needed is not a failure: nothing runs and the status says why.
   */
  notNeeded(desired: WorkspaceDesiredState): string | undefined;
  /** The resources it serves: when the feature fails they are reported failed with it. */
  resources(desired: WorkspaceDesiredState): Array<Pick<ResourceFailure, 'kind' | 'name'>>;
  /** Its config files, rendered from the desired state (it may make the folders they name). */
  render(desired: WorkspaceDesiredState, context: DaemonContext): Promise<Rendering>;
  /**
   * Extra steps once the config is written and before the daemon starts or reloads, live only
   * (Samba's passdb sync). Returns what it did; throws when it could not.
   */
  sync?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string[]>;
  /**
   * Why the daemon's state needs an apply although the desired state did not change (the VPN's
   * CRL nears its expiry), or undefined. Asked on observe passes while it runs: no program, cheap.
   */
  drift?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string | undefined>;
  /**
   * A command run inside the namespace just before the daemon, ending with `exec "$@"` (the
   * daemon's argv follows it): what the namespace must hold first (the FTP jails' mounts).
   */
  setup?(desired: WorkspaceDesiredState, context: Pick<DaemonContext, 'layout' | 'dir'>): string[];
  /**
   * Folders of the agent's data folder the daemon sees inside its namespace besides its own
   * folder (the backup clients' repositories, kept with the workspace's backups; smbd's the
   * storage's read-only snapshots). Asked when the daemon starts.
   */
  keep?(desired: WorkspaceDesiredState, context: Pick<DaemonContext, 'dataDir' | 'layout'>): string[];
  /**
   * Deletes what the feature keeps for resources the desired state no longer lists (a deleted
   * backup client's repository). Run on every apply of a workspace not being removed, the daemon
   * needed or not (the last client deleted stops it, and its repository must go too); returns
   * what it did. A removed workspace's data goes with the feature that keeps it.
   */
  tidy?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string[]>;
  /**
   * A removed workspace, once the daemon stopped: undo what the feature set up outside the
   * workspace's folder (the backup clients' quota image: unmounted and deleted). Returns what it
   * did. Data the feature keeps in a folder another driver deletes is left to that driver.
   */
  remove?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string[]>;
  /** Its command line, run inside the workspace's namespace, in the foreground. */
  argv(desired: WorkspaceDesiredState, context: Pick<DaemonContext, 'layout' | 'dir' | 'dataDir'>): string[];
  /** What it serves on once started: the supervisor waits for this port (TCP unless said). */
  listens(desired: WorkspaceDesiredState): Listens;
  /**
   * How a changed config file reaches the running daemon (files it re-reads by itself excepted,
   * see RenderedConfig.rereadByDaemon).
   */
  reload(context: Pick<DaemonContext, 'layout' | 'dir'>): ReloadMethod;
  /**
   * What the feature observed (VPN sessions and traffic), for the workspace report's `features`.
   * Asked on every pass of a workspace that needs the feature, the observe-only pass too, so it
   * must be cheap: it runs no program when nothing runs. A throw leaves its section out.
   */
  report?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<Partial<WorkspaceFeatureReports>>;
  /**
   * What the daemon recorded since the last pass (file operations, transfers), read from its own
   * log past a cursor: on every pass of a workspace not being removed, needed or not (a daemon
   * just stopped may have left lines). Must be cheap: new lines only, no program run.
   */
  activity?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<ActivityBatch>;
  /**
   * A file the daemon writes when what `report` says has changed (a VPN client came or went): the
   * agent watches it and reports at once, not at its next poll (wake-files.ts).
   */
  wakeOn?(layout: WorkspaceLayout): string;
  /** The node calls it answers (the VPN's config and kill), passed on by its driver. */
  readonly calls?: DaemonCallHandlers;
}

/** Where a job of a task-like feature is: started and not ended, or ended one way or the other. */
export type TaskJobStatus = 'running' | 'completed' | 'failed';

/**
 * How a job ended: its result, or a failure with a code the feature's report names (`failed`
 * for anything else, `interrupted` when it was stopped midway: both are set by the task driver
 * too) and the program's own words.
 */
export type TaskOutcome<Result> = { ok: true; result: Result } | { ok: false; code: string; error: string };

/** One job as the task driver knows it (persisted as `<ws>/<feature>/jobs/<id>.json`). */
export interface TaskJobRecord<Result, Progress> {
  id: string;
  status: TaskJobStatus;
  started_at: string;
  finished_at?: string;
  /** While running: the definition's latest word on how far it is. */
  progress?: Progress;
  /** Completed: what the run produced (a snapshot id, files restored). */
  result?: Result;
  error_code?: string;
  error?: string;
}

/**
 * A task-like feature (backups): the desired state lists jobs, each with an id of its own, and the
 * task driver (task-driver.ts) runs each id once, in the background, one at a time per workspace
 * and a bounded number at a time on the node, and reports every listed job it has started.
 */
export interface TaskDefinition<Job extends { readonly id: string }, Result, Progress> {
  /** The driver's name in reports (`backup`) and the name of its folder in the workspace. */
  readonly name: string;
  /** Its phase in a workspace's pass (drivers/phases.ts); default `daemons`. */
  readonly phase?: 'daemons' | 'backups';
  /** Programs the host needs for jobs to run; without one no job starts and the status says why. */
  readonly programs: readonly string[];
  /** Why this workspace does not use the feature at all (no section), or undefined. */
  notNeeded(desired: WorkspaceDesiredState): string | undefined;
  /** The jobs the desired state asks for, in the order they should run. Ids must be file names. */
  jobs(desired: WorkspaceDesiredState): readonly Job[];
  /** Checks a persisted result (the files are the agent's own, but outlive its versions). */
  readonly resultSchema: z.ZodType<Result>;
  /**
   * Runs one job to its end, however long it takes. `progress` says how far it is (reported with
   * the next pass); `signal` aborts it (workspace removed, agent stopping): it should stop what
   * it runs and resolve soon. A throw is a failure with code `failed` and its message.
   */
  run(
    job: Job,
    desired: WorkspaceDesiredState,
    context: DaemonContext,
    progress: (progress: Progress) => void,
    signal: AbortSignal,
  ): Promise<TaskOutcome<Result>>;
  /**
   * Puts back what a job stopped midway left behind (a restore's staging folder, a file moved
   * aside), before the driver records it `interrupted`. `job` is undefined when it is no longer
   * listed. Called for a job the agent was running when it died too, at its first pass.
   */
  recover?(
    id: string,
    job: Job | undefined,
    desired: WorkspaceDesiredState,
    context: DaemonContext,
  ): Promise<void>;
  /**
   * The feature's section of the report from its listed jobs' records (those started, in the
   * listed order) and what it keeps of its own (usage). Asked on every pass: read files only.
   */
  report(
    jobs: ReadonlyArray<TaskJobRecord<Result, Progress>>,
    desired: WorkspaceDesiredState,
    context: DaemonContext,
  ): Promise<Partial<WorkspaceFeatureReports>>;
  /**
   * A removed workspace: delete what the feature keeps outside the workspace's folder (the
   * repository). Returns what it did. Its running job is stopped first.
   */
  remove?(desired: WorkspaceDesiredState, context: DaemonContext): Promise<string[]>;
  /** The node calls it answers (browse a snapshot), passed on by its driver. */
  readonly calls?: NodeCallHandlers;
}
