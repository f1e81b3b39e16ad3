import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { BillingInfo, BillingSummary, Invoice, InvoiceList, Order } from '@debesis/contract';
import { formatMoney } from '@debesis/pricing';
import { useTestContext, injectWithCsrf } from '../../test/test-app.ts';
import { signedInUser, expectVatTypoRefused, VAT_NUMBER_TYPO } from '../../test/factories.ts';
import { createCreditsQueries } from '../credits/credits.queries.ts';
import { createBillingQueries } from './billing.queries.ts';
import { services } from '../services/services.table.ts';
import { invoices } from './billing.table.ts';
import {
  buy,
  extendOrder,
  htmlText,
  normaliseSpace,
  openSession,
  pay,
  pdfText,
  placeOrder,
  PLAN,
  seedProducts,
  succeed,
  type Auth,
} from './billing.test-support.ts';

const NUMBER = /^DEB-\d{4}-\d{6}$/;

describe('billing and invoices', () => {
  const ctx = useTestContext({}, seedProducts);

  const get = <T>(auth: Auth, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: auth }).then((response) => ({
      status: response.statusCode,
      body: response.json<T>(),
    }));
  const listOf = async (auth: Auth, query = '') =>
    (await get<InvoiceList>(auth, `/api/v1/billing/invoices${query}`)).body;
  const invoiceFor = async (auth: Auth, orderId: string): Promise<Invoice> => {
    const list = await listOf(auth, '?per_page=100');
    const summary = list.items.find((item) => item.order_id === orderId);
    if (!summary) throw new Error(`no invoice for order ${orderId}`);
    return (await get<Invoice>(auth, `/api/v1/billing/invoices/${summary.id}`)).body;
  };
  const pdfOf = async (auth: Auth, id: string, lang?: 'en' | 'lt') => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${id}/pdf${lang ? `?lang=${lang}` : ''}`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    return response.rawPayload;
  };
  const previewOf = async (auth: Auth, id: string, lang?: 'en' | 'lt') => {
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${id}/preview${lang ? `?lang=${lang}` : ''}`,
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    return htmlText(response.body);
  };
  const putInfo = (auth: Auth, payload: object) =>
    injectWithCsrf(ctx.app, { method: 'PUT', url: '/api/v1/billing/info', headers: auth, payload });

  const ADDRESS = {
    street: 'Gedimino pr. 9',
    city: 'Vilnius',
    state: '',
    postal_code: 'LT-01103',
    country: 'LT',
  };

  it('prints the span a renewal bought: from the end of the paid time, clamped at the month end', async () => {
    const owner = await signedInUser(ctx);
    const first = await buy(ctx, owner.auth, { ...PLAN, period_id: '1m' });
    const serviceId = (await invoiceFor(owner.auth, first.id)).service_id ?? '';
    // The paid time ends on the last day of January: one more month ends on the last day of
    // February, and the invoice says so (it used to print 28 January as the start).
    await ctx.database.db
      .update(services)
      .set({ validUntil: new Date('2027-01-31T09:00:00.000Z') })
      .where(eq(services.id, serviceId));
    const extension = await pay(ctx, owner.auth, (await extendOrder(ctx, owner.auth, serviceId)).id);
    const invoice = await invoiceFor(owner.auth, extension.id);
    expect(invoice).toMatchObject({ type: 'RENEWAL', period_start: '2027-01-31', period_end: '2027-02-28' });
  });

  it('issues a paid invoice for a purchase, with the buyer, lines, VAT and the payment mail with its PDF', async () => {
    const owner = await signedInUser(ctx, { firstName: 'Ona', lastName: 'Žemaitė', address: ADDRESS });
    const order = await buy(ctx, owner.auth);
    const invoice = await invoiceFor(owner.auth, order.id);

    expect(invoice).toMatchObject({
      type: 'PURCHASE',
      status: 'paid',
      order_id: order.id,
      product_name: 'MINI',
      currency: 'EUR',
      vat_rate: 21,
      total: order.amount,
      vat_amount: order.breakdown.vat_amount,
      net: order.breakdown.subtotal,
      reverse_charge: false,
      legal_note_key: null,
      payment_method: 'sandbox',
      buyer: { name: 'Ona Žemaitė', vat_number: null, email: owner.email },
      seller: { name: 'UAB „Debesis“', vat_number: 'LT100000000017' },
    });
    expect(invoice.number).toMatch(NUMBER);
    expect(invoice.service_id).toBeTruthy();
    expect(invoice.buyer.address).toMatchObject({ street: 'Gedimino pr. 9', city: 'Vilnius', country: 'LT' });
    expect(invoice.lines[0]).toMatchObject({ kind: 'base', product_name: 'MINI', months: 12 });
    expect(invoice.net + invoice.vat_amount).toBe(invoice.total);
    expect(invoice.period_start).toBe(invoice.date);

    const mail = ctx.mailbox.to(owner.email).find((message) => message.id === `invoice-${invoice.number}`);
    expect(mail?.subject).toContain(invoice.number);
    expect(mail?.text).toContain(formatMoney(invoice.total, 'en-US'));
    expect(mail?.attachments?.[0]).toMatchObject({
      filename: `${invoice.number}.pdf`,
      contentType: 'application/pdf',
    });
    const attached = Buffer.from(mail?.attachments?.[0]?.contentBase64 ?? '', 'base64');
    expect(pdfText(attached)).toContain(invoice.number);

    const summary = await get<BillingSummary>(owner.auth, '/api/v1/billing/');
    expect(summary.body.invoices).toEqual({ count: 1, total_paid: invoice.total });
  });

  it('a Lithuanian consumer’s PDF and preview carry the number, buyer, 21% VAT lines and total, in both languages', async () => {
    const owner = await signedInUser(ctx, { firstName: 'Jonas', lastName: 'Šiaulys', address: ADDRESS });
    const order = await buy(ctx, owner.auth, { ...PLAN, name: 'Office files' });
    const invoice = await invoiceFor(owner.auth, order.id);
    expect(invoice.service_name).toBe('Office files');

    const english = pdfText(await pdfOf(owner.auth, invoice.id));
    for (const text of [
      invoice.number,
      'Jonas Šiaulys',
      'Gedimino pr. 9',
      'VAT 21%',
      formatMoney(invoice.vat_amount, 'en-US'),
      formatMoney(invoice.net, 'en-US'),
      'Total',
      formatMoney(invoice.total, 'en-US'),
      'New Service',
      'Office files',
    ]) {
      expect(english, text).toContain(text);
    }
    // The workspace by its name, not its id.
    expect(english).not.toContain(invoice.service_id ?? '-');
    const lithuanian = pdfText(await pdfOf(owner.auth, invoice.id, 'lt'));
    const lt = (amount: number) => normaliseSpace(formatMoney(amount, 'lt-LT'));
    for (const text of [
      'PVM sąskaita faktūra',
      invoice.number,
      'Jonas Šiaulys',
      'PVM 21 %',
      lt(invoice.vat_amount),
      'Iš viso',
      lt(invoice.total),
      'Nauja paslauga',
      'Paslauga',
      'Office files',
    ]) {
      expect(lithuanian, text).toContain(text);
    }

    const preview = await previewOf(owner.auth, invoice.id);
    for (const text of [
      invoice.number,
      'Jonas Šiaulys',
      'VAT 21%',
      formatMoney(invoice.vat_amount, 'en-US'),
    ]) {
      expect(preview, text).toContain(text);
    }
    expect(preview).toContain(formatMoney(invoice.total, 'en-US'));
    expect(await previewOf(owner.auth, invoice.id, 'lt')).toContain(lt(invoice.total));
  });

  it('a reverse-charge invoice says so, in both languages, with the seller’s and the buyer’s VAT numbers', async () => {
    const owner = await signedInUser(ctx, {
      accountType: 'business',
      country: 'DE',
      business_details: {
        business_name: 'Beispiel GmbH',
        business_code: 'HRB 12345',
        vat_number: 'DE136695976',
        address: { street: 'Unter den Linden 1', city: 'Berlin', state: '', postal_code: '10117' },
        country: 'DE',
      },
    });
    const order = await buy(ctx, owner.auth);
    expect(order.breakdown.reverse_charge).toBe(true);
    const invoice = await invoiceFor(owner.auth, order.id);
    expect(invoice).toMatchObject({
      reverse_charge: true,
      vat_rate: 0,
      vat_amount: 0,
      legal_note_key: 'reverse_charge',
      buyer: { name: 'Beispiel GmbH', vat_number: 'DE136695976', company_code: 'HRB 12345' },
    });

    const english = pdfText(await pdfOf(owner.auth, invoice.id));
    for (const text of [
      invoice.number,
      'Beispiel GmbH',
      'Reverse charge – VAT to be accounted for by the recipient (Article 196 of Council Directive 2006/112/EC)',
      "Seller's VAT number: LT100000000017",
      "Buyer's VAT number: DE136695976",
      'VAT 0%',
      formatMoney(0, 'en-US'),
      formatMoney(invoice.total, 'en-US'),
    ]) {
      expect(english, text).toContain(text);
    }
    const lithuanian = pdfText(await pdfOf(owner.auth, invoice.id, 'lt'));
    expect(lithuanian).toContain('Atvirkštinis apmokestinimas – PVM apskaito ir sumoka paslaugų gavėjas');
    expect(lithuanian).toContain('Pirkėjo PVM mokėtojo kodas: DE136695976');
    expect(english).toContain('10117 Berlin Germany');
    expect(lithuanian).toContain('Vokietija');

    const preview = await previewOf(owner.auth, invoice.id);
    expect(preview).toContain('Reverse charge – VAT to be accounted for by the recipient');
    expect(preview).toContain("Buyer's VAT number: DE136695976");
    expect(preview).toContain(formatMoney(invoice.total, 'en-US'));
  });

  it('a customer outside the EU gets the outside-scope wording and no VAT', async () => {
    const owner = await signedInUser(ctx, { country: 'US' });
    const order = await buy(ctx, owner.auth);
    const invoice = await invoiceFor(owner.auth, order.id);
    expect(invoice).toMatchObject({ outside_scope: true, vat_amount: 0, legal_note_key: 'outside_scope' });
    expect(pdfText(await pdfOf(owner.auth, invoice.id))).toContain('Outside the scope of EU VAT');
    expect(await previewOf(owner.auth, invoice.id, 'lt')).toContain('ES PVM netaikomas');
  });

  it('numbers 20 payments completing at the same moment without a gap or a duplicate', async () => {
    const owner = await signedInUser(ctx);
    const sessions: string[] = [];
    const orders: Order[] = [];
    for (let index = 0; index < 20; index += 1) {
      const order = await placeOrder(ctx, owner.auth);
      orders.push(order);
      sessions.push(await openSession(ctx, owner.auth, order.id));
    }
    const answers = await Promise.all(sessions.map((sessionId) => succeed(ctx, sessionId)));
    expect(answers.map((answer) => answer.statusCode)).toEqual(sessions.map(() => 200));

    const year = new Date().getUTCFullYear();
    const rows = await ctx.database.db.select().from(invoices);
    const sequences = rows
      .filter((row) => row.year === year || row.year === year + 1)
      .map((row) => row.sequence);
    sequences.sort((a, b) => a - b);
    // Every invoice of the file so far: 1…N, each once.
    expect(sequences).toEqual(sequences.map((_, index) => index + 1));
    const mine = rows.filter((row) => orders.some((order) => order.id === row.orderId));
    expect(mine).toHaveLength(20);
    expect(new Set(mine.map((row) => row.number)).size).toBe(20);
  });

  it('gives a number back when the payment’s transaction rolls back', async () => {
    const owner = await signedInUser(ctx);
    const first = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    await expect(
      ctx.database.db.transaction(async (tx) => {
        await createBillingQueries(tx).nextSequence(Number(first.date.slice(0, 4)));
        throw new Error('payment failed after the number was taken');
      }),
    ).rejects.toThrow('payment failed');
    const second = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    const sequence = (number: string) => Number(number.split('-')[2]);
    expect(sequence(second.number)).toBe(sequence(first.number) + 1);
  });

  it('names the workspace in the list, an invoice issued before names were kept by its name now', async () => {
    const owner = await signedInUser(ctx);
    const named = await invoiceFor(
      owner.auth,
      (await buy(ctx, owner.auth, { ...PLAN, name: 'Team drive' })).id,
    );
    const older = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    // A copy of it as an invoice issued before names were stored reads (issued invoices cannot be
    // changed: the copy is inserted, under a number of its own, for an order of its own; its year is
    // one no other test numbers, so the gap-free numbering test of this file never counts it).
    const db = ctx.database.db;
    const [stored] = await db.select().from(invoices).where(eq(invoices.id, older.id));
    if (!stored) throw new Error('no stored invoice');
    const { service_name: _name, ...document } = stored.document;
    const copyId = randomUUID();
    await db.insert(invoices).values({
      ...stored,
      id: copyId,
      number: `OLD-${copyId.slice(0, 8)}`,
      year: 2000,
      sequence: 1 + Math.floor(Math.random() * 99_000),
      orderId: randomUUID(),
      document: { ...document, id: copyId },
    });
    await db
      .update(services)
      .set({ name: 'Archive' })
      .where(eq(services.id, older.service_id ?? ''));

    const list = await listOf(owner.auth);
    const nameOf = (id: string) => list.items.find((item) => item.id === id)?.service_name;
    expect(nameOf(named.id)).toBe('Team drive');
    // Issued under its name then: it keeps it.
    expect(nameOf(older.id)).toBe(older.service_name);
    expect(nameOf(copyId)).toBe('Archive');
    expect((await get<Invoice>(owner.auth, `/api/v1/billing/invoices/${copyId}`)).body.service_name).toBe(
      'Archive',
    );
  });

  it('lists invoices newest first with filters and pages of 10 by default', async () => {
    const owner = await signedInUser(ctx);
    const first = await buy(ctx, owner.auth);
    const firstPaid = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/orders/${first.id}`,
      headers: owner.auth,
    });
    const serviceId = firstPaid.json<Order>().service_id ?? '';
    await pay(ctx, owner.auth, (await extendOrder(ctx, owner.auth, serviceId)).id);
    for (let index = 0; index < 10; index += 1) await buy(ctx, owner.auth, { ...PLAN, period_id: '1m' });

    const page1 = await listOf(owner.auth);
    expect(page1).toMatchObject({ page: 1, per_page: 10, total: 12, pages: 2 });
    expect(page1.items).toHaveLength(10);
    const page2 = await listOf(owner.auth, '?page=2');
    expect(page2.items).toHaveLength(2);
    expect(page2.items.at(-1)?.order_id).toBe(first.id);
    expect((await listOf(owner.auth, '?page=3')).items).toEqual([]);
    expect((await listOf(owner.auth, '?per_page=5&page=3')).items).toHaveLength(2);

    const renewals = await listOf(owner.auth, '?payment_type=RENEWAL');
    expect(renewals.total).toBe(1);
    expect(renewals.items[0]).toMatchObject({ type: 'RENEWAL', service_id: serviceId });
    const ofService = await listOf(owner.auth, `?service_id=${serviceId}`);
    expect(ofService.items.map((item) => item.type).sort()).toEqual(['PURCHASE', 'RENEWAL']);
    expect((await listOf(owner.auth, '?payment_type=PLAN_CHANGE')).total).toBe(0);

    const today = page1.items[0]?.date ?? '';
    expect((await listOf(owner.auth, `?start_date=${today}&end_date=${today}`)).total).toBe(12);
    expect((await listOf(owner.auth, '?start_date=2999-01-01')).total).toBe(0);
    expect((await listOf(owner.auth, '?end_date=2000-01-01')).total).toBe(0);
    // Empty filters are no filters (spec §5).
    expect((await listOf(owner.auth, '?payment_type=&service_id=&start_date=')).total).toBe(12);

    for (const bad of [
      '?per_page=0',
      '?per_page=1000',
      '?page=0',
      '?start_date=yesterday',
      '?payment_type=gift',
    ]) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/billing/invoices${bad}`,
        headers: owner.auth,
      });
      expect(response.statusCode, bad).toBe(422);
    }
  });

  it('a paid plan change gets a PLAN_CHANGE invoice for the rest of the paid span', async () => {
    const owner = await signedInUser(ctx);
    const bought = await buy(ctx, owner.auth);
    const serviceId = (await get<Order>(owner.auth, `/api/v1/orders/${bought.id}`)).body.service_id ?? '';
    const created = await injectWithCsrf(ctx.app, {
      method: 'POST',
      url: '/api/v1/plan-changes/',
      headers: owner.auth,
      payload: { service_id: serviceId, product_id: 'optimized', disk_space: 500, users_count: 10 },
    });
    expect(created.statusCode).toBe(201);
    const orderId = created.json<{ order_id: string }>().order_id;
    const paid = await pay(ctx, owner.auth, orderId);
    expect(paid.status).toBe('PAID');
    const invoice = await invoiceFor(owner.auth, orderId);
    const purchase = await invoiceFor(owner.auth, bought.id);
    expect(invoice).toMatchObject({
      type: 'PLAN_CHANGE',
      service_id: serviceId,
      product_name: 'OPTIMIZED',
      total: paid.amount,
      period_end: purchase.period_end,
    });
    expect(invoice.lines).toEqual([
      expect.objectContaining({ kind: 'plan_change', amount: invoice.subtotal }),
    ]);
    const text = pdfText(await pdfOf(owner.auth, invoice.id));
    expect(text).toContain('Plan change to OPTIMIZED');
    expect(text).toContain('Plan Change');
    expect((await listOf(owner.auth, '?payment_type=PLAN_CHANGE')).items.map((item) => item.id)).toEqual([
      invoice.id,
    ]);
  });

  it('answers 404 for another account’s invoice, its PDF and its preview', async () => {
    const owner = await signedInUser(ctx);
    const stranger = await signedInUser(ctx);
    const invoice = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    for (const suffix of ['', '/pdf', '/preview']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/v1/billing/invoices/${invoice.id}${suffix}`,
        headers: stranger.auth,
      });
      expect(response.statusCode, suffix).toBe(404);
      expect(response.json()).toMatchObject({ detail: 'not_found' });
    }
    expect((await listOf(stranger.auth)).total).toBe(0);
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${randomUUID()}`,
      headers: owner.auth,
    });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices/${invoice.id}/pdf`,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('billing info: prefilled from the account, saved only when complete (spec §3), snapshotted on invoices', async () => {
    const owner = await signedInUser(ctx, { country: 'LT' });
    const prefilled = (await get<BillingSummary>(owner.auth, '/api/v1/billing/')).body;
    expect(prefilled.billing_info).toMatchObject({ saved: false, complete: false, company_name: null });
    expect(prefilled.completeness.missing).toEqual([
      'billing_address.street',
      'billing_address.city',
      'billing_address.postal_code',
    ]);
    expect(prefilled.credit).toEqual({ balance: 0, currency: 'EUR' });

    const incomplete = await putInfo(owner.auth, {
      billing_address: { street: '', city: 'Kaunas', postal_code: '', country: 'LT' },
    });
    expect(incomplete.statusCode).toBe(422);
    const fields = incomplete.json<{ errors: Array<{ field: string; code: string }> }>().errors;
    expect(fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'billing_address.street', code: 'required' }),
        expect.objectContaining({ field: 'billing_address.postal_code', code: 'required' }),
      ]),
    );

    const companyWithoutVat = await putInfo(owner.auth, {
      company_name: 'UAB Pavyzdys',
      billing_address: ADDRESS,
    });
    expect(companyWithoutVat.statusCode).toBe(422);
    expect(companyWithoutVat.json()).toMatchObject({ errors: [{ field: 'vat_number', code: 'required' }] });

    const badVat = await putInfo(owner.auth, {
      company_name: 'UAB Pavyzdys',
      vat_number: 'LT123',
      billing_address: ADDRESS,
    });
    expect(badVat.statusCode).toBe(422);
    expect(badVat.json()).toMatchObject({ errors: [{ field: 'vat_number', code: 'invalid_vat_number' }] });
    // The right shape with a wrong check digit: a typo, named as such, in the reader's language.
    const badChecksum = await injectWithCsrf(ctx.app, {
      method: 'PUT',
      url: '/api/v1/billing/info',
      headers: { ...owner.auth, 'accept-language': 'lt' },
      payload: { company_name: 'UAB Pavyzdys', vat_number: VAT_NUMBER_TYPO, billing_address: ADDRESS },
    });
    expectVatTypoRefused(badChecksum, 'vat_number');
    const badCountry = await putInfo(owner.auth, { billing_address: { ...ADDRESS, country: 'Lietuva' } });
    expect(badCountry.statusCode).toBe(422);
    expect(badCountry.json()).toMatchObject({
      errors: [{ field: 'billing_address.country', code: 'invalid_country' }],
    });

    const personal = await putInfo(owner.auth, { billing_address: ADDRESS });
    expect(personal.statusCode).toBe(200);
    expect(personal.json<BillingInfo>()).toMatchObject({
      complete: true,
      missing: [],
      saved: true,
      company_name: null,
    });

    const company = await putInfo(owner.auth, {
      company_name: 'UAB Pavyzdys',
      vat_number: 'lt 100001919017',
      billing_address: { ...ADDRESS, street: 'Laisvės al. 1', city: 'Kaunas' },
    });
    expect(company.statusCode).toBe(200);
    expect(company.json<BillingInfo>()).toMatchObject({ complete: true, vat_number: 'LT100001919017' });

    const invoice = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    expect(invoice.buyer).toMatchObject({ name: 'UAB Pavyzdys', vat_number: 'LT100001919017' });
    expect(invoice.buyer.address.street).toBe('Laisvės al. 1');

    // A later change does not touch what was issued.
    expect((await putInfo(owner.auth, { billing_address: ADDRESS })).statusCode).toBe(200);
    const again = (await get<Invoice>(owner.auth, `/api/v1/billing/invoices/${invoice.id}`)).body;
    expect(again.buyer).toEqual(invoice.buyer);
    expect(pdfText(await pdfOf(owner.auth, invoice.id))).toContain('UAB Pavyzdys');
  });

  it('an order paid with account credit gets its invoice too, showing the credit', async () => {
    const owner = await signedInUser(ctx);
    await createCreditsQueries(ctx.database.db).grant({
      accountId: owner.user.id,
      amountMinor: 1_000_000,
      serviceId: randomUUID(),
      planChangeId: randomUUID(),
      at: new Date(),
    });
    const order = await placeOrder(ctx, owner.auth);
    expect(order.amount).toBe(0);
    await openSession(ctx, owner.auth, order.id);
    const invoice = await invoiceFor(owner.auth, order.id);
    expect(invoice).toMatchObject({ total: 0, vat_amount: 0, net: 0, payment_method: 'credit' });
    expect(invoice.credit_applied).toBe(order.breakdown.subtotal);
    const text = pdfText(await pdfOf(owner.auth, invoice.id));
    expect(text).toContain('Account credit applied');
    expect(text).toContain('Paid with account credit');
  });

  it('never changes an issued invoice: only its status may move, and it is never deleted', async () => {
    const owner = await signedInUser(ctx);
    const invoice = await invoiceFor(owner.auth, (await buy(ctx, owner.auth)).id);
    const db = ctx.database.db;
    await expect(
      db.update(invoices).set({ totalMinor: 1 }).where(eq(invoices.id, invoice.id)),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`update invoices set document = document || '{"total": 1}' where id = ${invoice.id}`),
    ).rejects.toThrow();
    await expect(db.delete(invoices).where(eq(invoices.id, invoice.id))).rejects.toThrow();
    await db.update(invoices).set({ status: 'void' }).where(eq(invoices.id, invoice.id));
    const voided = (await get<Invoice>(owner.auth, `/api/v1/billing/invoices/${invoice.id}`)).body;
    expect({ ...voided, status: 'paid' }).toEqual(invoice);
    expect(voided.status).toBe('void');
  });
});
