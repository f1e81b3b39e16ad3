// An operator's evacuation moves at most two workspaces off a node at a time; a terminated
// workspace's standby is told to delete its copy; `ops nodes fail` fails a node over at once,
// and a node that holds a standby cannot be removed.
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { useTestContext } from '../../test/test-app.ts';
import { evacuate, failNodeNow, type ReplicaOps } from '../../cli/ops/replicas.ts';
import { removeNode } from '../../cli/ops/nodes.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { serviceRow, setService } from '../directory/workspace.test-support.ts';
import { allNodes } from '../nodes/online-nodes.ts';
import { createReplicas } from './replicas.service.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('evacuations, terminated standbys and declared failures', { shuffle: false }, () => {
  let ops: ReplicaOps;
  let source: TestNode;
  let target: TestNode;
  const ids: string[] = [];

  const ctx = useTestContext({ clock: true }, async (ctx) => {
    await seedCatalogue(ctx);
    const pool = ['10.50.0.1', '10.50.0.2', '10.50.0.3', '10.50.0.4'];
    source = await registerNode(ctx, 'ev-source', capacity(1000, pool));
    const owner = await signedInUser(ctx);
    for (let index = 0; index < 3; index += 1) {
      const id = (await buyService(ctx, owner.auth, STARTER)).service_id;
      await serviceJobs(ctx).placement.place(id);
      ids.push(id);
    }
    await source.applyAll();
    target = await registerNode(ctx, 'ev-target', capacity(1000, pool));
    const db = ctx.database.db;
    ops = {
      db,
      activity: createActivityService({ queries: createActivityQueries(db), now: () => ctx.now() }),
      wakeNode: () => undefined,
      now: ctx.now(),
    };
  });

  it('evacuates a node two workspaces at a time', async () => {
    const result = await evacuate({ ...ops, now: ctx.now() }, 'ev-source');
    expect(result.started.map((move) => move.target)).toEqual(['ev-target', 'ev-target', 'ev-target']);
    const replicas = createReplicas({ ...ops, now: () => ctx.now() });
    await replicas.stepMoves(ctx.now());
    const rows = await Promise.all(ids.map((id) => serviceRow(ctx, id)));
    expect(rows.filter((row) => row.standbyNodeId === target.id)).toHaveLength(2);
    expect(rows.every((row) => row.movePhase === 'syncing')).toBe(true);
  });

  it('refuses to remove a node that keeps a standby, saying so', async () => {
    const outcome = await removeNode(ctx.database.db, 'ev-target', ctx.now());
    expect(outcome).toMatchObject({ kind: 'refused', standbys: 2 });
  });

  it('tells a terminated workspace’s standby to delete its copy', async () => {
    const row = (await Promise.all(ids.map((id) => serviceRow(ctx, id)))).find(
      (candidate) => candidate.standbyNodeId === target.id,
    )!;
    await setService(ctx, row.id, { status: 'terminated', movePhase: null, moveTargetNodeId: null });
    const replicas = createReplicas({ ...ops, now: () => ctx.now() });
    await replicas.placeStandbys(ctx.now());
    expect((await serviceRow(ctx, row.id)).standbyNodeId).toBeNull();
    const entry = (await target.desired()).workspaces.find((workspace) => workspace.service_id === row.id);
    expect(entry?.state).toBe('removed');
  });

  it('fails a declared node over at once to standbys holding a replica', async () => {
    const row = (await Promise.all(ids.map((id) => serviceRow(ctx, id)))).find(
      (candidate) => candidate.standbyNodeId === target.id && candidate.status !== 'terminated',
    )!;
    await setService(ctx, row.id, { movePhase: null, moveTargetNodeId: null, replicaTakenAt: ctx.now() });
    await target.report([]);
    const { failedOver } = await failNodeNow({ ...ops, now: ctx.now() }, 'ev-source');
    expect(failedOver).toBe(1);
    expect((await serviceRow(ctx, row.id)).nodeId).toBe(target.id);
    // Reporting again, the node is no longer failed: placement may use it once undrained.
    await source.report([]);
    expect((await allNodes(ctx.database.db)).find((node) => node.name === 'ev-source')?.failedAt).toBeNull();
  });
});
