// Credit notes (issue 38): an operator's refund, whole or part, issues a credit note on the
// payment's invoice, numbered in its own gap-free series, listed, previewed and printed like an
// invoice; the refunds of a payment never exceed its invoice; a repeated or concurrent call issues
// one. `void`: an unpaid invoice whose order was cancelled (no path makes unpaid invoices yet).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Invoice, InvoiceList, InvoiceSummary } from '@debesis/contract';
import { signedInUser } from '../../test/factories.ts';
import { useTestContext } from '../../test/test-app.ts';
import { createActivityQueries } from '../activity/activity.queries.ts';
import { createActivityService } from '../activity/activity.service.ts';
import { createPaymentsQueries } from '../payments/payments.queries.ts';
import { paymentRefunds } from '../payments/payments.table.ts';
import type { PaymentProvider } from '../payments/provider.ts';
import { refundPayment, RefundRefused, type OperatorRefundRequest } from '../payments/refund.ts';
import { createServicesQueries } from '../services/services.queries.ts';
import { createBillingQueries } from './billing.queries.ts';
import { buy, htmlText, pdfText, placeOrder, PLAN, seedProducts, type Auth } from './billing.test-support.ts';
import { injectWithCsrf } from '../../test/test-app.ts';

const CREDIT_NOTE = /^CN-\d{4}-\d{6}$/;

describe('credit notes', () => {
  const calls: Array<{ amountMinor: number; idempotencyKey: string }> = [];
  let refuseNext = false;
  const provider: Pick<PaymentProvider, 'id' | 'refund'> = {
    id: 'sandbox',
    refund(input) {
      calls.push({ amountMinor: input.amountMinor, idempotencyKey: input.idempotencyKey });
      if (refuseNext) {
        refuseNext = false;
        return Promise.reject(new Error('provider down'));
      }
      return Promise.resolve({ reference: `re_${input.idempotencyKey}` });
    },
  };

  const ctx = useTestContext({}, seedProducts);

  const refund = (request: OperatorRefundRequest) =>
    refundPayment(
      {
        db: ctx.database.db,
        provider,
        activity: createActivityService({ queries: createActivityQueries(ctx.database.db) }),
        creditNotePrefix: 'CN',
        now: () => new Date(),
      },
      request,
    );
  const get = async <T>(auth: Auth, url: string) => {
    const response = await ctx.app.inject({ method: 'GET', url, headers: auth });
    return { status: response.statusCode, body: response.json<T>() };
  };
  const list = async (auth: Auth, query = '') =>
    (await get<InvoiceList>(auth, `/api/v1/billing/invoices${query}`)).body;
  const documentOf = async (auth: Auth, id: string, kind: 'pdf' | 'preview', lang: 'en' | 'lt') => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${id}/${kind}?lang=${lang}`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    return kind === 'pdf' ? pdfText(response.rawPayload) : htmlText(response.body);
  };

  /** A customer with one paid purchase: its invoice and the payment session that paid it. */
  async function paidCustomer() {
    const owner = await signedInUser(ctx);
    const order = await buy(ctx, owner.auth, { ...PLAN, period_id: '1m' });
    const [session] = await createPaymentsQueries(ctx.database.db).listForAccount(owner.user.id);
    const invoice = (await list(owner.auth)).items.find((item) => item.order_id === order.id)!;
    expect(session?.status).toBe('succeeded');
    return { owner, order, session: session!, invoice };
  }

  it('a whole refund issues one credit note of the invoice’s amounts, negative, linked both ways; the service keeps running', async () => {
    const { owner, session, invoice } = await paidCustomer();
    expect(invoice).toMatchObject({ kind: 'invoice', credited_invoice: null, credit_notes: [] });
    calls.length = 0;

    const outcome = await refund({ sessionId: session.id, reason: 'goodwill' });
    expect(outcome.kind).toBe('refunded');
    expect(calls).toEqual([{ amountMinor: session.amountMinor, idempotencyKey: `refund_${session.id}` }]);
    expect(outcome.creditNote?.number).toMatch(CREDIT_NOTE);
    expect(outcome).toMatchObject({ credited: invoice.total, service: null });
    expect(outcome.session).toMatchObject({ refundStatus: 'refunded' });

    const listed = await list(owner.auth);
    expect(listed.total).toBe(2);
    const note = listed.items.find((item) => item.kind === 'credit_note')!;
    expect(note).toMatchObject({
      number: outcome.creditNote?.number,
      type: invoice.type,
      status: 'paid',
      order_id: invoice.order_id,
      service_id: invoice.service_id,
      total: -invoice.total,
      vat_amount: -invoice.vat_amount,
      net: -invoice.net,
      vat_rate: invoice.vat_rate,
      credited_invoice: { id: invoice.id, number: invoice.number, total: invoice.total },
      credit_notes: [],
    });
    const credited = listed.items.find((item) => item.id === invoice.id)!;
    expect(credited.credit_notes).toEqual([{ id: note.id, number: note.number, total: -invoice.total }]);
    expect(credited.status).toBe('paid');
    const detail = (await get<Invoice>(owner.auth, `/api/v1/billing/invoices/${invoice.id}`)).body;
    expect(detail.credit_notes.map((reference) => reference.number)).toEqual([note.number]);

    // The summary nets what went back.
    const summary = (
      await get<{ invoices: { count: number; total_paid: number } }>(owner.auth, '/api/v1/billing/')
    ).body;
    expect(summary.invoices).toEqual({ count: 1, total_paid: 0 });
    // Refund only: the service runs on.
    const service = await createServicesQueries(ctx.database.db).findById(invoice.service_id!);
    expect(service?.status).not.toBe('cancelled');

    // Asked again: nothing more, no second provider call, no second note.
    const again = await refund({ sessionId: session.id });
    expect(again.kind).toBe('already_refunded');
    expect(calls).toHaveLength(1);
    expect((await list(owner.auth, '?kind=credit_note')).total).toBe(1);
  });

  it('partial refunds: several credit notes whose sum and VAT are exactly the invoice’s; more is refused with nothing changed', async () => {
    const { owner, session, invoice } = await paidCustomer();
    calls.length = 0;
    const first = await refund({ sessionId: session.id, amountMinor: 333 });
    const second = await refund({ sessionId: session.id, amountMinor: 101 });
    expect([first.kind, second.kind]).toEqual(['refunded', 'refunded']);
    expect(calls.map((call) => call.amountMinor)).toEqual([333, 101]);
    const [a, b] = [first.creditNote!.number, second.creditNote!.number];
    // Consecutive in their own series.
    expect(Number(b.slice(-6)) - Number(a.slice(-6))).toBe(1);

    // Over the rest: a clear refusal, no provider call, no row, no note.
    const left = invoice.total - 434;
    await expect(refund({ sessionId: session.id, amountMinor: left + 1 })).rejects.toThrow(RefundRefused);
    await expect(refund({ sessionId: session.id, amountMinor: left + 1 })).rejects.toThrow(
      /has \d+\.\d\d EUR left to refund .*nothing was changed/,
    );
    expect(calls).toHaveLength(2);
    expect(
      await ctx.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.sessionId, session.id)),
    ).toHaveLength(2);

    // The rest: the third note completes the invoice to the cent, VAT included.
    const rest = await refund({ sessionId: session.id });
    expect(rest).toMatchObject({ kind: 'refunded', amountMinor: left, credited: invoice.total });
    const notes = (await list(owner.auth, '?kind=credit_note')).items;
    expect(notes).toHaveLength(3);
    expect(notes.reduce((sum, note) => sum + note.total, 0)).toBe(-invoice.total);
    expect(notes.reduce((sum, note) => sum + note.vat_amount, 0)).toBe(-invoice.vat_amount);
    expect(notes.reduce((sum, note) => sum + note.net, 0)).toBe(-invoice.net);
    for (const note of notes) expect(note.credited_invoice?.number).toBe(invoice.number);
    const credited = (await list(owner.auth, '?kind=invoice')).items[0]!;
    expect(credited.credit_notes.map((note) => note.number)).toEqual([a, b, rest.creditNote!.number]);
    // Nothing is left: even one cent is refused.
    await expect(refund({ sessionId: session.id, amountMinor: 1 })).rejects.toThrow(
      'has 0.00 EUR left to refund',
    );
    expect((await refund({ sessionId: session.id })).kind).toBe('already_refunded');
  });

  it('a repeated or concurrent call issues one credit note; a refused provider call is finished by the next', async () => {
    const { owner, session } = await paidCustomer();
    calls.length = 0;
    const both = await Promise.all([
      refund({ sessionId: session.id, amountMinor: 200 }),
      refund({ sessionId: session.id, amountMinor: 200 }),
    ]);
    expect(both.map((outcome) => outcome.kind).sort()).toEqual(['already_refunded', 'refunded']);
    expect(new Set(both.map((outcome) => outcome.creditNote?.number)).size).toBe(1);
    expect((await refund({ sessionId: session.id, amountMinor: 200 })).kind).toBe('already_refunded');
    expect((await list(owner.auth, '?kind=credit_note')).total).toBe(1);
    // Every provider call was the same refund (one key).
    expect(new Set(calls.map((call) => call.idempotencyKey)).size).toBe(1);
    // The same amount again, on purpose: its own key.
    expect((await refund({ sessionId: session.id, amountMinor: 200, key: 'second' })).kind).toBe('refunded');
    expect((await list(owner.auth, '?kind=credit_note')).total).toBe(2);

    // The provider refuses: no note, the refund stays reserved; the same command finishes it once.
    refuseNext = true;
    await expect(refund({ sessionId: session.id, amountMinor: 150 })).rejects.toThrow(
      'run the same command again',
    );
    expect((await list(owner.auth, '?kind=credit_note')).total).toBe(2);
    expect((await refund({ sessionId: session.id, amountMinor: 150 })).kind).toBe('refunded');
    expect((await list(owner.auth, '?kind=credit_note')).total).toBe(3);
    const entries = await createActivityService({
      queries: createActivityQueries(ctx.database.db),
    }).filtered(owner.user.id, { action: 'payment refunded', skip: 0, limit: 10 });
    expect(entries.items).toHaveLength(3);
  });

  it('--end-service cancels the service through the lifecycle, once', async () => {
    const { session, invoice } = await paidCustomer();
    const outcome = await refund({ sessionId: session.id, endService: true, reason: 'not wanted' });
    expect(outcome.service).toMatchObject({
      serviceId: invoice.service_id,
      ended: true,
      status: 'cancelled',
    });
    const service = await createServicesQueries(ctx.database.db).findById(invoice.service_id!);
    expect(service?.status).toBe('cancelled');
    const again = await refund({ sessionId: session.id, endService: true });
    expect(again).toMatchObject({ kind: 'already_refunded', service: { ended: false, status: 'cancelled' } });
  });

  it('a credit note’s preview and PDF say so, in both languages, with its invoice’s number', async () => {
    const { owner, session, invoice } = await paidCustomer();
    const outcome = await refund({ sessionId: session.id, amountMinor: 500 });
    const note = outcome.creditNote!;
    const en = await documentOf(owner.auth, note.id, 'pdf', 'en');
    expect(en).toContain('Credit note');
    expect(en).toContain(note.number);
    // pdftotext reads the facts' labels as one column, then their values.
    expect(en).toContain('Credits invoice');
    expect(en).toContain(invoice.number);
    expect(en).toContain('Refunded to the card on');
    expect(en).toMatch(/Total -€5\.00|Total −€5\.00/);
    const lt = await documentOf(owner.auth, note.id, 'pdf', 'lt');
    expect(lt).toContain('Kreditinė PVM sąskaita faktūra');
    expect(lt).toContain('Koreguojama sąskaita');
    expect(lt).toContain(invoice.number);
    expect(lt).toContain(note.number);
    const preview = await documentOf(owner.auth, note.id, 'preview', 'en');
    expect(preview).toContain(`Credit note ${note.number}`);
    expect(preview).toContain(invoice.number);
    expect(await documentOf(owner.auth, note.id, 'preview', 'lt')).toContain('Grąžinta');
    // The invoice names its credit notes.
    const invoicePdf = await documentOf(owner.auth, invoice.id, 'pdf', 'en');
    expect(invoicePdf).toContain('Credit notes');
    expect(invoicePdf).toContain(note.number);
    expect(await documentOf(owner.auth, invoice.id, 'preview', 'en')).toContain(
      `Credit notes ${note.number}`,
    );
    // Another account sees none of it.
    const other = await signedInUser(ctx);
    expect((await get(other.auth, `/api/v1/billing/invoices/${note.id}/pdf`)).status).toBe(404);
  });

  it('the list filters by kind and status (void included) and refuses unknown values', async () => {
    const { owner, session, invoice } = await paidCustomer();
    await refund({ sessionId: session.id, amountMinor: 100 });
    // No path makes an unpaid invoice yet: one is written as the dunning of issue 38 will.
    const billing = createBillingQueries(ctx.database.db);
    const stored = (await billing.findInvoice(owner.user.id, invoice.id))!;
    const unpaidId = randomUUID();
    await billing.insertInvoice({
      ...stored,
      id: unpaidId,
      number: `TEST-${unpaidId.slice(0, 8)}`,
      sequence: 900_000 + Math.floor(Math.random() * 99_999),
      orderId: randomUUID(),
      status: 'unpaid',
      document: { ...stored.document, id: unpaidId, number: `TEST-${unpaidId.slice(0, 8)}` },
    });
    const numbers = async (query: string) =>
      (await list(owner.auth, query)).items.map((item: InvoiceSummary) => item.kind + ':' + item.status);
    expect((await numbers('?status=unpaid')).length).toBe(1);
    expect(await billing.voidInvoice(owner.user.id, unpaidId)).toMatchObject({ status: 'void' });
    // Once: a void, a paid invoice or another account's is not voided.
    expect(await billing.voidInvoice(owner.user.id, unpaidId)).toBeUndefined();
    expect(await billing.voidInvoice(owner.user.id, invoice.id)).toBeUndefined();
    expect(await billing.voidInvoice(randomUUID(), unpaidId)).toBeUndefined();

    expect(await numbers('?status=void')).toEqual(['invoice:void']);
    expect(await numbers('?status=unpaid')).toEqual([]);
    expect(await numbers('?kind=credit_note')).toEqual(['credit_note:paid']);
    expect((await numbers('?kind=invoice')).sort()).toEqual(['invoice:paid', 'invoice:void']);
    expect(await numbers('?kind=invoice&status=paid')).toEqual(['invoice:paid']);
    expect(await numbers('?kind=&status=')).toHaveLength(3);
    expect(await documentOf(owner.auth, unpaidId, 'pdf', 'en')).toContain(
      'This invoice is void: nothing is due.',
    );
    expect(await documentOf(owner.auth, unpaidId, 'preview', 'lt')).toContain('Anuliuota');
    for (const query of ['?kind=refund', '?status=cancelled']) {
      const answer = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/billing/invoices${query}`,
        headers: owner.auth,
      });
      // The API's answer to a request its schema refuses: 422 with the field's code.
      expect(answer.statusCode, query).toBe(422);
    }
  });

  it('cancelling an order with an unpaid invoice makes that invoice void, in the same transaction', async () => {
    const { owner, invoice } = await paidCustomer();
    const order = await placeOrder(ctx, owner.auth, { ...PLAN, period_id: '3m' });
    // An unpaid invoice for the waiting order, as the dunning of issue 38 will issue one.
    const billing = createBillingQueries(ctx.database.db);
    const stored = (await billing.findInvoice(owner.user.id, invoice.id))!;
    const id = randomUUID();
    const number = `TEST-${id.slice(0, 8)}`;
    await billing.insertInvoice({
      ...stored,
      id,
      number,
      sequence: 900_000 + Math.floor(Math.random() * 99_999),
      orderId: order.id,
      status: 'unpaid',
      document: { ...stored.document, id, number, order_id: order.id },
    });
    const cancelled = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: `/api/v1/orders/${order.id}/cancel`,
      headers: owner.auth,
      payload: {},
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const voided = (await list(owner.auth, '?status=void')).items;
    expect(voided.map((item) => [item.number, item.order_id])).toEqual([[number, order.id]]);
    // The paid invoice of the account is untouched.
    expect((await billing.findInvoice(owner.user.id, invoice.id))?.status).toBe('paid');
  });
});
