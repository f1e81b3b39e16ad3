// What the API (and anyone embedding the agent) uses. The embedded default starts the agent in
// the API's own process with startAgent(); standalone, main.ts does the same from the environment.
export { startAgent, AgentStoppedError, RegistrationRefusedError } from './agent.ts';
export type { Agent, AgentOptions } from './agent.ts';
export {
  loadAgentConfig,
  AgentConfigError,
  agentEnvironmentSchema,
  nodeNameFromHostname,
  DEFAULT_ADDRESS_POOL,
} from './config.ts';
export type { AgentConfig } from './config.ts';
export { expandAddressPool, measureCapacity } from './capacity.ts';
export { ApiError, ApiUnauthorizedError, createApiClient } from './api-client.ts';
export type { ApiClient, ApiClientOptions } from './api-client.ts';
export { createReconcileMemory, reconcileOnce } from './reconcile.ts';
export type { ReconcileDeps, ReconcileMemory, ReconcileResult } from './reconcile.ts';
export type {
  Driver,
  DriverContext,
  DriverObservation,
  DriverResult,
  DriverStatus,
} from './drivers/driver.ts';
export { DEFAULT_DRIVERS, createDefaultDrivers } from './drivers/registry.ts';
export { NodeCallError } from './calls/node-call.ts';
export type { NodeCallContext, NodeCallHandler, NodeCallHandlers } from './calls/node-call.ts';
export type { DriverSetOptions } from './drivers/registry.ts';
export { createJsonLogger, silentLogger } from './logger.ts';
export { runCommand } from './exec/run-command.ts';
export { firstMissingProgram, isRoot } from './system/host.ts';
export { networkNames, removePoolGuards } from './system/netns.ts';
export type { Logger, LogFn } from './logger.ts';
export { AGENT_VERSION } from './version.ts';
export { workspaceDir } from './workspace-paths.ts';
export { workspaceLayout } from './workspace-layout.ts';
export type { WorkspaceLayout } from './workspace-layout.ts';
// Backups, for the benchmark (scripts/bench/backups.ts) to time the node's own code paths.
export { runBackupJob } from './backup/backup-job.ts';
export { browseSnapshot } from './backup/browse.ts';
export { repositoryPaths } from './backup/repository.ts';
export { createRestic } from './backup/restic.ts';
export { collectActivity } from './activity/collect.ts';
// Snapshots, for the benchmark (scripts/bench/snapshots.ts): the storage driver and the snapshot steps.
export { createStorageImageDriver } from './drivers/storage-image.driver.ts';
export { listSnapshots, snapshotPass, takeSnapshot } from './snapshots/snapshots.ts';
export { replicateSnapshot } from './snapshots/replication.ts';
