// One reconcile pass of one live workspace, as the live feature tests (vpn, nfs, ftp, ldap) drive
// it: the desired state handed over as the API would, at a new generation unless asked to repeat
// it (a full check of an applied workspace), with the real drivers and commands, every command
// seen by `onRun`. Its memory lasts as long as the harness, like the agent's.
import { randomUUID } from 'node:crypto';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import { createDefaultDrivers } from '../drivers/registry.ts';
import { runCommand } from '../exec/run-command.ts';
import { silentLogger } from '../logger.ts';
import { createReconcileMemory, reconcileOnce, type ReconcileResult } from '../reconcile.ts';

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

export function createLivePass(options: LivePassOptions): LivePass {
  const memory = createReconcileMemory();
  let generation = 0;
  return async (desired, onRun, sameGeneration = false) => {
    if (!sameGeneration) generation += 1;
    const reports: NodeReportRequest[] = [];
    const result = await reconcileOnce(
      {
        api: {
          desiredState: () =>
            Promise.resolve({ node_id: randomUUID(), workspaces: [{ ...desired, generation }] }),
          report: (_token, body) => {
            reports.push(body);
            return Promise.resolve();
          },
        },
        nodeToken: 'token',
        dataDir: options.dataDir(),
        addresses: [options.address],
        agentVersion: 'test',
        drivers: createDefaultDrivers({
          live: true,
          addressPool: [options.address],
          clientRoutes: options.clientRoutes,
        }),
        logger: silentLogger,
        run: (command, args, runOptions) => {
          onRun?.(command, args);
          return runCommand(command, args, runOptions);
        },
        fullCheckEvery: 1,
      },
      memory,
    );
    return { result, report: reports[0]!.workspaces[0]! };
  };
}
