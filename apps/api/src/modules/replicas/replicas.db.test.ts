// Standby replicas, failover and moves (issue 37) against the database, with nodes that report
// through the API as agents do and the worker's replica loop run on demand on the test's clock:
// where a standby goes, what each node is told (roles, departures) and what of its reports counts
// (fencing), a failover made once and never without a replica, a move's phases end to end, and the
// standby's pull relayed from the primary through the nodes routes.
import { describe, expect, it } from 'vitest';
import {
  NODE_FAILOVER_AFTER_MS,
  REPLICA_NAME_HEADER,
  REPLICA_PARENT_HEADER,
  type NodeCall,
  type WorkspaceDesiredState,
  type WorkspaceReport,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { type TestContext, useTestContext } from '../../test/test-app.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { activityOf, serviceRow, setService } from '../directory/workspace.test-support.ts';
import { createReplicas } from './replicas.service.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

function replicasOf(ctx: TestContext, woken: string[] = []) {
  const db = ctx.database.db;
  return createReplicas({
    db,
    activity: createActivityService({ queries: createActivityQueries(db), now: () => ctx.now() }),
    wakeNode: (nodeId) => woken.push(nodeId),
    now: () => ctx.now(),
  });
}

function entryOf(workspaces: WorkspaceDesiredState[], serviceId: string) {
  return workspaces.find((workspace) => workspace.service_id === serviceId);
}

function applied(workspace: WorkspaceDesiredState, extra: Partial<WorkspaceReport> = {}): WorkspaceReport {
  return {
    service_id: workspace.service_id,
    observed_generation: workspace.generation,
    ok: true,
    drivers: [],
    failures: [],
    ...extra,
  };
}

const replicaAt = (at: Date) => ({
  name: `r-${at.toISOString().replace(/[-:.]/g, '').replace('T', 'T').slice(0, 15)}${String(at.getUTCMilliseconds()).padStart(3, '0')}Z`,
  taken_at: at.toISOString(),
  received_at: at.toISOString(),
  bytes: 1024,
});

/** A healthy pass of a node: every primary applied, every standby with a replica taken `at`. */
async function pass(node: TestNode, replicaTakenAt?: Date): Promise<WorkspaceDesiredState[]> {
  const { workspaces } = await node.desired();
  await node.report(
    workspaces.map((workspace) =>
      applied(
        workspace,
        workspace.role === 'standby' && replicaTakenAt
          ? { features: { replica: replicaAt(replicaTakenAt) } }
          : {},
      ),
    ),
  );
  return workspaces;
}

async function logCodes(ctx: TestContext, serviceId: string, owner: Record<string, string>) {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/v1/services/${serviceId}/logs`,
    headers: owner,
  });
  return response.json<{ lines: { code?: string | null }[] }>().lines.map((line) => line.code);
}

describe('standby replicas, failover and moves', { shuffle: false }, () => {
  let a: TestNode;
  let b: TestNode;
  let c: TestNode;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let serviceId: string;

  const ctx = useTestContext({ clock: true }, async (ctx) => {
    await seedCatalogue(ctx);
    // a and b share a room's pool; c's pool is another room's.
    a = await registerNode(ctx, 'rep-a', capacity(1000, ['10.40.0.1', '10.40.0.2']));
    b = await registerNode(ctx, 'rep-b', capacity(1000, ['10.40.0.1', '10.40.0.2']));
    c = await registerNode(ctx, 'rep-c', capacity(200, ['10.41.0.1']));
    owner = await signedInUser(ctx);
  });

  it('places a new workspace on an address no node uses, and its standby on the other node of its pool only', async () => {
    serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    const placed = await serviceJobs(ctx).placement.place(serviceId);
    expect(placed.kind).toBe('placed');
    const row = await serviceRow(ctx, serviceId);
    // a or b (more room than c); c never keeps the standby: its pool lacks the address.
    const primary = [a, b].find((node) => node.id === row.nodeId)!;
    expect(primary).toBeDefined();
    await pass(primary);
    const woken: string[] = [];
    const result = await replicasOf(ctx, woken).tick();
    const after = await serviceRow(ctx, serviceId);
    expect(result.standbysPlaced).toBe(1);
    const other = primary === a ? b : a;
    expect(after.standbyNodeId).toBe(other.id);
    expect(after.generation).toBe(row.generation + 1);
    expect(woken.sort()).toEqual([primary.id, other.id].sort());
    expect(await logCodes(ctx, serviceId, owner.auth)).toContain('standby_placed');
  });

  it('tells the standby the same workspace in the standby role, and the primary it may fail over once a replica exists', async () => {
    const row = await serviceRow(ctx, serviceId);
    expect(row.standbyNodeId).not.toBeNull();
    const primary = [a, b].find((node) => node.id === row.nodeId)!;
    const standby = [a, b].find((node) => node.id === row.standbyNodeId)!;
    const onStandby = entryOf((await standby.desired()).workspaces, serviceId)!;
    const onPrimary = entryOf((await primary.desired()).workspaces, serviceId)!;
    expect(onStandby).toMatchObject({ role: 'standby', generation: row.generation, address: row.address });
    expect(onPrimary.generation).toBe(row.generation);
    expect(onPrimary.failover).toBeUndefined();
    expect(entryOf((await c.desired()).workspaces, serviceId)).toBeUndefined();

    // The standby's report: an error and other facts change nothing; its replica is kept.
    const takenAt = ctx.now();
    await standby.report([
      applied(onStandby, {
        ok: false,
        error: 'a standby has no daemons',
        features: { replica: replicaAt(takenAt) },
      }),
    ]);
    const stored = await serviceRow(ctx, serviceId);
    expect(stored.lastError).toBeNull();
    expect(stored.replicaTakenAt?.toISOString()).toBe(takenAt.toISOString());
    expect(stored.generation).toBe(row.generation + 1);
    expect(entryOf((await primary.desired()).workspaces, serviceId)).toMatchObject({ failover: true });

    // A node that neither holds nor departs the service: its report is ignored (fencing).
    await c.report([
      {
        service_id: serviceId,
        observed_generation: 999,
        ok: false,
        error: 'not mine',
        drivers: [],
        failures: [],
      },
    ]);
    const fenced = await serviceRow(ctx, serviceId);
    expect(fenced.observedGeneration).toBe(stored.observedGeneration);
    expect(fenced.lastError).toBeNull();

    // The owner's overview says in sync, on the standby's node.
    const overview = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/services/overview',
      headers: owner.auth,
    });
    const item = overview
      .json<{ services: { id: string; replica: unknown }[] }>()
      .services.find((service) => service.id === serviceId);
    expect(item?.replica).toEqual({
      state: 'in_sync',
      node: standby === a ? 'rep-a' : 'rep-b',
      last_in_sync_at: takenAt.toISOString(),
    });
  });

  it('relays the standby pull from the primary, and refuses any other node', async () => {
    const row = await serviceRow(ctx, serviceId);
    expect(row.standbyNodeId).not.toBeNull();
    const primary = [a, b].find((node) => node.id === row.nodeId)!;
    const standby = [a, b].find((node) => node.id === row.standbyNodeId)!;
    const url = `/api/v1/nodes/replicas/${serviceId}/stream?parent=r-20261207T010000000Z`;
    const asNode = (node: TestNode) => ({ authorization: `Bearer ${node.token}` });

    expect((await ctx.app.inject({ method: 'GET', url, headers: asNode(primary) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url, headers: asNode(c) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    await primary.report([]); // online
    const pulled = ctx.app.inject({ method: 'GET', url, headers: asNode(standby) });
    const polled = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/calls?wait_ms=5000',
      headers: asNode(primary),
    });
    const [call] = polled.json<{ calls: NodeCall[] }>().calls;
    expect(call).toMatchObject({
      kind: 'replica.send',
      service_id: serviceId,
      payload: { parent: 'r-20261207T010000000Z' },
    });
    const bytes = Buffer.alloc(256 * 1024, 7);
    // No size header: a replica's size is not known up front.
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/nodes/calls/${call!.call_id}/stream`,
      headers: {
        ...asNode(primary),
        'content-type': 'application/octet-stream',
        'x-debesis-file-name': 'r-20261207T010500000Z',
        [REPLICA_PARENT_HEADER]: 'r-20261207T010000000Z',
      },
      payload: bytes,
    });
    expect(uploaded.statusCode).toBe(200);
    const response = await pulled;
    expect(response.statusCode).toBe(200);
    expect(response.headers[REPLICA_NAME_HEADER]).toBe('r-20261207T010500000Z');
    expect(response.headers[REPLICA_PARENT_HEADER]).toBe('r-20261207T010000000Z');
    expect(response.rawPayload.equals(bytes)).toBe(true);

    // The primary silent: 503 at once, not after the call's deadline.
    ctx.advance(NODE_FAILOVER_AFTER_MS + 1000);
    await standby.report([]);
    const started = Date.now();
    const unreachable = await ctx.app.inject({ method: 'GET', url, headers: asNode(standby) });
    expect(unreachable.statusCode).toBe(503);
    expect(unreachable.json()).toMatchObject({ detail: 'node_unreachable' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('fails a silent node over to its standby once, even with two workers at it', async () => {
    const row = await serviceRow(ctx, serviceId);
    expect(row.standbyNodeId).not.toBeNull();
    const oldPrimary = [a, b].find((node) => node.id === row.nodeId)!;
    const standby = [a, b].find((node) => node.id === row.standbyNodeId)!;
    // A second workspace on the same node, with a standby that has no replica yet: it stays.
    const second = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(second);
    await setService(ctx, second, { nodeId: oldPrimary.id, standbyNodeId: standby.id });

    // The primary has been silent (the previous test moved the clock); the standby reports.
    await standby.report([]);
    const [first, other] = await Promise.all([
      replicasOf(ctx).failOver(ctx.now()),
      replicasOf(ctx).failOver(ctx.now()),
    ]);
    expect(first + other).toBe(1);
    const after = await serviceRow(ctx, serviceId);
    expect(after).toMatchObject({ nodeId: standby.id, standbyNodeId: null, generation: row.generation + 1 });
    expect(
      (await logCodes(ctx, serviceId, owner.auth)).filter((code) => code === 'failed_over'),
    ).toHaveLength(1);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain('service failed over');
    // Nothing to fail over to for the second (no standby with a replica): it stays where it is.
    expect(await serviceRow(ctx, second)).toMatchObject({ nodeId: oldPrimary.id, standbyNodeId: standby.id });

    // The new primary serves it; the old one is told to delete it, and its report of serving it
    // changes nothing; once it reports the removal applied, the departure is done.
    expect(entryOf((await standby.desired()).workspaces, serviceId)?.role).toBeUndefined();
    const departed = entryOf((await oldPrimary.desired()).workspaces, serviceId)!;
    expect(departed).toMatchObject({ state: 'removed', generation: after.generation });
    await oldPrimary.report([
      {
        service_id: serviceId,
        observed_generation: row.generation,
        ok: false,
        error: 'stale',
        drivers: [],
        failures: [],
      },
    ]);
    expect((await serviceRow(ctx, serviceId)).lastError).toBeNull();
    await oldPrimary.report([applied(departed)]);
    expect(entryOf((await oldPrimary.desired()).workspaces, serviceId)).toBeUndefined();
  });

  it('moves a workspace: sync, stop, final sync, switch', async () => {
    // Both nodes heard from now; the old primary of the failover is back and empty of it.
    await a.report([]);
    await b.report([]);
    const row = await serviceRow(ctx, serviceId);
    const from = [a, b].find((node) => node.id === row.nodeId)!;
    const to = from === a ? b : a;
    const replicas = replicasOf(ctx);
    expect(await replicas.move(serviceId, to.id)).toBeDefined();
    expect(await replicas.move(serviceId, to.id)).toBeUndefined(); // one move at a time

    await replicas.stepMoves(ctx.now()); // the target becomes the standby
    expect((await serviceRow(ctx, serviceId)).standbyNodeId).toBe(to.id);
    await replicas.stepMoves(ctx.now()); // no fresh replica yet: still syncing
    expect((await serviceRow(ctx, serviceId)).movePhase).toBe('syncing');

    await pass(to, ctx.now());
    await replicas.stepMoves(ctx.now());
    expect((await serviceRow(ctx, serviceId)).movePhase).toBe('stopping');
    expect(entryOf((await from.desired()).workspaces, serviceId)?.state).toBe('stopped');
    await replicas.stepMoves(ctx.now()); // the primary has not applied the stop yet
    expect((await serviceRow(ctx, serviceId)).movePhase).toBe('stopping');

    ctx.advance(1000);
    await pass(from);
    await replicas.stepMoves(ctx.now());
    const finalSync = await serviceRow(ctx, serviceId);
    expect(finalSync.movePhase).toBe('final_sync');
    const token = entryOf((await to.desired()).workspaces, serviceId)?.sync_token;
    expect(token).toBeTruthy();

    // A replica from before the stop does not switch it; one taken after does.
    await pass(to, new Date(finalSync.moveStoppedAt!.getTime() - 1));
    await replicas.stepMoves(ctx.now());
    expect((await serviceRow(ctx, serviceId)).movePhase).toBe('final_sync');
    ctx.advance(1000);
    await pass(to, ctx.now());
    await replicas.stepMoves(ctx.now());
    const moved = await serviceRow(ctx, serviceId);
    expect(moved).toMatchObject({ nodeId: to.id, standbyNodeId: null, movePhase: null });
    expect(entryOf((await to.desired()).workspaces, serviceId)).toMatchObject({ state: 'running' });
    expect(entryOf((await from.desired()).workspaces, serviceId)?.state).toBe('removed');
    expect(await logCodes(ctx, serviceId, owner.auth)).toContain('moved');
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain('service moved');
  });

  it('gives no standby role to a node still deleting its old copy, until it reported the copy gone', async () => {
    const row = await serviceRow(ctx, serviceId);
    const primary = [a, b].find((node) => node.id === row.nodeId)!;
    const old = primary === a ? b : a;
    const departing = entryOf((await old.desired()).workspaces, serviceId)!;
    expect(departing.state).toBe('removed');

    // The only other node of the pool still holds the old primary's data: no standby yet (a
    // failover to a standby made over that copy would serve the stale data).
    await primary.report([]);
    await old.report([]);
    expect((await replicasOf(ctx).tick()).standbysPlaced).toBe(0);
    expect((await serviceRow(ctx, serviceId)).standbyNodeId).toBeNull();
    expect(entryOf((await old.desired()).workspaces, serviceId)?.state).toBe('removed');

    // Deleted: now it is the standby, told so with a standby role.
    await old.report([applied(departing)]);
    expect((await replicasOf(ctx).tick()).standbysPlaced).toBe(1);
    expect((await serviceRow(ctx, serviceId)).standbyNodeId).toBe(old.id);
    expect(entryOf((await old.desired()).workspaces, serviceId)).toMatchObject({
      role: 'standby',
      state: 'running',
    });
  });
});
