// One reconcile pass with the test's own drivers and no program run: the desired state handed over
// as the API would, the report it sends kept. For the tests of reconcile itself.
import { randomUUID } from 'node:crypto';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import type { Driver } from '../drivers/driver.ts';
import { silentLogger } from '../logger.ts';
import { reconcileOnce, type ReconcileMemory, type ReconcileResult } from '../reconcile.ts';

export interface FakePassOptions {
  dataDir: string;
  drivers: readonly Driver[];
  memory: ReconcileMemory;
  fullCheckEvery: number;
}

/** A pass over every workspace of the node; their reports in the order the agent sent them. */
export async function fakeNodePass(
  options: FakePassOptions & { workspaces: WorkspaceDesiredState[] },
): Promise<{ result: ReconcileResult; reports: WorkspaceReport[] }> {
  const reports: NodeReportRequest[] = [];
  const result = await reconcileOnce(
    {
      api: {
        desiredState: () => Promise.resolve({ node_id: randomUUID(), workspaces: options.workspaces }),
        report: (_token, body) => {
          reports.push(body);
          return Promise.resolve();
        },
      },
      nodeToken: 'token',
      dataDir: options.dataDir,
      addresses: [],
      agentVersion: 'test',
      drivers: options.drivers,
      logger: silentLogger,
      run: () => Promise.reject(new Error('no program runs here')),
      fullCheckEvery: options.fullCheckEvery,
    },
    options.memory,
  );
  return { result, reports: reports[0]!.workspaces };
}

/** A pass of one workspace: its report. */
export async function fakePass(
  options: FakePassOptions & { desired: WorkspaceDesiredState },
): Promise<{ result: ReconcileResult; report: WorkspaceReport }> {
  const { result, reports } = await fakeNodePass({ ...options, workspaces: [options.desired] });
  return { result, report: reports[0]! };
}
