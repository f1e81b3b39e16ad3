// Open orders (paid or cancelled from the services and billing pages) and the capacity answer
// given before paying for a new workspace.
import { describe, expect, it } from 'vitest';
import type {
  AccountCredit,
  OpenOrder,
  Order,
  OrderCapacity,
  PaymentSessionStatus,
  PlanChange,
} from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import {
  buyService,
  openSession,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
} from '../../test/payments.ts';
import { capacity, registerNode } from '../../test/services.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
type Auth = Record<string, string>;

describe('open orders and capacity before payment', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const post = (auth: Auth, url: string, payload: object = {}) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, payload });
  const order = async (auth: Auth, plan: object = MINI) => {
    const response = await post(auth, '/api/v1/orders/', plan);
    expect(response.statusCode).toBe(201);
    return response.json<Order>();
  };
  const openOrders = async (auth: Auth) => (await get(auth, '/api/v1/orders/open')).json<OpenOrder[]>();
  const cancel = (auth: Auth, id: string) => post(auth, `/api/v1/orders/${id}/cancel`);

  it('lists the orders still to pay (awaiting and failed), newest first, never paid or cancelled ones', async () => {
    const owner = await signedInUser(ctx);
    const paid = await buyService(ctx, owner.auth, MINI);
    const failed = await order(owner.auth);
    const session = await openSession(ctx, owner.auth, failed.id);
    await sendSandboxEvent(ctx, sandboxEvent(session.session_id, 'payment.failed'));
    const awaiting = await order(owner.auth, { ...MINI, users_count: 6 });
    const cancelled = await order(owner.auth, { ...MINI, users_count: 7 });
    expect((await cancel(owner.auth, cancelled.id)).statusCode).toBe(200);
    const extension = (
      await post(owner.auth, `/api/v1/orders/service/${paid.service_id}/extend`)
    ).json<Order>();

    const open = await openOrders(owner.auth);
    expect(open.map((row) => [row.id, row.status])).toEqual([
      [extension.id, 'AWAITING_PAYMENT'],
      [awaiting.id, 'AWAITING_PAYMENT'],
      [failed.id, 'FAILED'],
    ]);
    // An extension names the service it is for.
    expect(open[0]).toMatchObject({ kind: 'extension', service_id: paid.service_id });
    expect(open[0]?.service_name).toMatch(/^MINI /);
    expect(open[1]?.service_name).toBeNull();
    // Another account sees none of them.
    const stranger = await signedInUser(ctx);
    expect(await openOrders(stranger.auth)).toEqual([]);
  });

  it('cancels an unpaid order: its set-aside credit is free again and its card page closes', async () => {
    const owner = await signedInUser(ctx);
    await createCreditsQueries(ctx.database.db).grant({
      accountId: owner.user.id,
      amountMinor: 1_000,
      serviceId: '00000000-0000-4000-8000-000000000001',
      planChangeId: '00000000-0000-4000-8000-000000000002',
      at: new Date(),
    });
    const placed = await order(owner.auth);
    expect(placed.credit_applied).toBe(1_000);
    const credit = async () => (await get(owner.auth, '/api/v1/account/credit')).json<AccountCredit>();
    expect(await credit()).toMatchObject({ balance: 1_000, reserved: 1_000 });
    const session = await openSession(ctx, owner.auth, placed.id);

    const response = await cancel(owner.auth, placed.id);
    expect(response.statusCode).toBe(200);
    expect(response.json<Order>().status).toBe('CANCELLED');
    expect(await credit()).toMatchObject({ balance: 1_000, reserved: 0 });
    expect(await openOrders(owner.auth)).toEqual([]);
    const page = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/payments/session/${session.session_id}/status` })
    ).json<PaymentSessionStatus>();
    expect(page).toMatchObject({ status: 'expired', order_status: 'CANCELLED' });
    // A new order takes the freed credit.
    expect((await order(owner.auth)).credit_applied).toBe(1_000);
    // Cancelling again answers the order as it is; paying it is refused.
    expect((await cancel(owner.auth, placed.id)).json<Order>().status).toBe('CANCELLED');
    expect((await post(owner.auth, `/api/v1/orders/${placed.id}/process`)).json()).toMatchObject({
      detail: 'order_not_payable',
    });
    const activity = (await get(owner.auth, '/api/v1/activity/?limit=5')).body;
    expect(activity).toContain('order cancelled');
  });

  it('refuses to cancel a paid order, in English and Lithuanian, and someone else’s order', async () => {
    const owner = await signedInUser(ctx);
    const paid = await buyService(ctx, owner.auth, MINI);
    const refused = await cancel(owner.auth, paid.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      detail: 'order_not_cancellable',
      message: 'This order is already paid, so it cannot be cancelled. Manage what it bought from Services.',
    });
    const lithuanian = await cancel({ ...owner.auth, 'accept-language': 'lt' }, paid.id);
    expect(lithuanian.json<{ message: string }>().message).toMatch(
      /jau apmokėtas, todėl jo atšaukti negalima/,
    );
    expect((await get(owner.auth, `/api/v1/orders/${paid.id}`)).json<Order>().status).toBe('PAID');

    const waiting = await order(owner.auth);
    const stranger = await signedInUser(ctx);
    expect((await cancel(stranger.auth, waiting.id)).statusCode).toBe(404);
    expect((await get(owner.auth, `/api/v1/orders/${waiting.id}`)).json<Order>().status).toBe(
      'AWAITING_PAYMENT',
    );
  });

  it('cancels a plan change with its order', async () => {
    const owner = await signedInUser(ctx);
    const bought = await buyService(ctx, owner.auth, MINI);
    const change = (
      await post(owner.auth, '/api/v1/plan-changes/', {
        service_id: bought.service_id,
        product_id: 'optimized',
        disk_space: 500,
        users_count: 10,
        confirm_downgrade: false,
      })
    ).json<PlanChange>();
    expect(change.status).toBe('awaiting_payment');
    const [open] = await openOrders(owner.auth);
    expect(open).toMatchObject({ kind: 'plan_change', plan_change_id: change.id });
    expect((await cancel(owner.auth, change.order_id ?? '')).statusCode).toBe(200);
    expect((await get(owner.auth, `/api/v1/plan-changes/${change.id}`)).json<PlanChange>().status).toBe(
      'cancelled',
    );
  });

  it('says before payment whether any online node has room for the disk now, and the largest that fits', async () => {
    const owner = await signedInUser(ctx);
    const ask = async (disk: number) =>
      (await get(owner.auth, `/api/v1/orders/capacity?disk_space=${disk}`)).json<OrderCapacity>();
    // No node at all: nothing fits, the order would wait for resources.
    expect(await ask(50)).toEqual({ disk_space: 50, fits_now: false, largest_disk_space: 0 });
    await registerNode(ctx, 'capacity-node', capacity(120));
    expect(await ask(50)).toEqual({ disk_space: 50, fits_now: true, largest_disk_space: 120 });
    expect(await ask(500)).toEqual({ disk_space: 500, fits_now: false, largest_disk_space: 120 });
    // Not for strangers, and a size must be a number.
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/v1/orders/capacity?disk_space=50' })).statusCode,
    ).toBe(401);
    expect((await get(owner.auth, '/api/v1/orders/capacity?disk_space=lots')).statusCode).toBe(422);
  });
});
