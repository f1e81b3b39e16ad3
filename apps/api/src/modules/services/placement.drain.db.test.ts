// Placement and drained nodes: an operator's drain keeps new workspaces off a node, which still
// counts as online (it serves what it holds) for everything but placement.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs } from '../../test/services.ts';
import { createTestContext, type TestContext } from '../../test/test-app.ts';
import { drainNode, undrainNode } from '../nodes/node-admin.ts';
import { onlineNodesSince, placeableNodesSince } from '../nodes/online-nodes.ts';
import { placeableNowGb } from './placement.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('placement with a drained node', () => {
  let ctx: TestContext;
  // Placement picks among every node, so each test has a world of its own.
  beforeEach(async () => {
    ctx = await createTestContext();
    await seedCatalogue(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('places on the undrained node even when the drained one has more room', async () => {
    const roomy = await registerNode(ctx, 'drain-roomy', capacity(1000, ['10.6.0.1']));
    const small = await registerNode(ctx, 'drain-small', capacity(10, ['10.6.0.2']));
    await drainNode(ctx.database.db, 'drain-roomy', ctx.now());
    const owner = await signedInUser(ctx);
    const { service_id } = await buyService(ctx, owner.auth, STARTER);

    const outcome = await serviceJobs(ctx).placement.place(service_id);

    expect(outcome.kind).toBe('placed');
    expect(outcome.kind === 'placed' && outcome.service.nodeId).toBe(small.id);
    expect((await roomy.desired()).workspaces).toEqual([]);
    // Still online for the rest (the monitoring sweep reads this): only placement skips it.
    const since = new Date(ctx.now().getTime() - 60_000);
    expect((await onlineNodesSince(ctx.database.db, since)).map((node) => node.name)).toContain(
      'drain-roomy',
    );
    expect((await placeableNodesSince(ctx.database.db, since)).map((node) => node.name)).toEqual([
      'drain-small',
    ]);
  });

  it('waits for resources while every node is drained, and places once one is undrained', async () => {
    const only = await registerNode(ctx, 'drain-only', capacity(1000, ['10.6.1.1']));
    await drainNode(ctx.database.db, 'drain-only', ctx.now());
    expect(await placeableNowGb(ctx.database.db, ctx.now())).toBe(0);
    const owner = await signedInUser(ctx);
    const { service_id } = await buyService(ctx, owner.auth, STARTER);
    const jobs = serviceJobs(ctx);

    expect((await jobs.placement.place(service_id)).kind).toBe('pending');

    await undrainNode(ctx.database.db, 'drain-only');
    expect(await placeableNowGb(ctx.database.db, ctx.now())).toBeGreaterThan(0);
    const outcome = await jobs.placement.place(service_id);
    expect(outcome.kind === 'placed' && outcome.service.nodeId).toBe(only.id);
  });

  it('keeps the first drain time when drained again', async () => {
    await registerNode(ctx, 'drain-twice', capacity(10));
    const first = await drainNode(ctx.database.db, 'drain-twice', new Date('2030-01-01T00:00:00Z'));
    const again = await drainNode(ctx.database.db, 'drain-twice', new Date('2030-02-01T00:00:00Z'));
    expect(first?.drainedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(again?.drainedAt?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect((await undrainNode(ctx.database.db, 'drain-twice'))?.drainedAt).toBeNull();
    expect(await drainNode(ctx.database.db, 'no-such-node', ctx.now())).toBeUndefined();
  });
});
