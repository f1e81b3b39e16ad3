// Attacks on payments with the sandbox provider (issue 12): credit spent twice through a
// cancelled order's card page (12.3), and sandbox events that do not match their session or pay
// an order a second time (12.9).
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { AccountCredit, Order, PlanChange } from '@debesis/contract';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import {
  buyService,
  openSession,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
  sendSandboxEventAsWritten,
} from '../../test/payments.ts';
import { activityEvents } from '../activity/activity.table.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { services } from '../services/services.table.ts';
import { paymentEvents, paymentSessions } from './payments.table.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
type Auth = Record<string, string>;

describe('payments under attack (sandbox provider)', () => {
  const ctx = useTestContext({}, seedCatalogue);

  const post = (auth: Auth, url: string, payload: object = {}) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, payload });
  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  const credit = async (auth: Auth) => (await get(auth, '/api/v1/account/credit')).json<AccountCredit>();
  const order = async (auth: Auth, id: string) => (await get(auth, `/api/v1/orders/${id}`)).json<Order>();
  const validUntil = async (serviceId: string) =>
    (
      await ctx.database.db.select().from(services).where(eq(services.id, serviceId))
    )[0]?.validUntil.getTime();
  const session = async (id: string) =>
    (await ctx.database.db.select().from(paymentSessions).where(eq(paymentSessions.id, id)))[0];
  /** Why the event was refused, as recorded with it (null when it was not). */
  const refusalOf = async (eventId: string) =>
    (await ctx.database.db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId)))[0]
      ?.refusal;
  const actions = async (accountId: string, action: string) =>
    ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.accountId, accountId), eq(activityEvents.action, action)));
  const pay = (sessionId: string, extra: object = {}) =>
    sendSandboxEvent(ctx, sandboxEvent(sessionId, 'payment.succeeded', extra));

  /** An account with a paid service and 99 cents of credit (as a downgrade leaves). */
  async function ownerWithCredit() {
    const owner = await signedInUser(ctx);
    const serviceId = (await buyService(ctx, owner.auth, MINI)).service_id;
    await createCreditsQueries(ctx.database.db).grant({
      accountId: owner.user.id,
      amountMinor: 99,
      serviceId,
      planChangeId: crypto.randomUUID(),
      at: new Date(),
    });
    return { owner, serviceId };
  }

  /** The −99 of the report: both card pages paid, the credit must be used once. */
  async function expectCreditUsedOnce(auth: Auth, cancelled: Order) {
    const after = await credit(auth);
    expect(after.balance).toBeGreaterThanOrEqual(0);
    expect(after.entries.filter((entry) => entry.kind === 'order')).toHaveLength(1);
    // The cancelled order's money came back as credit: what was paid before VAT, not its reservation.
    expect(after.entries.filter((entry) => entry.kind === 'payment')).toMatchObject([
      { order_id: cancelled.id, amount: cancelled.breakdown.subtotal - cancelled.credit_applied },
    ]);
    expect(after.balance).toBe(99 - 99 + (cancelled.breakdown.subtotal - cancelled.credit_applied));
  }

  it('attack 12.3: a replaced extension’s card page refuses, and paying both orders uses the credit once', async () => {
    const { owner, serviceId } = await ownerWithCredit();
    const first = (await post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`)).json<Order>();
    expect(first.credit_applied).toBe(99);
    const firstSession = await openSession(ctx, owner.auth, first.id);
    const second = (
      await post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`, { period_id: '1m' })
    ).json<Order>();
    expect(second.credit_applied).toBe(99);
    const secondSession = await openSession(ctx, owner.auth, second.id);
    expect((await order(owner.auth, first.id)).status).toBe('CANCELLED');

    // The cancelled order's card page is closed and takes no card.
    const page = new URL(firstSession.url).pathname;
    expect((await session(firstSession.session_id))?.status).toBe('expired');
    expect((await ctx.app.inject({ method: 'GET', url: page })).body).not.toContain('sandbox-form');
    const payForm = await ctx.app.inject({
      method: 'POST',
      url: `${page}/pay`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'card_number=4242424242424242&exp_month=12&exp_year=99&cvc=123',
    });
    expect(payForm.statusCode).not.toBe(303);

    // Paid anyway (the page was submitted just before it closed), and the new order paid too.
    const before = (await validUntil(serviceId)) ?? 0;
    expect((await pay(firstSession.session_id)).statusCode).toBe(200);
    expect((await pay(secondSession.session_id)).statusCode).toBe(200);
    expect((await order(owner.auth, second.id)).status).toBe('PAID');
    await expectCreditUsedOnce(owner.auth, first);
    // Only the paid-for month was added: the cancelled year bought nothing.
    const added = ((await validUntil(serviceId)) ?? 0) - before;
    expect(added).toBeGreaterThan(27 * 86_400_000);
    expect(added).toBeLessThan(32 * 86_400_000);
    expect(await actions(owner.user.id, 'payment credited')).toHaveLength(1);
  });

  it('attack 12.3: paying both a replaced plan change and its replacement uses the credit once', async () => {
    const { owner, serviceId } = await ownerWithCredit();
    const change = (payload: object) => post(owner.auth, '/api/v1/plan-changes/', payload);
    const first = (
      await change({ service_id: serviceId, product_id: 'optimized', disk_space: 500, users_count: 10 })
    ).json<PlanChange>();
    const firstOrder = await order(owner.auth, first.order_id ?? '');
    expect(firstOrder.credit_applied).toBe(99);
    const firstSession = await openSession(ctx, owner.auth, firstOrder.id);
    const second = (
      await change({ service_id: serviceId, product_id: 'mini', disk_space: 60, users_count: 5 })
    ).json<PlanChange>();
    const secondSession = await openSession(ctx, owner.auth, second.order_id ?? '');
    expect((await order(owner.auth, second.order_id ?? '')).credit_applied).toBe(99);
    expect((await session(firstSession.session_id))?.status).toBe('expired');

    await Promise.all([pay(secondSession.session_id), pay(firstSession.session_id)]);
    await expectCreditUsedOnce(owner.auth, firstOrder);
    const service = (await ctx.database.db.select().from(services).where(eq(services.id, serviceId)))[0];
    expect(service).toMatchObject({ productId: 'mini', diskSpace: 60 });
  });

  it('attack 12.3: a payment takes credit only while the account has it free', async () => {
    const { owner, serviceId } = await ownerWithCredit();
    const extension = (await post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`)).json<Order>();
    expect(extension.credit_applied).toBe(99);
    const opened = await openSession(ctx, owner.auth, extension.id);
    // The credit goes elsewhere meanwhile (however it happens, the ledger must not go below zero).
    await createCreditsQueries(ctx.database.db).use({
      accountId: owner.user.id,
      amountMinor: 99,
      orderId: crypto.randomUUID(),
      serviceId,
      at: new Date(),
    });
    const before = await validUntil(serviceId);
    await pay(opened.session_id);
    const after = await credit(owner.auth);
    expect(after.balance).toBe(extension.breakdown.subtotal - 99);
    expect(after.entries.filter((entry) => entry.order_id === extension.id)).toMatchObject([
      { kind: 'payment' },
    ]);
    expect(await validUntil(serviceId)).toBe(before);
  });

  it('attack 12.9: a sandbox event for another amount or currency pays nothing and is recorded', async () => {
    const owner = await signedInUser(ctx);
    const created = (await post(owner.auth, '/api/v1/orders/', MINI)).json<Order>();
    const opened = await openSession(ctx, owner.auth, created.id);
    for (const [extra, reason] of [
      [{ amount: 1, currency: 'EUR' }, 'amount_mismatch'],
      [{ amount: created.amount, currency: 'USD' }, 'currency_mismatch'],
    ] as const) {
      const event = sandboxEvent(opened.session_id, 'payment.succeeded', extra);
      const response = await sendSandboxEvent(ctx, event);
      expect(response.json()).toEqual({ received: true, result: 'refused' });
      expect(await refusalOf(event.id)).toBe(reason);
    }
    expect((await order(owner.auth, created.id)).status).toBe('AWAITING_PAYMENT');
    expect((await session(opened.session_id))?.status).toBe('open');
    expect(await actions(owner.user.id, 'payment refused')).toHaveLength(2);
    // What the card page sends matches, and pays.
    await pay(opened.session_id, { amount: created.amount, currency: 'EUR' });
    expect((await order(owner.auth, created.id)).status).toBe('PAID');
  });

  it('attack: a signed sandbox event without amount and currency pays nothing (as with Stripe)', async () => {
    const owner = await signedInUser(ctx);
    const created = (await post(owner.auth, '/api/v1/orders/', MINI)).json<Order>();
    const opened = await openSession(ctx, owner.auth, created.id);
    for (const [extra, reason] of [
      [{}, 'amount_mismatch'],
      [{ amount: created.amount }, 'currency_mismatch'],
      [{ currency: 'EUR' }, 'amount_mismatch'],
    ] as const) {
      for (const type of ['payment.succeeded', 'payment.pending']) {
        const event = sandboxEvent(opened.session_id, type, extra);
        const response = await sendSandboxEventAsWritten(ctx, event);
        expect(response.json(), `${type} ${JSON.stringify(extra)}`).toEqual({
          received: true,
          result: 'refused',
        });
        expect(await refusalOf(event.id)).toBe(reason);
      }
    }
    expect((await order(owner.auth, created.id)).status).toBe('AWAITING_PAYMENT');
    expect((await session(opened.session_id))?.status).toBe('open');
    // The card page's event, which states both, still pays.
    await pay(opened.session_id, { amount: created.amount, currency: 'EUR' });
    expect((await order(owner.auth, created.id)).status).toBe('PAID');
  });

  it('attack 12.9: a second payment of a paid order is recorded and refunded, never kept silently', async () => {
    const owner = await signedInUser(ctx);
    const created = (await post(owner.auth, '/api/v1/orders/', MINI)).json<Order>();
    const one = await openSession(ctx, owner.auth, created.id);
    const two = await openSession(ctx, owner.auth, created.id);
    await pay(one.session_id);
    expect((await order(owner.auth, created.id)).status).toBe('PAID');
    // The other page closed once the order was paid…
    expect((await session(two.session_id))?.status).toBe('expired');
    // …but a payment submitted there at the same moment still arrives.
    const second = sandboxEvent(two.session_id, 'payment.succeeded');
    expect((await sendSandboxEvent(ctx, second)).statusCode).toBe(200);
    expect(await session(two.session_id)).toMatchObject({
      status: 'succeeded',
      refundStatus: 'refunded',
      refundReference: `re_sandbox_refund_${two.session_id}`,
    });
    expect((await session(one.session_id))?.refundStatus).toBeNull();
    expect(await actions(owner.user.id, 'payment refunded')).toMatchObject([
      { details: { order_id: created.id, session_id: two.session_id, amount: created.amount } },
    ]);
    // A replay of that event refunds nothing more and buys nothing.
    await sendSandboxEvent(ctx, second);
    expect(await actions(owner.user.id, 'payment refunded')).toHaveLength(1);
    expect(
      await ctx.database.db.select().from(services).where(eq(services.orderId, created.id)),
    ).toHaveLength(1);
  });
});
