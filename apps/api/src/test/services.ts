// Storage nodes and the service lifecycle's jobs for tests: nodes register and report through
// the API with their own tokens, as agents do; the jobs (placement, its retry, the sweep) are
// the worker's, built the same way on the test's database, clock and mailbox, and run on demand.
import type {
  NodeCapacity,
  NodeDesiredStateResponse,
  WorkspaceDesiredState,
  WorkspaceReport,
} from '@debesis/contract';
import { createActivityQueries } from '../modules/activity/activity.queries.ts';
import { createActivityService } from '../modules/activity/activity.service.ts';
import { nodes } from '../modules/nodes/nodes.table.ts';
import { promisedBytes } from '../modules/services/placement.ts';
import { createServicesBackground } from '../modules/services/services.background.ts';
import { createServicesQueries } from '../modules/services/services.queries.ts';
import { createUsersQueries } from '../modules/users/users.queries.ts';
import { TEST_REGISTRATION_TOKEN, type TestContext } from './test-app.ts';

export const GIB = 1024 ** 3;

/** The worker's lifecycle jobs on the test's database, clock and mailbox. */
export function serviceJobs(ctx: TestContext, wakeNode: (nodeId: string) => void = () => undefined) {
  const db = ctx.database.db;
  return createServicesBackground({
    db,
    users: createUsersQueries(db),
    activity: createActivityService({ queries: createActivityQueries(db), now: () => ctx.now() }),
    sendMail: async (message) => {
      ctx.mailbox.messages.push(message);
    },
    publicUrl: ctx.config.publicUrl,
    wakeNode,
    now: () => ctx.now(),
  });
}

export function capacity(freeGib: number, addresses = ['127.0.10.1', '127.0.10.2']): NodeCapacity {
  return { disk_total_bytes: 4096 * GIB, disk_free_bytes: Math.round(freeGib * GIB), addresses };
}

/**
 * A workspace's report that has applied nothing yet and reports no driver and no failure, with
 * `extra` (most often what its features observed).
 */
export function workspaceReport(serviceId: string, extra: Partial<WorkspaceReport> = {}): WorkspaceReport {
  return { service_id: serviceId, observed_generation: 0, ok: true, drivers: [], failures: [], ...extra };
}

export interface TestNode {
  id: string;
  token: string;
  desired(): Promise<NodeDesiredStateResponse>;
  report(workspaces: WorkspaceReport[], free?: NodeCapacity): Promise<void>;
  /** Reports every desired workspace as applied (what a healthy agent does after a pass). */
  applyAll(free?: NodeCapacity): Promise<WorkspaceDesiredState[]>;
}

export async function registerNode(ctx: TestContext, name: string, initial: NodeCapacity): Promise<TestNode> {
  const registered = await ctx.app.inject({
    method: 'POST',
    url: '/api/v1/nodes/register',
    headers: { authorization: `Bearer ${TEST_REGISTRATION_TOKEN}` },
    payload: { name, hostname: `${name}.local`, agent_version: '0.0.0', capacity: initial },
  });
  if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);
  const { node_id, node_token } = registered.json<{ node_id: string; node_token: string }>();
  const headers = { authorization: `Bearer ${node_token}` };
  let current = initial;
  const node: TestNode = {
    id: node_id,
    token: node_token,
    async desired() {
      const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/nodes/desired-state', headers });
      if (response.statusCode !== 200) throw new Error(`desired-state failed: ${response.body}`);
      return response.json<NodeDesiredStateResponse>();
    },
    async report(workspaces, free) {
      current = free ?? current;
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/nodes/report',
        headers,
        payload: { agent_version: '0.0.0', capacity: current, workspaces },
      });
      if (response.statusCode !== 200) throw new Error(`report failed: ${response.body}`);
    },
    async applyAll(free) {
      const { workspaces } = await node.desired();
      await node.report(
        workspaces.map((workspace) => ({
          service_id: workspace.service_id,
          observed_generation: workspace.generation,
          ok: true,
          drivers: [{ driver: 'workspace-dir', live: true }],
          failures: [],
          facts: { disk_used_bytes: 1024, file_count: 3, started_at: ctx.now().toISOString() },
        })),
        free,
      );
      return workspaces;
    },
  };
  return node;
}

/**
 * Each node's promised disk, as placement counts it (the unwritten part of every workspace's
 * disk, and of the larger disk a paid plan change waits for): `promised` never above `free`
 * for what is in place. `pending` is the growth still waiting for room.
 */
export async function nodePromises(
  ctx: TestContext,
): Promise<Array<{ id: string; node: string; free: number; promised: number; pending: number }>> {
  const db = ctx.database.db;
  const all = await db.select().from(nodes);
  const held = await createServicesQueries(db).placedOn(all.map((node) => node.id));
  return all.map((node) => {
    const here = held.filter((workspace) => workspace.nodeId === node.id);
    const promised = here.reduce(
      (sum, workspace) => sum + promisedBytes(workspace.diskSpace, workspace.diskUsedBytes),
      0,
    );
    const pending = here.reduce(
      (sum, workspace) =>
        sum +
        promisedBytes(
          Math.max(workspace.diskSpace, workspace.pendingDiskSpace ?? 0),
          workspace.diskUsedBytes,
        ) -
        promisedBytes(workspace.diskSpace, workspace.diskUsedBytes),
      0,
    );
    return { id: node.id, node: node.name, free: node.diskFreeBytes, promised, pending };
  });
}

/** Throws unless every node's promised disk fits in its free disk (no overcommit). */
export async function expectNoOvercommit(ctx: TestContext): Promise<void> {
  for (const node of await nodePromises(ctx)) {
    if (node.promised > node.free)
      throw new Error(`node ${node.node} promises ${node.promised} bytes with ${node.free} free`);
  }
}
