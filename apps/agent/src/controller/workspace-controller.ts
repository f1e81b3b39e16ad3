// The agent as a controller (Kubernetes' model): a pass pulls the desired state and hands each
// workspace to the work queue (work-queue.ts) as its own key, so a workspace that fails waits out
// its own backoff and one that hangs past its deadline frees the worker, while the others apply
// and are reported. The report is the last known state of every listed workspace (the API takes
// each as the node's word on it; a workspace left out would look unheard of): fresh where a run
// ended this pass, as last sent where one is backing off or still running. A workspace whose
// desired state changed (or a pass asked for by hand) is run at once, backoff or not.
//
// Everything that touches a workspace goes through the queue, the node's own word too (a fenced
// primary stops serving: applyLocally), so no workspace is ever worked on twice at once. What the
// node applied on its own word stays its desired state, retries included, until a pass brings
// the API's word again.
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import type { ApiClient } from '../api-client.ts';
import { measureCapacity } from '../capacity.ts';
import { errorMessage } from '../logger.ts';
import {
  emptyResult,
  forgetUnlisted,
  reconcileWorkspace,
  type PassDeps,
  type ReconcileMemory,
  type ReconcileResult,
} from '../reconcile.ts';
import { createWorkQueue, type WorkOutcome } from './work-queue.ts';

export interface WorkspaceControllerOptions {
  deps: PassDeps;
  memory: ReconcileMemory;
  /** Workspaces applied at once. */
  concurrency: number;
  /** A failing workspace's retries: the first after `baseMs`, doubling up to `maxMs`. */
  backoff: { baseMs: number; maxMs: number };
  /** A workspace's run longer than this no longer holds the others (it retries after its backoff). */
  deadlineMs: number;
  /** Default true; false: a failed workspace waits for the next pass after its backoff (no loop runs). */
  retries?: boolean;
  /** A run ended outside any pass (a retry after its backoff): its report is worth sending now. */
  onRunOutsidePass?(): void;
}

type ReportApi = Pick<ApiClient, 'desiredState' | 'report'>;

export interface WorkspaceController {
  /** Pulls the desired state, runs every workspace not backing off (`force`: every one), reports. */
  pass(api: ReportApi, nodeToken: string, options?: { force?: boolean }): Promise<ReconcileResult>;
  /** Applies `workspaces` on the node's own word: nothing pulled or reported (replicas/fence.ts). */
  applyLocally(workspaces: readonly WorkspaceDesiredState[]): Promise<void>;
  /** Sends the last known report of every workspace with the node's capacity (the heartbeat too). */
  report(api: ReportApi, nodeToken: string): Promise<Pick<NodeReportRequest, 'capacity' | 'workspaces'>>;
  /** Failures in a row of a workspace (0: none). */
  failures(serviceId: string): number;
  /** When a report last reached the API (ms since the epoch); undefined: none yet. */
  readonly lastReportAt: number | undefined;
  stop(): Promise<void>;
}

/** A run whose workspace was reported failed: backed off like a throw, its result still counts. */
class WorkspaceNotAppliedError extends Error {
  constructor(readonly result: ReconcileResult) {
    super(result.workspaces[0]?.error ?? 'not applied');
    this.name = 'WorkspaceNotAppliedError';
  }
}

export function createWorkspaceController(options: WorkspaceControllerOptions): WorkspaceController {
  const { deps, memory } = options;
  /** The desired state of each listed workspace: the API's last word, or the node's own since. */
  const desired = new Map<string, WorkspaceDesiredState>();
  const onNodesWord = new Set<string>();
  const fullCheckDue = new Set<string>();
  /** Per workspace: its report as last made for the API (with its activity), and that activity's ack. */
  const reports = new Map<string, WorkspaceReport>();
  const acks = new Map<string, () => Promise<void>>();
  let listed: string[] = [];
  let passes = 0;
  let lastReportAt: number | undefined;
  let reporting: Promise<unknown> = Promise.resolve();

  async function run(serviceId: string): Promise<ReconcileResult> {
    const workspace = desired.get(serviceId);
    const result = emptyResult(fullCheckDue.delete(serviceId));
    if (!workspace) return result;
    const local = onNodesWord.has(serviceId);
    const runAcks: Array<() => Promise<void>> | undefined = local ? undefined : [];
    const report = await reconcileWorkspace(deps, memory, workspace, result, runAcks);
    if (runAcks) {
      reports.set(serviceId, result.workspaces[0] ?? report);
      acks.set(serviceId, async () => {
        for (const ack of runAcks) await ack();
      });
    }
    if (passes === 0 && !local) options.onRunOutsidePass?.();
    if (!report.ok) throw new WorkspaceNotAppliedError(result);
    return result;
  }

  const queue = createWorkQueue<string, ReconcileResult>({
    process: run,
    concurrency: options.concurrency,
    backoff: options.backoff,
    deadlineMs: options.deadlineMs,
    ...(options.retries === undefined ? {} : { retries: options.retries }),
    onFailure(serviceId, error, failures, retryInMs) {
      if (error instanceof WorkspaceNotAppliedError) return; // reconcile has logged why
      deps.logger.warn(
        { service_id: serviceId, failures, retry_in_ms: retryInMs },
        `workspace failed: ${errorMessage(error)}`,
      );
    },
  });

  /** Whether the workspace's work changed since it was last handed over (run it now, backoff or not). */
  const changed = (serviceId: string, next: WorkspaceDesiredState) => {
    const before = desired.get(serviceId);
    return (
      !before ||
      onNodesWord.has(serviceId) ||
      before.generation !== next.generation ||
      before.state !== next.state ||
      before.restart_token !== next.restart_token
    );
  };

  function forget(serviceId: string): void {
    desired.delete(serviceId);
    onNodesWord.delete(serviceId);
    fullCheckDue.delete(serviceId);
    reports.delete(serviceId);
    acks.delete(serviceId);
    queue.forget(serviceId);
  }

  function report(api: ReportApi, nodeToken: string) {
    // One report at a time, each made when it goes: a later one never carries older news.
    const sent = reporting.then(async () => {
      const capacity = await measureCapacity(deps.dataDir, deps.addresses);
      const workspaces = listed.flatMap((id) => reports.get(id) ?? []);
      const carried = listed.flatMap((id) => {
        const ack = acks.get(id);
        return ack ? [{ id, ack }] : [];
      });
      await api.report(nodeToken, { agent_version: deps.agentVersion, capacity, workspaces });
      lastReportAt = Date.now();
      // The API has the events: they leave the spools (a failure here sends them again, stored once).
      for (const { id, ack } of carried) {
        if (acks.get(id) === ack) acks.delete(id);
        await ack().catch((error: unknown) => deps.logger.warn(`activity spool: ${errorMessage(error)}`));
      }
      return { capacity, workspaces };
    });
    reporting = sent.catch(() => undefined);
    return sent;
  }

  return {
    async pass(api, nodeToken, { force = false } = {}) {
      const fullCheck = memory.passes % deps.fullCheckEvery === 0;
      memory.passes += 1;
      const pulled = await api.desiredState(nodeToken);
      passes += 1;
      try {
        const workspaces: WorkspaceDesiredState[] = [];
        for (const workspace of pulled.workspaces) {
          if (workspaces.some((w) => w.service_id === workspace.service_id)) {
            deps.logger.warn(
              { service_id: workspace.service_id },
              'workspace listed twice in the desired state; ignored',
            );
            continue;
          }
          workspaces.push(workspace);
        }
        const outcomes = await Promise.all(
          workspaces.map((workspace) => {
            const id = workspace.service_id;
            const now = force || changed(id, workspace);
            desired.set(id, workspace);
            onNodesWord.delete(id);
            if (fullCheck) fullCheckDue.add(id);
            return queue.add(id, { now });
          }),
        );
        const ids = new Set(workspaces.map((w) => w.service_id));
        for (const id of desired.keys()) if (!ids.has(id)) forget(id);
        forgetUnlisted(memory, ids);
        listed = [...ids];

        const result = emptyResult(fullCheck);
        for (const [index, outcome] of outcomes.entries()) {
          const ran = ranResult(outcome);
          if (!ran) {
            result.deferred.push(workspaces[index]?.service_id ?? '');
            continue;
          }
          result.applied.push(...ran.applied);
          result.skipped.push(...ran.skipped);
          result.unchangedDrivers.push(...ran.unchangedDrivers);
          result.actions.push(...ran.actions);
          result.changed ||= ran.changed;
        }
        const sent = await report(api, nodeToken);
        return { ...result, ...sent };
      } finally {
        passes -= 1;
      }
    },

    async applyLocally(workspaces) {
      await Promise.all(
        workspaces.map((workspace) => {
          desired.set(workspace.service_id, workspace);
          onNodesWord.add(workspace.service_id);
          return queue.add(workspace.service_id, { now: true });
        }),
      );
    },

    report,
    failures: (serviceId) => queue.failures(serviceId),
    get lastReportAt() {
      return lastReportAt;
    },
    stop: () => queue.stop(),
  };
}

/** What a run did, when it ran (a workspace reported failed counts as run). */
function ranResult(outcome: WorkOutcome<ReconcileResult>): ReconcileResult | undefined {
  if (outcome.status === 'done') return outcome.value;
  if (outcome.status === 'failed' && outcome.error instanceof WorkspaceNotAppliedError)
    return outcome.error.result;
  return undefined;
}
