// Buying the way a customer does, for the billing tests: an order through the API, a payment
// session, then the sandbox provider's signed success event.
import { spawnSync } from 'node:child_process';
import type { Order } from '@debesis/contract';
import { injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { placeOrder as placeOrderOf, sandboxEvent, sendSandboxEvent } from '../../test/payments.ts';

export type Auth = { authorization: string };
export const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };

export { seedCatalogue as seedProducts } from '../../test/payments.ts';

/** Orders `plan` (the MINI plan unless told), as the order page does. */
export function placeOrder(
  ctx: TestContext,
  auth: Auth,
  plan: typeof PLAN & { name?: string } = PLAN,
): Promise<Order> {
  return placeOrderOf(ctx, auth, plan);
}

export async function extendOrder(ctx: TestContext, auth: Auth, serviceId: string): Promise<Order> {
  const response = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: `/api/v1/orders/service/${serviceId}/extend`,
    headers: auth,
    payload: {},
  });
  if (response.statusCode !== 201) throw new Error(`extend failed: ${response.statusCode} ${response.body}`);
  return response.json<Order>();
}

export async function openSession(ctx: TestContext, auth: Auth, orderId: string): Promise<string> {
  const response = await injectWithCsrf(ctx.app, {
    method: 'POST',
    url: '/api/v1/payments/session',
    headers: auth,
    payload: { order_id: orderId },
  });
  if (response.statusCode !== 200) throw new Error(`session failed: ${response.statusCode} ${response.body}`);
  return response.json<{ session_id: string }>().session_id;
}

export function succeed(ctx: TestContext, sessionId: string) {
  return sendSandboxEvent(ctx, sandboxEvent(sessionId, 'payment.succeeded'));
}

/** Orders `plan`, pays it, and returns the paid order. */
export async function buy(
  ctx: TestContext,
  auth: Auth,
  plan: typeof PLAN & { name?: string } = PLAN,
): Promise<Order> {
  const order = await placeOrder(ctx, auth, plan);
  await pay(ctx, auth, order.id);
  return order;
}

export async function pay(ctx: TestContext, auth: Auth, orderId: string): Promise<Order> {
  const sessionId = await openSession(ctx, auth, orderId);
  const response = await succeed(ctx, sessionId);
  if (response.statusCode !== 200) throw new Error(`event failed: ${response.statusCode} ${response.body}`);
  const paid = await ctx.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}`, headers: auth });
  return paid.json<Order>();
}

/** The text of a PDF as Debian's pdftotext reads it, whitespace collapsed. */
export function pdfText(pdf: Buffer): string {
  const result = spawnSync('pdftotext', ['-enc', 'UTF-8', '-', '-'], { input: pdf });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr.toString()}`);
  return normaliseSpace(result.stdout.toString('utf8'));
}

/** No-break and narrow spaces (lt-LT money) read as plain spaces; runs of space as one. */
export function normaliseSpace(text: string): string {
  return text.replace(/[\u00a0\u202f\s]+/g, ' ').trim();
}

/** The visible text of the HTML preview, whitespace collapsed. */
export function htmlText(html: string): string {
  return normaliseSpace(
    html
      .replace(/<style[\s\S]*?<\/style>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&'),
  );
}
