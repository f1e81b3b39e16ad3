// /api/v1/snapshots/{serviceId} through app.inject, on a real database: the list as the node
// reports it, one taken on demand through the node call, one a minute, another account's 404, and
// an ext4 workspace that takes none.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { NodeCallKind, Snapshot, SnapshotsListResponse, SnapshotsReport } from '@debesis/contract';
import { createTestContext, type TestContext } from '../../test/test-app.ts';
import { seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, type TestNode } from '../../test/services.ts';
import {
  activityOf,
  ownerWithService,
  setService,
  workspaceCalls,
} from '../directory/workspace.test-support.ts';
import type { NodeCallFailureCode, NodeCalls } from '../workspace/workspace-feature.ts';

const snapshot = (name: string, kind: Snapshot['kind'] = 'scheduled'): Snapshot => {
  const [, y, mo, d, h, mi, s] = /^@GMT-(\d+)\.(\d+)\.(\d+)-(\d+)\.(\d+)\.(\d+)$/.exec(name)!;
  return { name, taken_at: `${y}-${mo}-${d}T${h}:${mi}:${s}.000Z`, kind };
};

/** A node that takes a snapshot when asked (or refuses with `failure`) and remembers the calls. */
function fakeNode() {
  const asked: Array<{ serviceId: string; kind: NodeCallKind }> = [];
  let failure: NodeCallFailureCode | null = null;
  let taken = 0;
  const nodeCalls: NodeCalls = {
    call: (async (serviceId: string, kind: NodeCallKind) => {
      asked.push({ serviceId, kind });
      if (failure) return { ok: false, code: failure, error: `the node says ${failure}` };
      taken += 1;
      return {
        ok: true,
        result: snapshot(`@GMT-2026.12.06-19.00.${String(taken).padStart(2, '0')}`, 'manual'),
      };
    }) as NodeCalls['call'],
    stream: () => Promise.resolve({ ok: false, code: 'unsupported', error: 'no streams here' }),
  };
  return {
    nodeCalls,
    asked,
    failWith(code: NodeCallFailureCode | null) {
      failure = code;
    },
  };
}

describe('snapshots', () => {
  let ctx: TestContext;
  let call: ReturnType<typeof workspaceCalls>;
  let node: TestNode;
  const fake = fakeNode();
  let placedCount = 0;

  beforeAll(async () => {
    ctx = await createTestContext({ clock: true, nodeCalls: fake.nodeCalls });
    await seedCatalogue(ctx);
    call = workspaceCalls(ctx);
    node = await registerNode(ctx, 'snapshots-node', capacity(1000, ['10.16.0.1']));
  });
  afterAll(async () => {
    await ctx.close();
  });
  beforeEach(() => {
    fake.failWith(null);
    fake.asked.length = 0;
  });

  const url = (serviceId: string) => `/api/v1/snapshots/${serviceId}`;
  async function placedService() {
    const owned = await ownerWithService(ctx);
    placedCount += 1;
    await setService(ctx, owned.serviceId, {
      nodeId: node.id,
      address: `10.16.1.${placedCount}`,
      idBase: 7_000_000 + placedCount * 10_000,
    });
    return owned;
  }
  const report = (serviceId: string, snapshots: SnapshotsReport) =>
    node.report([
      {
        service_id: serviceId,
        observed_generation: 0,
        ok: true,
        drivers: [],
        failures: [],
        features: { snapshots },
      },
    ]);

  it('lists the snapshots the node reports, newest first, with the schedule', async () => {
    const { auth, serviceId } = await placedService();
    const before = await call.get(auth, url(serviceId));
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<SnapshotsListResponse>()).toEqual({
      supported: true,
      reason: null,
      snapshots: [],
      reported_at: null,
      interval_minutes: 15,
    });
    const listed = [snapshot('@GMT-2026.12.06-18.45.00'), snapshot('@GMT-2026.12.06-18.30.00', 'manual')];
    await report(serviceId, { supported: true, snapshots: listed });
    const after = (await call.get(auth, url(serviceId))).json<SnapshotsListResponse>();
    expect(after.snapshots).toEqual(listed);
    expect(after.reported_at).toEqual(expect.any(String));
  });

  it('takes one now through the node (202), lists it at once, and refuses another within the minute', async () => {
    const { auth, serviceId } = await placedService();
    const taken = await call.post(auth, url(serviceId));
    expect(taken.statusCode, taken.body).toBe(202);
    const { snapshot: made } = taken.json<{ snapshot: Snapshot }>();
    expect(made.kind).toBe('manual');
    expect(fake.asked).toEqual([{ serviceId, kind: 'snapshot.take' }]);
    expect((await call.get(auth, url(serviceId))).json<SnapshotsListResponse>().snapshots[0]).toEqual(made);
    expect(await activityOf(ctx, serviceId)).toContainEqual({
      action: 'Snapshot taken',
      tone: 'success',
      details: { name: made.name },
    });

    const again = await call.post({ ...auth, 'accept-language': 'lt' }, url(serviceId));
    expect(again.statusCode).toBe(429);
    const refusal = again.json<{ detail: string; message: string }>();
    expect(refusal.detail).toBe('snapshot_too_soon');
    expect(refusal.message).toContain('minutę');
    expect(again.headers['retry-after']).toBeDefined();
    expect(fake.asked).toHaveLength(1);

    ctx.advance(61_000);
    expect((await call.post(auth, url(serviceId))).statusCode).toBe(202);
  });

  it('gives the minute back when the node did not take it', async () => {
    const { auth, serviceId } = await placedService();
    fake.failWith('node_unreachable');
    const failed = await call.post(auth, url(serviceId));
    expect(failed.statusCode).toBe(503);
    expect(failed.json()).toMatchObject({ detail: 'node_unreachable' });
    fake.failWith(null);
    expect((await call.post(auth, url(serviceId))).statusCode).toBe(202);
  });

  it('answers 404 to another account, reading or taking', async () => {
    const { serviceId } = await placedService();
    const other = await ownerWithService(ctx);
    const read = await call.get(other.auth, url(serviceId));
    expect(read.statusCode).toBe(404);
    const take = await call.post(other.auth, url(serviceId));
    expect(take.statusCode).toBe(404);
    expect(fake.asked).toEqual([]);
  });

  it('says an ext4 workspace takes no snapshots, and refuses one on demand without asking the node', async () => {
    const { auth, serviceId } = await placedService();
    await report(serviceId, { supported: false, reason: 'ext4_storage', snapshots: [] });
    const listed = (await call.get(auth, url(serviceId))).json<SnapshotsListResponse>();
    expect(listed).toMatchObject({ supported: false, reason: 'ext4_storage', snapshots: [] });
    const refused = await call.post(auth, url(serviceId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: 'snapshots_unsupported' });
    expect(fake.asked).toEqual([]);
  });

  it('maps a node that says it cannot to snapshots_unsupported', async () => {
    const { auth, serviceId } = await placedService();
    fake.failWith('unsupported');
    const refused = await call.post(auth, url(serviceId));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ detail: 'snapshots_unsupported' });
  });
});
