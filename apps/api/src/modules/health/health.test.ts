import { describe, expect, it } from 'vitest';
import type { HealthResponse } from '@debesis/contract';
import { useTestContext, TEST_REGISTRATION_TOKEN } from '../../test/test-app.ts';
import { createHealthService } from './health.service.ts';

// A story on one app: no node first, then one registers (in random order the second ran first).
describe('GET /api/v1/health', { shuffle: false }, () => {
  const ctx = useTestContext();

  it('reports the database, the job queue and no node online as degraded', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/health' });
    expect(response.statusCode).toBe(200);
    const body = response.json<HealthResponse>();
    expect(body.status).toBe('degraded');
    expect(body.database).toMatchObject({ status: 'ok', kind: ctx.database.kind });
    expect(body.jobs.status).toBe('ok');
    expect(body.nodes).toMatchObject({ status: 'degraded', total: 0, online: 0 });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('is ok once a storage node has reported', async () => {
    const registered = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/register',
      headers: { authorization: `Bearer ${TEST_REGISTRATION_TOKEN}` },
      payload: {
        name: 'health-node',
        hostname: 'health-node',
        agent_version: '1',
        capacity: { disk_total_bytes: 1, disk_free_bytes: 1, addresses: [] },
      },
    });
    expect(registered.statusCode).toBe(200);
    const body = (await ctx.app.inject({ method: 'GET', url: '/api/v1/health' })).json<HealthResponse>();
    expect(body.status).toBe('ok');
    expect(body.nodes).toMatchObject({ status: 'ok', total: 1, online: 1 });
  });
});

describe('health service', () => {
  it('is down when the database does not answer', async () => {
    const health = createHealthService({
      databaseKind: 'pglite',
      pingDatabase: () => Promise.reject(new Error('connection refused')),
      pendingJobs: () => Promise.reject(new Error('connection refused')),
      nodeSummary: () => Promise.resolve({ total: 1, online: 1 }),
      version: 'test',
      startedAt: Date.now(),
      maxAgeMs: 0,
    });
    const report = await health.check();
    expect(report.status).toBe('down');
    expect(report.database).toMatchObject({ status: 'down', detail: 'connection refused' });
    expect(report.jobs.status).toBe('down');
  });
});

describe('health measurement reuse', () => {
  it('answers every caller within maxAgeMs from one measurement, then measures again', async () => {
    let pings = 0;
    const health = createHealthService({
      databaseKind: 'postgres',
      pingDatabase: async () => {
        pings += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
      },
      pendingJobs: () => Promise.resolve(0),
      nodeSummary: () => Promise.resolve({ total: 1, online: 1 }),
      version: 'test',
      startedAt: Date.now(),
      maxAgeMs: 50,
    });
    const concurrent = await Promise.all([health.check(), health.check(), health.check()]);
    expect(pings).toBe(1);
    expect(new Set(concurrent.map((report) => report.checked_at)).size).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await health.check();
    expect(pings).toBe(2);
  });
});
