// Kept cards with the sandbox provider, end to end: the keep box of the card page, the API field,
// Billing's card form, the card shown (never its number), replaced and removed, the provider's
// events applied once, and the off-session charge renewals will use, per Stripe's test cards.
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Order, PaymentMethodsResponse } from '@debesis/contract';
import { injectWithCsrf, useTestContext } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import {
  seedCatalogue,
  sendSandboxEvent,
  sendSandboxEventAsWritten,
  placeOrder,
  openCardForm,
} from '../../test/payments.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { activityEvents } from '../activity/activity.table.ts';
import { createUsersQueries } from '../users/users.queries.ts';
import { paymentMethodSetups, paymentMethods } from './payment-methods.table.ts';
import { createPaymentMethodsService } from './payment-methods.service.ts';
import { paymentSessions } from './payments.table.ts';
import { createSandboxProvider, type SandboxCardEvent } from './sandbox.provider.ts';

const PLAN = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '1m' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
type Auth = { authorization: string };

describe('kept cards (sandbox)', () => {
  /** The queued sandbox events, delivered to the webhook as the worker does. */
  const delivered: string[] = [];
  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    await ctx.queue.work('payments.sandbox-event', async ({ event }) => {
      const response = await sendSandboxEventAsWritten(ctx, event);
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}`);
      delivered.push(event.type);
    });
  });

  const methods = () =>
    createPaymentMethodsService({
      db: ctx.database.db,
      provider: createSandboxProvider({ secret: 'unused-0123456789', publicUrl: ctx.config.publicUrl }),
      users: createUsersQueries(ctx.database.db),
      activity: createActivityService({ queries: createActivityQueries(ctx.database.db) }),
      publicUrl: ctx.config.publicUrl,
    });

  const getCard = async (auth: Auth) => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/billing/payment-methods',
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PaymentMethodsResponse>().payment_method;
  };

  /** Waits until the account's kept card is the one ending in `last4` (events arrive by the queue). */
  async function cardEnding(auth: Auth, last4: string | null) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const card = await getCard(auth);
      if ((card?.last4 ?? null) === last4) return card;
      if (Date.now() > deadline) throw new Error(`kept card is ${card?.last4 ?? 'none'}, not ${last4}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The webhook events delivered after the first `before`, once any arrive (they come by the queue). */
  async function deliveredSince(before: number) {
    const deadline = Date.now() + 10_000;
    while (delivered.length === before && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return delivered.slice(before);
  }

  async function orderWithSession(auth: Auth, body: Record<string, unknown> = {}) {
    const order = await placeOrder(ctx, auth, PLAN);
    const session = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/payments/session',
      headers: auth,
      payload: { order_id: order.id, ...body },
    });
    expect(session.statusCode, session.body).toBe(200);
    return { order, session: session.json<{ session_id: string; url: string }>() };
  }

  const pay = (url: string, card: string, keep: boolean) =>
    ctx.app.inject({
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      headers: FORM,
      payload: `card_number=${card}&exp_month=12&exp_year=40&cvc=123${keep ? '&keep_card=on' : ''}`,
    });

  it('keeps the card of a paid session whose customer ticked the box: brand, last four, expiry, never the number', async () => {
    const owner = await signedInUser(ctx);
    expect(await getCard(owner.auth)).toBeNull();
    const { session } = await orderWithSession(owner.auth, { save_payment_method: true });
    const [row] = await ctx.database.db
      .select()
      .from(paymentSessions)
      .where(eq(paymentSessions.id, session.session_id));
    expect(row?.savePaymentMethod).toBe(true);
    // The card page offers the box, ticked as the API was asked.
    const page = await ctx.app.inject({ method: 'GET', url: new URL(session.url).pathname });
    expect(page.body).toMatch(/name="keep_card" value="on" checked data-testid="sandbox-keep-card"/);
    expect(page.body).toContain('Keep this card for renewals');

    expect((await pay(session.url, '4242+4242+4242+4242', true)).statusCode).toBe(303);
    const card = await cardEnding(owner.auth, '4242');
    expect(card).toMatchObject({ provider: 'sandbox', brand: 'visa', exp_month: 12, exp_year: 2040 });
    const raw = await ctx.app.inject({
      method: 'GET',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(raw.body).not.toContain('4242424242424242');
    const [stored] = await ctx.database.db
      .select()
      .from(paymentMethods)
      .where(eq(paymentMethods.accountId, owner.user.id));
    expect(JSON.stringify(stored)).not.toContain('4242424242424242');
    expect(stored?.methodRef).toMatch(/^pm_sb_ok_/);
    const saved = await ctx.database.db
      .select()
      .from(activityEvents)
      .where(eq(activityEvents.accountId, owner.user.id));
    expect(saved.map((entry) => entry.action)).toContain('payment method saved');
  });

  it('keeps nothing when the box is left unticked, and offers it unticked without the API field', async () => {
    const owner = await signedInUser(ctx);
    const { session } = await orderWithSession(owner.auth);
    const page = await ctx.app.inject({ method: 'GET', url: new URL(session.url).pathname });
    expect(page.body).toMatch(/name="keep_card" value="on" data-testid="sandbox-keep-card"/);
    const before = delivered.length;
    expect((await pay(session.url, '4242424242424242', false)).statusCode).toBe(303);
    expect(await deliveredSince(before)).toEqual(['payment.succeeded']);
    expect(await getCard(owner.auth)).toBeNull();
  });

  it('keeps no card of a declined payment', async () => {
    const owner = await signedInUser(ctx);
    const { session } = await orderWithSession(owner.auth, { save_payment_method: true });
    const before = delivered.length;
    expect((await pay(session.url, '4000000000000002', true)).statusCode).toBe(303);
    expect(await deliveredSince(before)).toEqual(['payment.failed']);
    expect(await getCard(owner.auth)).toBeNull();
  });

  it('refuses a save_payment_method that is not a boolean', async () => {
    const owner = await signedInUser(ctx);
    const order = await placeOrder(ctx, owner.auth, PLAN);
    const refused = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/payments/session',
      headers: owner.auth,
      payload: { order_id: order.id, save_payment_method: 'yes' },
    });
    expect(refused.statusCode).toBe(422);
  });

  it('opens a card form that keeps a card without charging, replaces the kept one, and removes it', async () => {
    const owner = await signedInUser(ctx);
    const { session } = await orderWithSession(owner.auth, { save_payment_method: true });
    await pay(session.url, '4242424242424242', true);
    const first = await cardEnding(owner.auth, '4242');

    const opened = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const { url } = opened.json<{ url: string }>();
    expect(url).toMatch(/\/payments-sandbox\/setups\/pms_[A-Za-z0-9_-]+$/);
    const path = new URL(url).pathname;
    const form = await ctx.app.inject({ method: 'GET', url: path });
    expect(form.statusCode).toBe(200);
    for (const field of ['name="card_number"', 'name="exp_month"', 'name="exp_year"', 'name="cvc"']) {
      expect(form.body).toContain(field);
    }
    expect(form.body).toContain('Save card');
    expect(form.body).not.toContain('sandbox-amount');

    // A declined card, a card that is not a test card and an expired one are refused on the form.
    const save = (payload: string) =>
      ctx.app.inject({ method: 'POST', url: `${path}/save`, headers: FORM, payload });
    const declined = await save('card_number=4000000000000002&exp_month=12&exp_year=40&cvc=123');
    expect(declined.statusCode).toBe(422);
    expect(declined.body).toContain('This card was declined');
    expect((await save('card_number=4111111111111111&exp_month=12&exp_year=40&cvc=123')).statusCode).toBe(
      422,
    );
    expect((await save('card_number=4242424242424242&exp_month=1&exp_year=20&cvc=123')).statusCode).toBe(422);
    expect((await save('card_number=4242424242424242&exp_month=13&exp_year=40&cvc=1')).statusCode).toBe(422);

    const saved = await save('card_number=4000+0000+0000+0341&exp_month=11&exp_year=2041&cvc=123');
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${ctx.config.publicUrl}/dashboard/billing?payment_method=saved`);
    const replaced = await cardEnding(owner.auth, '0341');
    expect(replaced).toMatchObject({ exp_month: 11, exp_year: 2041 });
    expect(replaced?.id).not.toBe(first?.id);
    // One card per account.
    expect(
      await ctx.database.db.select().from(paymentMethods).where(eq(paymentMethods.accountId, owner.user.id)),
    ).toHaveLength(1);
    // The form is used up: a second post keeps nothing more.
    const again = await save('card_number=4242424242424242&exp_month=12&exp_year=40&cvc=123');
    expect(again.body).toContain('This card form is already finished');

    const removed = await injectWithCsrf(ctx.app, {
      method: 'DELETE',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ payment_method: null });
    expect(await getCard(owner.auth)).toBeNull();
    // Removing nothing answers alike.
    const twice = await injectWithCsrf(ctx.app, {
      method: 'DELETE',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(twice.json()).toEqual({ payment_method: null });
    const actions = (
      await ctx.database.db.select().from(activityEvents).where(eq(activityEvents.accountId, owner.user.id))
    ).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'payment method saved')).toHaveLength(2);
    expect(actions.filter((action) => action === 'payment method removed')).toHaveLength(1);
  });

  it('closes a card form after a day', async () => {
    const owner = await signedInUser(ctx);
    const path = await openCardForm(ctx, owner.auth);
    const id = path.split('/').at(-1)!;
    await ctx.database.db
      .update(paymentMethodSetups)
      .set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(paymentMethodSetups.id, id));
    const saved = await ctx.app.inject({
      method: 'POST',
      url: `${path}/save`,
      headers: FORM,
      payload: 'card_number=4242424242424242&exp_month=12&exp_year=40&cvc=123',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('This card form is already finished');
    expect(await getCard(owner.auth)).toBeNull();
  });

  it('speaks the account’s language on the card form', async () => {
    const owner = await signedInUser(ctx);
    await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/settings/',
      headers: owner.auth,
      payload: { language: 'lt' },
    });
    const path = await openCardForm(ctx, owner.auth);
    const form = await ctx.app.inject({
      method: 'GET',
      url: path,
      headers: { 'accept-language': 'en' },
    });
    expect(form.body).toContain('<html lang="lt">');
    expect(form.body).toContain('Išsaugoti kortelę');
    expect(form.body).not.toContain('Save card');
  });

  it('needs a signed-in owner and the CSRF header; another account sees its own card only', async () => {
    const owner = await signedInUser(ctx);
    const { session } = await orderWithSession(owner.auth, { save_payment_method: true });
    await pay(session.url, '4242424242424242', true);
    await cardEnding(owner.auth, '4242');
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/v1/billing/payment-methods' });
    expect(anonymous.statusCode).toBe(401);
    const noCsrf = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/v1/billing/payment-methods',
      headers: owner.auth,
    });
    expect(noCsrf.statusCode).toBe(403);
    const stranger = await signedInUser(ctx);
    expect(await getCard(stranger.auth)).toBeNull();
    await injectWithCsrf(ctx.app, {
      method: 'DELETE',
      url: '/api/v1/billing/payment-methods',
      headers: stranger.auth,
    });
    expect((await getCard(owner.auth))?.last4).toBe('4242');
  });

  it('applies a card event once, refuses an unknown customer, and never lets an older card replace a newer one', async () => {
    const owner = await signedInUser(ctx);
    const customer = await methods().customerFor(owner.user.id);
    expect(await methods().customerFor(owner.user.id)).toBe(customer);
    const cardEvent = (id: string, last4: string, created: number): SandboxCardEvent => ({
      id,
      type: 'method.attached',
      customer,
      payment_method: { id: `pm_sb_ok_${id}`, brand: 'visa', last4, exp_month: 3, exp_year: 2031 },
      created,
    });
    const nowS = Math.floor(Date.now() / 1000);
    const newer = cardEvent('evtnewer1', '1111', nowS);
    expect((await sendSandboxEventAsWritten(ctx, newer)).json()).toMatchObject({ result: 'applied' });
    expect((await sendSandboxEventAsWritten(ctx, newer)).json()).toMatchObject({ result: 'duplicate' });
    const older = cardEvent('evtolder1', '2222', nowS - 60);
    expect((await sendSandboxEventAsWritten(ctx, older)).json()).toMatchObject({ result: 'applied' });
    expect((await getCard(owner.auth))?.last4).toBe('1111');
    const unknown = { ...cardEvent('evtunknown', '3333', nowS), customer: 'cus_sb_nobody' };
    expect((await sendSandboxEventAsWritten(ctx, unknown)).json()).toMatchObject({ result: 'refused' });
    // A payment event is still read as one (the union does not swallow it).
    const garbage = await sendSandboxEvent(ctx, {
      session_id: 'ps_nonexistent0',
      type: 'payment.nonsense',
    } as never);
    expect(garbage.statusCode).toBe(400);
  });

  it('charges the kept card off-session: 4242 pays once per key, 0341 declines, 3184 needs authentication', async () => {
    const service = methods();
    const owner = await signedInUser(ctx);
    const charge = (key: string) =>
      service.chargeKeptCard({
        accountId: owner.user.id,
        amountMinor: 1814,
        currency: 'EUR',
        idempotencyKey: key,
        description: 'MINI renewal',
      });
    expect(await charge('renewal-a')).toEqual({ status: 'no_card' });

    const keep = async (cardNumber: string, last4: string) => {
      const path = await openCardForm(ctx, owner.auth);
      const saved = await ctx.app.inject({
        method: 'POST',
        url: `${path}/save`,
        headers: FORM,
        payload: `card_number=${cardNumber}&exp_month=12&exp_year=40&cvc=123`,
      });
      expect(saved.statusCode, saved.body).toBe(303);
      await cardEnding(owner.auth, last4);
    };

    await keep('4242424242424242', '4242');
    const paid = await charge('renewal-1');
    expect(paid).toMatchObject({ status: 'succeeded', card: { last4: '4242', brand: 'visa' } });
    const again = await charge('renewal-1');
    expect(again).toEqual(paid);
    const other = await charge('renewal-2');
    expect(
      other.status === 'succeeded' && paid.status === 'succeeded' && other.reference !== paid.reference,
    ).toBe(true);

    await keep('4000000000000341', '0341');
    expect(await charge('renewal-3')).toMatchObject({
      status: 'declined',
      reason: { code: 'card_declined' },
      card: { last4: '0341' },
    });

    await keep('4000002760003184', '3184');
    expect(await charge('renewal-4')).toMatchObject({
      status: 'requires_action',
      reason: { code: 'authentication_required' },
    });

    await keep('4000000000009995', '9995');
    expect(await charge('renewal-5')).toMatchObject({
      status: 'declined',
      reason: { code: 'insufficient_funds' },
    });
  });

  it('pays on the page with 3184 (the customer is there to authenticate), keeping it', async () => {
    const owner = await signedInUser(ctx);
    const { order, session } = await orderWithSession(owner.auth, { save_payment_method: true });
    expect((await pay(session.url, '4000002760003184', true)).statusCode).toBe(303);
    await cardEnding(owner.auth, '3184');
    const deadline = Date.now() + 10_000;
    for (;;) {
      const state = (
        await ctx.app.inject({ method: 'GET', url: `/api/v1/orders/${order.id}`, headers: owner.auth })
      ).json<Order>();
      if (state.status === 'PAID') break;
      if (Date.now() > deadline) throw new Error(`order is ${state.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
});
