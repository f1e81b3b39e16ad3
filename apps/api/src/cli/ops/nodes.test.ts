// `ops nodes`: the list, and removal refused while a node holds workspaces (with what moving them
// would take) and allowed for an empty one, whose token then stops working.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { drainNode } from '../../modules/nodes/node-admin.ts';
import { createNodesQueries } from '../../modules/nodes/nodes.queries.ts';
import { createServicesQueries } from '../../modules/services/services.queries.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs } from '../../test/services.ts';
import { createTestContext, type TestContext } from '../../test/test-app.ts';
import { nodeSummaries, removeNode } from './nodes.ts';
import { renderNodes, renderRemoval } from './render.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('ops nodes', () => {
  let ctx: TestContext;
  // Placement picks among every node, so each test has a world of its own.
  beforeEach(async () => {
    ctx = await createTestContext();
    await seedCatalogue(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** A service placed on the roomiest node and applied there. */
  async function placedService() {
    const owner = await signedInUser(ctx);
    const { service_id } = await buyService(ctx, owner.auth, STARTER);
    const outcome = await serviceJobs(ctx).placement.place(service_id);
    if (outcome.kind !== 'placed') throw new Error('not placed');
    return outcome.service;
  }

  it('lists nodes with state, drain, addresses and workspaces', async () => {
    const source = await registerNode(ctx, 'list-a', capacity(1000, ['10.8.0.1', '10.8.0.2']));
    await registerNode(ctx, 'list-b', capacity(20, ['10.8.0.3']));
    await placedService();
    await source.applyAll();
    await drainNode(ctx.database.db, 'list-b', ctx.now());

    const nodes = await nodeSummaries(ctx.database.db, ctx.now());

    expect(nodes.map((node) => node.name)).toEqual(['list-a', 'list-b']);
    expect(nodes[0]).toMatchObject({
      online: true,
      drainedAt: null,
      addressesFree: 1,
      addressesTotal: 2,
      workspaces: 1,
      terminatedHeld: 0,
      roomGb: 1000 - 3,
    });
    expect(nodes[1]).toMatchObject({ workspaces: 0, addressesFree: 1, roomGb: 20 });
    expect(nodes[1]?.drainedAt).toBeInstanceOf(Date);
    const text = renderNodes(nodes);
    expect(text.split('\n')[0]).toMatch(/^NAME\s+HOSTNAME\s+STATE\s+DRAINED/);
    expect(text).toContain('1/2 free');
  });

  it('refuses to remove a node that holds a workspace, with a move plan to a node with room', async () => {
    const source = await registerNode(ctx, 'rm-source', capacity(1000, ['10.8.1.1']));
    // The address follows a move (issue 37): only a node whose pool holds it can take it.
    await registerNode(ctx, 'rm-full', capacity(1, ['10.8.1.1', '10.8.1.2']));
    await registerNode(ctx, 'rm-other-room', capacity(500, ['10.8.2.1']));
    await registerNode(ctx, 'rm-target', capacity(100, ['10.8.1.1', '10.8.1.3']));
    const service = await placedService();
    expect(service.nodeId).toBe(source.id);
    await source.applyAll();

    const outcome = await removeNode(ctx.database.db, 'rm-source', ctx.now());

    expect(outcome.kind).toBe('refused');
    if (outcome.kind !== 'refused') return;
    expect(outcome.moves).toHaveLength(1);
    expect(outcome.moves[0]).toMatchObject({
      serviceId: service.id,
      diskSpaceGb: 3,
      diskUsedBytes: 1024,
      address: '10.8.1.1',
      target: { node: 'rm-target', address: '10.8.1.1' },
    });
    expect(outcome.moves[0]?.steps).toHaveLength(3);
    expect(outcome.moves[0]?.steps.join('\n')).toMatch(
      /drain[\s\S]*services move \S+ rm-target[\s\S]*nodes evacuate rm-source/,
    );
    expect(renderRemoval(outcome)).toContain('rm-target, address 10.8.1.1');
    // Nothing was removed or changed.
    expect(await createNodesQueries(ctx.database.db).findByName('rm-source')).toBeDefined();
    await expect(source.desired()).resolves.toBeDefined();

    // With the only other node with room drained, there is no target.
    await drainNode(ctx.database.db, 'rm-target', ctx.now());
    const none = await removeNode(ctx.database.db, 'rm-source', ctx.now());
    expect(none.kind === 'refused' && none.moves[0]?.target).toBeNull();
  });

  it('removes an empty node: its token stops working, its registrations stay', async () => {
    const empty = await registerNode(ctx, 'rm-empty', capacity(10));
    const queries = createNodesQueries(ctx.database.db);

    const outcome = await removeNode(ctx.database.db, 'rm-empty', ctx.now());

    expect(outcome).toMatchObject({ kind: 'removed', terminatedHeld: 0 });
    expect(await queries.findByName('rm-empty')).toBeUndefined();
    await expect(empty.desired()).rejects.toThrow(/desired-state failed/);
    const trail = await queries.registrationsOf('rm-empty');
    expect(trail).toHaveLength(1);
    expect(trail[0]).toMatchObject({ outcome: 'enrolled', nodeId: null });
    await expect(removeNode(ctx.database.db, 'rm-empty', ctx.now())).rejects.toThrow(
      'no node named rm-empty',
    );
  });

  it('removes a node that holds only terminated workspaces, and says so', async () => {
    const node = await registerNode(ctx, 'rm-terminated', capacity(100, ['10.8.2.1']));
    const service = await placedService();
    await node.applyAll();
    const terminated = await createServicesQueries(ctx.database.db).transition(
      service.id,
      'terminate',
      ctx.now(),
    );
    expect(terminated?.status).toBe('terminated');

    const outcome = await removeNode(ctx.database.db, 'rm-terminated', ctx.now());

    expect(outcome).toMatchObject({ kind: 'removed', terminatedHeld: 1 });
    expect(renderRemoval(outcome)).toContain('1 terminated workspace(s)');
  });
});
