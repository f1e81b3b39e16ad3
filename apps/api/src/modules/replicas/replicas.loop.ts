// The replica loop: failover must come within seconds (RTO 120 s with NODE_FAILOVER_AFTER_MS at
// 60 s), finer than the queue's minute cron, so the worker runs it on a timer of its own. Every
// step is a conditional update (and standby placement takes placement's lock), so two workers
// running it side by side still make each change once. A pass never overlaps the one before.
import type { FastifyBaseLogger } from 'fastify';
import type { Replicas } from './replicas.service.ts';

/** How often the worker looks for silent nodes, move steps and workspaces without a standby. */
export const REPLICA_LOOP_MS = 5000;

export function startReplicaLoop(
  replicas: Pick<Replicas, 'tick'>,
  logger: Pick<FastifyBaseLogger, 'info' | 'warn'>,
  intervalMs = REPLICA_LOOP_MS,
): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  const pass = async () => {
    try {
      const result = await replicas.tick();
      if (result.failedOver + result.moveSteps + result.standbysPlaced + result.standbysDropped > 0)
        logger.info(result, 'replicas: standbys, failovers and moves');
    } catch (error) {
      logger.warn({ err: error }, 'replicas: a pass failed');
    }
  };
  const timer = setInterval(() => {
    if (running || stopped) return;
    running = pass().finally(() => {
      running = null;
    });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
