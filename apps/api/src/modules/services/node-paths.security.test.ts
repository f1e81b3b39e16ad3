// Issue 36, point 8 (the attack run): a node's failure text reached customers with the node's own
// paths (`/var/lib/…/data/nodes/local/ws/<id>/…`) in the service's log and in monitoring's tasks,
// as it had in the status before withoutNodePaths. Replayed here through the routes a customer calls.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServiceLogLine, TasksResponse } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import { serviceJobs, type TestNode } from '../../test/services.ts';
import { injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { workspaceTestApp } from '../directory/workspace.test-support.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
const ROOT = '/var/lib/debesis/data/nodes/local/ws/3f0c9a1e-0b7a-4c11-9d55-2a7d1c0e9b10';
const NODE_ERROR = `smbd: cannot open ${ROOT}/etc/smb.conf: permission denied`;
const NODE_LAYOUT = /\/var\/lib|data\/nodes|\/ws\//;

describe('node paths in what a customer reads of a failure', () => {
  let ctx: TestContext;
  let node: TestNode;

  beforeEach(async () => {
    ({ ctx, node } = await workspaceTestApp({ node: { name: 'paths-node', addresses: ['10.9.0.1'] } }));
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('attack: an apply failure naming node files shows in the log and the tasks without them', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    await node.applyAll();
    // A change the node then fails to apply: the task stays failed while the error stands.
    const restart = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${serviceId}/restart`,
      headers: owner.auth,
    });
    expect(restart.statusCode, restart.body).toBe(200);
    await node.report([
      {
        service_id: serviceId,
        observed_generation: 1,
        ok: false,
        error: NODE_ERROR,
        error_code: 'driver_failed',
        error_params: { driver: 'samba', file: `${ROOT}/etc/smb.conf` },
        drivers: [{ driver: 'samba', live: false }],
        failures: [],
      },
    ]);

    const logs = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/services/${serviceId}/logs`,
      headers: owner.auth,
    });
    expect(logs.statusCode).toBe(200);
    const failure = logs.json<{ lines: ServiceLogLine[] }>().lines.find((line) => line.level === 'error');
    expect(failure).toMatchObject({
      message: 'smbd: cannot open etc/smb.conf: permission denied',
      params: { detail: 'smbd: cannot open etc/smb.conf: permission denied', file: 'etc/smb.conf' },
    });
    expect(logs.body).not.toMatch(NODE_LAYOUT);

    const tasks = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/monitoring/tasks?service_id=${serviceId}`,
      headers: owner.auth,
    });
    expect(tasks.statusCode).toBe(200);
    expect(tasks.json<TasksResponse>().tasks[0]).toMatchObject({
      state: 'failed',
      error: 'smbd: cannot open etc/smb.conf: permission denied',
    });
    expect(tasks.body).not.toMatch(NODE_LAYOUT);
  });
});
