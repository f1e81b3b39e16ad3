// Automatic renewal and dunning (issue 38, acceptance 1–3), with the sandbox provider and the
// app's fake clock: a service bought with a kept card is renewed two days before its end, once;
// a kept card that declines leaves an unpaid invoice and a mail with the pay link, and paying by
// that link pays that invoice and extends the service; auto_renew off charges nothing.
import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renewalsOf } from '../../app.ts';
import { login, signedInUser } from '../../test/factories.ts';
import { sendSandboxEventAsWritten, placeOrder, openCardForm } from '../../test/payments.ts';
import { serviceJobs, type TestNode } from '../../test/services.ts';
import { injectWithCsrf, type TestContext } from '../../test/test-app.ts';
import { workspaceTestApp } from '../directory/workspace.test-support.ts';
import { invoices } from '../billing/billing.table.ts';
import { calendarDate } from '../billing/invoice.document.ts';
import { orders } from '../orders/orders.table.ts';
import { services } from '../services/services.table.ts';
import { paymentSessions } from './payments.table.ts';
import { renewalChargeSettled } from './renewals.ts';
import { serviceRenewals } from './renewals.table.ts';
import { sandboxCharges } from './sandbox-ledger.table.ts';

const PLAN = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const DAY_MS = 86_400_000;
type Auth = { authorization: string };
type Owner = Awaited<ReturnType<typeof signedInUser>>;

describe('automatic renewal and dunning', () => {
  let ctx: TestContext;
  let node: TestNode;

  beforeEach(async () => {
    ({ ctx, node } = await workspaceTestApp({
      clock: true,
      node: { name: 'renewals-node', addresses: ['10.9.1.1', '10.9.1.2'] },
    }));
    await ctx.queue.work('payments.sandbox-event', async ({ event }) => {
      const response = await sendSandboxEventAsWritten(ctx, event);
      if (response.statusCode !== 200) throw new Error(`webhook answered ${response.statusCode}`);
    });
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const payAt = (url: string, card: string, keep: boolean) =>
    ctx.app.inject({
      method: 'POST',
      url: `${new URL(url).pathname}/pay`,
      headers: FORM,
      payload: `card_number=${card}&exp_month=12&exp_year=40&cvc=123${keep ? '&keep_card=on' : ''}`,
    });

  const orderStatus = async (id: string) =>
    (await ctx.database.db.select().from(orders).where(eq(orders.id, id)))[0]?.status;
  const serviceRow = async (id: string) =>
    (await ctx.database.db.select().from(services).where(eq(services.id, id)))[0]!;
  const invoicesOf = (accountId: string) =>
    ctx.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.accountId, accountId))
      .orderBy(invoices.sequence);

  const paymentSession = (auth: Auth, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'POST', url: '/api/v1/payments/session', headers: auth, payload });
  /** Pays through the session's pay page with a card that goes through (4242). */
  async function payThrough(session: Awaited<ReturnType<typeof paymentSession>>, keepCard: boolean) {
    expect(session.statusCode, session.body).toBe(200);
    expect((await payAt(session.json<{ url: string }>().url, '4242424242424242', keepCard)).statusCode).toBe(
      303,
    );
  }

  /** A service bought with the card kept (4242), placed and active. */
  async function activeServiceWithKeptCard(owner: Owner): Promise<string> {
    const order = await placeOrder(ctx, owner.auth, PLAN);
    const session = await paymentSession(owner.auth, { order_id: order.id, save_payment_method: true });
    await payThrough(session, true);
    await until('the order paid', async () => (await orderStatus(order.id)) === 'PAID');
    await until('the card kept', async () => {
      const card = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/billing/payment-methods',
        headers: owner.auth,
      });
      return card.json<{ payment_method: unknown }>().payment_method !== null;
    });
    const serviceId = (await ctx.database.db.select().from(orders).where(eq(orders.id, order.id)))[0]!
      .serviceId!;
    await serviceJobs(ctx).placement.place(serviceId);
    await node.applyAll();
    expect((await serviceRow(serviceId)).status).toBe('active');
    return serviceId;
  }

  /** Replaces the kept card through Billing's card form. */
  async function replaceCard(auth: Auth, number: string) {
    const path = await openCardForm(ctx, auth);
    const saved = await ctx.app.inject({
      method: 'POST',
      url: `${path}/save`,
      headers: FORM,
      payload: `card_number=${number}&exp_month=11&exp_year=2041&cvc=123`,
    });
    expect(saved.statusCode, saved.body).toBe(303);
    await until('the card replaced', async () => {
      const card = await ctx.app.inject({
        method: 'GET',
        url: '/api/v1/billing/payment-methods',
        headers: auth,
      });
      return (
        card.json<{ payment_method: { last4: string } | null }>().payment_method?.last4 === number.slice(-4)
      );
    });
  }

  /** Moves the clock to `days` before the service's end. */
  async function daysBeforeEnd(serviceId: string, days: number) {
    const end = (await serviceRow(serviceId)).validUntil.getTime();
    ctx.advance(end - days * DAY_MS - ctx.now().getTime());
  }

  it('renews two days before the end: one paid RENEWAL invoice, one period more, a mail; again: nothing', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    const before = await serviceRow(serviceId);
    await daysBeforeEnd(serviceId, 2);
    const mailsBefore = ctx.mailbox.to(owner.user.email).length;

    const first = await renewalsOf(ctx.app).run();
    expect(first).toEqual({ started: 1, paid: 1, failed: 0 });

    const after = await serviceRow(serviceId);
    const expected = new Date(before.validUntil);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(after.validUntil.toISOString()).toBe(expected.toISOString());
    expect(after.status).toBe('active');
    const issued = await invoicesOf(owner.user.id);
    expect(issued.map((invoice) => [invoice.type, invoice.status])).toEqual([
      ['PURCHASE', 'paid'],
      ['RENEWAL', 'paid'],
    ]);
    const renewal = issued[1]!;
    expect(renewal.document.period_start).toBe(calendarDate(before.validUntil));
    const mails = ctx.mailbox.to(owner.user.email).slice(mailsBefore);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.attachments?.[0]?.filename).toBe(`${renewal.number}.pdf`);
    const keptCharges = await ctx.database.db
      .select()
      .from(paymentSessions)
      .where(and(eq(paymentSessions.accountId, owner.user.id), eq(paymentSessions.status, 'succeeded')));
    expect(keptCharges).toHaveLength(2);
    // At the provider: one off-session charge, asked once.
    const charged = await ctx.database.db.select().from(sandboxCharges);
    expect(charged.map((charge) => [charge.status, charge.amountMinor, charge.requests])).toEqual([
      ['succeeded', keptCharges[1]!.amountMinor, 1],
    ]);

    // Again, an hour later and a day later: nothing charged, nothing issued, nothing mailed.
    ctx.advance(3_600_000);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });
    ctx.advance(DAY_MS);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });
    expect(await invoicesOf(owner.user.id)).toHaveLength(2);
    expect(ctx.mailbox.to(owner.user.email).slice(mailsBefore)).toHaveLength(1);
    expect((await serviceRow(serviceId)).validUntil.toISOString()).toBe(expected.toISOString());
    expect(await ctx.database.db.select().from(sandboxCharges)).toEqual(charged);
  });

  it('a declining kept card: unpaid invoice and a mail with the pay link; paid by the link with another card, the service is extended and the retries stop', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    await replaceCard(owner.auth, '4000000000000341');
    const before = await serviceRow(serviceId);
    await daysBeforeEnd(serviceId, 2);
    const mailsBefore = ctx.mailbox.to(owner.user.email).length;

    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 1, paid: 0, failed: 1 });
    const [, unpaid] = await invoicesOf(owner.user.id);
    expect(unpaid).toMatchObject({ type: 'RENEWAL', status: 'unpaid' });
    const service = await serviceRow(serviceId);
    expect(service.status).toBe('active');
    expect(service.validUntil.toISOString()).toBe(before.validUntil.toISOString());
    const mail = ctx.mailbox.to(owner.user.email).slice(mailsBefore);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toContain('could not renew');
    expect(mail[0]!.text).toContain(`${ctx.config.publicUrl}/dashboard/billing/invoices/${unpaid!.id}/pay`);
    expect(mail[0]!.text).toContain(unpaid!.number);
    // Running again the same hour: nothing more (the next try is in three days).
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });

    // Weeks later on the clock: the owner signs in again.
    const signedIn = await login(ctx, owner.email);
    const auth = { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` };

    // Another account cannot pay (or see) it; a bad id is refused.
    const stranger = await signedInUser(ctx);
    const foreign = await paymentSession(stranger.auth, { invoice_id: unpaid!.id });
    expect(foreign.statusCode).toBe(404);
    const both = await paymentSession(auth, { invoice_id: unpaid!.id, order_id: unpaid!.orderId });
    expect(both.statusCode).toBe(422);

    // Paid by the link with another card.
    const session = await paymentSession(auth, { invoice_id: unpaid!.id });
    await payThrough(session, false);
    await until('the renewal order paid', async () => (await orderStatus(unpaid!.orderId ?? '')) === 'PAID');
    const after = await invoicesOf(owner.user.id);
    expect(after.map((invoice) => [invoice.id, invoice.status])).toEqual([
      [after[0]!.id, 'paid'],
      [unpaid!.id, 'paid'],
    ]);
    const expected = new Date(before.validUntil);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect((await serviceRow(serviceId)).validUntil.toISOString()).toBe(expected.toISOString());
    const paying = await paymentSession(auth, { invoice_id: unpaid!.id });
    expect(paying.statusCode).toBe(409);
    expect(paying.json()).toMatchObject({ detail: 'invoice_not_payable' });

    // The retry day comes: the renewal is closed as paid, the card is not charged, nobody is mailed.
    // The payment's own mail goes through the mail job: counted once it is in.
    const paymentMails = () =>
      ctx.mailbox.to(owner.user.email).filter((mail) => mail.subject.startsWith('Payment received'));
    await until('the renewal payment’s mail', async () => paymentMails().length === 2);
    const mailsPaid = ctx.mailbox.to(owner.user.email).length;
    ctx.advance(3 * DAY_MS);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 1, failed: 0 });
    const [row] = await ctx.database.db
      .select()
      .from(serviceRenewals)
      .where(eq(serviceRenewals.serviceId, serviceId));
    expect(row).toMatchObject({ status: 'paid', attempts: 1 });
    ctx.advance(3 * DAY_MS);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });
    expect(ctx.mailbox.to(owner.user.email)).toHaveLength(mailsPaid);
    expect(await invoicesOf(owner.user.id)).toHaveLength(2);
  });

  it('retries a declining card at 3 and 6 days, each mailed, then stops', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    await replaceCard(owner.auth, '4000000000000341');
    await daysBeforeEnd(serviceId, 2);
    const mailsBefore = ctx.mailbox.to(owner.user.email).length;
    expect((await renewalsOf(ctx.app).run()).failed).toBe(1);
    ctx.advance(3 * DAY_MS);
    expect((await renewalsOf(ctx.app).run()).failed).toBe(1);
    ctx.advance(3 * DAY_MS);
    expect((await renewalsOf(ctx.app).run()).failed).toBe(1);
    ctx.advance(3 * DAY_MS);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });
    const dunning = ctx.mailbox
      .to(owner.user.email)
      .slice(mailsBefore)
      .filter((mail) => mail.id.startsWith('renewal-failed-'));
    expect(dunning.map((mail) => mail.id.split('-').at(-1))).toEqual(['1', '2', '3']);
    expect(dunning[2]!.text).toContain('will not try the card again');
    const unpaid = (await invoicesOf(owner.user.id)).filter((invoice) => invoice.status === 'unpaid');
    expect(unpaid).toHaveLength(1);
    const [row] = await ctx.database.db
      .select()
      .from(serviceRenewals)
      .where(eq(serviceRenewals.serviceId, serviceId));
    expect(row).toMatchObject({ status: 'failed', attempts: 3, lastError: 'card_declined' });
  });

  it('a kept card whose bank wants authentication: unpaid invoice, and the mail asks to confirm on the pay page', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    await replaceCard(owner.auth, '4000002760003184');
    await daysBeforeEnd(serviceId, 2);
    const mailsBefore = ctx.mailbox.to(owner.user.email).length;
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 1, paid: 0, failed: 1 });
    const [, unpaid] = await invoicesOf(owner.user.id);
    expect(unpaid).toMatchObject({ type: 'RENEWAL', status: 'unpaid' });
    const [mail] = ctx.mailbox.to(owner.user.email).slice(mailsBefore);
    expect(mail!.text).toContain('Your bank asks you to confirm');
    expect(mail!.text).toContain(`/dashboard/billing/invoices/${unpaid!.id}/pay`);
    const [row] = await ctx.database.db
      .select()
      .from(serviceRenewals)
      .where(eq(serviceRenewals.serviceId, serviceId));
    expect(row).toMatchObject({ status: 'open', attempts: 1, lastError: 'authentication_required' });
  });

  it('an unpaid renewal invoice paid after the end buys the span it printed, and restores the service', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    await replaceCard(owner.auth, '4000000000000341');
    const before = await serviceRow(serviceId);
    await daysBeforeEnd(serviceId, 2);
    expect(await renewalsOf(ctx.app).run()).toMatchObject({ failed: 1 });
    const [, unpaid] = await invoicesOf(owner.user.id);
    const expected = new Date(before.validUntil);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(unpaid!.document).toMatchObject({
      period_start: calendarDate(before.validUntil),
      period_end: calendarDate(expected),
    });

    // Three days past the end: expired, access off, data kept.
    ctx.advance(2 * DAY_MS + 3 * DAY_MS);
    await serviceJobs(ctx).sweep.run();
    expect((await serviceRow(serviceId)).status).toBe('expired');

    const signedIn = await login(ctx, owner.email);
    const auth = { authorization: `Bearer ${signedIn.json<{ access_token: string }>().access_token}` };
    const session = await paymentSession(auth, { invoice_id: unpaid!.id });
    await payThrough(session, false);
    await until('the renewal order paid', async () => (await orderStatus(unpaid!.orderId ?? '')) === 'PAID');
    // The span the invoice printed, not a month from the payment.
    const after = await serviceRow(serviceId);
    expect(after.status).toBe('active');
    expect(after.validUntil.toISOString()).toBe(expected.toISOString());
    expect((await invoicesOf(owner.user.id))[1]).toMatchObject({ id: unpaid!.id, status: 'paid' });
  });

  it('reads a pending charge by its reference once it settles, never charging again', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    await replaceCard(owner.auth, '4000000000000259');
    const before = await serviceRow(serviceId);
    await daysBeforeEnd(serviceId, 2);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 1, paid: 0, failed: 0 });
    const [waiting] = await ctx.database.db
      .select()
      .from(serviceRenewals)
      .where(eq(serviceRenewals.serviceId, serviceId));
    expect(waiting).toMatchObject({ status: 'open', attempts: 0 });
    expect(waiting!.chargeReference).toMatch(/^pi_sb_/);
    expect(await invoicesOf(owner.user.id)).toHaveLength(1);

    // The provider's event says it settled: the renewal is due at once, not at its next hour.
    expect(await renewalChargeSettled(ctx.database.db, waiting!.chargeReference!, ctx.now())).toBe(true);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 1, failed: 0 });
    const issued = await invoicesOf(owner.user.id);
    expect(issued.map((invoice) => [invoice.type, invoice.status])).toEqual([
      ['PURCHASE', 'paid'],
      ['RENEWAL', 'paid'],
    ]);
    const expected = new Date(before.validUntil);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect((await serviceRow(serviceId)).validUntil.toISOString()).toBe(expected.toISOString());
    // One charge at the provider, asked once: read back by its reference, not charged again.
    const charged = await ctx.database.db.select().from(sandboxCharges);
    expect(charged.map((charge) => [charge.status, charge.requests])).toEqual([['succeeded', 1]]);
    expect(await renewalChargeSettled(ctx.database.db, waiting!.chargeReference!, ctx.now())).toBe(false);
  });

  it('charges nothing for a service with auto_renew off', async () => {
    const owner = await signedInUser(ctx);
    const serviceId = await activeServiceWithKeptCard(owner);
    const off = await injectWithCsrf(ctx.app, {
      method: 'PATCH',
      url: `/api/v1/services/${serviceId}`,
      headers: owner.auth,
      payload: { auto_renew: false },
    });
    expect(off.statusCode).toBe(200);
    await daysBeforeEnd(serviceId, 2);
    expect(await renewalsOf(ctx.app).run()).toEqual({ started: 0, paid: 0, failed: 0 });
    expect(await invoicesOf(owner.user.id)).toHaveLength(1);
    expect(await ctx.database.db.select().from(serviceRenewals)).toHaveLength(0);
    expect(await ctx.database.db.select().from(sandboxCharges)).toHaveLength(0);
  });
});
