// Every route of spec §7 "Services" through the API: answers, refusals with the spec's words,
// validation, authorisation (another account's service is "Service not found"), and the node's
// side (only the node a service is placed on may report on it).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS } from '@debesis/contract';
import type {
  ServiceActionResponse,
  ServiceConfig,
  ServiceLogLine,
  ServiceOverviewItem,
  ServiceStats,
  ServiceStatusDetail,
} from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import {
  buyService,
  openSession,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
} from '../../test/payments.ts';
import { capacity, GIB, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { createTestContext, injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { serviceEvents } from './services.table.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
type Auth = { authorization: string };

describe('services routes', () => {
  let ctx: TestContext;
  let node: TestNode;
  let owner: Awaited<ReturnType<typeof signedInUser>>;
  let serviceId: string;

  const get = (url: string, auth: Auth) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const post = (url: string, auth: Auth, payload?: object) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, ...(payload ? { payload } : {}) });
  const put = (url: string, auth: Auth, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'PUT', url, headers: auth, payload });

  /** A service bought, placed on the test node and applied there: active. */
  async function activeService(auth: Auth): Promise<string> {
    const id = (await buyService(ctx, auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(id);
    await node.applyAll();
    return id;
  }

  // A world of its own for each test: tests change the service (actions, settings) and use up the
  // node's four addresses, so a shared one would depend on which tests ran before.
  beforeEach(async () => {
    ctx = await createTestContext();
    await seedCatalogue(ctx);
    node = await registerNode(
      ctx,
      'routes-node',
      capacity(1000, ['10.9.0.1', '10.9.0.2', '10.9.0.3', '10.9.0.4']),
    );
    owner = await signedInUser(ctx);
    serviceId = await activeService(owner.auth);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('lists the services with the spec’s fields and the lifecycle’s', async () => {
    const response = await get('/api/v1/services/overview', owner.auth);
    expect(response.statusCode).toBe(200);
    const [item] = response.json<{ services: ServiceOverviewItem[] }>().services;
    expect(item?.name).toContain('Starter');
    expect(item).toMatchObject({
      id: serviceId,
      plan: 'Starter',
      status: 'active',
      ip_address: '10.9.0.1',
      disk_space: 3,
      disk_usage: 1024,
      file_usage: 3,
      users_active: 0,
      users_total: 2,
      groups: 0,
      shares: 0,
      run_state: 'running',
      display_state: 'running',
      apply_status: 'applied',
      expiry_warning: null,
      terminates_at: null,
    });
    expect(item?.days_left).toBeGreaterThanOrEqual(28);
    expect(item?.uptime).toBeGreaterThanOrEqual(0);

    const statuses = await get('/api/v1/services/status', owner.auth);
    expect(statuses.json()).toEqual({
      services: [
        {
          id: serviceId,
          name: item?.name,
          status: 'active',
          run_state: 'running',
          display_state: 'running',
          display_reason: null,
          apply_status: 'applied',
        },
      ],
    });
  });

  it('shows a service’s status: generations, drivers, node, last error', async () => {
    const response = await get(`/api/v1/services/${serviceId}/status`, owner.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json<ServiceStatusDetail>()).toMatchObject({
      id: serviceId,
      status: 'active',
      generation: 1,
      observed_generation: 1,
      placed: true,
      node_online: true,
      drivers: [{ driver: 'workspace-dir', live: true, reason: null }],
      failures: [],
      last_error: null,
    });

    // A failing driver shows as failed, with the node's reason, until it recovers.
    await node.report([
      {
        service_id: serviceId,
        observed_generation: 1,
        ok: false,
        error: 'smbd: testparm refused the configuration',
        drivers: [{ driver: 'samba', live: false, reason: 'smbd is not installed' }],
        failures: [],
      },
    ]);
    const failing = (
      await get(`/api/v1/services/${serviceId}/status`, owner.auth)
    ).json<ServiceStatusDetail>();
    expect(failing).toMatchObject({
      apply_status: 'failed',
      last_error: 'smbd: testparm refused the configuration',
      drivers: [{ driver: 'samba', live: false, reason: 'smbd is not installed' }],
    });
    await node.applyAll();
    const logs = (await get(`/api/v1/services/${serviceId}/logs`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    expect(logs.lines.filter((line) => line.source === 'agent').map((line) => line.message)).toEqual([
      'applied generation 1',
      'smbd: testparm refused the configuration',
      'recovered: applied generation 1',
    ]);
  });

  it('gives each log line a code with params, the agent’s too, and keeps old lines readable', async () => {
    const id = await activeService(owner.auth);
    const [workspace] = (await node.desired()).workspaces.filter((w) => w.service_id === id);
    const failing = {
      service_id: id,
      observed_generation: workspace?.generation ?? 1,
      ok: false,
      drivers: [{ driver: 'storage', live: true }],
      failures: [],
    };
    // An agent of this version says why as a code; an older one only in its own words.
    await node.report([
      {
        ...failing,
        error: 'storage: e2fsck exited 8',
        error_code: 'driver_failed',
        error_params: { driver: 'storage' },
      },
    ]);
    await node.applyAll();
    await node.report([{ ...failing, error: 'samba: smb.conf did not validate' }]);
    await node.report([{ ...failing, error: 'later: made up', error_code: 'no_such_code' }]);
    await post(`/api/v1/services/${id}/stop`, owner.auth);
    // A line written before codes: only its text.
    await ctx.database.db.insert(serviceEvents).values({
      serviceId: id,
      accountId: owner.user.id,
      level: 'info',
      message: 'applied generation 1',
      details: { generation: 1 },
      createdAt: new Date(Date.now() - 60 * 60_000),
    });

    const response = await get(`/api/v1/services/${id}/logs`, owner.auth);
    expect(response.statusCode).toBe(200);
    const lines = response.json<{ lines: ServiceLogLine[] }>().lines;
    expect(lines[0]).toMatchObject({ source: 'agent', code: null, message: 'applied generation 1' });
    const agent = lines.filter((line) => line.source === 'agent').slice(1);
    expect(agent.map(({ code, params, level }) => ({ code, params, level }))).toEqual([
      { code: 'generation_applied', level: 'info', params: { generation: 1, failures: 0 } },
      {
        code: 'driver_failed',
        level: 'error',
        params: {
          driver: 'storage',
          detail: 'storage: e2fsck exited 8',
          generation: 1,
          observed_generation: 1,
        },
      },
      { code: 'recovered', level: 'success', params: { generation: 1, failures: 0 } },
      {
        code: 'apply_failed',
        level: 'error',
        params: { detail: 'samba: smb.conf did not validate', generation: 1, observed_generation: 1 },
      },
      {
        code: 'apply_failed',
        level: 'error',
        params: { detail: 'later: made up', generation: 1, observed_generation: 1 },
      },
    ]);
    const management = lines.filter((line) => line.source === 'management');
    expect(management.map((line) => line.code)).toEqual(
      expect.arrayContaining(['service created', 'service stopped']),
    );
    expect(typeof management.find((line) => line.code === 'service created')?.params.address).toBe('string');
    for (const line of management) expect(ACTIVITY_ACTIONS).toContain(line.code);
  });

  it('stops, starts and restarts through the desired state, with activity entries', async () => {
    const stop = await post(`/api/v1/services/${serviceId}/stop`, owner.auth);
    expect(stop.statusCode).toBe(200);
    expect(stop.json()).toMatchObject({
      run_state: 'stopped',
      display_state: 'stopped',
      apply_status: 'applying',
    });
    let workspace = (await node.desired()).workspaces.find((w) => w.service_id === serviceId);
    expect(workspace).toMatchObject({ state: 'stopped', generation: 2 });
    expect(workspace?.restart_token).toBeUndefined();

    const start = await post(`/api/v1/services/${serviceId}/start`, owner.auth);
    expect(start.json()).toMatchObject({ run_state: 'running', generation: 3 });
    // Starting a running service asks the node for nothing new.
    const again = await post(`/api/v1/services/${serviceId}/start`, owner.auth);
    expect(again.json()).toMatchObject({ run_state: 'running', generation: 3 });

    const restart = await post(`/api/v1/services/${serviceId}/restart`, owner.auth);
    expect(restart.statusCode).toBe(200);
    workspace = (await node.desired()).workspaces.find((w) => w.service_id === serviceId);
    expect(workspace).toMatchObject({ state: 'running', generation: 4, restart_token: '4' });
    await node.applyAll();
    expect((await get(`/api/v1/services/${serviceId}/status`, owner.auth)).json()).toMatchObject({
      apply_status: 'applied',
      observed_generation: 4,
    });

    const viaAction = await post(`/api/v1/services/${serviceId}/action`, owner.auth, { action: 'stop' });
    expect(viaAction.statusCode).toBe(200);
    expect(viaAction.json<ServiceActionResponse>()).toMatchObject({
      action: 'stop',
      service: { run_state: 'stopped' },
      payment: null,
      order_id: null,
    });
    await post(`/api/v1/services/${serviceId}/action`, owner.auth, { action: 'start', params: {} });

    const logs = (await get(`/api/v1/services/${serviceId}/logs`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    const management = logs.lines.filter((line) => line.source === 'management').map((line) => line.message);
    expect(management).toEqual(
      expect.arrayContaining(['service stopped', 'service started', 'service restarted']),
    );
    expect(logs.lines.find((line) => line.message === 'service stopped')).toMatchObject({ level: 'info' });
  });

  it('answers the log’s newest lines, oldest first, and refuses a bad line count', async () => {
    const all = (await get(`/api/v1/services/${serviceId}/logs`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    expect(all.lines.length).toBeGreaterThan(3);
    const sorted = [...all.lines].sort((a, b) => a.at.localeCompare(b.at));
    expect(all.lines).toEqual(sorted);
    const two = (await get(`/api/v1/services/${serviceId}/logs?lines=2`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    expect(two.lines).toEqual(all.lines.slice(-2));
    for (const lines of ['0', '-1', 'abc', '1001', '1.5']) {
      const response = await get(`/api/v1/services/${serviceId}/logs?lines=${lines}`, owner.auth);
      expect(response.statusCode, lines).toBe(422);
      expect(response.json()).toMatchObject({ detail: 'validation_error' });
    }
  });

  it('shows usage against the plan', async () => {
    const response = await get(`/api/v1/services/${serviceId}/stats`, owner.auth);
    expect(response.statusCode).toBe(200);
    expect(response.json<ServiceStats>()).toMatchObject({
      id: serviceId,
      disk_space_bytes: 3 * GIB,
      disk_used_bytes: 1024,
      file_count: 3,
      users_total: 2,
      bandwidth_gb: 6,
      disk_used_percent: 0,
    });
  });

  it('reads and changes the settings, and renames the service', async () => {
    const config = await get(`/api/v1/services/${serviceId}/config`, owner.auth);
    expect(config.json<ServiceConfig>()).toMatchObject({ description: '', expiry_reminders: true });

    const changed = await put(`/api/v1/services/${serviceId}/config`, owner.auth, {
      description: 'Team files\nand archives',
      expiry_reminders: false,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      description: 'Team files\nand archives',
      expiry_reminders: false,
    });

    const renamed = await put(`/api/v1/services/${serviceId}`, owner.auth, { name: '  Office drive  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json<ServiceOverviewItem>()).toMatchObject({
      id: serviceId,
      name: 'Office drive',
      description: 'Team files\nand archives',
      status: 'active',
    });
    const logs = (await get(`/api/v1/services/${serviceId}/logs`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    expect(logs.lines.filter((line) => line.message === 'settings updated')).toHaveLength(2);

    const refusals: Array<[string, object, string]> = [
      [`/api/v1/services/${serviceId}`, {}, 'name'],
      [`/api/v1/services/${serviceId}`, { name: '' }, 'name'],
      [`/api/v1/services/${serviceId}`, { name: 'x'.repeat(81) }, 'name'],
      [`/api/v1/services/${serviceId}`, { name: 'a\u0000b' }, 'name'],
      [`/api/v1/services/${serviceId}`, { status: 'active' }, 'body'],
      [`/api/v1/services/${serviceId}/config`, { expiry_reminders: 'yes' }, 'expiry_reminders'],
      [`/api/v1/services/${serviceId}/config`, { description: 'x'.repeat(501) }, 'description'],
    ];
    for (const [url, payload, field] of refusals) {
      const response = await put(url, owner.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(
        response.json<{ errors: Array<{ field: string }> }>().errors.map((error) => error.field),
      ).toContain(field);
    }
  });

  it('switches automatic renewal off and on (PATCH /services/{id}), for the owner only', async () => {
    const patch = (id: string, auth: Auth, payload: object) =>
      injectWithCsrf(ctx.app, { method: 'PATCH', url: `/api/v1/services/${id}`, headers: auth, payload });
    expect((await get(`/api/v1/services/${serviceId}/config`, owner.auth)).json()).toMatchObject({
      auto_renew: true,
    });
    const off = await patch(serviceId, owner.auth, { auto_renew: false });
    expect(off.statusCode).toBe(200);
    expect(off.json<ServiceConfig>()).toMatchObject({ auto_renew: false, expiry_reminders: true });
    const overview = (await get('/api/v1/services/overview', owner.auth)).json<{
      services: ServiceOverviewItem[];
    }>();
    expect(overview.services.find((service) => service.id === serviceId)?.auto_renew).toBe(false);
    const logs = (await get(`/api/v1/services/${serviceId}/logs`, owner.auth)).json<{
      lines: ServiceLogLine[];
    }>();
    expect(logs.lines.filter((line) => line.message === 'settings updated')).toHaveLength(1);

    const bad = await patch(serviceId, owner.auth, { auto_renew: 'no' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ errors: Array<{ field: string }> }>().errors.map((e) => e.field)).toContain(
      'auto_renew',
    );
    const stranger = await signedInUser(ctx);
    expect((await patch(serviceId, stranger.auth, { auto_renew: true })).statusCode).toBe(404);
    expect((await patch(serviceId, owner.auth, { auto_renew: true })).json()).toMatchObject({
      auto_renew: true,
    });
  });

  it('refuses actions a service’s status does not allow, with the spec’s messages', async () => {
    const other = await signedInUser(ctx);
    // Being set up (not yet placed): not active.
    const pending = (await buyService(ctx, other.auth, STARTER)).service_id;
    const start = await post(`/api/v1/services/${pending}/start`, other.auth);
    expect(start.statusCode).toBe(409);
    expect(start.json()).toMatchObject({
      detail: 'service_not_active',
      message: 'Service not active or not suspended',
    });
    const terminateWhileSettingUp = await post(`/api/v1/services/${pending}/action`, other.auth, {
      action: 'terminate',
    });
    expect(terminateWhileSettingUp.statusCode).toBe(409);
    expect(terminateWhileSettingUp.json()).toMatchObject({
      detail: 'service_cannot_cancel',
      message: 'Cannot cancel or terminate in the current state',
    });

    // Terminated: nothing more to cancel, terminate or extend.
    const id = await activeService(other.auth);
    const terminated = await post(`/api/v1/services/${id}/action`, other.auth, { action: 'terminate' });
    expect(terminated.statusCode).toBe(200);
    expect(terminated.json()).toMatchObject({ service: { status: 'terminated' } });
    expect(ctx.mailbox.last(other.email).subject).toContain('terminated');
    for (const action of ['cancel', 'terminate']) {
      const again = await post(`/api/v1/services/${id}/action`, other.auth, { action });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: 'Cannot cancel or terminate in the current state' });
    }
    const extend = await post(`/api/v1/services/${id}/action`, other.auth, { action: 'extend' });
    expect(extend.statusCode).toBe(409);
    expect(extend.json()).toMatchObject({
      detail: 'service_no_expiry',
      message: 'Service has no valid expiration date',
    });
    const restart = await post(`/api/v1/services/${id}/restart`, other.auth);
    expect(restart.json()).toMatchObject({ detail: 'service_not_active' });

    // The Lithuanian words for the same refusal.
    const lt = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/action`,
      headers: { ...other.auth, 'accept-language': 'lt' },
      payload: { action: 'cancel' },
    });
    expect(lt.json()).toMatchObject({ message: 'Dabartinėje būsenoje atšaukti ar nutraukti negalima' });
  });

  it('cancels an active service: stopped now, its data kept until it is terminated', async () => {
    const other = await signedInUser(ctx);
    const id = await activeService(other.auth);
    const cancelled = await post(`/api/v1/services/${id}/action`, other.auth, { action: 'cancel' });
    expect(cancelled.statusCode).toBe(200);
    const item = (await get('/api/v1/services/overview', other.auth))
      .json<{ services: ServiceOverviewItem[] }>()
      .services.find((service) => service.id === id);
    expect(item).toMatchObject({ status: 'cancelled', display_state: 'cancelled', days_left: null });
    expect(item?.terminates_at).not.toBeNull();
    expect((await node.desired()).workspaces.find((w) => w.service_id === id)?.state).toBe('stopped');
  });

  it('orders an extension through the action, and pays an unpaid order again', async () => {
    const extend = await post(`/api/v1/services/${serviceId}/action`, owner.auth, {
      action: 'extend',
      params: { period_id: '3m' },
    });
    expect(extend.statusCode).toBe(200);
    const orderId = extend.json<ServiceActionResponse>().order_id;
    expect(orderId).toEqual(expect.any(String));

    // The extension's payment fails: retry-payment opens a new session for that order.
    const session = await openSession(ctx, owner.auth, orderId ?? '');
    await sendSandboxEvent(
      ctx,
      sandboxEvent(session.session_id, 'payment.failed', { error: { code: 'card_declined', message: 'no' } }),
    );
    const retry = await post(`/api/v1/services/${serviceId}/retry-payment`, owner.auth);
    expect(retry.statusCode).toBe(200);
    const session2 = retry.json<{ session_id: string; url: string }>();
    expect(session2.session_id).toMatch(/^ps_/);
    expect(session2.url).not.toBe('');
    const viaAction = await post(`/api/v1/services/${serviceId}/action`, owner.auth, {
      action: 'retry-payment',
    });
    expect(viaAction.statusCode).toBe(200);
    expect(viaAction.json<ServiceActionResponse>().payment?.session_id).toMatch(/^ps_/);

    const bad = await post(`/api/v1/services/${serviceId}/action`, owner.auth, {
      action: 'extend',
      params: { period_id: 42 },
    });
    expect(bad.statusCode).toBe(422);

    // Nothing unpaid: refused.
    const other = await signedInUser(ctx);
    const paid = await activeService(other.auth);
    const nothing = await post(`/api/v1/services/${paid}/retry-payment`, other.auth);
    expect(nothing.statusCode).toBe(409);
    expect(nothing.json()).toMatchObject({ detail: 'order_not_payable' });
  });

  it('refuses an unknown action as a validation error', async () => {
    for (const payload of [{ action: 'explode' }, { action: 'start', params: 'x' }, {}]) {
      const response = await post(`/api/v1/services/${serviceId}/action`, owner.auth, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(response.json()).toMatchObject({ detail: 'validation_error' });
    }
  });

  it('answers "Service not found" for another account’s service and an unknown one', async () => {
    const stranger = await signedInUser(ctx);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const reads = ['status', 'logs', 'stats', 'config'];
    for (const id of [serviceId, unknown]) {
      for (const path of reads) {
        const response = await get(`/api/v1/services/${id}/${path}`, stranger.auth);
        expect(response.statusCode, path).toBe(404);
        expect(response.json()).toMatchObject({ detail: 'service_not_found', message: 'Service not found' });
      }
      for (const path of ['start', 'stop', 'restart', 'retry-payment']) {
        const response = await post(`/api/v1/services/${id}/${path}`, stranger.auth);
        expect(response.statusCode, path).toBe(404);
      }
      expect(
        (await post(`/api/v1/services/${id}/action`, stranger.auth, { action: 'cancel' })).statusCode,
      ).toBe(404);
      expect((await put(`/api/v1/services/${id}`, stranger.auth, { name: 'Mine now' })).statusCode).toBe(404);
      expect((await put(`/api/v1/services/${id}/config`, stranger.auth, { name: 'Mine' })).statusCode).toBe(
        404,
      );
    }
    expect((await get('/api/v1/services/overview', stranger.auth)).json()).toEqual({ services: [] });
    expect((await get(`/api/v1/services/not-a-uuid/status`, stranger.auth)).statusCode).toBe(422);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v1/services/overview' })).statusCode).toBe(401);
    const noCsrf = await ctx.app.inject({
      method: 'POST',
      url: `/api/v1/services/${serviceId}/stop`,
      headers: owner.auth,
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('lets only the node a service is placed on report on it', async () => {
    const intruder = await registerNode(ctx, 'intruder-node', capacity(0, ['10.8.0.1']));
    expect((await intruder.desired()).workspaces).toEqual([]);
    const before = (
      await get(`/api/v1/services/${serviceId}/status`, owner.auth)
    ).json<ServiceStatusDetail>();
    await intruder.report([
      {
        service_id: serviceId,
        observed_generation: 999,
        ok: false,
        error: 'forged',
        drivers: [],
        failures: [],
        facts: { disk_used_bytes: 1, file_count: 1, started_at: null },
      },
      // Junk ids are ignored as well, not a server error.
      { service_id: 'not-a-uuid', observed_generation: 1, ok: true, drivers: [], failures: [] },
    ]);
    const after = (await get(`/api/v1/services/${serviceId}/status`, owner.auth)).json<ServiceStatusDetail>();
    expect(after.observed_generation).toBe(before.observed_generation);
    expect(after.last_error).toBe(before.last_error);
  });
});
