import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, PaymentSessionStatus } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { sandboxEvent, seedCatalogue, sendSandboxEvent, placeOrder } from '../../test/payments.ts';
import { services } from '../services/services.table.ts';
import { activityEvents } from '../activity/activity.table.ts';

const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };

describe('orders and payments', () => {
  const ctx = useTestContext({}, seedCatalogue);

  async function orderAndSession() {
    const owner = await signedInUser(ctx);
    const order = await placeOrder(ctx, owner.auth, PLAN);
    const session = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/payments/session',
      headers: owner.auth,
      payload: { order_id: order.id },
    });
    expect(session.statusCode).toBe(200);
    return { owner, order, session: session.json<{ session_id: string; url: string }>() };
  }

  const sendEvent = (body: { session_id: string }, secret?: string) => sendSandboxEvent(ctx, body, secret);
  const event = sandboxEvent;
  const status = async (sessionId: string) =>
    (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/payments/session/${sessionId}/status` })
    ).json<PaymentSessionStatus>();
  const servicesOf = (orderId: string) =>
    ctx.database.db.select().from(services).where(eq(services.orderId, orderId));

  it('prices a new order with the account’s VAT and keeps it awaiting payment', async () => {
    const { order, session } = await orderAndSession();
    expect(order).toMatchObject({
      kind: 'new',
      status: 'AWAITING_PAYMENT',
      product_name: 'MINI',
      service_id: null,
    });
    expect(order.breakdown).toMatchObject({ vat_rate: 21, includes_vat: true, months: 12 });
    expect(order.amount).toBe(order.breakdown.total);
    expect(session.url).toMatch(/\/payments-sandbox\/sessions\/ps_/);
  });

  it('keeps orders private: another account gets 404', async () => {
    const { order } = await orderAndSession();
    const stranger = await signedInUser(ctx);
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${order.id}`,
      headers: stranger.auth,
    });
    expect(response.statusCode).toBe(404);
  });

  it('shows the sandbox card page and refuses a card that is not a test card', async () => {
    const { session } = await orderAndSession();
    const pagePath = new URL(session.url).pathname;
    const page = await ctx.app.inject({ method: 'GET', url: pagePath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-testid="sandbox-form"');
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `${pagePath}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4111111111111111&exp_month=12&exp_year=40&cvc=123',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('sandbox-error');
  });

  it('sends the customer back to the completion page and queues the signed event after a good card', async () => {
    const { order, session } = await orderAndSession();
    const before = await ctx.queue.pending();
    const paid = await ctx.app.inject({
      method: 'POST',
      url: `${new URL(session.url).pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242+4242+4242+4242&exp_month=12&exp_year=40&cvc=123',
    });
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toContain(
      `/dashboard/payments/new/${order.id}/payment/complete?session_id=${session.session_id}`,
    );
    expect(await ctx.queue.pending()).toBe(before + 1);
  });

  it('marks the order PAID and creates one service in processing', async () => {
    const { owner, order, session } = await orderAndSession();
    const response = await sendEvent(event(session.session_id, 'payment.succeeded'));
    expect(response.json()).toEqual({ received: true, result: 'applied' });
    const state = await status(session.session_id);
    expect(state).toMatchObject({ status: 'succeeded', order_status: 'PAID', amount: order.amount });
    const created = await servicesOf(order.id);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ status: 'processing', accountId: owner.user.id, productId: 'mini' });
    expect(state.service_id).toBe(created[0]?.id);
    const monthsAhead = ((created[0]?.validUntil.getTime() ?? 0) - Date.now()) / (30.4 * 86_400_000);
    expect(Math.round(monthsAhead)).toBe(12);
    const actions = await ctx.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.accountId, owner.user.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['order created', 'payment completed']),
    );
  });

  it('applies the same event five times at once exactly once', async () => {
    const { order, session } = await orderAndSession();
    const once = event(session.session_id, 'payment.succeeded');
    const results = await Promise.all(Array.from({ length: 5 }, () => sendEvent(once)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(results.map((r) => r.json<{ result: string }>().result).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await servicesOf(order.id)).toHaveLength(1);
  });

  it('pays once when five different success events and a late failure arrive together and out of order', async () => {
    const { order, session } = await orderAndSession();
    const events = [
      ...Array.from({ length: 5 }, () => event(session.session_id, 'payment.succeeded')),
      event(session.session_id, 'payment.failed', { error: { code: 'card_declined', message: 'late' } }),
    ];
    await Promise.all(events.reverse().map((e) => sendEvent(e)));
    const state = await status(session.session_id);
    // Whichever came first, a success is final and a failure never undoes it.
    if (state.order_status !== 'PAID') {
      await sendEvent(event(session.session_id, 'payment.succeeded'));
    }
    expect((await status(session.session_id)).order_status).toBe('PAID');
    expect(await servicesOf(order.id)).toHaveLength(1);
    await sendEvent(
      event(session.session_id, 'payment.failed', { error: { code: 'card_declined', message: 'after' } }),
    );
    expect((await status(session.session_id)).order_status).toBe('PAID');
  });

  it('records a decline with its details, then lets the owner retry and pay', async () => {
    const { owner, order, session } = await orderAndSession();
    await sendEvent(
      event(session.session_id, 'payment.failed', {
        error: { code: 'card_declined', message: 'Your card was declined.' },
      }),
    );
    const failed = await status(session.session_id);
    expect(failed).toMatchObject({
      status: 'failed',
      order_status: 'FAILED',
      error_message: 'Payment failed',
    });
    expect(JSON.parse(failed.error_details ?? '{}')).toEqual({
      code: 'card_declined',
      message: 'Your card was declined.',
    });

    const notPayable = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${order.id}/process`,
      headers: owner.auth,
    });
    expect(notPayable.statusCode).toBe(409);
    expect(notPayable.json()).toMatchObject({ detail: 'order_not_payable' });

    const retry = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${order.id}/retry-payment`,
      headers: owner.auth,
    });
    expect(retry.statusCode).toBe(200);
    const second = retry.json<{ session_id: string }>();
    expect(second.session_id).not.toBe(session.session_id);
    expect((await status(second.session_id)).order_status).toBe('AWAITING_PAYMENT');
    await sendEvent(event(second.session_id, 'payment.succeeded'));
    expect((await status(second.session_id)).order_status).toBe('PAID');
    expect(await servicesOf(order.id)).toHaveLength(1);

    const intent = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${order.id}/payment-intent`,
      headers: owner.auth,
    });
    expect(intent.json()).toMatchObject({ session_id: second.session_id, status: 'succeeded' });
  });

  it('leaves a pending card pending, with no event', async () => {
    const { session } = await orderAndSession();
    const before = await ctx.queue.pending();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${new URL(session.url).pathname}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4000000000000259&exp_month=12&exp_year=40&cvc=123',
    });
    expect(response.statusCode).toBe(303);
    expect(await status(session.session_id)).toMatchObject({
      status: 'pending',
      order_status: 'AWAITING_PAYMENT',
    });
    expect(await ctx.queue.pending()).toBe(before);
  });

  it('refuses events with a wrong or missing signature and changes nothing', async () => {
    const { session } = await orderAndSession();
    const forged = await sendEvent(
      event(session.session_id, 'payment.succeeded'),
      'not-the-secret-0123456789',
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toMatchObject({ detail: 'payment_signature_invalid' });
    const unsigned = await ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments/events/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event(session.session_id, 'payment.succeeded')),
    });
    expect(unsigned.statusCode).toBe(400);
    expect((await status(session.session_id)).order_status).toBe('AWAITING_PAYMENT');
  });

  it('turns the plan chosen before sign-in into one order, and finds it again on a repeat', async () => {
    const owner = await signedInUser(ctx);
    const check = () =>
      injectWithCsrf(ctx.app, {
        method: 'POST',
        url: '/api/v1/auth/check-pending-plan',
        headers: owner.auth,
        payload: { ...PLAN, selected_options: [{ type: 'disk_space', value: 0 }], currency: 'EUR' },
      });
    const first = await check();
    expect(first.statusCode).toBe(200);
    const created = first.json<{ status: string; order_id: string; redirect_url: string }>();
    expect(created).toMatchObject({ status: 'order_created' });
    expect(created.redirect_url).toBe(`/dashboard/payments/new/${created.order_id}/payment`);
    const again = (await check()).json<{ status: string; order_id: string }>();
    expect(again).toEqual({ ...created, status: 'order_exists' });
  });

  it('extends a paid service by the ordered period once its extension is paid', async () => {
    const { owner, order, session } = await orderAndSession();
    await sendEvent(event(session.session_id, 'payment.succeeded'));
    const [service] = await servicesOf(order.id);
    if (!service) throw new Error('no service');

    const stranger = await signedInUser(ctx);
    const refused = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/service/${service.id}/extend`,
      headers: stranger.auth,
      payload: { period_id: '1m' },
    });
    expect(refused.statusCode).toBe(404);

    const extension = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/service/${service.id}/extend`,
      headers: owner.auth,
      payload: { period_id: '1m' },
    });
    expect(extension.statusCode).toBe(201);
    const extensionOrder = extension.json<Order>();
    expect(extensionOrder).toMatchObject({ kind: 'extension', service_id: service.id, period_id: '1m' });
    const pay = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${extensionOrder.id}/process`,
      headers: owner.auth,
    });
    await sendEvent(event(pay.json<{ session_id: string }>().session_id, 'payment.succeeded'));
    const [after] = await ctx.database.db.select().from(services).where(eq(services.id, service.id));
    const added = ((after?.validUntil.getTime() ?? 0) - service.validUntil.getTime()) / 86_400_000;
    expect(added).toBeGreaterThanOrEqual(28);
    expect(added).toBeLessThanOrEqual(31);
    expect(await servicesOf(extensionOrder.id)).toHaveLength(0);
  });
});
