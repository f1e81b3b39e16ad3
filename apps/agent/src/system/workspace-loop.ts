// A periodic task per workspace, beside the reconcile and call loops: the standby's replica pulls
// (replicas/pull-loop.ts) and the copy of the backup clients' repositories off the node
// (backup/client-mirror-loop.ts). For every workspace the loop `wants`, the task runs at once, then
// at least every interval, and at once again when the workspace's `token` changes (a move's final
// sync). One run per workspace at a time and a few per node, the most overdue first; a failed run
// is logged and tried again the next interval. A workspace the loop no longer wants is forgotten
// and its run under way aborted. The task itself is handed in, so the scheduling is tested alone.
import type { WorkspaceDesiredState } from '@debesis/contract';
import { errorMessage, type Logger } from '../logger.ts';

/** How often the loop looks for a run that is due (a changed token waits at most this long). */
export const WORKSPACE_LOOP_TICK_MS = 1000;

export interface WorkspaceLoopDeps {
  /** What the loop does, for its log lines ("replicas: pull"). */
  name: string;
  /** The workspaces as last applied by a reconcile pass. */
  applied(): Iterable<WorkspaceDesiredState>;
  /** Whether the task runs for this workspace. */
  wants(desired: WorkspaceDesiredState): boolean;
  /** A value whose change makes the task due at once; none: the interval alone. */
  token?(desired: WorkspaceDesiredState): string | undefined;
  /** One run: whether it did something the report should carry soon; rejects on any failure. */
  run(desired: WorkspaceDesiredState, signal: AbortSignal): Promise<boolean>;
  intervalMs: number;
  logger: Logger;
  /** After a run that did something. */
  onDone?(serviceId: string): void;
  /** How many runs at once on the node. */
  atOnce: number;
  nowMs?: () => number;
}

export interface WorkspaceLoop {
  /** Starts the runs due now; resolves when those have ended (tests; the timer calls it too). */
  tick(): Promise<void>;
  /** Ticks every `tickMs` until stopped. */
  start(tickMs?: number): void;
  /** Ends the timer, aborts runs in flight and waits for them. Idempotent. */
  stop(): Promise<void>;
}

interface RunMemory {
  /** When the last run (successful or not) started. */
  startedAt: number;
  /** The token that run was started under. */
  token: string | undefined;
}

export function createWorkspaceLoop(deps: WorkspaceLoopDeps): WorkspaceLoop {
  const now = deps.nowMs ?? Date.now;
  const memory = new Map<string, RunMemory>();
  const inFlight = new Map<string, { task: Promise<void>; abort: AbortController }>();

  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  /** How overdue a workspace's run is (ms); undefined when not due. A changed token is due first. */
  function overdue(desired: WorkspaceDesiredState, at: number): number | undefined {
    const last = memory.get(desired.service_id);
    if (!last) return Number.MAX_SAFE_INTEGER;
    const token = deps.token?.(desired);
    if (token !== undefined && token !== last.token) return Number.MAX_SAFE_INTEGER;
    const late = at - (last.startedAt + deps.intervalMs);
    return late >= 0 ? late : undefined;
  }

  function due(at: number): WorkspaceDesiredState[] {
    const wanted = [...deps.applied()].filter((desired) => deps.wants(desired));
    // A workspace no longer wanted is forgotten (wanted again, it starts afresh), and its run under
    // way ends (a standby promoted, a workspace removed: its storage is the drivers' now).
    const held = new Set(wanted.map((desired) => desired.service_id));
    for (const [id, run] of inFlight) if (!held.has(id)) run.abort.abort();
    for (const id of memory.keys()) if (!held.has(id) && !inFlight.has(id)) memory.delete(id);
    return wanted
      .filter((desired) => !inFlight.has(desired.service_id))
      .map((desired) => ({ desired, late: overdue(desired, at) }))
      .filter((entry): entry is { desired: WorkspaceDesiredState; late: number } => entry.late !== undefined)
      .sort((a, b) => b.late - a.late)
      .map((entry) => entry.desired);
  }

  function startRun(desired: WorkspaceDesiredState, at: number): Promise<void> {
    const serviceId = desired.service_id;
    memory.set(serviceId, { startedAt: at, token: deps.token?.(desired) });
    const abort = new AbortController();
    const task = deps
      .run(desired, abort.signal)
      .then(
        (did) => {
          if (did) deps.onDone?.(serviceId);
        },
        (error: unknown) => {
          if (!abort.signal.aborted)
            deps.logger.warn({ service_id: serviceId }, `${deps.name} failed: ${errorMessage(error)}`);
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
      if (inFlight.size >= deps.atOnce) break;
      started.push(startRun(desired, at));
    }
    await Promise.all(started);
  }

  let stopping: Promise<void> | undefined;
  return {
    tick,
    start(tickMs = WORKSPACE_LOOP_TICK_MS) {
      if (timer || stopped) return;
      // A tick does not wait for its runs: a long first copy never holds up another workspace's.
      timer = setInterval(() => void tick(), tickMs);
      timer.unref?.();
    },
    stop() {
      stopping ??= (async () => {
        stopped = true;
        if (timer) clearInterval(timer);
        const runs = [...inFlight.values()];
        for (const run of runs) run.abort.abort();
        await Promise.all(runs.map((run) => run.task));
      })();
      return stopping;
    },
  };
}
