// The invoices list is the billing page's call: one statement reads the caller's session and the
// page together (auth.queries.ts createSessionBoundReads), so a revoked session must still be
// refused at its next request, and its compiled serializer must answer what the contract reads.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invoiceListSchema, invoiceSummarySchema, type InvoiceList } from '@debesis/contract';
import { signedInUser, expectEndedSessionsRefused } from '../../test/factories.ts';
import { useTestContext } from '../../test/test-app.ts';
import { buy, PLAN, seedProducts, type Auth } from './billing.test-support.ts';

describe('invoices list', () => {
  let queries: string[] = [];

  const ctx = useTestContext({ onQuery: (text) => queries.push(text) }, seedProducts);

  async function list(auth: Auth, query = ''): Promise<{ body: string; queries: string[] }> {
    queries = [];
    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/v1/billing/invoices${query}`,
      headers: auth,
    });
    expect(response.statusCode, response.body).toBe(200);
    return { body: response.body, queries: [...queries] };
  }

  it('answers in one statement, filtered and paged, what the contract’s zod schema reads back unchanged', async () => {
    const owner = await signedInUser(ctx);
    expect(JSON.parse((await list(owner.auth)).body)).toEqual({
      items: [],
      page: 1,
      per_page: 10,
      total: 0,
      pages: 1,
    });
    await buy(ctx, owner.auth);
    await buy(ctx, owner.auth, { ...PLAN, period_id: '1m' });
    await buy(ctx, owner.auth, { ...PLAN, period_id: '3m' });

    for (const query of [
      '',
      '?per_page=2&page=2',
      '?payment_type=RENEWAL',
      '?start_date=2000-01-01&end_date=2999-01-01',
    ]) {
      const answer = await list(owner.auth, query);
      expect(answer.queries, `${query}: ${answer.queries.join('\n')}`).toHaveLength(1);
      const parsed = JSON.parse(answer.body) as InvoiceList;
      // The compiled serializer checks no values: this is where they are checked, strictly.
      const strict = invoiceListSchema.extend({ items: z.array(invoiceSummarySchema.strict()) }).strict();
      const checked = strict.safeParse(parsed);
      expect(checked.success, checked.error?.message).toBe(true);
      expect(checked.data).toEqual(parsed);
    }
    const page2 = JSON.parse((await list(owner.auth, '?per_page=2&page=2')).body) as InvoiceList;
    expect(page2).toMatchObject({ page: 2, per_page: 2, total: 3, pages: 2 });
    expect(page2.items).toHaveLength(1);
    const all = JSON.parse((await list(owner.auth)).body) as InvoiceList;
    // Newest first: the first purchase is last.
    expect(all.items.map((item) => item.number)).toEqual(
      [...all.items.map((item) => item.number)].sort().reverse(),
    );
    expect((JSON.parse((await list(owner.auth, '?payment_type=RENEWAL')).body) as InvoiceList).total).toBe(0);

    // Another account's invoices are not in anyone else's list.
    const other = await signedInUser(ctx);
    expect((JSON.parse((await list(other.auth)).body) as InvoiceList).total).toBe(0);
  });

  it('refuses at the next request a session signed out or revoked, and an unverified owner', async () => {
    await expectEndedSessionsRefused(ctx, '/api/v1/billing/invoices');
  });
});
