// Where a workspace keeps what monitoring needs between passes: `<ws>/monitoring/`, beside the
// features' folders and outside its storage (the owner's files never hold the agent's state).
import { join } from 'node:path';

export const monitoringDir = (workspaceDir: string) => join(workspaceDir, 'monitoring');

/** A daemon log's read cursor (activity/log-tail.ts), by source. */
export const activityCursorFile = (workspaceDir: string, source: string) =>
  join(monitoringDir(workspaceDir), `cursor-${source}.json`);

/** Events waiting for the API (activity/spool.ts). */
export const spoolFile = (workspaceDir: string) => join(monitoringDir(workspaceDir), 'spool.jsonl');

/** The sessions and job ends the last pass saw (activity/session-events.ts). */
export const seenFile = (workspaceDir: string) => join(monitoringDir(workspaceDir), 'seen.json');

/** The per-user usage count (activity/usage-count.ts). */
export const usageFile = (workspaceDir: string) => join(monitoringDir(workspaceDir), 'usage.json');
