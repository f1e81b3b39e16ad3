// Attacks on payments with Stripe as the provider (issue 12): events signed with Stripe's secret
// that do not match the Checkout Session we opened (12.9), a second payment of a paid order
// (12.9), and a cancelled order's Checkout Session left open (12.3). Events are signed with the
// official SDK; a local stand-in answers Stripe's API and records what was asked.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Order } from '@debesis/contract';
import { injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import { activityEvents } from '../activity/activity.table.ts';
import { paymentEvents, paymentSessions } from './payments.table.ts';
import { useStripeApp } from './stripe.test-support.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const signer = new Stripe('sk_test_unused_0123456789');
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
type Auth = Record<string, string>;

interface StripeRequest {
  path: string;
  form: URLSearchParams;
}

/** Stands in for api.stripe.com: Checkout Sessions (a new id each), their expiry, refunds. */
function fakeStripeApi(): Promise<{ url: string; requests: StripeRequest[]; server: Server }> {
  const requests: StripeRequest[] = [];
  let sessions = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      requests.push({ path, form: new URLSearchParams(body) });
      response.setHeader('content-type', 'application/json');
      const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
      if (path === '/v1/checkout/sessions') {
        sessions += 1;
        const id = `cs_test_${sessions}`;
        response.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.test/${id}` }));
      } else if (expire) {
        response.end(JSON.stringify({ id: expire[1], object: 'checkout.session', status: 'expired' }));
      } else if (path === '/v1/refunds') {
        response.end(
          JSON.stringify({ id: `re_test_${requests.length}`, object: 'refund', status: 'succeeded' }),
        );
      } else {
        response.statusCode = 404;
        response.end(JSON.stringify({ error: { message: `no ${path}` } }));
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }),
    ),
  );
}

describe('Stripe events under attack', () => {
  const stripe = useStripeApp(fakeStripeApi, WEBHOOK_SECRET);

  const post = (auth: Auth, url: string, payload: object = {}) =>
    injectWithCsrf(stripe.ctx.app, { method: 'POST', url, headers: auth, payload });
  const order = async (auth: Auth, id: string) =>
    (
      await stripe.ctx.app.inject({ method: 'GET', url: `/api/v1/orders/${id}`, headers: auth })
    ).json<Order>();
  const sessionRow = async (id: string) =>
    (await stripe.ctx.database.db.select().from(paymentSessions).where(eq(paymentSessions.id, id)))[0];
  const actions = async (accountId: string, action: string) =>
    stripe.ctx.database.db
      .select()
      .from(activityEvents)
      .where(and(eq(activityEvents.accountId, accountId), eq(activityEvents.action, action)));

  /** An order and a Checkout Session for it: our session id and Stripe's. */
  async function orderWithSession(auth: Auth, plan = STARTER) {
    const created = (await post(auth, '/api/v1/orders/', plan)).json<Order>();
    return { created, ...(await checkout(auth, created.id)) };
  }
  async function checkout(auth: Auth, orderId: string) {
    const opened = (await post(auth, `/api/v1/orders/${orderId}/process`)).json<{ session_id: string }>();
    const row = await sessionRow(opened.session_id);
    return { sessionId: opened.session_id, checkoutId: row?.providerSessionId ?? '' };
  }

  /** Delivers `checkout.session.completed`, signed as Stripe signs it. */
  async function completed(object: Record<string, unknown>) {
    const id = `evt_${Math.random().toString(36).slice(2)}`;
    const payload = JSON.stringify({
      id,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { object: 'checkout.session', payment_status: 'paid', ...object } },
    });
    const response = await stripe.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments/events/stripe',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      payload,
    });
    return { id, response };
  }
  const paid = (sessionId: string, checkoutId: string, amount: number, intent = 'pi_test_1') => ({
    id: checkoutId,
    client_reference_id: sessionId,
    amount_total: amount,
    currency: 'eur',
    payment_intent: intent,
  });

  it('attack 12.9: an event of another Checkout Session, amount or currency leaves the order unpaid', async () => {
    const owner = await signedInUser(stripe.ctx);
    const { created, sessionId, checkoutId } = await orderWithSession(owner.auth);
    const good = paid(sessionId, checkoutId, created.amount);
    for (const [object, reason] of [
      [{ ...good, id: 'cs_test_someone_else' }, 'session_mismatch'],
      [{ ...good, id: undefined }, 'session_mismatch'],
      [{ ...good, amount_total: 1 }, 'amount_mismatch'],
      [{ ...good, amount_total: null }, 'amount_mismatch'],
      [{ ...good, currency: 'usd' }, 'currency_mismatch'],
    ] as const) {
      const { id, response } = await completed(object);
      expect(response.json()).toEqual({ received: true, result: 'refused' });
      const [recorded] = await stripe.ctx.database.db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.eventId, id));
      expect(recorded?.refusal).toBe(reason);
      expect((await order(owner.auth, created.id)).status).toBe('AWAITING_PAYMENT');
    }
    expect((await sessionRow(sessionId))?.status).toBe('open');
    expect(await actions(owner.user.id, 'payment refused')).toHaveLength(5);
    // The event Stripe really sends for this session pays it.
    expect((await completed(good)).response.json()).toEqual({ received: true, result: 'applied' });
    expect((await order(owner.auth, created.id)).status).toBe('PAID');
  });

  it('attack 12.9: a second payment of a paid order is refunded through Stripe and recorded', async () => {
    const owner = await signedInUser(stripe.ctx);
    const { created, sessionId, checkoutId } = await orderWithSession(owner.auth);
    const other = await checkout(owner.auth, created.id);
    await completed(paid(sessionId, checkoutId, created.amount, 'pi_first'));
    expect((await order(owner.auth, created.id)).status).toBe('PAID');
    // The order's other Checkout Session is expired at Stripe once the order is paid.
    expect(stripe.api.requests.map((request) => request.path)).toContain(
      `/v1/checkout/sessions/${other.checkoutId}/expire`,
    );

    // It was paid all the same, a moment before.
    const refundsBefore = stripe.api.requests.filter((request) => request.path === '/v1/refunds').length;
    await completed(paid(other.sessionId, other.checkoutId, created.amount, 'pi_second'));
    const refunds = stripe.api.requests.filter((request) => request.path === '/v1/refunds');
    expect(refunds).toHaveLength(refundsBefore + 1);
    expect(refunds.at(-1)?.form.get('payment_intent')).toBe('pi_second');
    expect(refunds.at(-1)?.form.get('amount')).toBe(String(created.amount));
    expect(await sessionRow(other.sessionId)).toMatchObject({
      status: 'succeeded',
      paymentReference: 'pi_second',
      refundStatus: 'refunded',
    });
    expect((await sessionRow(other.sessionId))?.refundReference).toMatch(/^re_test_/);
    expect((await sessionRow(sessionId))?.refundStatus).toBeNull();
    expect(await actions(owner.user.id, 'payment refunded')).toMatchObject([
      { details: { order_id: created.id, session_id: other.sessionId, amount: created.amount } },
    ]);
  });

  it('attack 12.3: a cancelled order’s Checkout Session is expired at Stripe', async () => {
    const owner = await signedInUser(stripe.ctx);
    const { created, sessionId, checkoutId } = await orderWithSession(owner.auth);
    await completed(paid(sessionId, checkoutId, created.amount));
    const serviceId = (await order(owner.auth, created.id)).service_id ?? '';
    const extend = (payload: object) =>
      post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`, payload);
    const first = (await extend({ period_id: '12m' })).json<Order>();
    const firstCheckout = await checkout(owner.auth, first.id);
    await extend({ period_id: '1m' });
    expect((await order(owner.auth, first.id)).status).toBe('CANCELLED');
    expect(stripe.api.requests.map((request) => request.path)).toContain(
      `/v1/checkout/sessions/${firstCheckout.checkoutId}/expire`,
    );
    expect((await sessionRow(firstCheckout.sessionId))?.status).toBe('expired');
  });
});
