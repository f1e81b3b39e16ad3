// Attack 12.4: a disk downgrade gave its credit at once while the node kept the bigger disk
// (3.4 GB written to a "3 GB" workspace). The credit now waits for the node to report the
// smaller disk in place; a shrink the node refuses because the data does not fit undoes the
// change, without credit, and the owner's activity log says why.
import { describe, expect, it } from 'vitest';
import type { AccountCredit, PlanChange, WorkspaceReport } from '@debesis/contract';
import { injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import { GIB, serviceJobs } from '../../test/services.ts';
import { activityOf, serviceRow, useWorkspaceTestApp } from '../directory/workspace.test-support.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2 };
type Auth = Record<string, string>;

describe('a disk downgrade is credited only once the node has the smaller disk', () => {
  const { ctx, node } = useWorkspaceTestApp({
    node: { name: 'shrink-node', addresses: ['10.12.0.1', '10.12.0.2', '10.12.0.3'] },
  });

  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const post = (auth: Auth, url: string, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, payload });
  const credit = async (auth: Auth) => (await get(auth, '/api/v1/account/credit')).json<AccountCredit>();

  /** What a live node reports: the workspace at `storage` bytes, perhaps a refused shrink. */
  function report(
    serviceId: string,
    generation: number,
    storage: number,
    refused?: { bytes: number; reason: string },
  ): WorkspaceReport {
    return {
      service_id: serviceId,
      observed_generation: generation,
      ok: refused === undefined,
      ...(refused ? { error: `storage: ${refused.reason}` } : {}),
      drivers: [
        {
          driver: 'storage',
          live: true,
          ...(refused ? { reason: refused.reason, refused_bytes: refused.bytes } : {}),
        },
        { driver: 'samba', live: true, serving: true },
      ],
      failures: [],
      facts: {
        disk_used_bytes: GIB,
        file_count: 3,
        started_at: ctx.now().toISOString(),
        storage_bytes: storage,
      },
    };
  }

  /** A MINI workspace placed on the node, which reports its 50 GB disk. */
  async function placedService() {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, MINI)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    const row = await serviceRow(ctx, serviceId);
    await node.report([report(serviceId, row.generation, 50 * GIB)]);
    expect((await serviceRow(ctx, serviceId)).status).toBe('active');
    return { auth: owner.auth, serviceId };
  }

  async function downgrade(auth: Auth, serviceId: string): Promise<PlanChange> {
    const response = await post(auth, '/api/v1/plan-changes/', {
      service_id: serviceId,
      ...STARTER,
      confirm_downgrade: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<PlanChange>();
  }

  it('attack 12.4: no credit while the node still has the bigger disk; the credit once it reports the smaller one, once', async () => {
    const { auth, serviceId } = await placedService();
    const change = await downgrade(auth, serviceId);
    expect(change.credit).toBeGreaterThan(0);
    expect((await credit(auth)).balance).toBe(0);
    const row = await serviceRow(ctx, serviceId);
    expect(row.diskSpace).toBe(3);

    // Another change waits until the node has answered for this one.
    const next = await post(auth, '/api/v1/plan-changes/quote', { service_id: serviceId, ...MINI });
    expect(next.statusCode).toBe(409);
    expect(next.json()).toMatchObject({ detail: 'plan_change_applying' });

    // The node has not shrunk it yet (a pass before the change, or one still at it).
    await node.report([report(serviceId, row.generation - 1, 50 * GIB)]);
    expect((await credit(auth)).balance).toBe(0);

    await node.report([report(serviceId, row.generation, 3 * GIB)]);
    expect((await credit(auth)).balance).toBe(change.credit);
    await node.report([report(serviceId, row.generation, 3 * GIB)]);
    const after = await credit(auth);
    expect(after.balance).toBe(change.credit);
    expect(after.entries.filter((entry) => entry.kind === 'downgrade')).toHaveLength(1);
    expect((await activityOf(ctx, serviceId)).map((entry) => entry.action)).toContain(
      'plan change credit granted',
    );
    const quoted = await post(auth, '/api/v1/plan-changes/quote', { service_id: serviceId, ...MINI });
    expect(quoted.statusCode).toBe(200);
  });

  it('attack 12.4: a shrink the node refuses undoes the change: the old plan back, no credit, the reason told', async () => {
    const { auth, serviceId } = await placedService();
    const change = await downgrade(auth, serviceId);
    const changed = await serviceRow(ctx, serviceId);
    const reason = `storage stays ${50 * GIB} bytes: shrinking to ${3 * GIB} bytes was refused: the data needs at least ${Math.round(3.4 * GIB)} bytes`;
    await node.report([report(serviceId, changed.generation - 1, 50 * GIB, { bytes: 3 * GIB, reason })]);

    expect((await credit(auth)).balance).toBe(0);
    const reverted = await serviceRow(ctx, serviceId);
    expect([reverted.productId, reverted.diskSpace, reverted.usersCount]).toEqual(['mini', 50, 5]);
    expect(reverted.generation).toBeGreaterThan(changed.generation);
    const shown = (await get(auth, `/api/v1/plan-changes/${change.id}`)).json<PlanChange>();
    expect(shown.status).toBe('cancelled');
    const entry = (await activityOf(ctx, serviceId)).find((e) => e.action === 'plan change reverted');
    expect(entry).toMatchObject({ tone: 'warning', details: { reason, restored_disk_space: 50 } });
    // The node gets the old size back in its desired state.
    const desired = (await node.desired()).workspaces.find((w) => w.service_id === serviceId);
    expect(desired?.storage_bytes).toBe(50 * GIB);
  });
});
