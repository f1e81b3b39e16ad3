// `ops customers`, `ops services show` and `ops payments`: what each finds, changes and prints.
import { describe, expect, it } from 'vitest';
import { createActivityQueries } from '../../modules/activity/activity.queries.ts';
import { createActivityService } from '../../modules/activity/activity.service.ts';
import { createPaymentsQueries } from '../../modules/payments/payments.queries.ts';
import type { PaymentProvider } from '../../modules/payments/provider.ts';
import { signedInUser } from '../../test/factories.ts';
import { buyService, seedCatalogue } from '../../test/payments.ts';
import { capacity, registerNode, serviceJobs, type TestNode } from '../../test/services.ts';
import { useTestContext } from '../../test/test-app.ts';
import { findCustomers, suspendCustomer, unsuspendCustomer } from './customers.ts';
import { creditNoteNotifier, listPayments, parseAmount, refund } from './payments.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { pdfText } from '../../modules/billing/billing.test-support.ts';
import { renderCustomers, renderPayments, renderRefund, renderService, renderSuspension } from './render.ts';
import { serviceDetail } from './services.ts';

const STARTER = { product_id: 'starter', disk_space: 3, users_count: 2, period_id: '1m' };

describe('ops customers, services and payments', () => {
  let node: TestNode;

  const ctx = useTestContext({}, async (ctx) => {
    await seedCatalogue(ctx);
    node = await registerNode(
      ctx,
      'ops-node',
      capacity(
        1000,
        Array.from({ length: 10 }, (_, index) => `10.9.0.${index + 1}`),
      ),
    );
  });

  async function customerWithService(lastName: string) {
    const owner = await signedInUser(ctx, { lastName });
    const { service_id } = await buyService(ctx, owner.auth, STARTER);
    await serviceJobs(ctx).placement.place(service_id);
    await node.applyAll();
    return { owner, serviceId: service_id };
  }

  it('finds accounts by part of the email or name, or by exact id, with their services', async () => {
    const { owner, serviceId } = await customerWithService('Findable_ąžuolas');

    const byName = await findCustomers(ctx.database.db, 'findable_ąž');
    expect(byName.map((found) => found.id)).toEqual([owner.user.id]);
    expect(byName[0]?.services.map((service) => [service.id, service.status])).toEqual([
      [serviceId, 'active'],
    ]);
    expect(
      (await findCustomers(ctx.database.db, owner.email.slice(0, 12).toUpperCase())).map((f) => f.id),
    ).toContain(owner.user.id);
    expect((await findCustomers(ctx.database.db, owner.user.id)).map((found) => found.email)).toEqual([
      owner.email,
    ]);
    // LIKE's wildcards are taken literally.
    expect(await findCustomers(ctx.database.db, '%_%')).toEqual([]);
    expect(await findCustomers(ctx.database.db, '00000000-0000-0000-0000-000000000000')).toEqual([]);

    const text = renderCustomers(byName);
    expect(text).toContain(owner.email);
    expect(text).toMatch(new RegExp(`${serviceId}\\s+\\S.*\\s+active`));
  });

  it('suspends an account by email and unsuspends it', async () => {
    const { owner, serviceId } = await customerWithService('Suspendable');

    const suspended = await suspendCustomer(ctx.database.db, owner.email, 'chargeback');
    expect(suspended.changed.map((row) => [row.id, row.status])).toEqual([[serviceId, 'suspended']]);
    expect(renderSuspension('suspended', suspended)).toContain('1 service(s) suspended');

    const again = await suspendCustomer(ctx.database.db, owner.user.id, null);
    expect(again.changed).toEqual([]);
    expect(again.untouched.map((service) => [service.id, service.status])).toEqual([
      [serviceId, 'suspended'],
    ]);

    const back = await unsuspendCustomer(ctx.database.db, owner.email);
    expect(back.changed.map((row) => [row.id, row.status])).toEqual([[serviceId, 'active']]);
    await expect(suspendCustomer(ctx.database.db, 'nobody@example.lt', null)).rejects.toThrow(
      'no account with email nobody@example.lt',
    );
  });

  it('shows a service desired beside observed', async () => {
    const { serviceId } = await customerWithService('Shown');

    const detail = await serviceDetail(ctx.database.db, serviceId, ctx.now());

    expect(detail).toMatchObject({
      desiredState: 'running',
      applyStatus: 'applied',
      node: { name: 'ops-node', online: true },
      diskSizeBytes: 3 * 1024 ** 3,
      drivers: [{ driver: 'workspace-dir', live: true }],
    });
    expect(detail.service.observedGeneration).toBe(detail.service.generation);
    const text = renderService(detail);
    expect(text).toMatch(/generation\s+\d+\s+\d+/);
    expect(text).toContain('ops-node (online)');
    expect(text).toMatch(/workspace-dir\s+live/);
    await expect(serviceDetail(ctx.database.db, 'not-an-id', ctx.now())).rejects.toThrow(
      'no service not-an-id',
    );
  });

  it('lists payments and refunds one through the provider once', async () => {
    const { owner } = await customerWithService('Refunded');
    const calls: Array<{ paymentReference: string; idempotencyKey: string }> = [];
    const provider: Pick<PaymentProvider, 'id' | 'refund'> = {
      id: 'sandbox',
      refund(input) {
        calls.push({ paymentReference: input.paymentReference, idempotencyKey: input.idempotencyKey });
        return Promise.resolve({ reference: `re_${input.idempotencyKey}` });
      },
    };

    const listed = await listPayments(ctx.database.db, owner.email);
    expect(listed.payments).toHaveLength(1);
    const payment = listed.payments[0]!;
    expect(payment).toMatchObject({ status: 'succeeded', refundStatus: null, provider: 'sandbox' });
    expect(renderPayments(listed.account, listed.payments)).toMatch(
      new RegExp(`${payment.id}\\s+\\S+\\s+\\d+\\.\\d\\d EUR\\s+succeeded\\s+-`),
    );

    const first = await refund(ctx.database.db, provider, { sessionId: payment.id, reason: 'goodwill' });
    expect(first.kind).toBe('refunded');
    expect(calls).toEqual([
      { paymentReference: payment.paymentReference, idempotencyKey: `refund_${payment.id}` },
    ]);
    expect(first.session).toMatchObject({
      refundStatus: 'refunded',
      refundReference: `re_refund_${payment.id}`,
    });
    expect(renderRefund(first)).toContain('refunded through sandbox');

    const second = await refund(ctx.database.db, provider, { sessionId: payment.id });
    expect(second.kind).toBe('already_refunded');
    expect(calls).toHaveLength(1);
    expect(renderRefund(second)).toContain('already refunded');

    const activity = createActivityService({ queries: createActivityQueries(ctx.database.db) });
    const entries = await activity.filtered(owner.user.id, {
      action: 'payment refunded',
      skip: 0,
      limit: 10,
    });
    expect(entries.items).toHaveLength(1);
    expect(entries.items[0]?.details).toMatchObject({
      session_id: payment.id,
      by: 'operator',
      reason: 'goodwill',
      refund: `re_refund_${payment.id}`,
    });
    expect((await createPaymentsQueries(ctx.database.db).findSession(payment.id))?.refundedAt).toBeInstanceOf(
      Date,
    );
  });

  it('refuses a refund of a payment that took no money or that another provider took', async () => {
    const { owner } = await customerWithService('NotRefundable');
    const payment = (await listPayments(ctx.database.db, owner.user.id)).payments[0]!;
    const stripe: Pick<PaymentProvider, 'id' | 'refund'> = {
      id: 'stripe',
      refund: () => Promise.reject(new Error('must not be called')),
    };
    await expect(refund(ctx.database.db, stripe, { sessionId: payment.id })).rejects.toThrow(
      'was taken by sandbox, but the configured provider is stripe',
    );
    await expect(refund(ctx.database.db, stripe, { sessionId: 'ps_missing' })).rejects.toThrow(
      'no payment session ps_missing',
    );
  });

  it('reads --amount as euros with at most two decimals, and refuses anything else', () => {
    expect(parseAmount('12.50')).toBe(1250);
    expect(parseAmount('12,5')).toBe(1250);
    expect(parseAmount('30')).toBe(3000);
    expect(parseAmount('0.01')).toBe(1);
    for (const wrong of ['0', '0.00', '-5', '1.234', '12.50 EUR', 'ten', '1e3', ''])
      expect(() => parseAmount(wrong), wrong).toThrow(/--amount/);
  });

  it('refunds part of a payment with a credit note, then the rest ending the service, and says what it did', async () => {
    const { owner, serviceId } = await customerWithService('PartlyRefunded');
    const payment = (await listPayments(ctx.database.db, owner.email)).payments[0]!;
    const provider: Pick<PaymentProvider, 'id' | 'refund'> = {
      id: 'sandbox',
      refund: (input) => Promise.resolve({ reference: `re_${input.idempotencyKey}` }),
    };

    const queued: Array<{ name: string; message: MailMessage; key: string | undefined }> = [];
    const queue: Pick<JobQueue, 'send'> = {
      send: (name: string, payload: unknown, options?: { idempotencyKey?: string }) => {
        queued.push({ name, message: payload as MailMessage, key: options?.idempotencyKey });
        return Promise.resolve('job');
      },
    };
    const part = await refund(
      ctx.database.db,
      provider,
      { sessionId: payment.id, amountMinor: parseAmount('1.50'), reason: 'outage' },
      {
        creditNotePrefix: 'CNT',
        notify: creditNoteNotifier(ctx.database.db, queue, 'https://debesis.example'),
      },
    );
    expect(part.kind).toBe('refunded');
    // The owner is mailed the credit note with its PDF, once per credit note (its id is the key).
    expect(queued).toHaveLength(1);
    const mail = queued[0]!;
    expect(mail).toMatchObject({ name: 'mail.send', key: `credit-note-${part.creditNote?.number}` });
    expect(mail.message.to).toBe(owner.email);
    expect(mail.message.subject).toContain(part.creditNote!.number);
    expect(mail.message.text).toContain('https://debesis.example/dashboard/billing');
    const attached = Buffer.from(mail.message.attachments![0]!.contentBase64, 'base64');
    expect(pdfText(attached)).toContain(part.creditNote!.number);
    const text = renderRefund(part);
    expect(text).toContain('The credit note is mailed to the customer.');
    expect(text).toContain(`${payment.id}: 1.50 EUR refunded through sandbox`);
    expect(text).toMatch(
      /Invoice DEB-\d{4}-\d{6}: 1\.50 EUR of \d+\.\d\d EUR credited; credit note CNT-\d{4}-\d{6}\./,
    );
    expect(text).toContain('The order and its service are unchanged.');
    expect(
      renderRefund(await refund(ctx.database.db, provider, { sessionId: payment.id, amountMinor: 150 })),
    ).toContain('already refunded 1.50 EUR');
    await expect(
      refund(ctx.database.db, provider, { sessionId: payment.id, amountMinor: payment.amountMinor }),
    ).rejects.toThrow('nothing was changed');

    const rest = await refund(
      ctx.database.db,
      provider,
      { sessionId: payment.id, endService: true },
      { creditNotePrefix: 'CNT', notify: () => Promise.reject(new Error('queue down')) },
    );
    // A mail that cannot be queued never undoes the refund; the operator is told.
    expect(rest).toMatchObject({ mailed: false, mailError: 'queue down' });
    expect(renderRefund(rest)).toContain('not mailed (queue down)');
    expect(rest).toMatchObject({
      kind: 'refunded',
      amountMinor: payment.amountMinor - 150,
      credited: payment.amountMinor,
    });
    expect(rest.service).toMatchObject({ serviceId, ended: true, status: 'cancelled' });
    expect(renderRefund(rest)).toContain(`Service ${serviceId} ended`);
    expect(rest.session.refundStatus).toBe('refunded');
    // The list shows the payment refunded.
    const listed = await listPayments(ctx.database.db, owner.email);
    expect(renderPayments(listed.account, listed.payments)).toMatch(/succeeded\s+refunded/);
  });
});
