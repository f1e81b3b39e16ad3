// A larger disk (a bigger plan, extra disk) on the workspace's own node, checked as a new order
// is: refused before payment when the node has no room (with the room figure), unless the
// customer pays and waits; two changes paid at once never both take the last room; a change
// waiting for room is applied by the retry once the node has room, and not before. Downgrades
// and changes that keep the disk are never held back. Each test has a node of its own (the
// earlier ones drained, so nothing new lands on them).
import { describe, expect, it } from 'vitest';
import { eq, isNull } from 'drizzle-orm';
import type { ErrorResponse, OrderCapacity, PlanChange, PlanChangeQuote } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, payOrder, seedCatalogue } from '../../test/payments.ts';
import {
  capacity,
  expectNoOvercommit,
  nodePromises,
  registerNode,
  serviceJobs,
} from '../../test/services.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { creditsInTransaction } from '../credits/credits.service.ts';
import { nodes } from '../nodes/nodes.table.ts';
import { servicesInTransaction } from '../services/services.in-transaction.ts';
import { services } from '../services/services.table.ts';
import { createPlanChangeApplication } from './plan-changes.apply.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '1m' };
const OPTIMIZED = { product_id: 'optimized', disk_space: 500, users_count: 10 };
type Auth = Record<string, string>;

describe('room on the node for a larger disk', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const post = (auth: Auth, url: string, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, payload });
  const quote = (auth: Auth, payload: object) => post(auth, '/api/v1/plan-changes/quote', payload);
  const change = (auth: Auth, payload: object) => post(auth, '/api/v1/plan-changes/', payload);
  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const serviceRow = async (id: string) =>
    (await ctx.database.db.select().from(services).where(eq(services.id, id)))[0];
  /** The worker's retry of changes waiting for room, on the test's database and clock. */
  const retry = () =>
    createPlanChangeApplication({
      db: ctx.database.db,
      services: servicesInTransaction,
      credits: creditsInTransaction,
      activity: createActivityService({
        queries: createActivityQueries(ctx.database.db),
        now: () => ctx.now(),
      }),
    }).waitedRoom(ctx.now());

  let roomBlock = 0;
  /** A node of its own with `freeGib` free and MINI workspaces placed on it (each storing 1 KiB). */
  async function nodeWithMinis(freeGib: number, count: number) {
    await ctx.database.db.update(nodes).set({ drainedAt: ctx.now() }).where(isNull(nodes.drainedAt));
    const name = `room-${Math.random().toString(36).slice(2, 8)}`;
    // An address is handed out once across all nodes (issue 37): each node a block of its own.
    roomBlock += 1;
    const node = await registerNode(
      ctx,
      name,
      capacity(freeGib, [`10.9.${roomBlock}.1`, `10.9.${roomBlock}.2`, `10.9.${roomBlock}.3`]),
    );
    const owners: Array<{ auth: Auth; serviceId: string }> = [];
    for (let index = 0; index < count; index += 1) {
      const owner = await signedInUser(ctx);
      const { service_id } = await buyService(ctx, owner.auth, MINI);
      const placed = await serviceJobs(ctx).placement.place(service_id);
      expect(placed.kind).toBe('placed');
      owners.push({ auth: owner.auth, serviceId: service_id });
    }
    await node.applyAll();
    return { node, owners };
  }

  async function paidChange(auth: Auth, payload: object): Promise<PlanChange> {
    const created = await change(auth, payload);
    expect(created.statusCode, created.body).toBe(201);
    return created.json<PlanChange>();
  }

  const status = async (auth: Auth, id: string) =>
    (await get(auth, `/api/v1/plan-changes/${id}`)).json<PlanChange>().status;

  it('refuses a larger plan than the node has room for before payment, with the room, in both languages', async () => {
    // 127 GB free, a MINI (50 GB, 1 KiB stored) on it: room for 77 GB more, as in the issue.
    const { owners } = await nodeWithMinis(127, 1);
    const [{ auth, serviceId }] = owners as [{ auth: Auth; serviceId: string }];
    const request = { service_id: serviceId, ...OPTIMIZED };

    const quoted = await quote(auth, request);
    expect(quoted.statusCode).toBe(200);
    expect(quoted.json<PlanChangeQuote>().room).toEqual({
      fits_now: false,
      room_gb: 77,
      largest_disk_space: null,
    });

    const refused = await change(auth, request);
    expect(refused.statusCode).toBe(409);
    const body = refused.json<ErrorResponse & { room: unknown }>();
    expect(body.detail).toBe('node_room_exceeded');
    expect(body.errors).toEqual([
      {
        field: 'disk_space',
        code: 'above_node_room',
        message: 'The workspace’s storage node has room for up to 77 GB more now',
      },
    ]);
    expect(body.room).toEqual({ fits_now: false, room_gb: 77, largest_disk_space: null });
    const lithuanian = await change({ ...auth, 'accept-language': 'lt' }, request);
    expect(lithuanian.json<ErrorResponse>().errors?.[0]?.message).toBe(
      'Darbo vietos saugojimo mazge dabar yra vietos dar ne daugiau kaip 77 GB',
    );
    // Nothing was ordered, nothing changed.
    expect(await serviceRow(serviceId)).toMatchObject({ productId: 'mini', diskSpace: 50 });
    const open = (await get(auth, '/api/v1/orders/open')).json<unknown[]>();
    expect(open).toEqual([]);
    await expectNoOvercommit(ctx);
  });

  it('checks extra disk the same way: past the room refused with the largest size that fits, a fitting one paid and applied', async () => {
    const { owners } = await nodeWithMinis(127, 1);
    const [{ auth, serviceId }] = owners as [{ auth: Auth; serviceId: string }];
    const tooMuch = { service_id: serviceId, ...MINI, disk_space: 130 };
    const quoted = (await quote(auth, tooMuch)).json<PlanChangeQuote>();
    expect(quoted.room).toEqual({ fits_now: false, room_gb: 77, largest_disk_space: 120 });
    const refused = await change(auth, tooMuch);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorResponse>().detail).toBe('node_room_exceeded');

    const fitting = { service_id: serviceId, ...MINI, disk_space: 120 };
    expect((await quote(auth, fitting)).json<PlanChangeQuote>().room).toMatchObject({
      fits_now: true,
      room_gb: 77,
    });
    const made = await paidChange(auth, fitting);
    expect(made.status).toBe('awaiting_payment');
    await payOrder(ctx, auth as { authorization: string }, made.order_id!);
    expect(await status(auth, made.id)).toBe('applied');
    expect(await serviceRow(serviceId)).toMatchObject({ diskSpace: 120, pendingDiskSpace: null });
    await expectNoOvercommit(ctx);
  });

  it('never holds back a change that keeps or shrinks the disk, on a node with no room left', async () => {
    const { owners } = await nodeWithMinis(50, 1);
    const [{ auth, serviceId }] = owners as [{ auth: Auth; serviceId: string }];
    const moreUsers = { service_id: serviceId, ...MINI, users_count: 6 };
    expect((await quote(auth, moreUsers)).json<PlanChangeQuote>().room).toBeNull();
    const made = await paidChange(auth, moreUsers);
    await payOrder(ctx, auth as { authorization: string }, made.order_id!);
    expect(await status(auth, made.id)).toBe('applied');
    expect(await serviceRow(serviceId)).toMatchObject({ usersCount: 6, diskSpace: 50 });
  });

  it('lets two changes paid at once take the last room only once; the other waits and gets it when the node has room', async () => {
    // Two MINIs on 180 GB free: 80 GB of room, each asks 70 more.
    const { node, owners } = await nodeWithMinis(180, 2);
    const [first, second] = owners as [{ auth: Auth; serviceId: string }, { auth: Auth; serviceId: string }];
    const made = await Promise.all(
      [first, second].map((owner) =>
        paidChange(owner.auth, { service_id: owner.serviceId, ...MINI, disk_space: 120 }),
      ),
    );
    await Promise.all(
      [first, second].map((owner, index) =>
        payOrder(ctx, owner.auth as { authorization: string }, made[index]!.order_id!),
      ),
    );
    const statuses = [await status(first.auth, made[0]!.id), await status(second.auth, made[1]!.id)];
    expect([...statuses].sort()).toEqual(['applied', 'awaiting_room']);
    const waiting = statuses[0] === 'awaiting_room' ? first : second;
    const waitingChange = statuses[0] === 'awaiting_room' ? made[0]! : made[1]!;
    expect(await serviceRow(waiting.serviceId)).toMatchObject({ diskSpace: 50, pendingDiskSpace: 120 });
    await expectNoOvercommit(ctx);
    // No other change of that service while it waits.
    const another = await quote(waiting.auth, { service_id: waiting.serviceId, ...MINI, users_count: 6 });
    expect(another.json<ErrorResponse>().detail).toBe('plan_change_awaiting_room');

    // The retry does not apply it before there is room.
    expect(await retry()).toEqual([]);
    expect(await status(waiting.auth, waitingChange.id)).toBe('awaiting_room');
    expect((await serviceRow(waiting.serviceId))?.diskSpace).toBe(50);

    // The node reports 70 GB more free: the retry applies the change, within the room.
    await node.applyAll(capacity(250, ['10.9.0.1', '10.9.0.2', '10.9.0.3']));
    const applied = await retry();
    expect(applied.map((row) => row.id)).toEqual([waitingChange.id]);
    expect(await status(waiting.auth, waitingChange.id)).toBe('applied');
    expect(await serviceRow(waiting.serviceId)).toMatchObject({ diskSpace: 120, pendingDiskSpace: null });
    await expectNoOvercommit(ctx);
    expect(await retry()).toEqual([]);
  });

  it('pays and waits when the customer chooses it: the waiting growth holds the room back from new workspaces until applied', async () => {
    const { node, owners } = await nodeWithMinis(127, 1);
    const [{ auth, serviceId }] = owners as [{ auth: Auth; serviceId: string }];
    const made = await paidChange(auth, { service_id: serviceId, ...OPTIMIZED, wait_for_room: true });
    expect(made.room).toMatchObject({ fits_now: false, room_gb: 77 });
    await payOrder(ctx, auth as { authorization: string }, made.order_id!);
    expect(await status(auth, made.id)).toBe('awaiting_room');
    expect(await serviceRow(serviceId)).toMatchObject({ productId: 'mini', pendingDiskSpace: 500 });
    // Placement counts the wait: the node's 77 GB are the waiting change's, no new workspace's.
    const room = (await get(auth, '/api/v1/orders/capacity?disk_space=3')).json<OrderCapacity>();
    expect(room).toMatchObject({ fits_now: false, largest_disk_space: 0 });
    const mine = (await nodePromises(ctx)).find((entry) => entry.id === node.id);
    expect(mine?.pending).toBe(450 * 1024 ** 3);

    expect(await retry()).toEqual([]);
    await node.applyAll(capacity(600, ['10.9.0.1', '10.9.0.2', '10.9.0.3']));
    expect((await retry()).map((row) => row.id)).toEqual([made.id]);
    expect(await serviceRow(serviceId)).toMatchObject({
      productId: 'optimized',
      diskSpace: 500,
      pendingDiskSpace: null,
    });
    await expectNoOvercommit(ctx);
    const activity = (await get(auth, '/api/v1/activity')).json<{ items: Array<{ action: string }> }>();
    const actions = activity.items.map((item) => item.action);
    expect(actions).toContain('plan change waiting for room');
  });
});
