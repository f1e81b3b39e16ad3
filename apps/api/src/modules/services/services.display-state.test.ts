// Issue 13, Major 1: the status tells the truth. One display state, computed by the API, the same
// in the overview (the services list, the service page's header and overview tab), in
// GET /services/status and in GET /services/{id}/status, for each situation a customer meets:
// running, stopped, waiting for room, a node reporting its daemon down or a change not applied,
// a node gone silent. The actions offered follow the lifecycle.
import { describe, expect, it } from 'vitest';
import type {
  ServiceDisplayReason,
  ServiceDisplayState,
  ServiceOverviewItem,
  ServiceState,
  ServiceStatusDetail,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { buyService } from '../../test/payments.ts';
import { capacity, serviceJobs } from '../../test/services.ts';
import { injectWithCsrf } from '../../test/test-app.ts';
import { serviceRow, useWorkspaceTestApp } from '../directory/workspace.test-support.ts';
import { NODE_OFFLINE_AFTER_MS } from './lifecycle.constants.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
/** One address per service the tests place. */
const ADDRESSES = Array.from({ length: 8 }, (_, index) => `10.13.1.${index + 1}`);
type Auth = { authorization: string };

describe('the display state of a service', () => {
  const { ctx, node } = useWorkspaceTestApp({
    clock: true,
    node: { name: 'display-node', addresses: ADDRESSES },
  });

  async function get<T>(url: string, auth: Auth): Promise<T> {
    const response = await ctx.app.inject({ method: 'GET', url, headers: auth });
    expect(response.statusCode, url).toBe(200);
    return response.json<T>();
  }

  /** The state as each of the three reads shows it: they must agree. */
  async function shown(auth: Auth, id: string) {
    const item = (
      await get<{ services: ServiceOverviewItem[] }>('/api/v1/services/overview', auth)
    ).services.find((service) => service.id === id)!;
    const state = (await get<{ services: ServiceState[] }>('/api/v1/services/status', auth)).services.find(
      (service) => service.id === id,
    )!;
    const detail = await get<ServiceStatusDetail>(`/api/v1/services/${id}/status`, auth);
    const pick = (value: {
      display_state: ServiceDisplayState;
      display_reason: ServiceDisplayReason | null;
    }) => ({
      display_state: value.display_state,
      display_reason: value.display_reason,
    });
    expect(pick(state)).toEqual(pick(item));
    expect(pick(detail)).toEqual(pick(item));
    return item;
  }

  async function placedService() {
    const owner = await signedInUser(ctx);
    const id = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(id);
    await node.applyAll();
    return { owner, id };
  }

  function daemonDown(id: string, generation: number) {
    return node.report([
      {
        service_id: id,
        observed_generation: generation,
        ok: false,
        error: 'storage: the storage image is still in use (/dev/loop7)',
        drivers: [
          { driver: 'storage', live: false, reason: 'the storage image is still in use (/dev/loop7)' },
          { driver: 'samba', live: true, serving: false, reason: 'not applied: storage failed' },
        ],
        failures: [],
        facts: { disk_used_bytes: 1024, file_count: 3, started_at: null },
      },
    ]);
  }

  it('running: its node reports it applied and its daemons started; stop and restart are offered', async () => {
    const { owner, id } = await placedService();
    const item = await shown(owner.auth, id);
    expect(item).toMatchObject({ status: 'active', display_state: 'running', display_reason: null });
    expect(item.uptime).not.toBeNull();
    expect(item.actions).toEqual(['stop', 'restart', 'extend', 'cancel', 'terminate']);
  });

  it('stopped: shown stopped at once and after the node applied it; only start is offered of the three', async () => {
    const { owner, id } = await placedService();
    const stop = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/stop`,
      headers: owner.auth,
    });
    expect(stop.statusCode).toBe(200);
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'stopped', apply_status: 'applying' });
    await node.applyAll();
    const item = await shown(owner.auth, id);
    expect(item).toMatchObject({ display_state: 'stopped', apply_status: 'applied', uptime: null });
    expect(item.actions).toEqual(['start', 'extend', 'cancel', 'terminate']);
  });

  it('restarting: shown restarting alike in the three reads until its node applies the restart, then running; never offline meanwhile', async () => {
    const { owner, id } = await placedService();
    const restart = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/restart`,
      headers: owner.auth,
    });
    expect(restart.statusCode).toBe(200);
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'restarting', display_reason: null });
    // The node reports its daemons down mid-restart, the restart not applied yet: still restarting.
    const { observedGeneration } = await serviceRow(ctx, id);
    await daemonDown(id, observedGeneration);
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'restarting' });
    await node.applyAll();
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'running', display_reason: null });
  });

  it('node failure: offline while its node reports the daemon down, degraded while it serves an unapplied change, running again once fixed', async () => {
    const { owner, id } = await placedService();
    const { generation } = await serviceRow(ctx, id);

    await daemonDown(id, generation);
    let item = await shown(owner.auth, id);
    expect(item).toMatchObject({
      status: 'active',
      display_state: 'offline',
      display_reason: 'not_serving',
      uptime: null,
    });
    // Restart is what the owner can do about it.
    expect(item.actions).toContain('restart');

    // Served at the old size, the resize not done: degraded, with its uptime.
    await node.report([
      {
        service_id: id,
        observed_generation: generation,
        ok: false,
        error: 'storage: storage stays 3221225472 bytes: growing to 53687091200 bytes failed',
        drivers: [
          { driver: 'storage', live: true, reason: 'growing failed' },
          { driver: 'samba', live: true, serving: true },
        ],
        failures: [],
        facts: { disk_used_bytes: 1024, file_count: 3, started_at: ctx.now().toISOString() },
      },
    ]);
    item = await shown(owner.auth, id);
    expect(item).toMatchObject({ display_state: 'degraded', display_reason: 'change_not_applied' });
    expect(item.uptime).not.toBeNull();

    await node.applyAll();
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'running', display_reason: null });
  });

  it('node failure: degraded (node_silent, no uptime) when its node stops reporting, running again when it reports', async () => {
    const { owner, id } = await placedService();
    ctx.advance(NODE_OFFLINE_AFTER_MS + 1000);
    expect(await shown(owner.auth, id)).toMatchObject({
      display_state: 'degraded',
      display_reason: 'node_silent',
      uptime: null,
    });
    await node.applyAll();
    expect(await shown(owner.auth, id)).toMatchObject({ display_state: 'running', display_reason: null });
  });

  it('waiting for room: waitingForResources, never running; start, stop and restart are neither offered nor taken', async () => {
    const owner = await signedInUser(ctx);
    const id = (await buyService(ctx, owner.auth, STARTER)).service_id;
    // Every node full: no room for 3 GB.
    await node.report([], capacity(0, ADDRESSES));
    expect((await serviceJobs(ctx).placement.place(id)).kind).toBe('pending');
    const item = await shown(owner.auth, id);
    expect(item).toMatchObject({
      status: 'resourcePending',
      display_state: 'waitingForResources',
      run_state: 'running',
      uptime: null,
    });
    expect(item.actions).not.toContain('start');
    expect(item.actions).not.toContain('stop');
    expect(item.actions).not.toContain('restart');
    const stop = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/stop`,
      headers: owner.auth,
    });
    expect(stop.statusCode).toBe(409);
    expect(stop.json<{ detail: string }>().detail).toBe('service_not_active');
    await node.report([], capacity(1000, ADDRESSES));
  });

  it('a restart of an offline workspace asks its node for a restart (a new restart_token)', async () => {
    const { owner, id } = await placedService();
    const { generation } = await serviceRow(ctx, id);
    await daemonDown(id, generation);
    const restart = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/restart`,
      headers: owner.auth,
    });
    expect(restart.statusCode).toBe(200);
    const workspace = (await node.desired()).workspaces.find((w) => w.service_id === id);
    expect(workspace).toMatchObject({ state: 'running', generation: generation + 1 });
    expect(workspace?.restart_token).toBe(String(generation + 1));
  });
});
