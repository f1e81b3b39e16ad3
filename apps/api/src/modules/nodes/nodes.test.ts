import { describe, expect, it } from 'vitest';
import type { NodeRegisterRequest } from '@debesis/contract';
import { useTestContext, TEST_REGISTRATION_TOKEN } from '../../test/test-app.ts';

const capacity = { disk_total_bytes: 10_000_000, disk_free_bytes: 8_000_000, addresses: ['127.0.10.1'] };
const registration = (name: string): NodeRegisterRequest => ({
  name,
  hostname: `${name}.local`,
  agent_version: '0.0.0',
  capacity,
});

describe('nodes', () => {
  const ctx = useTestContext();

  const register = (name: string, token = TEST_REGISTRATION_TOKEN) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/register',
      headers: { authorization: `Bearer ${token}` },
      payload: registration(name),
    });

  it('refuses a wrong registration token', async () => {
    const response = await register('node-a', 'wrong-token');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ detail: 'unauthorized' });
  });

  it('registers a node and lets it pull desired state and report with its own token', async () => {
    const response = await register('node-b');
    expect(response.statusCode).toBe(200);
    const { node_id, node_token } = response.json<{ node_id: string; node_token: string }>();

    const desired = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/desired-state',
      headers: { authorization: `Bearer ${node_token}` },
    });
    expect(desired.statusCode).toBe(200);
    expect(desired.json()).toEqual({ node_id, workspaces: [] });

    const report = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/report',
      headers: { authorization: `Bearer ${node_token}` },
      payload: {
        agent_version: '0.0.1',
        capacity: { ...capacity, disk_free_bytes: 7_000_000 },
        workspaces: [],
      },
    });
    expect(report.statusCode).toBe(200);
    expect(report.json()).toEqual({ ok: true });
  });

  const placementRetries = async () =>
    Number(
      (
        await ctx.database.executeSql(
          `select count(*)::int as n from pgboss.job where name = 'services.retry-placement'`,
        )
      ).rows[0]?.n,
    );

  it('lets the shared token create a new node only, never register an existing one again', async () => {
    const before = await placementRetries();
    const first = (await register('node-c')).json<{ node_id: string; node_token: string }>();
    // A node joining places at once what was paid while no node had room.
    expect(await placementRetries()).toBe(before + 1);
    const second = await register('node-c');
    expect(second.statusCode).toBe(401);
    expect(await placementRetries()).toBe(before + 1);

    const withFirst = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/desired-state',
      headers: { authorization: `Bearer ${first.node_token}` },
    });
    expect(withFirst.statusCode).toBe(200);
  });

  it('answers 401 without a token and 422 for a malformed registration', async () => {
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/nodes/desired-state' });
    expect(anonymous.statusCode).toBe(401);

    const malformed = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/nodes/register',
      headers: { authorization: `Bearer ${TEST_REGISTRATION_TOKEN}` },
      payload: { name: 'Bad Name!', hostname: '', agent_version: '1', capacity: { addresses: 'x' } },
    });
    expect(malformed.statusCode).toBe(422);
    const body = malformed.json<{ detail: string; errors: Array<{ field: string; code: string }> }>();
    expect(body.detail).toBe('validation_error');
    expect(body.errors.map((error) => error.field)).toEqual(
      expect.arrayContaining(['name', 'hostname', 'capacity.disk_total_bytes', 'capacity.addresses']),
    );
  });
});
