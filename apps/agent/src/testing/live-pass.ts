// One reconcile pass of one live workspace, as the live feature tests (vpn, nfs, ftp, ldap) drive
// it: the desired state handed over as the API would, at a new generation unless asked to repeat
// it (a full check of an applied workspace), with the real drivers and commands, every command
// seen by `onRun`. Its memory lasts as long as the harness, like the agent's.
import { randomUUID } from 'node:crypto';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { createDefaultDrivers } from '../drivers/registry.ts';
import { runCommand, type CommandRunner } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import {
  createReconcileMemory,
  reconcileOnce,
  type ReconcileDeps,
  type ReconcileMemory,
  type ReconcileResult,
} from '../reconcile.ts';

export interface LivePassOptions {
  /** The agent's data folder (made by the test's beforeAll, hence asked for at each pass). */
  dataDir: () => string;
  address: string;
  /** Client blocks the workspace answers (testing/network.ts testClient's `block`). */
  clientRoutes: readonly string[];
}

export type LivePass = (
  desired: WorkspaceDesiredState,
  onRun?: (command: string, args: readonly string[]) => void,
  sameGeneration?: boolean,
) => Promise<{ result: ReconcileResult; report: WorkspaceReport }>;

/** What one pass of one workspace runs with; the memory is the agent's, kept between passes. */
export interface OneWorkspacePass {
  dataDir: string;
  address: string;
  drivers: ReconcileDeps['drivers'];
  memory: ReconcileMemory;
  run?: CommandRunner;
}

/**
 * One reconcile pass of one workspace, its desired state (at the generation it carries) handed
 * over as the API would; the pass's result and the workspace's report.
 */
export async function reconcileWorkspaceOnce(
  desired: WorkspaceDesiredState,
  options: OneWorkspacePass,
): Promise<{ result: ReconcileResult; report: WorkspaceReport }> {
  const reports: NodeReportRequest[] = [];
  const result = await reconcileOnce(
    {
      api: {
        desiredState: () => Promise.resolve({ node_id: randomUUID(), workspaces: [desired] }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir: options.dataDir,
      addresses: [options.address],
      agentVersion: 'test',
      drivers: options.drivers,
      logger: silentLogger,
      run: options.run ?? runCommand,
      fullCheckEvery: 1,
    },
    options.memory,
  );
  return { result, report: reports[0]!.workspaces[0]! };
}

export function createLivePass(options: LivePassOptions): LivePass {
  const memory = createReconcileMemory();
  let generation = 0;
  return async (desired, onRun, sameGeneration = false) => {
    if (!sameGeneration) generation += 1;
    return reconcileWorkspaceOnce(
      { ...desired, generation },
      {
        dataDir: options.dataDir(),
        address: options.address,
        drivers: createDefaultDrivers({
          live: true,
          addressPool: [options.address],
          clientRoutes: options.clientRoutes,
        }),
        memory,
        run: (command, args, runOptions) => {
          onRun?.(command, args);
          return runCommand(command, args, runOptions);
        },
      },
    );
  };
}
