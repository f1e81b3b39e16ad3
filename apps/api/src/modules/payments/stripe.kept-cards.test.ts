// Kept cards with Stripe, through its official SDK against a local stand-in for its API (the way
// stripe.provider.test.ts does): the Customer per account, setup_future_usage on a kept payment,
// the setup-mode card form, the off-session charge per Stripe's answers, the detach, and the
// signed payment_method.attached event mapped to the card Billing shows.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PaymentMethodsResponse } from '@debesis/contract';
import { injectWithCsrf } from '../../test/test-app.ts';
import { placeOrder } from '../../test/payments.ts';
import { signedInUser } from '../../test/factories.ts';
import { createStripeProvider } from './stripe.provider.ts';
import { useStripeApp } from './stripe.test-support.ts';

const WEBHOOK_SECRET = 'whsec_test_kept_0123456789abcdef';
const signer = new Stripe('sk_test_unused_0123456789');
const signed = (payload: string) =>
  signer.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });

interface Recorded {
  method: string;
  path: string;
  form: URLSearchParams;
  headers: Record<string, unknown>;
}

/** Stands in for api.stripe.com: customers, Checkout Sessions, PaymentIntents, detaching. */
function fakeStripeApi(): Promise<{ url: string; requests: Recorded[]; server: Server }> {
  const requests: Recorded[] = [];
  let customers = 0;
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      const form = new URLSearchParams(body);
      requests.push({ method: request.method ?? '', path, form, headers: request.headers });
      const answer = (status: number, json: object) => {
        response.statusCode = status;
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(json));
      };
      if (path === '/v1/customers') {
        customers += 1;
        return answer(200, { id: `cus_test_${customers}`, object: 'customer' });
      }
      if (path === '/v1/checkout/sessions') {
        const setup = form.get('mode') === 'setup';
        return answer(200, {
          id: setup ? 'cs_test_setup' : 'cs_test_pay',
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/${setup ? 'setup' : 'pay'}`,
        });
      }
      if (path === '/v1/payment_intents') {
        const method = form.get('payment_method');
        if (method === 'pm_card_visa') {
          return answer(200, { id: 'pi_ok', object: 'payment_intent', status: 'succeeded' });
        }
        if (method === 'pm_gone') {
          return answer(400, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: 'No such PaymentMethod: pm_gone',
              param: 'payment_method',
            },
          });
        }
        if (method === 'pm_processing') {
          return answer(200, { id: 'pi_slow', object: 'payment_intent', status: 'processing' });
        }
        const code =
          method === 'pm_card_authenticationRequired' ? 'authentication_required' : 'card_declined';
        return answer(402, {
          error: {
            type: 'card_error',
            code,
            ...(code === 'card_declined' ? { decline_code: 'generic_decline' } : {}),
            message: code === 'card_declined' ? 'Your card was declined.' : 'Authentication required.',
            payment_intent: { id: 'pi_refused', object: 'payment_intent', status: 'requires_payment_method' },
          },
        });
      }
      if (path === '/v1/payment_intents/pi_slow' && request.method === 'GET') {
        return answer(200, { id: 'pi_slow', object: 'payment_intent', status: 'succeeded' });
      }
      const detach = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(path);
      if (detach) {
        return detach[1] === 'pm_gone'
          ? answer(400, {
              error: {
                type: 'invalid_request_error',
                code: 'payment_method_unexpected_state',
                message: 'The payment method is not attached to a customer.',
              },
            })
          : answer(200, { id: detach[1], object: 'payment_method', customer: null });
      }
      return answer(404, { error: { type: 'invalid_request_error', message: `no ${path}` } });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server }),
    ),
  );
}

function attachedEvent(id: string, customer: string, method: string, card: object, created = 1_800_000_000) {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'payment_method.attached',
    created,
    data: {
      object: {
        id: method,
        object: 'payment_method',
        type: 'card',
        customer,
        card: { brand: 'mastercard', last4: '4444', exp_month: 8, exp_year: 2032, ...card },
      },
    },
  });
}

describe('Stripe kept cards', () => {
  let api: Awaited<ReturnType<typeof fakeStripeApi>>;
  let provider: ReturnType<typeof createStripeProvider>;
  beforeAll(async () => {
    api = await fakeStripeApi();
    provider = createStripeProvider({
      secretKey: 'sk_test_x0123456789',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: api.url,
    });
  });
  afterAll(() => {
    api.server.close();
  });

  it('opens a kept payment for the customer with setup_future_usage=off_session', async () => {
    await provider.createSession({
      sessionId: 'ps_keep_1',
      amountMinor: 1814,
      currency: 'EUR',
      description: 'MINI, 1 mo.',
      returnUrl: 'http://127.0.0.1/x',
      saveFor: { customerRef: 'cus_test_9' },
    });
    const form = api.requests.at(-1)!.form;
    expect(form.get('customer')).toBe('cus_test_9');
    expect(form.get('payment_intent_data[setup_future_usage]')).toBe('off_session');
    expect(form.get('payment_intent_data[metadata][session_id]')).toBe('ps_keep_1');
    await provider.createSession({
      sessionId: 'ps_plain_1',
      amountMinor: 1814,
      currency: 'EUR',
      description: 'MINI, 1 mo.',
      returnUrl: 'http://127.0.0.1/x',
    });
    const plain = api.requests.at(-1)!.form;
    expect(plain.get('customer')).toBeNull();
    expect(plain.get('payment_intent_data[setup_future_usage]')).toBeNull();
  });

  it('opens a Checkout Session in setup mode for the customer, charging nothing', async () => {
    const setup = await provider.createSetup({
      setupId: 'pms_test_setup_1',
      customerRef: 'cus_test_9',
      returnUrl: 'http://127.0.0.1/dashboard/billing?payment_method=saved',
    });
    expect(setup).toEqual({ url: 'https://checkout.stripe.test/c/setup', providerSetupId: 'cs_test_setup' });
    const request = api.requests.at(-1)!;
    expect(request.form.get('mode')).toBe('setup');
    expect(request.form.get('customer')).toBe('cus_test_9');
    expect(request.form.get('line_items[0][price_data][unit_amount]')).toBeNull();
    expect(request.headers['idempotency-key']).toBe('pms_test_setup_1');
  });

  it('charges a kept card off-session under the idempotency key, and reads Stripe’s refusals', async () => {
    const charge = (methodRef: string) =>
      provider.chargeSaved({
        customerRef: 'cus_test_9',
        methodRef,
        amountMinor: 2500,
        currency: 'EUR',
        idempotencyKey: `renewal-${methodRef}`,
        description: 'MINI renewal',
      });
    expect(await charge('pm_card_visa')).toEqual({ status: 'succeeded', reference: 'pi_ok' });
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/v1/payment_intents');
    expect(request.form.get('off_session')).toBe('true');
    expect(request.form.get('confirm')).toBe('true');
    expect(request.form.get('customer')).toBe('cus_test_9');
    expect(request.form.get('amount')).toBe('2500');
    expect(request.form.get('currency')).toBe('eur');
    expect(request.headers['idempotency-key']).toBe('renewal-pm_card_visa');

    expect(await charge('pm_card_chargeCustomerFail')).toEqual({
      status: 'declined',
      reason: { code: 'generic_decline', message: 'Your card was declined.' },
      reference: 'pi_refused',
    });
    expect(await charge('pm_card_authenticationRequired')).toEqual({
      status: 'requires_action',
      reason: { code: 'authentication_required', message: 'Authentication required.' },
      reference: 'pi_refused',
    });
    expect(await charge('pm_processing')).toEqual({ status: 'pending', reference: 'pi_slow' });
    // A card removed at Stripe itself is a refusal, not an error to retry for ever.
    expect(await charge('pm_gone')).toEqual({
      status: 'declined',
      reason: { code: 'resource_missing', message: 'No such PaymentMethod: pm_gone' },
      reference: null,
    });
  });

  it('reads a pending charge again by its reference, and maps its settling event', async () => {
    expect(await provider.savedCharge('pi_slow')).toEqual({ status: 'succeeded', reference: 'pi_slow' });
    expect(api.requests.at(-1)).toMatchObject({ method: 'GET', path: '/v1/payment_intents/pi_slow' });
    const intentEvent = (id: string, type: string, metadata: Record<string, string>) =>
      JSON.stringify({
        id,
        object: 'event',
        type,
        created: 1_800_000_000,
        data: { object: { id: 'pi_slow', object: 'payment_intent', status: 'succeeded', metadata } },
      });
    const ours = intentEvent('evt_pi_1', 'payment_intent.succeeded', { idempotency_key: 'renewal-x-0' });
    expect(provider.parseEvent(ours, { 'stripe-signature': signed(ours) })).toMatchObject({
      id: 'evt_pi_1',
      type: 'charge.settled',
      reference: 'pi_slow',
    });
    const failed = intentEvent('evt_pi_2', 'payment_intent.payment_failed', {
      idempotency_key: 'renewal-x-0',
    });
    expect(provider.parseEvent(failed, { 'stripe-signature': signed(failed) })).toMatchObject({
      type: 'charge.settled',
    });
    // A Checkout Session's own PaymentIntent (no key of ours) is settled by the session's events.
    const checkout = intentEvent('evt_pi_3', 'payment_intent.succeeded', {});
    expect(provider.parseEvent(checkout, { 'stripe-signature': signed(checkout) })).toBeNull();
  });

  it('detaches a card, and takes one already gone as detached', async () => {
    await provider.detachMethod('pm_card_visa');
    expect(api.requests.at(-1)!.path).toBe('/v1/payment_methods/pm_card_visa/detach');
    await expect(provider.detachMethod('pm_gone')).resolves.toBeUndefined();
  });

  it('maps payment_method.attached: reference, customer, brand, last four and expiry', () => {
    const payload = attachedEvent('evt_pm_1', 'cus_test_9', 'pm_123', {});
    expect(provider.parseEvent(payload, { 'stripe-signature': signed(payload) })).toMatchObject({
      id: 'evt_pm_1',
      type: 'method.attached',
      card: {
        customerRef: 'cus_test_9',
        methodRef: 'pm_123',
        brand: 'mastercard',
        last4: '4444',
        expMonth: 8,
        expYear: 2032,
      },
      attachedAt: new Date(1_800_000_000 * 1000),
    });
    // A method that is no card (a bank debit) is not a kept card.
    const debit = JSON.stringify({
      id: 'evt_pm_2',
      object: 'event',
      type: 'payment_method.attached',
      created: 1_800_000_000,
      data: {
        object: { id: 'pm_sepa', object: 'payment_method', type: 'sepa_debit', customer: 'cus_test_9' },
      },
    });
    expect(provider.parseEvent(debit, { 'stripe-signature': signed(debit) })).toBeNull();
  });
});

describe('the app with Stripe: kept cards', () => {
  const stripe = useStripeApp(fakeStripeApi, WEBHOOK_SECRET);

  it('takes a settled off-session charge once: no renewal waits for this one, and a replay is a duplicate', async () => {
    const payload = JSON.stringify({
      id: 'evt_app_pi1',
      object: 'event',
      type: 'payment_intent.succeeded',
      created: 1_800_000_000,
      data: {
        object: {
          id: 'pi_nobody',
          object: 'payment_intent',
          status: 'succeeded',
          metadata: { idempotency_key: 'renewal-x-0' },
        },
      },
    });
    const deliver = async () =>
      (
        await stripe.ctx.app.inject({
          method: 'POST',
          url: '/api/v1/payments/events/stripe',
          headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload) },
          payload,
        })
      ).json<{ result: string }>().result;
    expect(await deliver()).toBe('ignored');
    expect(await deliver()).toBe('duplicate');
  });

  it('makes one Customer per account, keeps the card Stripe attached, and detaches it on removal', async () => {
    const owner = await signedInUser(stripe.ctx);
    const open = async () => {
      const order = await placeOrder(stripe.ctx, owner.auth, {
        product_id: 'mini',
        disk_space: 50,
        users_count: 5,
        period_id: '1m',
      });
      const response = await injectWithCsrf(stripe.ctx.app, {
        method: 'POST',
        url: `/api/v1/orders/${order.id}/process`,
        headers: owner.auth,
        payload: { save_payment_method: true },
      });
      expect(response.statusCode, response.body).toBe(200);
    };
    await open();
    await open();
    const customers = stripe.api.requests.filter((request) => request.path === '/v1/customers');
    expect(customers).toHaveLength(1);
    expect(customers[0]?.form.get('email')).toBe(owner.user.email);
    expect(customers[0]?.form.get('metadata[account_id]')).toBe(owner.user.id);
    const checkout = stripe.api.requests
      .filter((request) => request.path === '/v1/checkout/sessions')
      .at(-1)!;
    expect(checkout.form.get('customer')).toBe('cus_test_1');
    expect(checkout.form.get('payment_intent_data[setup_future_usage]')).toBe('off_session');

    const setup = await injectWithCsrf(stripe.ctx.app, {
      method: 'POST',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(setup.json()).toEqual({ url: 'https://checkout.stripe.test/c/setup' });

    const payload = attachedEvent('evt_app_pm', 'cus_test_1', 'pm_app_1', { brand: 'visa', last4: '4242' });
    const delivered = await stripe.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments/events/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload) },
      payload,
    });
    expect(delivered.json()).toEqual({ received: true, result: 'applied' });
    const shown = (
      await stripe.ctx.app.inject({
        method: 'GET',
        url: '/api/v1/billing/payment-methods',
        headers: owner.auth,
      })
    ).json<PaymentMethodsResponse>();
    expect(shown.payment_method).toMatchObject({
      provider: 'stripe',
      brand: 'visa',
      last4: '4242',
      exp_month: 8,
      exp_year: 2032,
    });

    // A newer card replaces it; the old one is detached at Stripe.
    const newer = attachedEvent('evt_app_pm2', 'cus_test_1', 'pm_app_2', { last4: '5555' }, 1_800_000_100);
    await stripe.ctx.app.inject({
      method: 'POST',
      url: '/api/v1/payments/events/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': signed(newer) },
      payload: newer,
    });
    expect(stripe.api.requests.at(-1)?.path).toBe('/v1/payment_methods/pm_app_1/detach');

    // Stripe tells of that detach: the card was replaced already, nothing changes.
    const detached = (id: string, methodRef: string) =>
      JSON.stringify({
        id,
        object: 'event',
        type: 'payment_method.detached',
        created: 1_800_000_200,
        data: { object: { id: methodRef, object: 'payment_method', type: 'card', customer: null } },
      });
    const deliver = async (payload: string) =>
      (
        await stripe.ctx.app.inject({
          method: 'POST',
          url: '/api/v1/payments/events/stripe',
          headers: { 'content-type': 'application/json', 'stripe-signature': signed(payload) },
          payload,
        })
      ).json<{ result: string }>().result;
    const shownCard = async () =>
      (
        await stripe.ctx.app.inject({
          method: 'GET',
          url: '/api/v1/billing/payment-methods',
          headers: owner.auth,
        })
      ).json<PaymentMethodsResponse>().payment_method;
    expect(await deliver(detached('evt_app_det1', 'pm_app_1'))).toBe('ignored');
    expect(await shownCard()).toMatchObject({ last4: '5555' });
    // Removed in Stripe's dashboard: the account keeps it no longer, once however often told.
    expect(await deliver(detached('evt_app_det2', 'pm_app_2'))).toBe('applied');
    expect(await shownCard()).toBeNull();
    expect(await deliver(detached('evt_app_det2', 'pm_app_2'))).toBe('duplicate');
    await deliver(newer.replace('evt_app_pm2', 'evt_app_pm3'));
    expect(await shownCard()).toMatchObject({ last4: '5555' });

    const removed = await injectWithCsrf(stripe.ctx.app, {
      method: 'DELETE',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(removed.json()).toEqual({ payment_method: null });
    expect(stripe.api.requests.at(-1)?.path).toBe('/v1/payment_methods/pm_app_2/detach');
  });
});
