// The fencing lease of a primary that may be failed over (contract: replicas.ts,
// PRIMARY_FENCE_AFTER_MS). The agent renews the lease whenever it reaches the API (a desired-state
// pull or a report that went through). A check every FENCE_CHECK_MS finds the lease run out and
// stops every workspace it serves with `failover: true` on its own word (applied locally as
// `stopped`: the daemons stop, the data stays), well before the API fails it over to its standby
// (NODE_FAILOVER_AFTER_MS): a node cut off from the API never serves beside its successor. A
// workspace without `failover` has no standby and is never fenced. The next pull that gets
// through brings the API's word back (running again, or `removed` once it moved away).
import type { WorkspaceDesiredState } from '@debesis/contract';
import { errorMessage, type Logger } from '../logger.ts';

/** How often the lease is checked. */
export const FENCE_CHECK_MS = 2000;

export interface FenceDeps {
  fenceAfterMs: number;
  /** The workspaces as last applied by a pass. */
  applied(): Iterable<WorkspaceDesiredState>;
  /** Applies these states on the node's own word (reconcile.ts applyLocally), after any pass. */
  applyLocally(workspaces: WorkspaceDesiredState[]): Promise<void>;
  logger: Logger;
  nowMs?: () => number;
}

export interface Fence {
  /** The API was reached now. */
  renew(): void;
  /** Whether the lease has run out. */
  expired(): boolean;
  /** Stops what must stop now; resolves when it has (the timer calls it; tests call it). */
  check(): Promise<void>;
  start(checkMs?: number): void;
  stop(): void;
}

/** The workspaces a run-out lease stops: served here, running, and able to fail over. */
export const toFence = (applied: Iterable<WorkspaceDesiredState>) =>
  [...applied].filter(
    (desired) => desired.failover === true && desired.state === 'running' && desired.role !== 'standby',
  );

export function createFence(deps: FenceDeps): Fence {
  const now = deps.nowMs ?? Date.now;
  // The agent starting counts as reaching the API: it has served nothing on an old word yet.
  let reachedAt = now();
  let fenced = false;
  let timer: NodeJS.Timeout | undefined;
  let checking: Promise<void> | undefined;

  const expired = () => now() - reachedAt > deps.fenceAfterMs;

  async function fenceNow(): Promise<void> {
    if (!expired()) return;
    const stopping = toFence(deps.applied());
    if (stopping.length === 0) return;
    const ids = new Set(stopping.map((desired) => desired.service_id));
    if (!fenced)
      deps.logger.warn(
        { service_ids: [...ids], since_ms: now() - reachedAt },
        `fenced: the API has not been reached for ${Math.round((now() - reachedAt) / 1000)} s; ` +
          `stopping ${ids.size} workspace(s) that may be failed over elsewhere`,
      );
    fenced = true;
    // Every applied workspace is listed (a local pass forgets nothing); only these change.
    await deps.applyLocally(
      [...deps.applied()].map((desired) =>
        ids.has(desired.service_id) ? { ...desired, state: 'stopped' as const } : desired,
      ),
    );
  }

  function check(): Promise<void> {
    checking ??= fenceNow()
      .catch((error: unknown) => deps.logger.error(`fencing failed: ${errorMessage(error)}`))
      .finally(() => {
        checking = undefined;
      });
    return checking;
  }

  return {
    renew() {
      reachedAt = now();
      if (fenced) deps.logger.info('the API is reached again: its desired state applies');
      fenced = false;
    },
    expired,
    check,
    start(checkMs = FENCE_CHECK_MS) {
      if (timer) return;
      timer = setInterval(() => void check(), checkMs);
      timer.unref?.();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
