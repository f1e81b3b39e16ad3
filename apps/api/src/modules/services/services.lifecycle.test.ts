// The lifecycle end to end on a fake clock: paid → waiting for room → placed → applied by the
// node → active; nearing its end → expired → quarantined → terminated → deleted by the node;
// an extension bringing an expired service back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SAMBA_SERVER_DEFAULTS, type ServiceOverviewItem } from '@debesis/contract';
import { login, signedInUser } from '../../test/factories.ts';
import { buyService, payOrder, seedCatalogue } from '../../test/payments.ts';
import { capacity, GIB, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { createTestContext, injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import {
  CRITICAL_DAYS,
  DAY_MS,
  EXPIRED_GRACE_DAYS,
  EXPIRING_SOON_DAYS,
  HOUR_MS,
  QUARANTINE_DAYS,
} from './lifecycle.constants.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('service lifecycle', () => {
  let ctx: TestContext;
  let jobs: ReturnType<typeof serviceJobs>;
  let woken: string[];

  // A world of its own for each test: placement counts every unplaced service and picks among
  // every node, so another test's services and nodes would change what a test sees.
  beforeEach(async () => {
    ctx = await createTestContext({ clock: true });
    await seedCatalogue(ctx);
    woken = [];
    jobs = serviceJobs(ctx, (nodeId) => woken.push(nodeId));
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** A fresh access token: the clock moves past the 15-minute token lifetime. */
  async function authOf(email: string) {
    const response = await login(ctx, email);
    return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  }

  async function overviewItem(auth: { authorization: string }, id: string): Promise<ServiceOverviewItem> {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v1/services/overview', headers: auth });
    expect(response.statusCode).toBe(200);
    const item = response.json<{ services: ServiceOverviewItem[] }>().services.find((s) => s.id === id);
    if (!item) throw new Error(`service ${id} not in the overview`);
    return item;
  }

  async function logMessages(auth: { authorization: string }, id: string): Promise<string[]> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/services/${id}/logs`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ lines: Array<{ message: string }> }>().lines.map((line) => line.message);
  }

  /** Keeps every node online across a jump of the clock: agents report every few seconds. */
  async function heartbeat(...nodes: TestNode[]) {
    for (const node of nodes) await node.applyAll();
  }

  it('waits for room, retries until a node has it, then becomes active when the node applies it', async () => {
    const owner = await signedInUser(ctx);
    const order = await buyService(ctx, owner.auth, STARTER);
    const id = order.service_id;
    expect((await overviewItem(owner.auth, id)).status).toBe('processing');

    // A node that is full: no room for 3 GB.
    const full = await registerNode(ctx, 'full-node', capacity(0));
    const placement = await jobs.placement.place(id);
    expect(placement.kind).toBe('pending');
    let item = await overviewItem(owner.auth, id);
    expect(item).toMatchObject({
      status: 'resourcePending',
      display_state: 'waitingForResources',
      ip_address: null,
    });
    const paidUntil = Date.parse(item.valid_until);
    const waiting = ctx.mailbox
      .to(owner.email)
      .filter((mail) => mail.subject.includes('waiting for resources'));
    expect(waiting).toHaveLength(1);
    expect(waiting[0]?.text).toContain('every 2 minutes');

    // The retry finds no room either, and does not mail again.
    ctx.advance(2 * 60_000);
    await full.report([]);
    expect(await jobs.placement.retryUnplaced()).toEqual({ placed: 0, pending: 1 });
    expect(ctx.mailbox.to(owner.email).filter((mail) => mail.subject.includes('waiting'))).toHaveLength(1);

    // The node frees space and says so in its report: the next retry places the service there.
    ctx.advance(2 * 60_000);
    await full.report([], capacity(100));
    expect(await jobs.placement.retryUnplaced()).toEqual({ placed: 1, pending: 0 });
    expect(woken).toContain(full.id);
    item = await overviewItem(owner.auth, id);
    expect(item).toMatchObject({ status: 'processing', ip_address: '127.0.10.1', apply_status: 'applying' });
    // The 4 minutes it waited for room are not taken from the paid period.
    // (The test clock jumps, then runs on in real time: a few milliseconds more.)
    const added = Date.parse(item.valid_until) - paidUntil;
    expect(added).toBeGreaterThanOrEqual(4 * 60_000);
    expect(added).toBeLessThan(4 * 60_000 + 5_000);

    const { workspaces } = await full.desired();
    expect(workspaces).toEqual([
      expect.objectContaining({
        service_id: id,
        state: 'running',
        address: '127.0.10.1',
        storage_bytes: 3 * GIB,
        id_base: 1_000_000,
        users: [],
        groups: [],
        samba: { shares: [], settings: SAMBA_SERVER_DEFAULTS },
      }),
    ]);

    // The agent applies it and reports: active, and the owner is told with the address.
    await full.applyAll();
    item = await overviewItem(owner.auth, id);
    expect(item).toMatchObject({
      status: 'active',
      display_state: 'running',
      apply_status: 'applied',
      disk_usage: 1024,
      file_usage: 3,
      uptime: 0,
    });
    const ready = ctx.mailbox.last(owner.email);
    expect(ready.subject).toContain('is ready');
    expect(ready.text).toContain('127.0.10.1');
    expect(ready.text).toContain(`/dashboard/services/${id}`);
    // Placing again changes nothing: the job is idempotent.
    expect((await jobs.placement.place(id)).kind).toBe('skipped');
    expect(await logMessages(owner.auth, id)).toEqual(
      // Management lines (activity) and the agent's, in the order they happened.
      [
        'payment completed',
        'service waiting for resources',
        'service placed',
        'applied generation 1',
        'service created',
      ],
    );
  });

  it('places a second workspace on its own address and id block, on the node with the most room', async () => {
    const owner = await signedInUser(ctx);
    const roomy = await registerNode(ctx, 'roomy-node', capacity(500, ['10.0.0.1', '10.0.0.2']));
    const first = (await buyService(ctx, owner.auth, STARTER)).service_id;
    const second = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await jobs.placement.place(first);
    await jobs.placement.place(second);
    const placed = (await roomy.desired()).workspaces;
    expect(placed.map((w) => [w.address, w.id_base])).toEqual([
      ['10.0.0.1', 1_000_000],
      ['10.0.0.2', 1_010_000],
    ]);

    // No address left on that node, and the other node has gone quiet (offline): a third
    // waits, though there is disk to spare.
    const third = (await buyService(ctx, owner.auth, STARTER)).service_id;
    ctx.advance(61_000);
    await heartbeat(roomy);
    expect((await jobs.placement.place(third)).kind).toBe('pending');
    const auth = await authOf(owner.email);
    expect((await overviewItem(auth, third)).status).toBe('resourcePending');
  });

  it('warns as the end nears, expires, quarantines and terminates, and the node deletes the data', async () => {
    const owner = await signedInUser(ctx);
    const node = await registerNode(ctx, 'sweep-node', capacity(1000, ['10.1.0.1']));
    const order = await buyService(ctx, owner.auth, STARTER);
    const id = order.service_id;
    await jobs.placement.place(id);
    await node.applyAll();
    let auth = owner.auth;
    let item = await overviewItem(auth, id);
    expect(item.status).toBe('active');
    const validUntil = new Date(item.valid_until).getTime();

    const jumpTo = async (at: number) => {
      ctx.advance(at - ctx.now().getTime());
      await heartbeat(node);
      auth = await authOf(owner.email);
    };

    // Expiring soon: a warning with the days left, and one reminder.
    await jumpTo(validUntil - (EXPIRING_SOON_DAYS - 1) * DAY_MS);
    await jobs.sweep.run();
    item = await overviewItem(auth, id);
    expect(item).toMatchObject({ expiry_warning: 'expiring_soon', days_left: EXPIRING_SOON_DAYS - 1 });
    expect(ctx.mailbox.last(owner.email).subject).toContain('expires soon');
    await jobs.sweep.run();
    expect(ctx.mailbox.to(owner.email).filter((m) => m.subject.includes('expires soon'))).toHaveLength(1);

    // Critical, once.
    await jumpTo(validUntil - (CRITICAL_DAYS - 1) * DAY_MS);
    await jobs.sweep.run();
    await jobs.sweep.run();
    item = await overviewItem(auth, id);
    expect(item).toMatchObject({ expiry_warning: 'critical', days_left: CRITICAL_DAYS - 1 });
    expect(ctx.mailbox.to(owner.email).filter((m) => m.subject.startsWith('Urgent'))).toHaveLength(1);

    // Expired at valid_until: access off (stopped), data kept, the spec's message on actions.
    await jumpTo(validUntil + HOUR_MS);
    expect((await jobs.sweep.run()).expired).toBeGreaterThanOrEqual(1);
    item = await overviewItem(auth, id);
    expect(item).toMatchObject({
      status: 'expired',
      display_state: 'locked',
      expiry_warning: null,
      days_left: 0,
    });
    expect((await node.desired()).workspaces[0]).toMatchObject({ service_id: id, state: 'stopped' });
    expect(ctx.mailbox.last(owner.email).subject).toContain('has expired');
    const refused = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/services/${id}/start`,
      headers: auth,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      detail: 'service_expired',
      message: 'This service has expired or is quarantined. Please extend your service to regain access.',
    });
    const terminatesAt = validUntil + (EXPIRED_GRACE_DAYS + QUARANTINE_DAYS) * DAY_MS;
    expect(new Date(item.terminates_at ?? '').getTime()).toBe(terminatesAt);
    await node.applyAll();

    // Quarantined after the grace period: a warning entry and a mail naming the deletion date.
    await jumpTo(validUntil + EXPIRED_GRACE_DAYS * DAY_MS + HOUR_MS);
    expect((await jobs.sweep.run()).quarantined).toBeGreaterThanOrEqual(1);
    expect((await overviewItem(auth, id)).status).toBe('quarantined');
    expect(ctx.mailbox.last(owner.email).subject).toContain('quarantined');
    await node.applyAll();

    // Terminated after the quarantine: the node is told to remove it.
    await jumpTo(terminatesAt + HOUR_MS);
    expect((await jobs.sweep.run()).terminated).toBeGreaterThanOrEqual(1);
    expect((await overviewItem(auth, id)).status).toBe('terminated');
    expect(ctx.mailbox.last(owner.email).subject).toContain('terminated');
    const removed = (await node.desired()).workspaces.find((w) => w.service_id === id);
    // Nothing left to run: no users, and no feature section (absent: not used).
    expect(removed).toMatchObject({ state: 'removed', users: [], groups: [] });
    expect(removed?.samba).toBeUndefined();

    // The agent removes it and reports so: it leaves the desired state, its address is free.
    await node.applyAll();
    expect((await node.desired()).workspaces.find((w) => w.service_id === id)).toBeUndefined();
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/services/${id}/status`,
      headers: auth,
    });
    expect(status.json()).toMatchObject({ status: 'terminated', placed: false, apply_status: 'applied' });

    const activity = await logMessages(auth, id);
    expect(activity).toEqual(
      expect.arrayContaining([
        'service expired',
        'service quarantined',
        'service terminated',
        'data deleted from the node',
      ]),
    );
    const logs = await ctx.app.inject({ method: 'GET', url: `/api/v1/services/${id}/logs`, headers: auth });
    const lines = logs.json<{ lines: Array<{ message: string; level: string; source: string }> }>().lines;
    expect(lines.find((line) => line.message === 'service quarantined')).toMatchObject({
      level: 'warning',
      source: 'management',
    });
    expect(lines.find((line) => line.message === 'service terminated')).toMatchObject({ level: 'error' });
    expect(lines.find((line) => line.message === 'data deleted from the node')).toMatchObject({
      source: 'agent',
    });
  });

  it('brings an expired service back when its extension is paid', async () => {
    const owner = await signedInUser(ctx);
    const node = await registerNode(ctx, 'revive-node', capacity(2000, ['10.2.0.1']));
    const id = (await buyService(ctx, owner.auth, STARTER)).service_id;
    await jobs.placement.place(id);
    await node.applyAll();
    let auth = owner.auth;
    const validUntil = new Date((await overviewItem(auth, id)).valid_until).getTime();

    ctx.advance(validUntil + HOUR_MS - ctx.now().getTime());
    await node.applyAll();
    await jobs.sweep.run();
    auth = await authOf(owner.email);
    expect((await overviewItem(auth, id)).status).toBe('expired');
    const stopped = (await node.desired()).workspaces.find((w) => w.service_id === id);
    expect(stopped?.state).toBe('stopped');

    const extension = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/service/${id}/extend`,
      headers: auth,
      payload: { period_id: '1m' },
    });
    expect(extension.statusCode).toBe(201);
    woken.length = 0;
    await payOrder(ctx, auth, extension.json<{ id: string }>().id);

    const item = await overviewItem(auth, id);
    expect(item).toMatchObject({ status: 'active', display_state: 'running', apply_status: 'applying' });
    expect(new Date(item.valid_until).getTime()).toBeGreaterThan(ctx.now().getTime() + 27 * DAY_MS);
    const running = (await node.desired()).workspaces.find((w) => w.service_id === id);
    expect(running?.state).toBe('running');
    expect(running?.generation).toBeGreaterThan(stopped?.generation ?? 0);
    expect(await logMessages(auth, id)).toContain('service restored');
  });
});
