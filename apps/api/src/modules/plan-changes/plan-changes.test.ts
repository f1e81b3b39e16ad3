import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AccountCredit, Order, PlanChange, PlanChangeQuote } from '@debesis/contract';
import { calculatePrice, CATALOGUE_SEED, prorate, percentOf } from '@debesis/pricing';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser } from '../../test/factories.ts';
import {
  buyService,
  openSession,
  payOrder,
  sandboxEvent,
  seedCatalogue,
  sendSandboxEvent,
} from '../../test/payments.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { paymentSessions } from '../payments/payments.table.ts';
import { services } from '../services/services.table.ts';

const MINI = { product_id: 'mini', disk_space: 50, users_count: 5, period_id: '12m' };
const OPTIMIZED = { product_id: 'optimized', disk_space: 500, users_count: 10 };
const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2 };
const DAY = 86_400_000;
type Auth = Record<string, string>;

/** The 12-month price of a configuration before VAT, from the same seed the API sells. */
function yearPrice(selection: { product_id: string; disk_space: number; users_count: number }): number {
  const product = CATALOGUE_SEED.find((candidate) => candidate.id === selection.product_id);
  if (!product) throw new Error(selection.product_id);
  return calculatePrice(product, { ...selection, period_id: '12m' }, null).subtotal;
}

describe('plan changes and account credit', () => {
  const ctx = useTestContext({}, seedCatalogue);

  async function ownerWithService(plan = MINI) {
    const owner = await signedInUser(ctx);
    const order = await buyService(ctx, owner.auth, plan);
    return { owner, serviceId: order.service_id };
  }

  /** Puts the service `daysIn` days into a paid span of `totalDays`, ending in the future. */
  async function moveSpan(serviceId: string, daysIn: number, totalDays: number) {
    const today =
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()) +
      12 * 3600_000;
    await ctx.database.db
      .update(services)
      .set({
        paidFrom: new Date(today - daysIn * DAY),
        validUntil: new Date(today + (totalDays - daysIn) * DAY),
      })
      .where(eq(services.id, serviceId));
  }

  const post = (auth: Auth, url: string, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'POST', url, headers: auth, payload });
  const quote = (auth: Auth, payload: object) => post(auth, '/api/v1/plan-changes/quote', payload);
  const change = (auth: Auth, payload: object) => post(auth, '/api/v1/plan-changes/', payload);
  const get = (auth: Auth, url: string) => ctx.app.inject({ method: 'GET', url, headers: auth });
  /** Where the provider sends the customer back to after paying in this session. */
  const returnPath = async (sessionId: string) =>
    (await ctx.database.db.select().from(paymentSessions).where(eq(paymentSessions.id, sessionId)))[0]
      ?.returnUrl;
  const serviceRow = async (id: string) =>
    (await ctx.database.db.select().from(services).where(eq(services.id, id)))[0];

  it('quotes an upgrade right after purchase at the full difference for the span, with VAT', async () => {
    const { owner, serviceId } = await ownerWithService();
    const response = await quote(owner.auth, { service_id: serviceId, ...OPTIMIZED });
    expect(response.statusCode).toBe(200);
    const body = response.json<PlanChangeQuote>();
    const difference = yearPrice(OPTIMIZED) - yearPrice(MINI);
    expect(body).toMatchObject({
      direction: 'upgrade',
      current: { product_id: 'mini', product_name: 'MINI', period_id: '12m', bandwidth: 100 },
      target: { product_id: 'optimized', product_name: 'OPTIMIZED', disk_space: 500, bandwidth: 1000 },
      current_plan_value: yearPrice(MINI),
      new_plan_value: yearPrice(OPTIMIZED),
      prorated_difference: difference,
      credit: 0,
      requires_confirmation: false,
      charge: {
        subtotal: difference,
        vat_rate: 21,
        vat_amount: percentOf(difference, 21),
        credit_applied: 0,
      },
    });
    expect(body.remaining_days).toBe(body.total_days);
  });

  it('prorates to the remaining days on several days of the span', async () => {
    const { owner, serviceId } = await ownerWithService();
    for (const daysIn of [1, 100, 200, 364]) {
      await moveSpan(serviceId, daysIn, 365);
      const body = (await quote(owner.auth, { service_id: serviceId, ...OPTIMIZED })).json<PlanChangeQuote>();
      const remaining = 365 - daysIn;
      expect(body).toMatchObject({ total_days: 365, remaining_days: remaining });
      expect(body.current_plan_value).toBe(prorate(yearPrice(MINI), remaining, 365));
      expect(body.new_plan_value).toBe(prorate(yearPrice(OPTIMIZED), remaining, 365));
      expect(body.charge.subtotal).toBe(body.new_plan_value - body.current_plan_value);
    }
  });

  it('refuses the same configuration with the spec’s message', async () => {
    const { owner, serviceId } = await ownerWithService();
    const response = await quote(owner.auth, { service_id: serviceId, ...MINI });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      detail: 'same_configuration',
      message: 'Please select different resources or a different plan',
    });
    const lithuanian = await post({ ...owner.auth, 'accept-language': 'lt' }, '/api/v1/plan-changes/', {
      service_id: serviceId,
      ...MINI,
    });
    expect(lithuanian.json()).toMatchObject({ message: 'Pasirinkite kitus išteklius arba kitą planą' });
  });

  it('refuses a target smaller than the users and data the service has now', async () => {
    const { owner, serviceId } = await ownerWithService();
    for (const name of ['ona', 'jonas', 'rasa', 'tomas']) {
      const created = await post(owner.auth, `/api/v1/user-groups/${serviceId}/users`, {
        name,
        password: 'Workspace-pass-1',
      });
      expect(created.statusCode).toBe(201);
    }
    // As the node reports it.
    await ctx.database.db
      .update(services)
      .set({ diskUsedBytes: 10 * 1024 ** 3 + 1 })
      .where(eq(services.id, serviceId));
    const response = await change(owner.auth, { service_id: serviceId, ...STARTER, confirm_downgrade: true });
    expect(response.statusCode).toBe(422);
    const body = response.json<{
      detail: string;
      errors: { field: string; code: string; message: string }[];
    }>();
    expect(body.detail).toBe('plan_does_not_fit');
    expect(body.errors).toEqual([
      {
        field: 'users_count',
        code: 'below_users_in_use',
        message: 'Cannot be fewer than the 4 active users the service has now (deactivate users first)',
      },
      {
        field: 'disk_space',
        code: 'below_disk_in_use',
        message: 'Cannot be less than the 11 GB the service stores now',
      },
    ]);
    expect((await serviceRow(serviceId))?.productId).toBe('mini');
  });

  it('counts only active users in the fit (spec §5): inactive ones need no room on the target', async () => {
    const { owner, serviceId } = await ownerWithService();
    for (const [name, active] of [
      ['ona', true],
      ['jonas', true],
      ['rasa', false],
      ['tomas', false],
    ] as const) {
      const created = await post(owner.auth, `/api/v1/user-groups/${serviceId}/users`, {
        name,
        password: 'Workspace-pass-1',
        active,
      });
      expect(created.statusCode).toBe(201);
    }
    // STARTER holds 2 users: the 2 active ones; the 2 inactive ones do not count.
    const fits = await quote(owner.auth, { service_id: serviceId, ...STARTER });
    expect(fits.statusCode).toBe(200);
    // A third active user no longer fits.
    expect(
      (
        await injectWithCsrf(ctx.app, {
          method: 'PATCH',
          url: `/api/v1/user-groups/${serviceId}/users/rasa/activate`,
          headers: owner.auth,
        })
      ).statusCode,
    ).toBe(200);
    const refused = await quote(owner.auth, { service_id: serviceId, ...STARTER });
    expect(refused.json()).toMatchObject({
      detail: 'plan_does_not_fit',
      errors: [{ field: 'users_count', code: 'below_users_in_use' }],
    });
  });

  it('refuses a target with fewer users than the service has VPN users (each holds one of the plan’s users)', async () => {
    const { owner, serviceId } = await ownerWithService();
    for (const username of ['laptop', 'phone', 'tablet']) {
      const created = await post(owner.auth, `/api/v1/vpn/${serviceId}/users`, {
        username,
        password: 'Vpn-pass-123',
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const refused = await quote(owner.auth, { service_id: serviceId, ...STARTER });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      detail: 'plan_does_not_fit',
      errors: [
        {
          field: 'users_count',
          code: 'below_vpn_users_in_use',
          message: 'Cannot be fewer than the 3 VPN users the service has now (delete VPN users first)',
        },
      ],
    });
    // With one deleted, the two left fit STARTER's two users.
    const users = (
      await ctx.app.inject({ method: 'GET', url: `/api/v1/vpn/${serviceId}/users`, headers: owner.auth })
    ).json<{ users: { id: string }[] }>().users;
    const deleted = await injectWithCsrf(ctx.app, {
      method: 'DELETE',
      url: `/api/v1/vpn/${serviceId}/users/${users[0]!.id}`,
      headers: owner.auth,
    });
    expect(deleted.statusCode).toBe(204);
    expect((await quote(owner.auth, { service_id: serviceId, ...STARTER })).statusCode).toBe(200);
  });

  it('answers 404 for a service of another account, 422 for bad input, 409 for an expired or cancelled service', async () => {
    const { serviceId } = await ownerWithService();
    const stranger = await signedInUser(ctx);
    expect((await quote(stranger.auth, { service_id: serviceId, ...OPTIMIZED })).statusCode).toBe(404);
    const { owner, serviceId: own } = await ownerWithService();
    const unknown = await quote(owner.auth, {
      service_id: own,
      product_id: 'nope',
      disk_space: 5,
      users_count: 2,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toMatchObject({ errors: [{ field: 'product_id' }] });
    const tooBig = await quote(owner.auth, {
      service_id: own,
      product_id: 'mini',
      disk_space: 999_999,
      users_count: 5,
    });
    expect(tooBig.statusCode).toBe(422);
    expect((await quote(owner.auth, { service_id: 'not-a-uuid', ...OPTIMIZED })).statusCode).toBe(422);

    await ctx.database.db
      .update(services)
      .set({ validUntil: new Date(Date.now() - DAY) })
      .where(eq(services.id, own));
    const expired = await quote(owner.auth, { service_id: own, ...OPTIMIZED });
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({
      detail: 'service_expired',
      message: 'This service has expired or is quarantined. Please extend your service to regain access.',
    });
    await ctx.database.db
      .update(services)
      .set({ validUntil: new Date(Date.now() + 30 * DAY), status: 'cancelled' })
      .where(eq(services.id, own));
    expect((await quote(owner.auth, { service_id: own, ...OPTIMIZED })).json()).toMatchObject({
      detail: 'service_not_changeable',
    });
  });

  it('charges an upgrade through its order and applies it once when paid', async () => {
    const { owner, serviceId } = await ownerWithService();
    await moveSpan(serviceId, 100, 365);
    const before = await serviceRow(serviceId);
    const created = await change(owner.auth, { service_id: serviceId, ...OPTIMIZED });
    expect(created.statusCode).toBe(201);
    const planChange = created.json<PlanChange>();
    expect(planChange).toMatchObject({
      status: 'awaiting_payment',
      direction: 'upgrade',
      redirect_url: `/dashboard/payments/plan-change/${planChange.id}/payment`,
    });
    expect((await get(owner.auth, `/api/v1/plan-changes/${planChange.id}`)).json()).toEqual(planChange);
    const order = (await get(owner.auth, `/api/v1/orders/${planChange.order_id}`)).json<Order>();
    expect(order).toMatchObject({
      kind: 'plan_change',
      status: 'AWAITING_PAYMENT',
      plan_change_id: planChange.id,
      service_id: serviceId,
      amount: planChange.charge.total,
    });
    // Not applied before payment.
    expect((await serviceRow(serviceId))?.productId).toBe('mini');

    const session = await openSession(ctx, owner.auth, order.id);
    expect(await returnPath(session.session_id)).toContain(
      `/dashboard/payments/plan-change/${planChange.id}/payment/complete`,
    );
    const success = sandboxEvent(session.session_id, 'payment.succeeded');
    await Promise.all(Array.from({ length: 5 }, () => sendSandboxEvent(ctx, success)));
    await sendSandboxEvent(ctx, sandboxEvent(session.session_id, 'payment.succeeded'));

    const after = await serviceRow(serviceId);
    expect(after).toMatchObject({ productId: 'optimized', diskSpace: 500, usersCount: 10 });
    expect(after?.validUntil).toEqual(before?.validUntil);
    expect(after?.paidFrom).toEqual(before?.paidFrom);
    const applied = (await get(owner.auth, `/api/v1/plan-changes/${planChange.id}`)).json<PlanChange>();
    expect(applied).toMatchObject({ status: 'applied', redirect_url: '/dashboard/plans' });
    expect(applied.applied_at).not.toBeNull();
  });

  it('needs confirmation for a downgrade, then applies it at once and turns the difference into credit', async () => {
    const { owner, serviceId } = await ownerWithService();
    await moveSpan(serviceId, 65, 365);
    const unconfirmed = await change(owner.auth, { service_id: serviceId, ...STARTER });
    expect(unconfirmed.statusCode).toBe(422);
    expect(unconfirmed.json()).toMatchObject({
      detail: 'downgrade_confirmation_required',
      message: 'Please confirm the downgrade: no credit is given if you upgrade back later.',
    });
    expect((await serviceRow(serviceId))?.productId).toBe('mini');

    const quoted = (await quote(owner.auth, { service_id: serviceId, ...STARTER })).json<PlanChangeQuote>();
    expect(quoted).toMatchObject({
      direction: 'downgrade',
      requires_confirmation: true,
      charge: { total: 0 },
    });
    const expectedCredit = prorate(yearPrice(MINI), 300, 365) - prorate(yearPrice(STARTER), 300, 365);
    expect(quoted.credit).toBe(expectedCredit);

    const created = await change(owner.auth, { service_id: serviceId, ...STARTER, confirm_downgrade: true });
    expect(created.statusCode).toBe(201);
    expect(created.json<PlanChange>()).toMatchObject({
      status: 'applied',
      order_id: null,
      credit: expectedCredit,
    });
    expect(await serviceRow(serviceId)).toMatchObject({ productId: 'starter', diskSpace: 3, usersCount: 2 });
    const credit = (await get(owner.auth, '/api/v1/account/credit')).json<AccountCredit>();
    expect(credit).toMatchObject({ balance: expectedCredit, reserved: 0 });
    expect(credit.entries).toMatchObject([
      { kind: 'downgrade', amount: expectedCredit, service_id: serviceId },
    ]);
  });

  it('uses the credit for the next payment, before VAT, and takes it from the ledger once paid', async () => {
    const { owner, serviceId } = await ownerWithService();
    await moveSpan(serviceId, 65, 365);
    const downgrade = (
      await change(owner.auth, { service_id: serviceId, ...STARTER, confirm_downgrade: true })
    ).json<PlanChange>();
    const credit = downgrade.credit;
    expect(credit).toBeGreaterThan(0);

    const extension = await post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`, {
      period_id: '12m',
    });
    expect(extension.statusCode).toBe(201);
    const order = extension.json<Order>();
    const subtotal = order.breakdown.subtotal;
    const used = Math.min(credit, subtotal);
    expect(order.credit_applied).toBe(used);
    expect(order.breakdown).toMatchObject({
      credit_applied: used,
      vat_amount: percentOf(subtotal - used, 21),
    });
    expect(order.amount).toBe(subtotal - used + percentOf(subtotal - used, 21));
    expect((await get(owner.auth, '/api/v1/account/credit')).json()).toMatchObject({
      balance: credit,
      reserved: used,
    });

    // A second order while the first waits cannot take the same credit.
    const second = (await post(owner.auth, '/api/v1/orders/', MINI)).json<Order>();
    expect(second.credit_applied).toBe(Math.min(credit - used, second.breakdown.subtotal));

    const session = await payOrder(ctx, owner.auth, order.id);
    expect(await returnPath(session.session_id)).toContain(
      `/dashboard/payments/extend/${serviceId}/payment/complete`,
    );
    const after = (await get(owner.auth, '/api/v1/account/credit')).json<AccountCredit>();
    expect(after.balance).toBe(credit - used);
    expect(after.entries.map((entry) => [entry.kind, entry.amount])).toEqual([
      ['order', -used],
      ['downgrade', credit],
    ]);
  });

  it('keeps one unpaid extension per service: the same period reuses it, another replaces it', async () => {
    const { owner, serviceId } = await ownerWithService();
    const extend = (payload: object) =>
      post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`, payload);
    const first = (await extend({ period_id: '12m' })).json<Order>();
    expect((await extend({})).json<Order>().id).toBe(first.id);
    const other = (await extend({ period_id: '1m' })).json<Order>();
    expect(other.id).not.toBe(first.id);
    expect((await get(owner.auth, `/api/v1/orders/${first.id}`)).json()).toMatchObject({
      status: 'CANCELLED',
    });
    expect((await get(owner.auth, `/api/v1/orders/${other.id}`)).json()).toMatchObject({
      status: 'AWAITING_PAYMENT',
      period_id: '1m',
    });
  });

  it('settles an order its credit covers in full without a card page', async () => {
    const owner = await signedInUser(ctx);
    const { serviceId } = { serviceId: (await buyService(ctx, owner.auth, MINI)).service_id };
    await createCreditsQueries(ctx.database.db).grant({
      accountId: owner.user.id,
      amountMinor: 1_000_000,
      serviceId,
      planChangeId: '00000000-0000-4000-8000-000000000001',
      at: new Date(),
    });
    const order = (await post(owner.auth, `/api/v1/orders/service/${serviceId}/extend`, {})).json<Order>();
    expect(order.amount).toBe(0);
    const before = (await serviceRow(serviceId))?.validUntil.getTime() ?? 0;
    const session = await openSession(ctx, owner.auth, order.id);
    expect(session.url).toContain(
      `/dashboard/payments/extend/${serviceId}/payment/complete?session_id=${session.session_id}`,
    );
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/payments/session/${session.session_id}/status`,
    });
    expect(status.json()).toMatchObject({ status: 'succeeded', order_status: 'PAID', amount: 0 });
    expect((await serviceRow(serviceId))?.validUntil.getTime()).toBeGreaterThan(before + 300 * DAY);
    // Asking again changes nothing.
    expect((await post(owner.auth, `/api/v1/orders/${order.id}/process`, {})).statusCode).toBe(409);
  });

  it('replaces an unpaid change with a newer one; a late payment of the old one becomes credit', async () => {
    const { owner, serviceId } = await ownerWithService();
    const first = (await change(owner.auth, { service_id: serviceId, ...OPTIMIZED })).json<PlanChange>();
    const oldSession = await openSession(ctx, owner.auth, first.order_id ?? '');
    const second = (
      await change(owner.auth, { service_id: serviceId, product_id: 'mini', disk_space: 60, users_count: 5 })
    ).json<PlanChange>();
    expect(second.status).toBe('awaiting_payment');
    expect((await get(owner.auth, `/api/v1/plan-changes/${first.id}`)).json()).toMatchObject({
      status: 'cancelled',
    });
    expect((await get(owner.auth, `/api/v1/orders/${first.order_id}`)).json()).toMatchObject({
      status: 'CANCELLED',
    });

    // The customer still pays at the card page opened before: nothing is lost.
    await sendSandboxEvent(ctx, sandboxEvent(oldSession.session_id, 'payment.succeeded'));
    expect((await get(owner.auth, `/api/v1/orders/${first.order_id}`)).json()).toMatchObject({
      status: 'PAID',
    });
    expect((await serviceRow(serviceId))?.productId).toBe('mini');
    const credit = (await get(owner.auth, '/api/v1/account/credit')).json<AccountCredit>();
    expect(credit.balance).toBe(first.prorated_difference);

    await payOrder(ctx, owner.auth, second.order_id ?? '');
    expect(await serviceRow(serviceId)).toMatchObject({ productId: 'mini', diskSpace: 60 });
  });

  it('keeps plan changes private', async () => {
    const { owner, serviceId } = await ownerWithService();
    const planChange = (await change(owner.auth, { service_id: serviceId, ...OPTIMIZED })).json<PlanChange>();
    const stranger = await signedInUser(ctx);
    expect((await get(stranger.auth, `/api/v1/plan-changes/${planChange.id}`)).statusCode).toBe(404);
    expect((await get(owner.auth, '/api/v1/plan-changes/not-a-uuid')).statusCode).toBe(422);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/v1/plan-changes/${planChange.id}` })).statusCode,
    ).toBe(401);
  });
});
