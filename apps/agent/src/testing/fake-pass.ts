// One reconcile pass of one workspace with the test's own drivers and no program run: the desired
// state handed over as the API would, the report it sends kept. For the tests of reconcile itself.
import { randomUUID } from 'node:crypto';
import type { NodeReportRequest, WorkspaceDesiredState, WorkspaceReport } from '@debesis/contract';
import type { Driver } from '../drivers/driver.ts';
import { silentLogger } from '../logger.ts';
import { reconcileOnce, type ReconcileMemory, type ReconcileResult } from '../reconcile.ts';

export async function fakePass(options: {
  dataDir: string;
  drivers: readonly Driver[];
  desired: WorkspaceDesiredState;
  memory: ReconcileMemory;
  fullCheckEvery: number;
}): Promise<{ result: ReconcileResult; report: WorkspaceReport }> {
  const reports: NodeReportRequest[] = [];
  const result = await reconcileOnce(
    {
      api: {
        desiredState: () => Promise.resolve({ node_id: randomUUID(), workspaces: [options.desired] }),
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
  return { result, report: reports[0]!.workspaces[0]! };
}
