// Stripe through its official SDK: events signed the way Stripe signs them, a local stand-in for
// Stripe's API for Checkout Sessions, and the whole app in Stripe mode.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { PaymentSessionStatus } from '@debesis/contract';
import { injectWithCsrf } from '../../test/test-app.ts';
import { placeOrder } from '../../test/payments.ts';
import { signedInUser } from '../../test/factories.ts';
import { services } from '../services/services.table.ts';
import { createStripeProvider } from './stripe.provider.ts';
import { useStripeApp } from './stripe.test-support.ts';

const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef';
const signer = new Stripe('sk_test_unused_0123456789');

function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${Math.random().toString(36).slice(2)}`,
) {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    data: { object: { object: 'checkout.session', ...object } },
  });
}
const signed = (payload: string, secret = WEBHOOK_SECRET) =>
  signer.webhooks.generateTestHeaderString({ payload, secret });

/** Stands in for api.stripe.com: answers Checkout Session creation and records what was asked. */
function fakeStripeApi(): Promise<{
  url: string;
  requests: Array<{ path: string; body: string; headers: Record<string, unknown> }>;
  server: Server;
}> {
  const requests: Array<{ path: string; body: string; headers: Record<string, unknown> }> = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ path: request.url ?? '', body, headers: request.headers });
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          id: 'cs_test_123',
          object: 'checkout.session',
          url: 'https://checkout.stripe.test/c/pay/cs_test_123',
        }),
      );
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }),
    ),
  );
}

describe('Stripe provider', () => {
  let api: Awaited<ReturnType<typeof fakeStripeApi>>;
  beforeAll(async () => {
    api = await fakeStripeApi();
  });
  afterAll(() => {
    api.server.close();
  });

  it('reads completed, async and expired Checkout events, and ignores others', () => {
    const provider = createStripeProvider({
      secretKey: 'sk_test_x0123456789',
      webhookSecret: WEBHOOK_SECRET,
    });
    const read = (payload: string) => provider.parseEvent(payload, { 'stripe-signature': signed(payload) });
    expect(
      read(
        stripeEvent('checkout.session.completed', { client_reference_id: 'ps_a', payment_status: 'paid' }),
      ),
    ).toMatchObject({
      type: 'payment.succeeded',
      sessionId: 'ps_a',
    });
    expect(
      read(
        stripeEvent('checkout.session.completed', {
          metadata: { session_id: 'ps_b' },
          payment_status: 'unpaid',
        }),
      ),
    ).toMatchObject({
      type: 'payment.pending',
      sessionId: 'ps_b',
    });
    expect(
      read(stripeEvent('checkout.session.async_payment_failed', { client_reference_id: 'ps_c' })),
    ).toMatchObject({
      type: 'payment.failed',
      error: { code: 'payment_failed' },
    });
    expect(read(stripeEvent('checkout.session.expired', { client_reference_id: 'ps_d' }))).toMatchObject({
      type: 'payment.failed',
      error: { code: 'session_expired' },
    });
    expect(read(stripeEvent('customer.created', {}))).toBeNull();
  });

  it('refuses an event whose signature does not match', () => {
    const provider = createStripeProvider({
      secretKey: 'sk_test_x0123456789',
      webhookSecret: WEBHOOK_SECRET,
    });
    const payload = stripeEvent('checkout.session.completed', {
      client_reference_id: 'ps_a',
      payment_status: 'paid',
    });
    expect(() =>
      provider.parseEvent(payload, { 'stripe-signature': signed(payload, 'whsec_other_0123456789') }),
    ).toThrow();
    expect(() => provider.parseEvent(payload, {})).toThrow();
  });

  it('opens a Checkout Session for the amount, with our session id and an idempotency key', async () => {
    const provider = createStripeProvider({
      secretKey: 'sk_test_x0123456789',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: api.url,
    });
    const created = await provider.createSession({
      sessionId: 'ps_test_session_1',
      amountMinor: 1814,
      currency: 'EUR',
      description: 'MINI, 1 mo.',
      returnUrl: 'http://127.0.0.1/dashboard/payments/new/x/payment/complete?session_id=ps_test_session_1',
    });
    expect(created).toEqual({
      url: 'https://checkout.stripe.test/c/pay/cs_test_123',
      providerSessionId: 'cs_test_123',
    });
    const request = api.requests.at(-1);
    expect(request?.path).toBe('/v1/checkout/sessions');
    const form = new URLSearchParams(request?.body);
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('1814');
    expect(form.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(form.get('client_reference_id')).toBe('ps_test_session_1');
    expect(request?.headers['idempotency-key']).toBe('ps_test_session_1');
  });
});

describe('the app with Stripe as provider', () => {
  const stripe = useStripeApp(fakeStripeApi, WEBHOOK_SECRET);

  it('pays an order once from five copies of Stripe’s signed completion event', async () => {
    const owner = await signedInUser(stripe.ctx);
    const order = await placeOrder(stripe.ctx, owner.auth, {
      product_id: 'starter',
      disk_space: 3,
      users_count: 2,
      period_id: '1m',
    });
    const session = (
      await injectWithCsrf(stripe.ctx.app, {
        method: 'POST',
        url: `/api/v1/orders/${order.id}/process`,
        headers: owner.auth,
      })
    ).json<{ session_id: string; url: string }>();
    expect(session.url).toBe('https://checkout.stripe.test/c/pay/cs_test_123');

    const payload = stripeEvent(
      'checkout.session.completed',
      {
        id: 'cs_test_123',
        client_reference_id: session.session_id,
        payment_status: 'paid',
        amount_total: order.amount,
        currency: 'eur',
      },
      'evt_once',
    );
    const deliveries = await Promise.all(
      Array.from({ length: 5 }, () =>
        stripe.ctx.app.inject({
          method: 'POST',
          url: '/api/v1/payments/events/stripe',
          headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload) },
          payload,
        }),
      ),
    );
    expect(deliveries.map((d) => d.json<{ result: string }>().result).sort()).toEqual([
      'applied',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    const status = (
      await stripe.ctx.app.inject({
        method: 'GET',
        url: `/api/v1/payments/session/${session.session_id}/status`,
      })
    ).json<PaymentSessionStatus>();
    expect(status.order_status).toBe('PAID');
    expect(
      await stripe.ctx.database.db.select().from(services).where(eq(services.orderId, order.id)),
    ).toHaveLength(1);
    // The sandbox's card page exists only when the sandbox is the provider.
    const sandboxPay = await stripe.ctx.app.inject({
      method: 'POST',
      url: '/payments-sandbox/sessions/ps_abcdefghijkl/pay',
    });
    expect(sandboxPay.statusCode).toBe(404);
  });
});
