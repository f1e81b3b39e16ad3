// The copy of the backup clients' repositories off the node (client-mirror.ts), as a workspace
// loop (system/workspace-loop.ts): every interval (CLIENT_MIRROR_INTERVAL_SECONDS;
// AGENT_CLIENT_MIRROR_INTERVAL_MS) for every workspace this node serves whose clients may push and
// whose desired state names the copy's repository. A run with nothing new costs a few stat calls.
import type { WorkspaceDesiredState } from '@debesis/contract';
import { mirrorPathsOf } from '../drivers/backup-clients.driver.ts';
import type { Logger } from '../logger.ts';
import { createWorkspaceLoop, type WorkspaceLoop } from '../system/workspace-loop.ts';
import { clientMirrorRepository, mirrorClients } from './client-mirror.ts';
import { createRestic } from './restic.ts';

/** How many copies may run at once on a node (each is a restic backup at low priority). */
export const MIRRORS_AT_ONCE = 2;

export function createClientMirrorLoop(deps: {
  applied(): Iterable<WorkspaceDesiredState>;
  dataDir: string;
  intervalMs: number;
  logger: Logger;
  /** After a copy (the report should carry its time soon). */
  onMirrored?(serviceId: string): void;
}): WorkspaceLoop {
  return createWorkspaceLoop({
    name: 'backup clients: copy off the node',
    applied: () => deps.applied(),
    wants: (desired) =>
      desired.role !== 'standby' &&
      desired.state === 'running' &&
      desired.backup?.clients_repository !== undefined &&
      desired.backup.clients.length > 0,
    run: (desired, signal) => {
      const target = desired.backup?.clients_repository;
      if (!target) return Promise.resolve(false);
      const paths = mirrorPathsOf(desired, deps.dataDir);
      const restic = createRestic(clientMirrorRepository(paths, target));
      return mirrorClients({ paths, restic, target, logger: deps.logger, signal });
    },
    intervalMs: deps.intervalMs,
    logger: deps.logger,
    onDone: (serviceId) => deps.onMirrored?.(serviceId),
    atOnce: MIRRORS_AT_ONCE,
  });
}
