// The standby's pull loop (contract: replicas.ts), beside the reconcile and call loops: for every
// workspace this node holds as a standby it pulls the primary's changes at least every interval
// (REPLICA_SYNC_INTERVAL_SECONDS; AGENT_REPLICA_INTERVAL_MS) and at once when the desired state's
// `sync_token` changes (a move's final sync). One pull per workspace at a time and a few per node,
// the most overdue first; a failed pull is logged and tried again the next interval. The pulling
// itself (replica-pull.ts) is handed in, so the scheduling is tested without btrfs or an API.
import type { WorkspaceDesiredState } from '@debesis/contract';
import { errorMessage, type Logger } from '../logger.ts';

/** How many pulls may run at once on a node. */
export const PULLS_AT_ONCE = 2;
/** How often the loop looks for a pull that is due (a changed sync_token waits at most this long). */
export const PULL_TICK_MS = 1000;

export interface PullLoopDeps {
  /** The workspaces as last applied by a reconcile pass. */
  applied(): Iterable<WorkspaceDesiredState>;
  /** Pulls one workspace's replica: whether one arrived (none: nothing to receive into); rejects on any failure. */
  pull(serviceId: string, signal: AbortSignal): Promise<boolean>;
  intervalMs: number;
  logger: Logger;
  /** After a pull that got through (the report should carry the new replica soon). */
  onPulled?(serviceId: string): void;
  atOnce?: number;
  nowMs?: () => number;
}

export interface PullLoop {
  /** Starts the pulls due now; resolves when those have ended (tests; the timer calls it too). */
  tick(): Promise<void>;
  /** Ticks every `tickMs` until stopped. */
  start(tickMs?: number): void;
  /** Ends the timer, aborts pulls in flight and waits for them. Idempotent. */
  stop(): Promise<void>;
}

interface PullMemory {
  /** When the last pull (successful or not) started. */
  startedAt: number;
  /** The sync_token that pull was started under. */
  syncToken: string | undefined;
}

export function createPullLoop(deps: PullLoopDeps): PullLoop {
  const now = deps.nowMs ?? Date.now;
  const atOnce = deps.atOnce ?? PULLS_AT_ONCE;
  const memory = new Map<string, PullMemory>();
  const inFlight = new Map<string, { task: Promise<void>; abort: AbortController }>();

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /** How overdue a standby's pull is (ms); undefined when not due. A changed token is due first. */
  function overdue(desired: WorkspaceDesiredState, at: number): number | undefined {
    const last = memory.get(desired.service_id);
    if (!last) return Number.MAX_SAFE_INTEGER;
    if (desired.sync_token !== undefined && desired.sync_token !== last.syncToken)
      return Number.MAX_SAFE_INTEGER;
    const late = at - (last.startedAt + deps.intervalMs);
    return late >= 0 ? late : undefined;
  }

  function due(at: number): WorkspaceDesiredState[] {
    const standbys = [...deps.applied()].filter(
      (desired) => desired.role === 'standby' && desired.state !== 'removed',
    );
    // A workspace no longer held as a standby is forgotten (a later standby role starts afresh),
    // and its pull under way ends (promoted, removed: its storage is the driver's now).
    const held = new Set(standbys.map((desired) => desired.service_id));
    for (const [id, pull] of inFlight) if (!held.has(id)) pull.abort.abort();
    for (const id of memory.keys()) if (!held.has(id) && !inFlight.has(id)) memory.delete(id);
    return standbys
      .filter((desired) => !inFlight.has(desired.service_id))
      .map((desired) => ({ desired, late: overdue(desired, at) }))
      .filter((entry): entry is { desired: WorkspaceDesiredState; late: number } => entry.late !== undefined)
      .sort((a, b) => b.late - a.late)
      .map((entry) => entry.desired);
  }

  function startPull(desired: WorkspaceDesiredState, at: number): Promise<void> {
    const serviceId = desired.service_id;
    memory.set(serviceId, { startedAt: at, syncToken: desired.sync_token });
    const abort = new AbortController();
    const task = deps
      .pull(serviceId, abort.signal)
      .then(
        (arrived) => {
          if (arrived) deps.onPulled?.(serviceId);
        },
        (error: unknown) => {
          if (!abort.signal.aborted)
            deps.logger.warn({ service_id: serviceId }, `replicas: pull failed: ${errorMessage(error)}`);
        },
      )
      .finally(() => inFlight.delete(serviceId));
    inFlight.set(serviceId, { task, abort });
    return task;
  }

  async function tick(): Promise<void> {
    if (stopped) return;
    const at = now();
    const started: Promise<void>[] = [];
    for (const desired of due(at)) {
      if (inFlight.size >= atOnce) break;
      started.push(startPull(desired, at));
    }
    await Promise.all(started);
  }

  let stopping: Promise<void> | undefined;
  return {
    tick,
    start(tickMs = PULL_TICK_MS) {
      if (timer || stopped) return;
      // A tick does not wait for its pulls: a long first copy never holds up another workspace's.
      timer = setInterval(() => void tick(), tickMs);
      timer.unref?.();
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer) clearInterval(timer);
        const pulls = [...inFlight.values()];
        for (const pull of pulls) pull.abort.abort();
        await Promise.all(pulls.map((pull) => pull.task));
      })();
      return stopping;
    },
  };
}
