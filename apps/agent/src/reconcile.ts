// One reconcile pass: pull the desired state, make each workspace match it by running the
// drivers in their phases' order, and report what was applied together with the node's capacity.
// The agent runs the same per-workspace step (reconcileWorkspace) through its work queue
// (controller/), a workspace at a time with its own backoff, and beats on its own heartbeat;
// reconcileOnce is that pass in one go, in order (the live tests drive it). A workspace whose generation is already applied is only observed
// (cheap: fresh usage facts, is its daemon alive?), and applied again when it drifted. In a new
// generation only the drivers whose input changed apply (driver-inputs.ts): one whose last apply
// went through whole, read nothing that changed and whose look finds no drift keeps its status,
// so a new user does not re-render NFS. Every full check, drift, retry, restart and removal
// applies every driver. A failed
// report still says what serves (each daemon driver's `serving`, facts looked at afresh), so the
// API never shows a workspace running while its daemon is down. What features observe (VPN
// sessions and traffic) is asked afresh on every pass, applied or only observed. Nothing here is
// remembered across restarts on purpose: after a crash
// the first pass re-applies every workspace, and because drivers are idempotent that repairs
// whatever a pass interrupted midway left behind.
//
// A base driver that throws stops the workspace's pass (the rest builds on it); a feature driver
// that throws is reported failed with its reason, its resources listed as failed, and the other
// features still apply: the report is not ok (the owner sees the workspace degraded and why, or
// offline while a daemon it needs does not serve), but it carries the generation, since the
// folder, storage, address and users of it are applied (a user shows applied, a share failed).
// The owner's restart (a new restart_token) is decided here, once per workspace: every daemon
// restarts once, and the token is recorded when the pass got through its base drivers.
//
// Which drivers a workspace runs here is one selection (workspaceDrivers): every driver, except
// for a standby (role `standby`, replicas/), which runs only its storage phase: the drivers marked
// `standby` (its folder and its storage, which keeps the replicas); no network, no users, no
// daemons, no activity. A pass may also come from the node's own word instead of the API
// (applyLocally: a fenced primary stops serving, replicas/fence.ts): it applies and reports
// nothing; a workspace whose state was so changed is applied again by the next pass that brings
// the API's word, whatever its generation.
import type {
  LogParams,
  NodeCapacity,
  ResourceFailure,
  WorkspaceErrorCode,
  WorkspaceDesiredState,
  WorkspaceFacts,
  WorkspaceFeatureReports,
  WorkspaceReport,
} from '@debesis/contract';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiClient } from './api-client.ts';
import { measureCapacity } from './capacity.ts';
import { onlyGenerationChanged, sameInputs, trackReads, type DriverInputs } from './driver-inputs.ts';
import type { Driver, DriverContext, DriverObservation, DriverStatus } from './drivers/driver.ts';
import type { CommandRunner } from './exec/run-command.ts';
import { writeIfChanged } from './fs/write-if-changed.ts';
import { errorMessage, type Logger } from './logger.ts';
import { workspaceDir } from './workspace-paths.ts';
import { collectActivity } from './activity/collect.ts';
import type { UsageCounter } from './activity/usage-count.ts';

export interface ReconcileDeps {
  api: Pick<ApiClient, 'desiredState' | 'report'>;
  nodeToken: string;
  dataDir: string;
  addresses: readonly string[];
  agentVersion: string;
  drivers: readonly Driver[];
  logger: Logger;
  run: CommandRunner;
  /** Every Nth pass re-applies unchanged workspaces as well (drift repair). */
  fullCheckEvery: number;
  /** Counts who owns what on each workspace's storage (activity/usage-count.ts); none: not counted. */
  usage?: UsageCounter;
}

/** What a pass needs beside the API (a local pass has none). */
export type PassDeps = Omit<ReconcileDeps, 'api' | 'nodeToken'>;

/** What the agent remembers between passes while it runs. */
export interface ReconcileMemory {
  passes: number;
  /** Per service id: the last report, which also holds the generation applied last. */
  workspaces: Map<string, WorkspaceReport>;
  /**
   * Per service id: the desired state whose generation was applied last (features may have
   * failed in it); what node calls answer about. A removed workspace is not held.
   */
  applied: Map<string, WorkspaceDesiredState>;
  /**
   * Per service id, per driver: what its last apply read and reported, kept only while that apply
   * went through whole (no error, no failed resource), so that a change it did not read skips it.
   */
  drivers: Map<string, Map<string, AppliedDriver>>;
}

/** A driver's last whole apply on a workspace (see driver-inputs.ts). */
export interface AppliedDriver {
  inputs: DriverInputs;
  status: DriverStatus;
  facts?: Partial<WorkspaceFacts>;
}

export function createReconcileMemory(): ReconcileMemory {
  return { passes: 0, workspaces: new Map(), applied: new Map(), drivers: new Map() };
}

function remember(memory: ReconcileMemory, desired: WorkspaceDesiredState, report: WorkspaceReport): void {
  memory.workspaces.set(desired.service_id, report);
  if (desired.state === 'removed') {
    memory.applied.delete(desired.service_id);
    memory.drivers.delete(desired.service_id);
  } else if (report.observed_generation === desired.generation)
    memory.applied.set(desired.service_id, desired);
}

export interface ReconcileResult {
  /** Whether this pass re-applied unchanged workspaces too. */
  fullCheck: boolean;
  /** Service ids whose drivers ran this pass (changed generation, failed before, or full check). */
  applied: string[];
  /** `service_id: driver` of the drivers left alone in an applied workspace (their input unchanged). */
  unchangedDrivers: string[];
  /** Service ids skipped because their generation was already applied. */
  skipped: string[];
  /**
   * Service ids not run this pass (the agent's work queue): waiting out the backoff after a
   * failure, or still running past their deadline. Reported as last known.
   */
  deferred: string[];
  /** Whether any driver changed anything on the node. */
  changed: boolean;
  /** What drivers did, `service_id: action`. */
  actions: string[];
  workspaces: WorkspaceReport[];
  capacity: NodeCapacity;
}

const MAX_ERROR_LENGTH = 4000;

/** The drivers `desired` runs on this node, in the registry's order (see the top of this file). */
export function workspaceDrivers(
  desired: WorkspaceDesiredState,
  drivers: readonly Driver[],
): readonly Driver[] {
  if (desired.role === 'standby' && desired.state !== 'removed')
    return drivers.filter((driver) => driver.standby);
  return drivers;
}

export function emptyResult(fullCheck: boolean): ReconcileResult {
  return {
    fullCheck,
    applied: [],
    unchangedDrivers: [],
    skipped: [],
    deferred: [],
    changed: false,
    actions: [],
    workspaces: [],
    capacity: { disk_total_bytes: 0, disk_free_bytes: 0, addresses: [] },
  };
}

export async function reconcileOnce(deps: ReconcileDeps, memory: ReconcileMemory): Promise<ReconcileResult> {
  const fullCheck = memory.passes % deps.fullCheckEvery === 0;
  memory.passes += 1;

  const desired = await deps.api.desiredState(deps.nodeToken);
  const result = emptyResult(fullCheck);
  const acks: Array<() => Promise<void>> = [];
  const seen = await reconcileWorkspaces(deps, memory, desired.workspaces, result, acks);
  forgetUnlisted(memory, seen);

  result.capacity = await measureCapacity(deps.dataDir, deps.addresses);
  await deps.api.report(deps.nodeToken, {
    agent_version: deps.agentVersion,
    capacity: result.capacity,
    workspaces: result.workspaces,
  });
  // The API has the events: they leave the spools (a failure here sends them again, stored once).
  for (const ack of acks)
    await ack().catch((error: unknown) => deps.logger.warn(`activity spool: ${errorMessage(error)}`));
  return result;
}

/**
 * A workspace the API no longer lists is forgotten, not deleted: only an explicit `removed`
 * deletes data.
 */
export function forgetUnlisted(memory: ReconcileMemory, listed: ReadonlySet<string>): void {
  for (const id of memory.workspaces.keys()) if (!listed.has(id)) memory.workspaces.delete(id);
  for (const id of memory.applied.keys()) if (!listed.has(id)) memory.applied.delete(id);
  for (const id of memory.drivers.keys()) if (!listed.has(id)) memory.drivers.delete(id);
}

/**
 * Applies `workspaces` on the node's own word, without the API (a fenced primary stops serving:
 * replicas/fence.ts): nothing is pulled or reported, and the daemons' activity stays in the spools
 * for the next report.
 */
export async function applyLocally(
  deps: PassDeps,
  memory: ReconcileMemory,
  workspaces: readonly WorkspaceDesiredState[],
): Promise<ReconcileResult> {
  const result = emptyResult(false);
  await reconcileWorkspaces(deps, memory, workspaces, result, undefined);
  return result;
}

/**
 * Makes each workspace match; the service ids seen. With `acks`, each report carries the daemons'
 * activity (acknowledged once reported); without, none is collected.
 */
async function reconcileWorkspaces(
  deps: PassDeps,
  memory: ReconcileMemory,
  workspaces: readonly WorkspaceDesiredState[],
  result: ReconcileResult,
  acks: Array<() => Promise<void>> | undefined,
): Promise<Set<string>> {
  const seen = new Set<string>();
  for (const workspace of workspaces) {
    if (seen.has(workspace.service_id)) {
      deps.logger.warn(
        { service_id: workspace.service_id },
        'workspace listed twice in the desired state; ignored',
      );
      continue;
    }
    seen.add(workspace.service_id);
    await reconcileWorkspace(deps, memory, workspace, result, acks);
  }
  return seen;
}

/**
 * Makes one workspace match (observed only when its generation is applied and nothing drifted),
 * records what it did in `result` and `memory`, and returns its report as sent (with the daemons'
 * activity when `acks` is given). The pass above and the agent's work queue (controller/) share it.
 */
export async function reconcileWorkspace(
  deps: PassDeps,
  memory: ReconcileMemory,
  workspace: WorkspaceDesiredState,
  result: ReconcileResult,
  acks: Array<() => Promise<void>> | undefined,
): Promise<WorkspaceReport> {
  const { fullCheck } = result;
  const report = async (done: WorkspaceReport) => {
    const sent = acks ? await withActivity(deps, workspace, done, acks) : done;
    result.workspaces.push(sent);
    return sent;
  };
  const previous = memory.workspaces.get(workspace.service_id);
  // The state last applied, when the node changed it on its own word (fenced) since.
  const appliedState = memory.applied.get(workspace.service_id)?.state ?? workspace.state;
  if (
    !fullCheck &&
    previous?.ok &&
    previous.observed_generation === workspace.generation &&
    appliedState === workspace.state
  ) {
    const looked = await observeWorkspace(deps, workspace, previous);
    const observed = looked && (await withFeatureReports(deps, workspace, looked));
    if (observed) {
      remember(memory, workspace, observed);
      result.skipped.push(workspace.service_id);
      return report(observed);
    }
  }

  result.applied.push(workspace.service_id);
  // Only a new generation that changes something of one this agent has applied may leave
  // drivers alone: a full check, a drift seen, a retry of the same generation, a bare new
  // generation and the first pass after a start apply every driver.
  const before = memory.applied.get(workspace.service_id);
  const selective =
    !fullCheck &&
    previous !== undefined &&
    previous.observed_generation !== workspace.generation &&
    before !== undefined &&
    !onlyGenerationChanged(before, workspace);
  let applied = memory.drivers.get(workspace.service_id);
  if (!applied) memory.drivers.set(workspace.service_id, (applied = new Map<string, AppliedDriver>()));
  const done = await withFeatureReports(
    deps,
    workspace,
    await applyWorkspace(deps, workspace, previous, result, { applied, selective }),
  );
  remember(memory, workspace, done);
  return report(done);
}

/**
 * The report with what monitoring sends (activity/collect.ts): the daemons' new events and the
 * usage count. Its `ack` is kept for when the API has taken the report.
 */
async function withActivity(
  deps: PassDeps,
  desired: WorkspaceDesiredState,
  report: WorkspaceReport,
  acks: Array<() => Promise<void>>,
): Promise<WorkspaceReport> {
  // A standby runs no daemon and has no data mounted: nothing to collect or count.
  if (desired.role === 'standby') return report;
  let context: DriverContext;
  try {
    context = driverContext(deps, workspaceDir(deps.dataDir, desired.service_id));
  } catch {
    return report;
  }
  const collected = await collectActivity(deps, desired, report, context);
  acks.push(() => collected.ack());
  return collected.report;
}

/**
 * The drivers' cheap look at an applied workspace: the previous report with fresh facts, or
 * undefined when a driver saw drift (or could not look), so the workspace is applied again.
 */
async function observeWorkspace(
  deps: PassDeps,
  desired: WorkspaceDesiredState,
  previous: WorkspaceReport,
): Promise<WorkspaceReport | undefined> {
  if (desired.state === 'removed') return previous;
  const facts: Partial<WorkspaceFacts>[] = [];
  try {
    const context = driverContext(deps, workspaceDir(deps.dataDir, desired.service_id));
    for (const driver of workspaceDrivers(desired, deps.drivers)) {
      const observation = await observeWithoutDrift(deps, driver, desired, context);
      if (!observation) return undefined;
      if (observation.facts) facts.push(observation.facts);
    }
  } catch (error) {
    deps.logger.warn({ service_id: desired.service_id }, `observing failed: ${errorMessage(error)}`);
    return undefined;
  }
  return withFacts(previous, facts);
}

/**
 * The report with what the features observe now (VPN sessions and traffic), asked of every
 * driver that reports on every pass, observe-only ones too. A feature that cannot say is logged
 * and left out; the others still report.
 */
async function withFeatureReports(
  deps: PassDeps,
  desired: WorkspaceDesiredState,
  report: WorkspaceReport,
): Promise<WorkspaceReport> {
  const { features: _previous, ...rest } = report;
  if (desired.state === 'removed') return rest;
  const features: WorkspaceFeatureReports = {};
  const reporting = workspaceDrivers(desired, deps.drivers).filter((driver) => driver.report !== undefined);
  if (reporting.length === 0) return rest;
  let context: DriverContext;
  try {
    context = driverContext(deps, workspaceDir(deps.dataDir, desired.service_id));
  } catch {
    return rest;
  }
  // Reports only read (their daemons' files and counters): asked all at once, merged in order.
  const sections = await Promise.all(
    reporting.map(async (driver) => {
      try {
        return await driver.report?.(desired, context);
      } catch (error) {
        deps.logger.warn(
          { service_id: desired.service_id, driver: driver.name },
          `report failed: ${errorMessage(error)}`,
        );
        return undefined;
      }
    }),
  );
  for (const section of sections) Object.assign(features, section);
  return Object.keys(features).length > 0 ? { ...rest, features } : rest;
}

/**
 * The drivers' facts over the previous ones. Each daemon says when it started: the workspace has
 * served since the earliest of those that run (restarting one feature's daemon, the VPN's, does
 * not reset the workspace's uptime); null when none runs.
 */
function withFacts(report: WorkspaceReport, facts: Partial<WorkspaceFacts>[]): WorkspaceReport {
  if (facts.length === 0) return report;
  const merged: WorkspaceFacts = { disk_used_bytes: 0, file_count: 0, started_at: null, ...report.facts };
  for (const part of facts) Object.assign(merged, part);
  const starts = facts.filter((part) => 'started_at' in part).map((part) => part.started_at ?? null);
  if (starts.length > 0)
    merged.started_at = starts.reduce<string | null>(
      (earliest, start) => (start !== null && (earliest === null || start < earliest) ? start : earliest),
      null,
    );
  return { ...report, facts: merged };
}

/**
 * After `failedDriver` threw: what `remaining` (it and the drivers after it) observe, so the
 * failed report still carries fresh facts (no start time while the daemon is down) and whether
 * each daemon serves.
 */
async function lookAt(
  deps: PassDeps,
  desired: WorkspaceDesiredState,
  dir: string,
  remaining: readonly Driver[],
  failedDriver: string,
): Promise<{
  own: Pick<DriverStatus, 'serving'>;
  statuses: DriverStatus[];
  facts: Partial<WorkspaceFacts>[];
}> {
  const seen = { own: {}, statuses: [] as DriverStatus[], facts: [] as Partial<WorkspaceFacts>[] };
  if (desired.state === 'removed') return seen;
  const context = driverContext(deps, dir);
  for (const driver of remaining) {
    if (!driver.observe) continue;
    try {
      const observation = await driver.observe(desired, context);
      if (observation.facts) seen.facts.push(observation.facts);
      if (observation.serving === undefined) continue;
      if (driver.name === failedDriver) seen.own = { serving: observation.serving };
      else
        seen.statuses.push({
          driver: driver.name,
          live: true,
          serving: observation.serving,
          ...(observation.serving ? {} : { reason: `not applied: ${failedDriver} failed` }),
        });
    } catch {
      // Nothing more to say than the failure itself.
    }
  }
  return seen;
}

/** Within the contract's bounds whatever a driver said. */
function boundedFailures(failures: ResourceFailure[]): ResourceFailure[] {
  return failures
    .slice(0, 10_000)
    .map((f) => ({ kind: f.kind, name: f.name.slice(0, 64), error: f.error.slice(0, 1000) }));
}

function driverContext(deps: PassDeps, dir: string): DriverContext {
  return { dataDir: deps.dataDir, workspaceDir: dir, logger: deps.logger, run: deps.run };
}

/** The restart_token the workspace acted on last (`<ws>/restart-token`). */
const restartTokenFile = (dir: string) => join(dir, 'restart-token');
// Where the Samba driver kept it before restarts were decided here: read so that upgrading the
// agent does not restart every daemon once more.
const legacyRestartTokenFile = (dir: string) => join(dir, 'samba', 'restart-token');

/** Whether `desired` asks for a restart this workspace has not acted on yet. */
async function restartAsked(dir: string, desired: WorkspaceDesiredState): Promise<boolean> {
  if (desired.restart_token === undefined || desired.state === 'removed') return false;
  const read = (path: string) => readFile(path, 'utf8').then((text) => text.trim());
  const actedOn = await read(restartTokenFile(dir)).catch(() =>
    read(legacyRestartTokenFile(dir)).catch(() => ''),
  );
  return desired.restart_token !== actedOn;
}

/**
 * A driver's last whole apply, when this pass may leave it alone: nothing it read has changed
 * and its own look finds no drift (its daemon runs as started, no job waits). Undefined: apply it.
 */
async function unchangedDriver(
  deps: PassDeps,
  driver: Driver,
  desired: WorkspaceDesiredState,
  context: DriverContext,
  last: AppliedDriver | undefined,
): Promise<AppliedDriver | undefined> {
  if (!last || !sameInputs(last.inputs, desired)) return undefined;
  const observation = await observeWithoutDrift(deps, driver, desired, context).catch(() => undefined);
  if (!observation) return undefined;
  return observation.facts ? { ...last, facts: observation.facts } : last;
}

/** The driver's look (empty when it has none), or undefined, logged, when it saw drift. */
async function observeWithoutDrift(
  deps: PassDeps,
  driver: Driver,
  desired: WorkspaceDesiredState,
  context: DriverContext,
): Promise<DriverObservation | undefined> {
  if (!driver.observe) return {};
  const observation = await driver.observe(desired, context);
  if (!observation.drift) return observation;
  deps.logger.warn({ service_id: desired.service_id, driver: driver.name }, `drift: ${observation.drift}`);
  return undefined;
}

async function applyWorkspace(
  deps: PassDeps,
  desired: WorkspaceDesiredState,
  previous: WorkspaceReport | undefined,
  result: ReconcileResult,
  memory: { applied: Map<string, AppliedDriver>; selective: boolean },
): Promise<WorkspaceReport> {
  const statuses: DriverStatus[] = [];
  const serviceId = desired.service_id;
  // Unknown after a restart: claim nothing until a pass has applied it.
  const previousGeneration = previous?.observed_generation ?? 0;
  // The owner's log shows the code in their language; `error` keeps the node's own words.
  const failed = (
    why: { code: WorkspaceErrorCode; params?: LogParams },
    error: string,
    facts: Partial<WorkspaceFacts>[] = [],
    failures: ResourceFailure[] = [],
    observedGeneration = previousGeneration,
  ): WorkspaceReport =>
    withFacts(
      {
        service_id: serviceId,
        observed_generation: observedGeneration,
        ok: false,
        error: error.slice(0, MAX_ERROR_LENGTH),
        error_code: why.code,
        ...(why.params ? { error_params: why.params } : {}),
        drivers: statuses,
        failures: boundedFailures(failures),
      },
      facts,
    );

  let dir: string;
  try {
    dir = workspaceDir(deps.dataDir, serviceId);
  } catch (error) {
    deps.logger.error({ service_id: serviceId }, errorMessage(error));
    return failed({ code: 'workspace_invalid' }, errorMessage(error));
  }

  const failures: ResourceFailure[] = [];
  const facts: Partial<WorkspaceFacts>[] = [];
  const errors: string[] = [];
  let firstError: { code: WorkspaceErrorCode; params: LogParams } | undefined;
  // A base driver applied only part of its share (a refused resize): the generation is not applied.
  let partial = false;
  const restart = await restartAsked(dir, desired);
  // A restart and a removal concern every driver; once one quiesced the ones after it, those
  // must start again.
  let selective = memory.selective && !restart && desired.state !== 'removed';
  const selected = workspaceDrivers(desired, deps.drivers);
  const drivers = desired.state === 'removed' ? [...selected].reverse() : selected;
  for (const [index, driver] of drivers.entries()) {
    // Quiescing stops what the drivers after this one (in the registry's order) run.
    const later = selected.slice(selected.indexOf(driver) + 1).reverse();
    const context: DriverContext = {
      ...driverContext(deps, dir),
      quiesce: async () => {
        selective = false;
        for (const next of later) await next.quiesce?.(desired, driverContext(deps, dir));
      },
      ...(restart ? { restart } : {}),
    };
    const last = memory.applied.get(driver.name);
    memory.applied.delete(driver.name);
    const unchanged = selective && (await unchangedDriver(deps, driver, desired, context, last));
    if (unchanged) {
      memory.applied.set(driver.name, unchanged);
      result.unchangedDrivers.push(`${serviceId}: ${driver.name}`);
      statuses.push(unchanged.status);
      if (unchanged.facts) facts.push(unchanged.facts);
      continue;
    }
    const reads = trackReads(desired);
    try {
      const outcome = await driver.apply(reads.desired, context);
      // Kept only when it went through whole: anything less is applied again next pass.
      if (!outcome.error && !outcome.failures?.length)
        memory.applied.set(driver.name, {
          inputs: reads.inputs(),
          status: outcome.status,
          ...(outcome.facts ? { facts: outcome.facts } : {}),
        });
      statuses.push(outcome.status);
      if (outcome.failures) failures.push(...outcome.failures);
      if (outcome.facts) facts.push(outcome.facts);
      if (outcome.changed) result.changed = true;
      for (const action of outcome.actions) {
        result.actions.push(`${serviceId}: ${action}`);
        deps.logger.info({ service_id: serviceId, driver: driver.name }, action);
      }
      if (outcome.error) {
        if (driver.kind !== 'feature') partial = true;
        errors.push(`${driver.name}: ${outcome.error}`);
        const refused = outcome.status.refused_bytes;
        firstError ??=
          refused === undefined
            ? { code: 'driver_incomplete', params: { driver: driver.name } }
            : { code: 'resize_refused', params: { driver: driver.name, bytes: refused } };
        deps.logger.error(
          { service_id: serviceId, driver: driver.name, generation: desired.generation },
          outcome.error,
        );
      }
    } catch (error) {
      if (driver.kind === 'feature' && desired.state !== 'removed') {
        // A feature stands alone: reported with its reason, the other features go on.
        const message = `${driver.name}: ${errorMessage(error)}`;
        deps.logger.error(
          { service_id: serviceId, driver: driver.name, generation: desired.generation },
          message,
        );
        const seen = await lookAt(deps, desired, dir, [driver], driver.name);
        statuses.push({
          driver: driver.name,
          live: false,
          reason: errorMessage(error).slice(0, 500),
          ...seen.own,
        });
        facts.push(...seen.facts);
        const notServed = `not served: ${message}`;
        for (const resource of driver.resources?.(desired) ?? [])
          if (!failures.some((f) => f.kind === resource.kind && f.name === resource.name))
            failures.push({ ...resource, error: notServed });
        errors.push(message);
        firstError ??= { code: 'driver_failed', params: { driver: driver.name } };
        continue;
      }
      // Later drivers build on earlier ones, so the workspace stops here; the next pass retries.
      const message = `${driver.name}: ${errorMessage(error)}`;
      deps.logger.error(
        { service_id: serviceId, driver: driver.name, generation: desired.generation },
        message,
      );
      // The report still says what serves now: this driver and the ones that did not run are
      // only looked at (a daemon that is down is reported down, not as it was last time).
      const seen = await lookAt(deps, desired, dir, drivers.slice(index), driver.name);
      statuses.push({
        driver: driver.name,
        live: false,
        reason: errorMessage(error).slice(0, 500),
        ...seen.own,
      });
      statuses.push(...seen.statuses);
      return failed({ code: 'driver_failed', params: { driver: driver.name } }, message, [
        ...facts,
        ...seen.facts,
      ]);
    }
  }
  // Every daemon that runs has restarted: this token is acted on.
  if (restart) await writeIfChanged(restartTokenFile(dir), `${desired.restart_token}\n`, { mode: 0o644 });
  // Applied as far as it goes, but not all of it (a resize refused, a feature failed): reported
  // failed, with facts; with the generation when only features failed (the rest of it is applied).
  if (firstError)
    return failed(
      firstError,
      errors.join('; '),
      facts,
      failures,
      partial ? previousGeneration : desired.generation,
    );
  deps.logger.debug({ service_id: serviceId, generation: desired.generation }, 'workspace applied');
  for (const failure of failures)
    deps.logger.warn({ service_id: serviceId, kind: failure.kind, name: failure.name }, failure.error);
  const report: WorkspaceReport = {
    service_id: serviceId,
    observed_generation: desired.generation,
    ok: true,
    drivers: statuses,
    failures: boundedFailures(failures),
  };
  // A removed workspace has nothing left to measure.
  return desired.state === 'removed' ? report : withFacts(report, facts);
}
