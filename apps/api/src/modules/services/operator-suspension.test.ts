// Support's suspension: active services stop (the lifecycle's `suspend`), each with an entry saying
// an operator did it, and unsuspending brings back exactly those, not a service suspended for
// another reason.
import { describe, expect, it } from 'vitest';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { useTestContext } from '../../test/test-app.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import {
  reactivateService,
  suspendAccount,
  suspendService,
  suspendedByOperator,
  unsuspendAccount,
  type OperatorSuspensionDeps,
} from './operator-suspension.ts';
import { createServicesQueries } from './services.queries.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('operator suspension', () => {
  let node: TestNode;
  let deps: OperatorSuspensionDeps;
  let woken: string[];

  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    node = await registerNode(
      ctx,
      'suspend-node',
      capacity(
        1000,
        Array.from({ length: 10 }, (_, index) => `10.7.0.${index + 1}`),
      ),
    );
    woken = [];
    deps = {
      db: ctx.database.db,
      activity: createActivityService({ queries: createActivityQueries(ctx.database.db) }),
      wakeNode: (nodeId) => woken.push(nodeId),
      now: () => ctx.now(),
    };
  });

  /** An owner with `count` active services on the node. */
  async function activeServices(count: number) {
    const owner = await signedInUser(ctx);
    const ids: string[] = [];
    for (let index = 0; index < count; index += 1) {
      const { service_id } = await buyService(ctx, owner.auth, STARTER);
      await serviceJobs(ctx).placement.place(service_id);
      ids.push(service_id);
    }
    await node.applyAll();
    const queries = createServicesQueries(ctx.database.db);
    for (const id of ids) expect((await queries.findById(id))?.status).toBe('active');
    return { owner, ids };
  }

  const statusOf = async (id: string) => (await createServicesQueries(ctx.database.db).findById(id))?.status;

  it('suspends an active service, stops it on its node and records the operator', async () => {
    const { owner, ids } = await activeServices(1);
    const id = ids[0]!;
    const before = (await createServicesQueries(ctx.database.db).findById(id))!;

    const row = await suspendService(deps, id, 'abuse report 42');

    expect(row).toMatchObject({ status: 'suspended', generation: before.generation + 1 });
    expect(woken).toContain(node.id);
    const desired = (await node.desired()).workspaces.find((workspace) => workspace.service_id === id);
    expect(desired?.state).toBe('stopped');
    const entries = await deps.activity.listForService(owner.user.id, id, 10);
    expect(entries[0]).toMatchObject({
      action: 'service suspended',
      tone: 'warning',
      details: { by: 'operator', suspended: true, reason: 'abuse report 42' },
    });
    expect(await suspendedByOperator(deps, row!)).toBe(true);
    // Not active any more: a second suspension refuses and records nothing.
    expect(await suspendService(deps, id, null)).toBeUndefined();
    expect(await deps.activity.listForService(owner.user.id, id, 10)).toHaveLength(entries.length);

    const back = await reactivateService(deps, id);
    expect(back?.status).toBe('active');
    expect((await deps.activity.listForService(owner.user.id, id, 1))[0]).toMatchObject({
      action: 'service reactivated',
      details: { by: 'operator' },
    });
    expect(await reactivateService(deps, id)).toBeUndefined();
  });

  it('unsuspends only what the operator suspended', async () => {
    const { owner, ids } = await activeServices(3);
    const [ours, other, cancelled] = ids as [string, string, string];
    const queries = createServicesQueries(ctx.database.db);
    // Suspended for another reason before the operator acts (no operator entry), and one not active.
    await queries.transition(other, 'suspend', ctx.now());
    await queries.transition(cancelled, 'cancel', ctx.now());

    const suspended = await suspendAccount(deps, owner.user.id, null);
    expect(suspended.changed.map((row) => row.id)).toEqual([ours]);
    expect(suspended.untouched.map((service) => service.id).sort()).toEqual([other, cancelled].sort());

    const reactivated = await unsuspendAccount(deps, owner.user.id);
    expect(reactivated.changed.map((row) => row.id)).toEqual([ours]);
    expect(await statusOf(ours)).toBe('active');
    expect(await statusOf(other)).toBe('suspended');
    expect(await statusOf(cancelled)).toBe('cancelled');
    // Nothing left that the operator suspended.
    expect((await unsuspendAccount(deps, owner.user.id)).changed).toEqual([]);
  });

  it('leaves a service whose status changed after the operator suspended it', async () => {
    const { owner, ids } = await activeServices(1);
    const id = ids[0]!;
    await suspendAccount(deps, owner.user.id, null);
    const queries = createServicesQueries(ctx.database.db);
    // Restored and suspended again by something else since: no longer the operator's suspension.
    await queries.transition(id, 'reactivate', new Date(ctx.now().getTime() + 1000));
    await queries.transition(id, 'suspend', new Date(ctx.now().getTime() + 2000));

    expect((await unsuspendAccount(deps, owner.user.id)).changed).toEqual([]);
    expect(await statusOf(id)).toBe('suspended');
  });
});
