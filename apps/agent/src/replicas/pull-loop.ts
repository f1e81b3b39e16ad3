// The standby's pull loop (contract: replicas.ts), a workspace loop (system/workspace-loop.ts): for
// every workspace this node holds as a standby it pulls the primary's changes at least every
// interval (REPLICA_SYNC_INTERVAL_SECONDS; AGENT_REPLICA_INTERVAL_MS) and at once when the desired
// state's `sync_token` changes (a move's final sync). The pulling itself (replica-pull.ts) is
// handed in, so the scheduling is tested without btrfs or an API.
import type { WorkspaceDesiredState } from '@debesis/contract';
import type { Logger } from '../logger.ts';
import { createWorkspaceLoop, type WorkspaceLoop } from '../system/workspace-loop.ts';

/** How many pulls may run at once on a node. */
export const PULLS_AT_ONCE = 2;

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

export type PullLoop = WorkspaceLoop;

export function createPullLoop(deps: PullLoopDeps): PullLoop {
  return createWorkspaceLoop({
    name: 'replicas: pull',
    applied: () => deps.applied(),
    wants: (desired) => desired.role === 'standby' && desired.state !== 'removed',
    token: (desired) => desired.sync_token,
    run: (desired, signal) => deps.pull(desired.service_id, signal),
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    onDone: (serviceId) => deps.onPulled?.(serviceId),
    atOnce: deps.atOnce ?? PULLS_AT_ONCE,
    ...(deps.nowMs ? { nowMs: deps.nowMs } : {}),
  });
}
