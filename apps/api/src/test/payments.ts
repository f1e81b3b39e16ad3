// Paying as a customer and the sandbox provider would: orders through the API, then signed
// provider events, so tests reach services the way production does.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Order } from '@debesis/contract';
import { paymentSessions } from '../modules/payments/payments.table.ts';
import { signSandboxEvent } from '../modules/payments/sandbox-signature.ts';
import { createProductsQueries } from '../modules/products/products.queries.ts';
import { createProductsService } from '../modules/products/products.service.ts';
import { SEED_CATALOGUE } from '../modules/products/catalogue-seed.ts';
import { injectWithCsrf, TEST_SANDBOX_SECRET, type TestContext } from './test-app.ts';

export async function seedCatalogue(ctx: TestContext): Promise<void> {
  await createProductsService({ queries: createProductsQueries(ctx.database.db) }).seedIfEmpty(
    SEED_CATALOGUE,
  );
}

export function sandboxEvent(sessionId: string, type: string, extra: object = {}) {
  return {
    id: `evt_${randomBytes(8).toString('hex')}`,
    type,
    session_id: sessionId,
    created: Math.floor(Date.now() / 1000),
    ...extra,
  };
}

/**
 * Sends a signed event stating what its session charged, as the card page does
 * (sandbox.routes.ts), unless the event states an amount or a currency of its own.
 */
export async function sendSandboxEvent(
  ctx: TestContext,
  event: { session_id: string },
  secret = TEST_SANDBOX_SECRET,
) {
  if ('amount' in event || 'currency' in event) return sendSandboxEventAsWritten(ctx, event, secret);
  const [session] = await ctx.database.db
    .select({ amount: paymentSessions.amountMinor, currency: paymentSessions.currency })
    .from(paymentSessions)
    .where(eq(paymentSessions.id, event.session_id));
  return sendSandboxEventAsWritten(ctx, { ...session, ...event }, secret);
}

/** Sends exactly `event`, signed (an attacker's or a broken provider's event). */
export function sendSandboxEventAsWritten(ctx: TestContext, event: object, secret = TEST_SANDBOX_SECRET) {
  const body = JSON.stringify(event);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/v1/payments/events/sandbox',
    headers: {
      'content-type': 'application/json',
      'x-sandbox-signature': signSandboxEvent(secret, body, Math.floor(Date.now() / 1000)),
    },
    payload: body,
  });
}

type Auth = { authorization: string };

export async function openSession(ctx: TestContext, auth: Auth, orderId: string) {
  const response = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: `/api/v1/orders/${orderId}/process`,
    headers: auth,
  });
  if (response.statusCode !== 200) throw new Error(`process failed: ${response.statusCode} ${response.body}`);
  return response.json<{ session_id: string; url: string }>();
}

/** Opens a session for the order and delivers a signed success event for it. */
export async function payOrder(ctx: TestContext, auth: Auth, orderId: string) {
  const session = await openSession(ctx, auth, orderId);
  const response = await sendSandboxEvent(ctx, sandboxEvent(session.session_id, 'payment.succeeded'));
  if (response.statusCode !== 200) throw new Error(`event failed: ${response.statusCode} ${response.body}`);
  return session;
}

type Plan = { product_id: string; disk_space: number; users_count: number; period_id: string; name?: string };

/** Orders a plan, as the order page does; the new order, awaiting payment. */
export async function placeOrder(ctx: TestContext, auth: Auth, plan: Plan): Promise<Order> {
  const created = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: '/api/v1/orders/',
    headers: auth,
    payload: plan,
  });
  if (created.statusCode !== 201) throw new Error(`order failed: ${created.statusCode} ${created.body}`);
  return created.json<Order>();
}

/** Orders a plan and pays for it; the order as it is afterwards (PAID, with its service). */
export async function buyService(
  ctx: TestContext,
  auth: Auth,
  plan: Plan,
): Promise<Order & { service_id: string }> {
  const order = await placeOrder(ctx, auth, plan);
  await payOrder(ctx, auth, order.id);
  const paid = (
    await ctx.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: auth })
  ).json<Order>();
  if (paid.status !== 'PAID' || !paid.service_id) throw new Error(`order not paid: ${JSON.stringify(paid)}`);
  return { ...paid, service_id: paid.service_id };
}

/** Opens Billing's card form (keeps a card without charging it); the form's path. */
export async function openCardForm(ctx: TestContext, auth: Auth): Promise<string> {
  const opened = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: '/api/v1/billing/payment-methods',
    headers: auth,
  });
  if (opened.statusCode !== 200) throw new Error(`card form failed: ${opened.statusCode} ${opened.body}`);
  return new URL(opened.json<{ url: string }>().url).pathname;
}
