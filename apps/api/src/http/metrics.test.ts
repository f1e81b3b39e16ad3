// The operators' /metrics: absent unless configured, behind METRICS_TOKEN on the main listener,
// open on a listener of its own with METRICS_PORT, and what a scrape shows (requests by route
// pattern, nodes, services by status, jobs, changes a node has not applied yet).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { signedInUser } from '../test/factories.ts';
import { buyService, seedCatalogue } from '../test/payments.ts';
import { capacity, registerNode, serviceJobs } from '../test/services.ts';
import { createTestContext, type TestContext } from '../test/test-app.ts';
import { listenForMetrics } from './metrics.ts';

const TOKEN = 'metrics-token-0123456789abcdef';
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
const PROMETHEUS_TEXT = /^text\/plain; version=0\.0\.4/;

/** The value of one series in a scrape (labels in the order they were given), or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics with METRICS_TOKEN', () => {
  let ctx: TestContext;
  const scrape = async () => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(PROMETHEUS_TEXT);
    return response.body;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('refuses a caller without the token, or with another one', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      'Bearer ',
    ]) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json<{ detail: string }>().detail).toBe('unauthorized');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(response.body).not.toContain('debesis_');
    }
  });

  it('serves the text format to the token, with the process metrics, and is not in the API document', async () => {
    const text = await scrape();
    expect(text).toContain('# TYPE debesis_http_requests_total counter');
    expect(text).toContain('# TYPE debesis_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    const documented = ctx.app.swagger() as { paths?: Record<string, unknown> };
    expect(Object.keys(documented.paths ?? {})).not.toContain('/metrics');
  });

  it('counts requests by route pattern and status class, never by the raw URL', async () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const before = await scrape();
    const healthSeries = 'debesis_http_requests_total{method="GET",route="/api/v1/health",status="2xx"}';
    const statusSeries =
      'debesis_http_requests_total{method="GET",route="/api/v1/services/:id/status",status="4xx"}';
    await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    await ctx.app.inject({ method: 'GET', url: `/api/v1/services/${id}/status` });
    await ctx.app.inject({ method: 'GET', url: `/api/v1/services/${id}/status?x=1` });
    const after = await scrape();
    expect(valueOf(after, healthSeries)).toBe((valueOf(before, healthSeries) ?? 0) + 1);
    expect(valueOf(after, statusSeries)).toBe((valueOf(before, statusSeries) ?? 0) + 2);
    expect(after).not.toContain(id);
    expect(
      valueOf(
        after,
        'debesis_http_request_duration_seconds_count{method="GET",route="/api/v1/health",status="2xx"}',
      ),
    ).toBeGreaterThanOrEqual(1);
  });

  it('shows nodes, services by status, jobs, and changes the node has not applied yet', async () => {
    await seedCatalogue(ctx);
    const node = await registerNode(ctx, `metrics-node-${Date.now()}`, capacity(1000, ['10.9.8.1']));
    const owner = await signedInUser(ctx);
    const before = await scrape();
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;

    const bought = await scrape();
    expect(valueOf(bought, 'debesis_nodes')).toBeGreaterThanOrEqual(1);
    expect(valueOf(bought, 'debesis_nodes_online')).toBeGreaterThanOrEqual(1);
    expect(valueOf(bought, 'debesis_services{status="processing"}')).toBe(
      (valueOf(before, 'debesis_services{status="processing"}') ?? 0) + 1,
    );
    // Every status is shown, none missing for want of a service in it.
    expect(valueOf(bought, 'debesis_services{status="terminated"}')).toBe(0);
    // The paid order queued its placement; nothing works that queue in this test.
    expect(valueOf(bought, 'debesis_jobs{queue="services.place",state="created"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(bought, 'debesis_jobs{queue="mail.send",state="failed"}')).toBe(0);

    await serviceJobs(ctx).placement.place(serviceId);
    expect(valueOf(await scrape(), 'debesis_services_changes_pending')).toBe(1);
    await node.applyAll();
    const applied = await scrape();
    expect(valueOf(applied, 'debesis_services_changes_pending')).toBe(0);
    expect(valueOf(applied, 'debesis_services{status="active"}')).toBe(1);
    // The placement's generation was asked and applied within the hour: its time is measured.
    expect(valueOf(applied, 'debesis_applies_last_hour')).toBeGreaterThanOrEqual(1);
    expect(valueOf(applied, 'debesis_apply_duration_seconds{quantile="0.95"}')).toBeGreaterThanOrEqual(0);
  });
});

describe('/metrics with METRICS_PORT', () => {
  let ctx: TestContext;
  let server: FastifyInstance | undefined;

  beforeAll(async () => {
    ctx = await createTestContext({ env: { METRICS_PORT: '9464' } });
  });
  afterAll(async () => {
    await server?.close();
    await ctx.close();
  });

  it('answers on its own listener without a token, and not on the main one', async () => {
    const listening = await listenForMetrics(ctx.app, { host: '127.0.0.1', port: 0 });
    server = listening.server;
    await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });

    const response = await fetch(`${listening.address}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(PROMETHEUS_TEXT);
    const text = await response.text();
    expect(
      valueOf(text, 'debesis_http_requests_total{method="GET",route="/api/v1/health",status="2xx"}'),
    ).toBe(1);
    expect(text).toContain('debesis_services{status="active"} 0');
    expect((await fetch(`${listening.address}/api/v1/health`)).status).toBe(404);

    const main = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(ctx.app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(false);
    expect(main.headers['content-type']).not.toMatch(PROMETHEUS_TEXT);
    expect(main.body).not.toContain('debesis_');
  });
});

describe('/metrics unconfigured', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext();
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('has no /metrics route and keeps no metrics', async () => {
    expect(ctx.app.hasRoute({ method: 'GET', url: '/metrics' })).toBe(false);
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.headers['content-type']).not.toMatch(PROMETHEUS_TEXT);
      expect(response.body).not.toContain('debesis_');
    }
    await expect(listenForMetrics(ctx.app, { host: '127.0.0.1', port: 0 })).rejects.toThrow(/no metrics/);
  });
});
