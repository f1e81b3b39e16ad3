// Attack 12.2, as the owner saw it: the workspace stayed down for minutes while its service
// showed running with a growing uptime. A node that reports a daemon of the workspace down makes
// the service offline, not running, with the node's reason and no uptime, until it serves again.
import { describe, expect, it } from 'vitest';
import type { ServiceOverviewItem, ServiceStatusDetail } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import { serviceJobs } from '../../test/services.ts';
import { serviceRow, useWorkspaceTestApp } from '../directory/workspace.test-support.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('a workspace whose daemon is down is not shown running', () => {
  const { ctx, node } = useWorkspaceTestApp({ node: { name: 'down-node', addresses: ['10.13.0.1'] } });

  it('attack 12.2: the node reports smbd down after a failed resize: offline with the reason, no uptime; running again once it serves', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    await node.applyAll();
    const get = async <T>(url: string) =>
      (await ctx.app.inject({ method: 'GET', url, headers: owner.auth })).json<T>();
    const overview = async () =>
      (await get<{ services: ServiceOverviewItem[] }>('/api/v1/services/overview')).services[0]!;
    expect(await overview()).toMatchObject({ status: 'active', display_state: 'running' });

    const { generation } = await serviceRow(ctx, serviceId);
    const error = 'storage: the storage image is still in use (/dev/loop7)';
    await node.report([
      {
        service_id: serviceId,
        observed_generation: generation,
        ok: false,
        error,
        drivers: [
          { driver: 'storage', live: false, reason: 'the storage image is still in use (/dev/loop7)' },
          { driver: 'samba', live: true, serving: false, reason: 'not applied: storage failed' },
        ],
        failures: [],
        facts: { disk_used_bytes: 1024, file_count: 3, started_at: null },
      },
    ]);
    expect(await overview()).toMatchObject({
      status: 'active',
      display_state: 'offline',
      display_reason: 'not_serving',
      apply_status: 'failed',
      uptime: null,
    });
    expect(await get<ServiceStatusDetail>(`/api/v1/services/${serviceId}/status`)).toMatchObject({
      display_state: 'offline',
      apply_status: 'failed',
      last_error: error,
      started_at: null,
      uptime: null,
    });

    await node.report([
      {
        service_id: serviceId,
        observed_generation: generation,
        ok: true,
        drivers: [
          { driver: 'storage', live: true },
          { driver: 'samba', live: true, serving: true },
        ],
        failures: [],
        facts: { disk_used_bytes: 1024, file_count: 3, started_at: ctx.now().toISOString() },
      },
    ]);
    expect(await overview()).toMatchObject({ display_state: 'running', apply_status: 'applied' });
  });
});
