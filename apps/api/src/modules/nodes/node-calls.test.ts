// Node calls through the whole app (PGlite by default, PostgreSQL with DATABASE_URL): a feature's
// question reaches the node its service is placed on through that node's long poll, and only that
// node may answer it, once, before its deadline.
import { describe, expect, it } from 'vitest';
import type { NodeCall, NodeCallResultRequest } from '@debesis/contract';
import { errorText, type ErrorCode } from '@debesis/contract';
import { nodeCallsOf } from '../../app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { createTestContext, injectWithCsrf, useTestContext } from '../../test/test-app.ts';
import type { NodeCallFailureCode, NodeCalls } from '../workspace/workspace-feature.ts';
import { nodeCallError } from './node-calls.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('node calls', () => {
  let calls: NodeCalls;
  let node: TestNode;
  let other: TestNode;
  let serviceId: string;
  let ownerAuth: { authorization: string };

  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    calls = nodeCallsOf(ctx.app);
    node = await registerNode(ctx, 'calls-node', capacity(1000, ['10.21.0.1', '10.21.0.2']));
    const owner = await signedInUser(ctx);
    ownerAuth = owner.auth;
    serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    // Registered after the placement, so the service is on `node`, not here.
    other = await registerNode(ctx, 'calls-other', capacity(1000, ['10.21.0.3']));
  });

  const poll = async (as: TestNode, waitMs = 0) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/nodes/calls?wait_ms=${waitMs}`,
      headers: { authorization: `Bearer ${as.token}` },
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ calls: NodeCall[] }>().calls;
  };
  const answer = (as: TestNode, callId: string, body: NodeCallResultRequest) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/v1/nodes/calls/${callId}/result`,
      headers: { authorization: `Bearer ${as.token}` },
      payload: body,
    });
  it("wakes its node: a change to one of its services answers the node's held poll at once (wake), and a poll that comes just after a change is told too", async () => {
    await node.applyAll();
    const restart = () =>
      injectWithCsrf(ctx.app, {
        method: 'POST',
        url: `/api/v1/services/${serviceId}/action`,
        headers: ownerAuth,
        payload: { action: 'restart' },
      });
    const held = ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/calls?wait_ms=8000',
      headers: { authorization: `Bearer ${node.token}` },
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const changedAt = Date.now();
    expect((await restart()).statusCode).toBe(200);
    expect((await held).json()).toEqual({ calls: [], wake: true });
    expect(Date.now() - changedAt).toBeLessThan(4000);

    // No poll held when the change comes: the next one answers `wake` at once; the other node's not.
    await node.applyAll();
    expect((await restart()).statusCode).toBe(200);
    const next = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/calls?wait_ms=8000',
      headers: { authorization: `Bearer ${node.token}` },
    });
    expect(next.json()).toEqual({ calls: [], wake: true });
    expect(await poll(other)).toEqual([]);
  });

  /** Polls as `as` until a call comes (the caller's enqueueing is asynchronous: placement read). */
  const nextCall = async (as: TestNode) => {
    const [call] = await poll(as, 5000);
    if (!call) throw new Error('no call came');
    return call;
  };

  it("is answered by the service's node, and the caller gets that answer", async () => {
    const asked = calls.call(serviceId, 'vpn.disconnect', { user: 'ona' });
    const call = await nextCall(node);
    expect(call).toMatchObject({ service_id: serviceId, kind: 'vpn.disconnect', payload: { user: 'ona' } });
    expect(Date.parse(call.deadline)).toBeGreaterThan(Date.now());
    const answered = await answer(node, call.call_id, { ok: true, result: { disconnected: 2 } });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toEqual({ ok: true });
    expect(await asked).toEqual({ ok: true, result: { disconnected: 2 } });
    // Once: a second answer finds no call.
    expect((await answer(node, call.call_id, { ok: true, result: { disconnected: 3 } })).statusCode).toBe(
      404,
    );
  });

  it("passes the node's refusal on with its code", async () => {
    const asked = calls.call(serviceId, 'vpn.config', { user: 'jonas', cert_generation: 1 });
    const call = await nextCall(node);
    await answer(node, call.call_id, { ok: false, code: 'not_found', error: 'no VPN user jonas here' });
    expect(await asked).toEqual({ ok: false, code: 'not_found', error: 'no VPN user jonas here' });
  });

  it('fails a malformed result as failed, without passing it on', async () => {
    const asked = calls.call(serviceId, 'vpn.kill_all', {});
    const call = await nextCall(node);
    expect((await answer(node, call.call_id, { ok: true, result: { ovpn: 'key' } })).statusCode).toBe(200);
    const outcome = await asked;
    expect(outcome).toMatchObject({ ok: false, code: 'failed' });
    expect(JSON.stringify(outcome)).not.toContain('key');
  });

  it('fails as node_unreachable when the node does not answer by the deadline; a late answer finds nothing', async () => {
    const asked = calls.call(serviceId, 'vpn.kill_all', {}, { timeoutMs: 200 });
    const call = await nextCall(node);
    const started = Date.now();
    expect(await asked).toMatchObject({ ok: false, code: 'node_unreachable' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await answer(node, call.call_id, { ok: true, result: { disconnected: 0 } })).statusCode).toBe(
      404,
    );
  });

  it('fails as not_placed for a service on no node', async () => {
    expect(await calls.call(crypto.randomUUID(), 'vpn.kill_all', {})).toMatchObject({
      ok: false,
      code: 'not_placed',
    });
  });

  it('is neither handed to nor answerable by another node', async () => {
    const asked = calls.call(serviceId, 'vpn.kill_all', {}, { timeoutMs: 3000 });
    // Give the call time to be enqueued (the caller reads the placement first).
    const mine = await nextCall(node);
    expect(await poll(other)).toEqual([]);
    const foreign = await answer(other, mine.call_id, { ok: true, result: { disconnected: 9 } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ detail: 'not_found' });
    await answer(node, mine.call_id, { ok: true, result: { disconnected: 1 } });
    expect(await asked).toEqual({ ok: true, result: { disconnected: 1 } });
  });

  it('does not let a node answer a call before it was handed out', async () => {
    const asked = calls.call(serviceId, 'vpn.kill_all', {}, { timeoutMs: 300 });
    // Not polled: nothing the node may answer yet, whatever id it names.
    expect(
      (await answer(node, crypto.randomUUID(), { ok: true, result: { disconnected: 1 } })).statusCode,
    ).toBe(404);
    expect(await asked).toMatchObject({ ok: false, code: 'node_unreachable' });
    // A call past its deadline is gone, not handed out later.
    expect(await poll(node)).toEqual([]);
  });

  it('answers a held long poll as soon as a call comes', async () => {
    const held = (async () => {
      const calls = await poll(node, 20_000);
      return { calls, at: Date.now() };
    })();
    // Let the poll reach the hub and wait there.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const enqueuedAt = Date.now();
    const asked = calls.call(serviceId, 'vpn.kill_all', {});
    const { calls: got, at } = await held;
    expect(got).toHaveLength(1);
    expect(at - enqueuedAt).toBeLessThan(500);
    await answer(node, got[0]?.call_id ?? '', { ok: true, result: { disconnected: 0 } });
    expect(await asked).toMatchObject({ ok: true });
  });

  it('answers a long poll with no calls when wait_ms passes', async () => {
    const started = Date.now();
    expect(await poll(node, 150)).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('refuses a customer on the node routes', async () => {
    const owner = await signedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/nodes/calls?wait_ms=0',
      headers: owner.auth,
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('node calls when the agent goes away or the app closes', () => {
  it('drops a poll whose client went away, and closing the app ends a held poll at once', async () => {
    const ctx = await createTestContext();
    await seedCatalogue(ctx);
    const node = await registerNode(ctx, 'calls-leaving', capacity(1000, ['10.21.1.1']));
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await serviceJobs(ctx).placement.place(serviceId);
    const url = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const headers = { authorization: `Bearer ${node.token}` };
    const pollOverHttp = (waitMs: number, signal?: AbortSignal) =>
      fetch(`${url}/api/v1/nodes/calls?wait_ms=${waitMs}`, { headers, signal });

    // A poll abandoned by its client must not take the next call with it.
    const leaving = new AbortController();
    const abandoned = pollOverHttp(20_000, leaving.signal).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    leaving.abort();
    expect(await abandoned).toBe('aborted');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const asked = nodeCallsOf(ctx.app).call(serviceId, 'vpn.kill_all', {}, { timeoutMs: 3000 });
    const next = await (await pollOverHttp(3000)).json();
    expect((next as { calls: NodeCall[] }).calls).toHaveLength(1);

    // A poll held while the app closes is answered, so closing does not wait for wait_ms.
    const held = pollOverHttp(25_000).then(async (response) => response.json());
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = Date.now();
    await ctx.close();
    expect(Date.now() - closing).toBeLessThan(5000);
    expect(await held).toEqual({ calls: [], wake: false });
    expect(await asked).toMatchObject({ ok: false, code: 'node_unreachable' });
  });
});

describe('the HTTP error of a failed node call', () => {
  it('has a status and words in both languages for every failure', () => {
    const expected: Record<NodeCallFailureCode, [string, number]> = {
      not_placed: ['service_not_placed', 409],
      node_unreachable: ['node_unreachable', 503],
      not_found: ['node_not_ready', 409],
      unsupported: ['node_unsupported', 501],
      busy: ['node_busy', 503],
      too_large: ['node_call_failed', 502],
      failed: ['node_call_failed', 502],
    };
    for (const [failure, [code, status]] of Object.entries(expected)) {
      const error = nodeCallError(failure as NodeCallFailureCode);
      expect([error.code, error.status]).toEqual([code, status]);
    }
    expect(nodeCallError('not_placed', { not_placed: 'vpn_not_placed' }).code).toBe('vpn_not_placed');
    expect(nodeCallError('failed', { not_placed: 'vpn_not_placed' }).code).toBe('node_call_failed');
    for (const code of Object.values(expected).map(([c]) => c as ErrorCode)) {
      expect(errorText('en', code)).toMatch(/storage node/);
      expect(errorText('lt', code)).toMatch(/[Ss]augojimo mazg/);
    }
  });
});
