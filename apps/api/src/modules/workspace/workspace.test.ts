// The workspace module on a real database: a registered feature's section in what a node pulls,
// the node's failures kept per registered kind, and a change recorded in its own transaction.
import { describe, expect, it } from 'vitest';
import type { ServiceStatusDetail } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import { serviceJobs, workspaceReport } from '../../test/services.ts';
import {
  useWorkspaceTestApp,
  activityOf,
  ownerWithService,
  serviceRow,
  setService,
} from '../directory/workspace.test-support.ts';
import { activityInTransaction } from './activity-in-transaction.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { createWorkspaceChanges } from './workspace-change.ts';
import { createFeatureRegistry } from './workspace-feature.ts';
import { createWorkspaceState } from './workspace-state.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('the workspace module', () => {
  const { ctx, node } = useWorkspaceTestApp({
    node: { name: 'workspace-node', addresses: ['10.14.0.1', '10.14.0.2'] },
  });

  async function placedService(): Promise<{ serviceId: string; auth: Record<string, string> }> {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    return { serviceId, auth: owner.auth };
  }

  it("puts a registered feature's section into the node's desired state, and none into a removed workspace", async () => {
    const { serviceId } = await placedService();
    const shares = [
      {
        name: 'fake',
        path: 'shares/fake',
        description: 'from the fake feature',
        guest_ok: false,
        browseable: true,
        bind_public_ip: false,
        users: [],
        groups: [],
      },
    ];
    const features = createFeatureRegistry([
      {
        feature: 'samba',
        desiredSection: async ({ idBase }) => ({
          samba: {
            shares,
            settings: { workgroup: 'FAKE', server_string: String(idBase), min_protocol: 'SMB2' },
          },
        }),
      },
    ]);
    const state = createWorkspaceState({
      db: ctx.database.db,
      features,
      plans: { publicAddress: () => Promise.resolve(true) },
      notifier: { ready: async () => undefined },
      now: () => new Date(),
    });
    const row = await serviceRow(ctx, serviceId);
    const pulled = (await state.desiredFor(node.id)).find((workspace) => workspace.service_id === serviceId);
    expect(pulled).toMatchObject({
      state: 'running',
      users: [],
      groups: [],
      samba: { shares, settings: { workgroup: 'FAKE', server_string: String(row.idBase) } },
    });

    await setService(ctx, serviceId, { status: 'terminated', generation: row.generation + 1 });
    const removed = (await state.desiredFor(node.id)).find((workspace) => workspace.service_id === serviceId);
    expect(removed).toMatchObject({ state: 'removed', users: [], groups: [] });
    expect(removed?.samba).toBeUndefined();
  });

  it("tells the node a Starter's address is NAT, so its daemons answer through the VPN only", async () => {
    // Placed by hand: the node's two addresses are taken by the other tests.
    const starter = (await buyService(ctx, (await signedInUser(ctx)).auth, STARTER)).service_id;
    // ownerWithService buys MINI, a dedicated-address plan.
    const mini = (await ownerWithService(ctx)).serviceId;
    for (const [index, serviceId] of [starter, mini].entries())
      await setService(ctx, serviceId, {
        status: 'active',
        nodeId: node.id,
        address: `10.14.2.${index + 1}`,
        idBase: 7_000_000 + index * 10_000,
      });
    const { workspaces } = await node.desired();
    const kindOf = (id: string) => workspaces.find((workspace) => workspace.service_id === id)?.address_kind;
    expect([kindOf(starter), kindOf(mini)]).toEqual(['nat', 'dedicated']);
  });

  it("keeps the failures of the registered features' kinds and still hears a report with others", async () => {
    const { serviceId, auth } = await placedService();
    const { generation } = await serviceRow(ctx, serviceId);
    // An agent ahead of its API reports a kind no feature here claims (a feature it does not have yet).
    await node.report([
      {
        service_id: serviceId,
        observed_generation: generation,
        ok: true,
        drivers: [],
        failures: [
          { kind: 'share', name: 'projects', error: 'testparm refused it' },
          { kind: 'not_a_feature_yet', name: 'ona', error: 'no such feature here' },
        ],
      },
    ]);
    const status = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/services/${serviceId}/status`, headers: auth })
    ).json<ServiceStatusDetail>();
    expect(status.observed_generation).toBe(generation);
    expect(status.failures).toEqual([{ kind: 'share', name: 'projects', error: 'testparm refused it' }]);
  });

  it("hands a workspace's report sections to their features in a transaction, not a terminated one's", async () => {
    // Placed by hand: the node's two addresses are taken by the tests above.
    const onNode = async (last: number) => {
      const { serviceId } = await ownerWithService(ctx);
      await setService(ctx, serviceId, {
        nodeId: node.id,
        address: `10.14.1.${last}`,
        idBase: 5_000_000 + last * 10_000,
      });
      return serviceId;
    };
    const serviceId = await onNode(1);
    const otherId = await onNode(2);
    const heard: Array<{ serviceId: string; at: Date; section: unknown; inTransaction: boolean }> = [];
    const features = createFeatureRegistry([
      {
        feature: 'vpn',
        reports: {
          vpn: async (tx, { serviceId: id, at: heardAt }, section) => {
            heard.push({ serviceId: id, at: heardAt, section, inTransaction: 'rollback' in tx });
          },
        },
      },
    ]);
    const at = new Date('2026-03-04T05:06:07Z');
    const state = createWorkspaceState({
      db: ctx.database.db,
      features,
      plans: { publicAddress: () => Promise.resolve(true) },
      notifier: { ready: async () => undefined },
      now: () => at,
    });
    const vpn = {
      sessions: [],
      usage: [{ user: 'ona', month: '2026-03', bytes_received: 1, bytes_sent: 2, over_limit: false }],
    };
    await state.applyReports(node.id, [
      workspaceReport(serviceId, { features: { vpn } }),
      workspaceReport(otherId),
    ]);
    expect(heard).toEqual([{ serviceId, at, section: vpn, inTransaction: true }]);

    await setService(ctx, serviceId, { status: 'terminated' });
    await state.applyReports(node.id, [workspaceReport(serviceId, { features: { vpn } })]);
    expect(heard).toHaveLength(1);
  });

  it('writes the activity entry in the transaction of its change: no entry, no change, nobody woken', async () => {
    const { owner, serviceId } = await ownerWithService(ctx);
    const before = await serviceRow(ctx, serviceId);
    const woken: string[] = [];
    const changes = createWorkspaceChanges({
      db: ctx.database.db,
      recordActivity: async () => {
        throw new Error('the activity log refused the entry');
      },
      wake: (id) => void woken.push(id),
    });
    await expect(
      changes.change(owner.user.id, serviceId, { ip: null }, async ({ generation }) => ({
        result: generation,
        activity: [{ action: 'users and groups synced', tone: 'info' }],
      })),
    ).rejects.toThrow('the activity log refused the entry');
    expect((await serviceRow(ctx, serviceId)).generation).toBe(before.generation);
    expect(woken).toEqual([]);

    // Recorded on the transaction: the entry is there once the change is.
    const recorded = createWorkspaceChanges({
      db: ctx.database.db,
      recordActivity: activityInTransaction(
        createActivityService({ queries: createActivityQueries(ctx.database.db) }),
      ),
      wake: (id) => void woken.push(id),
    });
    const generation = await recorded.change(
      owner.user.id,
      serviceId,
      { ip: '192.0.2.7' },
      async (context) => ({
        result: context.generation,
        activity: [{ action: 'users and groups synced', tone: 'info' }],
      }),
    );
    expect(generation).toBe(before.generation + 1);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'users and groups synced',
      tone: 'info',
      details: {},
    });
    expect(woken).toEqual([serviceId]);
  });
});
